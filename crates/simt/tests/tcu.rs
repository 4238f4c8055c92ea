//! Vortex's tensor core unit in the functional model: kernels written with weft's assembler
//! (`wmma`, `wmma.sp`, `wgmma`, `tcu.ld`) run in the Vortex profile at several warp widths.
//! Each kernel loads all 32 float registers of every lane from memory, runs one tensor-core
//! instruction and stores them back; the results are checked against host references — a
//! plain count (all-ones operands: D = C + K, independent of any layout) — and against
//! `weft_sem::tcu` applied to the same register state (the functional model adds only the
//! plumbing: registers, active lanes, shared memory, the metadata store).
#![allow(clippy::needless_range_loop)] // registers × lanes read best as indices

use weft_sem::tcu::{self, Geometry, Kind, WgFlags};
use weft_simt::load::program_from_elf;
use weft_simt::{Config, Machine, Profile, RunEnd};

/// Shared memory size the kernels copy into (bytes).
const SMEM: usize = 4096;

struct Kernel {
    nt: usize,
    /// f registers: regs[r][lane].
    regs: Vec<Vec<u32>>,
    /// The instruction(s) under test.
    op: String,
    /// Words for `tcu.ld` (two slots of `nt` words), if any.
    meta: Option<Vec<u32>>,
    /// Shared-memory image copied to `local_mem_base` first, and the a0/a1 descriptors.
    smem: Option<(Vec<u32>, u32, u32)>,
}

fn source(k: &Kernel) -> String {
    let nt = k.nt;
    let dir = format!("{}/../../tests/vortex", env!("CARGO_MANIFEST_DIR"));
    let mut s = std::fs::read_to_string(format!("{dir}/crt0.s")).expect("crt0.s");
    s += "\n    .text\n    .globl main\nmain:\n    li t0, -1\n    tmc t0\n";
    s += "    csrr t1, thread_id\n    slli t1, t1, 2\n";
    if let Some((img, a, b)) = &k.smem {
        // Every lane copies words lane, lane + nt, … of the image to shared memory.
        s += &format!(
            "    la t2, smem_img\n    add t2, t2, t1\n    csrr t3, local_mem_base\n    add t3, t3, t1\n    li t4, {}\n1:\n    lw t5, 0(t2)\n    sw t5, 0(t3)\n    addi t2, t2, {}\n    addi t3, t3, {}\n    addi t4, t4, -1\n    bnez t4, 1b\n    li a0, {a}\n    li a1, {b}\n",
            img.len() / nt,
            4 * nt,
            4 * nt
        );
    }
    if k.meta.is_some() {
        s += &format!("    la a2, meta\n    tcu.ld 0, a2, fp16\n    addi a2, a2, {}\n    tcu.ld 1, a2, fp16\n", 4 * nt);
    }
    s += "    la t2, fin\n    add t2, t2, t1\n";
    for r in 0..32 {
        s += &format!("    flw f{r}, 0(t2)\n    addi t2, t2, {}\n", 4 * nt);
    }
    s += &format!("    {}\n", k.op);
    s += "    la t2, fout\n    add t2, t2, t1\n";
    for r in 0..32 {
        s += &format!("    fsw f{r}, 0(t2)\n    addi t2, t2, {}\n", 4 * nt);
    }
    s += "    li t0, 1\n    tmc t0\n    li a0, 0\n    ret\n    .data\n    .align 2\nfin:\n";
    for r in 0..32 {
        for l in 0..nt {
            s += &format!("    .word {:#x}\n", k.regs[r][l]);
        }
    }
    s += &format!("fout:\n    .space {}\n", 32 * nt * 4);
    if let Some(m) = &k.meta {
        s += "meta:\n";
        for w in m {
            s += &format!("    .word {w:#x}\n");
        }
    }
    if let Some((img, _, _)) = &k.smem {
        assert!(img.len() * 4 <= SMEM && img.len() % nt == 0);
        s += "smem_img:\n";
        for w in img {
            s += &format!("    .word {w:#x}\n");
        }
    }
    s
}

/// Run the kernel; the f registers after the instruction, or how the run ended.
fn run(k: &Kernel, profile: Profile) -> Result<Vec<Vec<u32>>, RunEnd> {
    let src = source(k);
    let bytes = weft_asm::assemble(&src, "tcu.s").unwrap_or_else(|e| panic!("assembly:\n{e}"));
    let (prog, _) = program_from_elf(&bytes).expect("load");
    let cfg = Config {
        lanes: k.nt,
        warps: 1,
        max_cycles: 1_000_000,
        ..Config::for_profile(profile)
    };
    let mut m = Machine::new(cfg, &prog).expect("machine");
    let end = m.run();
    if end != RunEnd::Exit(0) {
        return Err(end);
    }
    let elf = weft_elf::read_elf(&bytes).unwrap();
    let at = elf.symbol("fout").expect("fout").value;
    Ok((0..32)
        .map(|r| {
            (0..k.nt)
                .map(|l| m.mem.load(0, at + 4 * (r * k.nt + l) as u32, 4).unwrap())
                .collect()
        })
        .collect())
}

fn rnd_regs(nt: usize, seed: u32) -> Vec<Vec<u32>> {
    let mut s = seed | 1;
    (0..32)
        .map(|_| {
            (0..nt)
                .map(|_| {
                    s ^= s << 13;
                    s ^= s >> 17;
                    s ^= s << 5;
                    // Small fp16 pairs / bytes: keep values tame in every format.
                    s & 0x3bff_3bff
                })
                .collect()
        })
        .collect()
}

/// The same registers through `weft_sem::tcu::wmma`.
fn sem_wmma(nt: usize, regs: &[Vec<u32>], kind: Kind, meta: Option<&[u32]>) -> Vec<Vec<u32>> {
    let g = Geometry::new(nt as u32).unwrap();
    let mut f = [[0u32; 32]; 32];
    for r in 0..32 {
        f[r][..nt].copy_from_slice(&regs[r]);
    }
    let all = if nt == 32 { u32::MAX } else { (1 << nt) - 1 };
    tcu::wmma(&g, kind, meta, &mut f, all).unwrap();
    f.iter().map(|r| r[..nt].to_vec()).collect()
}

#[test]
fn wmma_of_ones_adds_k_to_every_accumulator() {
    for nt in [2, 4, 8, 16, 32] {
        let g = Geometry::new(nt as u32).unwrap();
        // fp16 ones in A and B; C = 0.5 everywhere: D = 0.5 + K (K = k_steps · tcK · 2).
        let mut regs = vec![vec![0x3c00_3c00u32; nt]; 32];
        for r in regs.iter_mut().take(8) {
            r.fill(0.5f32.to_bits());
        }
        let k = (g.k_steps * g.tck * 2) as f32;
        let out = run(
            &Kernel {
                nt,
                regs: regs.clone(),
                op: "wmma fp32, fp16".into(),
                meta: None,
                smem: None,
            },
            Profile::Vortex,
        )
        .unwrap();
        for r in 0..8 {
            assert!(
                out[r].iter().all(|&v| v == (0.5 + k).to_bits()),
                "nt {nt} f{r}: {:x?}",
                out[r]
            );
        }
        // Registers the instruction does not write are untouched.
        for r in 8..32 {
            assert_eq!(out[r], regs[r], "nt {nt} f{r}");
        }
        // i8 ones into i32: D = C + 4 · (k_steps · tcK).
        let mut regs = vec![vec![0x0101_0101u32; nt]; 32];
        for r in regs.iter_mut().take(8) {
            r.fill(-7i32 as u32);
        }
        let out = run(
            &Kernel {
                nt,
                regs,
                op: "wmma i32, i8".into(),
                meta: None,
                smem: None,
            },
            Profile::Vortex,
        )
        .unwrap();
        let want = -7 + 4 * (g.k_steps * g.tck) as i32;
        assert!(
            out[..8].iter().flatten().all(|&v| v as i32 == want),
            "nt {nt}"
        );
    }
}

#[test]
fn wmma_in_the_machine_equals_the_semantics() {
    for nt in [4, 8, 32] {
        for (i, (op, s, d)) in [
            ("wmma fp32, fp16", 1u8, 0u8),
            ("wmma bf16, bf16", 2, 2),
            ("wmma i32, u8", 10, 8),
            ("wmma fp32, fp8", 3, 0),
        ]
        .into_iter()
        .enumerate()
        {
            let regs = rnd_regs(nt, 0x5eed ^ (nt as u32) << 4 ^ i as u32);
            let out = run(
                &Kernel {
                    nt,
                    regs: regs.clone(),
                    op: op.into(),
                    meta: None,
                    smem: None,
                },
                Profile::Vortex,
            )
            .unwrap();
            assert_eq!(
                out,
                sem_wmma(nt, &regs, Kind::new(s, d).unwrap(), None),
                "nt {nt} {op}"
            );
        }
    }
}

#[test]
fn tcu_ld_then_wmma_sp_uses_the_loaded_metadata() {
    for nt in [4, 8, 32] {
        let g = Geometry::new(nt as u32).unwrap();
        let regs = rnd_regs(nt, 0xabc ^ nt as u32);
        // fp16 2:4 metadata: within each 4-bit group pick two elements (0b0101 / 0b1010 …).
        let words: Vec<u32> = (0..2 * nt as u32)
            .map(|i| [0x5a5a_5a5a, 0x6969_6969, 0x3c3c_c3c3][i as usize % 3])
            .collect();
        let mut meta = vec![0u32; (g.meta_banks() * g.meta_cols()) as usize];
        for slot in 0..2 {
            for (t, cell) in tcu::meta_load_cells(&g, slot) {
                meta[cell] = words[(slot * nt as u32 + t) as usize];
            }
        }
        let k = Kernel {
            nt,
            regs: regs.clone(),
            op: "wmma.sp fp32, fp16".into(),
            meta: Some(words),
            smem: None,
        };
        let out = run(&k, Profile::Vortex).unwrap();
        assert_eq!(
            out,
            sem_wmma(nt, &regs, Kind::new(1, 0).unwrap(), Some(&meta)),
            "nt {nt}"
        );
    }
}

#[test]
fn wgmma_reads_its_operands_from_shared_memory() {
    for nt in [4, 8, 32] {
        let g = Geometry::new(nt as u32).unwrap();
        // i8 ones everywhere in shared memory (A at 0, B at 0x400, block-major: stride 0);
        // C = 3: D = 3 + K with K = 2 · tcK · 4.
        let img = vec![0x0101_0101u32; 512];
        let mut regs = vec![vec![0u32; nt]; 32];
        for r in regs.iter_mut().take(16) {
            r.fill(3);
        }
        let op = "wgmma i32, i8, 0xa"; // 16 C registers, A from shared memory
        let k = Kernel {
            nt,
            regs: regs.clone(),
            op: op.into(),
            meta: None,
            smem: Some((img, 0, 0x400)),
        };
        let out = run(&k, Profile::Vortex).unwrap();
        let want = 3 + 2 * g.tck * 4;
        assert!(
            out[..16].iter().flatten().all(|&v| v == want),
            "nt {nt}: {:?}",
            out[0]
        );
        assert_eq!(out[16..], regs[16..], "nt {nt}");
        // Against the semantics on a random image, row-major A (stride 64 bytes) and K-major B.
        let img: Vec<u32> = (0..512u32)
            .map(|i| (i.wrapping_mul(0x9e37_79b9) >> 3) & 0x3bff_3bff)
            .collect();
        let regs = rnd_regs(nt, 77 ^ nt as u32);
        let (a, b) = (64 << 16, 64 << 16 | 0x800);
        let k = Kernel {
            nt,
            regs: regs.clone(),
            op: "wgmma fp32, fp16, 2".into(),
            meta: None,
            smem: Some((img.clone(), a, b)),
        };
        let out = run(&k, Profile::Vortex).unwrap();
        let mut f = [[0u32; 32]; 32];
        for r in 0..32 {
            f[r][..nt].copy_from_slice(&regs[r]);
        }
        let base = Config::for_profile(Profile::Vortex).local_mem_base;
        let mut load = |addr: u32, n: u32| -> Result<u32, ()> {
            let at = (addr - base) as usize;
            let word = |i: usize| img.get(i / 4).map_or(0, |w| (w >> (8 * (i % 4))) & 0xff);
            Ok((0..n as usize).fold(0, |v, i| v | word(at + i) << (8 * i)))
        };
        let all = if nt == 32 { u32::MAX } else { (1 << nt) - 1 };
        tcu::wgmma(
            &g,
            Kind::new(1, 0).unwrap(),
            WgFlags::new(2),
            (0, b, base),
            None,
            &mut f,
            all,
            &mut load,
        )
        .unwrap();
        let want: Vec<Vec<u32>> = f.iter().map(|r| r[..nt].to_vec()).collect();
        assert_eq!(out, want, "nt {nt}");
    }
}

#[test]
fn the_tensor_core_is_illegal_outside_the_vortex_profile_and_for_bad_formats() {
    let regs = vec![vec![0u32; 4]; 32];
    let k = |op: &str| Kernel {
        nt: 4,
        regs: regs.clone(),
        op: op.into(),
        meta: None,
        smem: None,
    };
    let fault = |end: RunEnd| match end {
        RunEnd::Fault(f) => format!("{:?} {}", f.code, f.detail),
        other => format!("{other:?}"),
    };
    let e = fault(run(&k("wmma fp32, fp16"), Profile::Weft).unwrap_err());
    assert!(
        e.contains("IllegalInstruction") && e.contains("only in the Vortex profile"),
        "{e}"
    );
    let e = fault(run(&k("wmma fp32, fp32"), Profile::Vortex).unwrap_err());
    assert!(
        e.contains("IllegalInstruction") && e.contains("no 0 -> 0 multiply"),
        "{e}"
    );
    let e = fault(run(&k("wgmma i32, i4, 0"), Profile::Vortex).unwrap_err());
    assert!(e.contains("4-bit"), "{e}");
}

#[test]
fn the_wmma_example_checks_itself() {
    let path = format!(
        "{}/../../examples/vortex/wmma.s",
        env!("CARGO_MANIFEST_DIR")
    );
    let src = std::fs::read_to_string(path).unwrap();
    let bytes = weft_asm::assemble(&src, "wmma.s").unwrap_or_else(|e| panic!("{e}"));
    let (prog, _) = program_from_elf(&bytes).expect("load");
    let mut m = Machine::new(Config::for_profile(Profile::Vortex), &prog).expect("machine");
    assert_eq!(m.run(), RunEnd::Exit(0));
    assert_eq!(
        String::from_utf8_lossy(m.console()),
        "#0: wmma i32, i8: D = 21 in all 8 registers of every lane\n"
    );
}

#[test]
fn the_assembler_and_the_semantics_agree_on_the_formats() {
    use weft_isa::tcu::{Format, FORMATS};
    for f in FORMATS {
        let id = f as u8;
        match f {
            Format::Fp32 | Format::I32 => assert_eq!(tcu::input_bits(id), None, "{f:?}"),
            _ => assert_eq!(tcu::input_bits(id), Some(f.bits()), "{f:?}"),
        }
    }
    let ids = [
        tcu::FP32,
        tcu::FP16,
        tcu::BF16,
        tcu::FP8,
        tcu::BF8,
        tcu::TF32,
        tcu::I32,
        tcu::I8,
        tcu::U8,
        tcu::I4,
        tcu::U4,
    ];
    assert_eq!(ids.to_vec(), FORMATS.map(|f| f as u8).to_vec());
}

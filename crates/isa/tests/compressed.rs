//! The compressed table, exhaustively: every one of the 49,152 halfwords with bits 1:0 ≠ 0b11
//! either decodes (to exactly one row, re-encoding to itself, with a 32-bit expansion that
//! round-trips through the main table) or is rejected; the reserved encodings the RISC-V
//! specification names are rejected; and the accept/reject set and every operand agree with
//! GNU binutils' disassembler (riscv64-unknown-elf-objdump, an independent decoder), except
//! for the encodings `gnu_lax` lists, where objdump accepts what the specification reserves;
//! and with LLVM 14's disassembler (llvm-objdump-14, a second independent decoder) except for
//! the encodings `llvm_lax` lists. Without binutils the GNU comparison falls back to a
//! committed FNV-1a digest of the GNU listing (`ORACLE_DIGEST`), so the test still checks
//! against GNU's answer.

use weft_isa::{COp, Inst, Op, CTABLE};

fn halfwords() -> impl Iterator<Item = u16> {
    (0..=u16::MAX).filter(|h| h & 3 != 3)
}

#[test]
fn no_halfword_matches_two_rows_and_every_row_matches_one() {
    let mut used = vec![0u32; CTABLE.len()];
    for h in halfwords() {
        let rows: Vec<_> = CTABLE.iter().filter(|e| e.accepts(h)).collect();
        assert!(rows.len() <= 1, "{h:#06x} matches {rows:?}");
        if let Some(e) = rows.first() {
            used[e.cop as usize] += 1;
        }
    }
    for (e, n) in CTABLE.iter().zip(&used) {
        assert!(*n > 0, "{} matches no halfword", e.name);
        assert_eq!(e.cop.entry().name, e.name, "{} is out of order", e.name);
        assert_eq!(COp::from_name(e.name), Some(e.cop));
        assert_eq!(e.matches & !e.mask, 0, "{}: bits outside its mask", e.name);
    }
}

#[test]
fn every_halfword_decodes_and_reencodes_or_is_rejected() {
    let mut accepted = 0;
    for h in halfwords() {
        let Ok(i) = Inst::decode(h as u32 | 0xdead_0000) else {
            continue;
        };
        accepted += 1;
        assert_eq!(i.len(), 2);
        assert_eq!(Inst::len_of(h), 2);
        let c = i.compressed.expect("a 16-bit instruction knows its form");
        assert_eq!(i.op, c.entry().op, "{h:#06x}");
        assert_eq!(i.encode(), Ok(h as u32), "{h:#06x} {i}");
        assert_eq!(i.encode_bytes().unwrap(), h.to_le_bytes());
        // The expansion is an ordinary instruction of the main table.
        let mut x = i;
        x.compressed = None;
        let w = x
            .encode()
            .unwrap_or_else(|e| panic!("{h:#06x} {i}: expansion: {e}"));
        assert_eq!(Inst::decode(w), Ok(x), "{h:#06x}: expansion {w:#010x}");
        // Text: the same instruction when completed from the operands its syntax names.
        let mut y = Inst::new(Op::Addi);
        (y.rd, y.rs1, y.rs2, y.imm) = (i.rd, i.rs1, i.rs2, i.imm);
        let args = c.entry().args;
        if !args.contains('d') && !args.contains('D') {
            y.rd = 0;
        }
        if !args.contains('s') && !args.contains('S') {
            y.rs1 = 0;
        }
        if !args.contains('t') && !args.contains('T') {
            y.rs2 = 0;
        }
        c.entry().complete(&mut y);
        assert_eq!(y, i, "{h:#06x}: completing from the syntax's operands");
    }
    // Counted by hand from the specification's tables: quadrant 0 = 2040 c.addi4spn + 4 ×
    // 2048 loads/stores; quadrant 1 = 6 × 2048 (c.nop/c.addi, c.jal, c.li, c.j, c.beqz,
    // c.bnez) + 63 c.addi16sp + 31 × 63 c.lui + 2 × 256 shifts + 512 c.andi + 256 CA;
    // quadrant 2 = 1024 c.slli + 1984 c.lwsp + 2048 c.flwsp + 2047 (c.jr 31, c.mv 992,
    // c.ebreak 1, c.jalr 31, c.add 992) + 2 × 2048 stores.
    assert_eq!(accepted, 10_232 + 15_584 + 11_199);
}

#[test]
fn every_expansion_compresses_back_to_an_equivalent_form() {
    use weft_isa::compressed::compress;
    for h in halfwords() {
        let Ok(i) = Inst::decode(h as u32) else {
            continue;
        };
        let mut x = i;
        x.compressed = None;
        let c = compress(&x).unwrap_or_else(|| panic!("{h:#06x} {i}: no compressed form"));
        let mut back = c;
        back.compressed = None;
        assert_eq!(back, x, "{h:#06x}: {i} compresses to {c}");
    }
    // add a0, a0, a1 → c.add; and instructions no compressed form holds.
    let add = compress(&Inst::decode(0x00b50533).unwrap());
    assert_eq!(add.map(|c| c.to_string()), Some("c.add a0, a1".into()));
    for w in [
        0x00c58533u32, // add a0, a1, a2: three different registers
        0x02050513,    // addi a0, a0, 32: the immediate needs 7 bits
        0x0005a503,    // lw a0, 0(a1)... a0 and a1 are x8-x15: c.lw
    ] {
        let i = Inst::decode(w).unwrap();
        let c = compress(&i);
        if w == 0x0005a503 {
            assert_eq!(c.map(|c| c.to_string()), Some("c.lw a0, 0(a1)".into()));
        } else {
            assert_eq!(c, None, "{i}");
        }
    }
}

#[test]
fn reserved_and_foreign_encodings_are_rejected() {
    for (h, why) in [
        (0x0000, "all-zero halfword (defined illegal)"),
        (0x0004, "c.addi4spn with nzuimm = 0"),
        (0x001c, "c.addi4spn with nzuimm = 0, rd' = a5"),
        (0x2000, "c.fld (RV32DC)"),
        (0x8000, "quadrant 0, funct3 100 (reserved)"),
        (0xa000, "c.fsd (RV32DC)"),
        (0x6101, "c.addi16sp with nzimm = 0"),
        (0x6081, "c.lui ra, 0 (nzimm = 0)"),
        (0x6001, "c.lui zero, 0 (nzimm = 0)"),
        (0x9001, "c.srli with shamt[5] = 1 (NSE on RV32)"),
        (0x9401, "c.srai with shamt[5] = 1"),
        (0x1002, "c.slli zero with shamt[5] = 1"),
        (0x1086, "c.slli ra, 33"),
        (0x9c01, "c.subw (RV64)"),
        (0x9c21, "c.addw (RV64)"),
        (0x9c41, "reserved CA"),
        (0x9c61, "reserved CA"),
        (0x2002, "c.fldsp (RV32DC)"),
        (0x4002, "c.lwsp with rd = x0"),
        (0x8002, "c.jr with rs1 = x0"),
        (0xa002, "c.fsdsp (RV32DC)"),
    ] {
        assert!(Inst::decode(h).is_err(), "{h:#06x}: {why}");
    }
    // And the instructions the same quadrants do hold.
    for (h, text) in [
        (0x0001, "c.nop"),
        (0x9002, "c.ebreak"),
        (0x0040, "c.addi4spn s0, sp, 4"),
        (0x8082, "c.jr ra"),
        (0x9082, "c.jalr ra"),
        (0x852e, "c.mv a0, a1"),
        (0x952e, "c.add a0, a1"),
        (0x1141, "c.addi sp, -16"),
        (0x7179, "c.addi16sp sp, -48"),
        (0x65c1, "c.lui a1, 0x10"),
        (0x75fd, "c.lui a1, 0xfffff"),
        (0x8d05, "c.sub a0, s1"),
        (0x0506, "c.slli a0, 1"),
        (0x8105, "c.srli a0, 1"),
        (0x4108, "c.lw a0, 0(a0)"),
        (0x4502, "c.lwsp a0, 0(sp)"),
        (0xc02a, "c.swsp a0, 0(sp)"),
        (0xe02a, "c.fswsp fa0, 0(sp)"),
    ] {
        let i = Inst::decode(h).unwrap_or_else(|e| panic!("{h:#06x}: {e}"));
        assert_eq!(i.to_string(), text, "{h:#06x}");
    }
}

/// Encodings GNU objdump 2.40 accepts that the RISC-V specification reserves: shift amounts
/// with bit 5 set (designated for custom extensions on RV32) and `c.addi16sp` with a zero
/// immediate. LLVM 14's disassembler also accepts the shifts (and `c.lui` with a zero
/// immediate, which GNU rejects); QEMU's decoder rejects all of them.
fn gnu_lax(h: u16) -> bool {
    let shift = h & 0xe803 == 0x8001 || h & 0xe003 == 0x0002; // c.srli/c.srai, c.slli
    (shift && h & 0x1000 != 0) || h == 0x6101
}

/// Normalised text of one instruction: mnemonic, then operands with numbers in decimal and
/// branch/jump targets as offsets from the instruction.
fn normalise(pc: u32, mnem: &str, ops: &str) -> String {
    let (mnem, extra) = match mnem {
        "c.slli64" => ("c.slli", ",0"),
        "c.srli64" => ("c.srli", ",0"),
        "c.srai64" => ("c.srai", ",0"),
        m => (m, ""),
    };
    let ops = format!("{ops}{extra}");
    let target = matches!(mnem, "c.j" | "c.jal" | "c.beqz" | "c.bnez");
    let toks: Vec<String> = ops
        .split(',')
        .map(|t| t.trim())
        .filter(|t| !t.is_empty())
        .enumerate()
        .map(|(k, t)| {
            let t = t.split(" <").next().unwrap_or(t);
            let (num, reg) = match t.split_once('(') {
                Some((n, r)) => (n, format!("({r}")),
                None => (t, String::new()),
            };
            let last = k + 1 == ops.split(',').filter(|t| !t.trim().is_empty()).count();
            let parse = |s: &str| -> Option<i64> {
                let (neg, s) = match s.strip_prefix('-') {
                    Some(r) => (true, r),
                    None => (false, s),
                };
                let v = match s.strip_prefix("0x") {
                    Some(x) => i64::from_str_radix(x, 16).ok()?,
                    None if target && last => i64::from_str_radix(s, 16).ok()?,
                    None => s.parse().ok()?,
                };
                Some(if neg { -v } else { v })
            };
            match parse(num) {
                Some(v) if target && last => format!("{}{reg}", v - pc as i64),
                Some(v) => format!("{v}{reg}"),
                None => t.to_string(),
            }
        })
        .collect();
    format!("{mnem} {}", toks.join(","))
}

/// weft's listing: one line per halfword.
fn weft_listing() -> Vec<String> {
    halfwords()
        .enumerate()
        .map(|(k, h)| {
            let pc = 2 * k as u32;
            match Inst::decode(h as u32) {
                Ok(i) if i.compressed == Some(COp::CNop) => format!("{h:04x} c.addi zero,0"),
                Ok(i) => {
                    let t = i.text(Some(pc));
                    let (m, ops) = t.split_once(' ').unwrap_or((&t, ""));
                    format!("{h:04x} {}", normalise(pc, m, ops))
                }
                Err(_) => format!("{h:04x} -"),
            }
        })
        .collect()
}

/// GNU objdump's listing of every halfword, normalised; `None` without binutils.
fn gnu_listing() -> Option<Vec<String>> {
    let dir = std::env::temp_dir().join(format!("weft-rvc-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let mut src = String::from(".option rvc\n.text\n_start:\n");
    for h in halfwords() {
        src.push_str(&format!(".insn 0x{h:04x}\n"));
    }
    let (s, o) = (dir.join("c.s"), dir.join("c.o"));
    std::fs::write(&s, src).ok()?;
    let st = std::process::Command::new("riscv64-unknown-elf-as")
        .args(["-march=rv32imafc", "-mabi=ilp32f"])
        .arg(&s)
        .arg("-o")
        .arg(&o)
        .status()
        .ok()?;
    assert!(st.success(), "GNU as failed on {}", s.display());
    let out = std::process::Command::new("riscv64-unknown-elf-objdump")
        .args(["-d", "-M", "no-aliases"])
        .arg(&o)
        .output()
        .ok()?;
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let _ = std::fs::remove_dir_all(&dir);
    let mut lines = Vec::new();
    for l in text.lines() {
        let f: Vec<&str> = l.split('\t').collect();
        if f.len() < 3 || !f[0].trim_end().ends_with(':') {
            continue;
        }
        let pc = u32::from_str_radix(f[0].trim().trim_end_matches(':'), 16).ok()?;
        let h = u16::from_str_radix(f[1].trim(), 16).ok()?;
        let mnem = f[2].trim();
        let ops = f.get(3).copied().unwrap_or("");
        let ops = ops.split(" #").next().unwrap_or(ops);
        let line = if mnem == ".2byte" || mnem == "c.unimp" {
            format!("{h:04x} -")
        } else if gnu_lax(h) {
            format!("{h:04x} - (GNU accepts the reserved {mnem})")
        } else {
            format!("{h:04x} {}", normalise(pc, mnem, ops))
        };
        lines.push(line);
    }
    Some(lines)
}

fn fnv1a(lines: &[String]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for l in lines {
        for b in l.bytes().chain(std::iter::once(b'\n')) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// FNV-1a of the normalised GNU listing (with `gnu_lax` lines as weft's "-"), from binutils
/// 2.40; the test prints the current value when it differs.
const ORACLE_DIGEST: u64 = 78_781_787_249_891_458;

#[test]
fn accept_set_and_operands_agree_with_gnu_objdump() {
    let weft = weft_listing();
    match gnu_listing() {
        Some(gnu) => {
            assert_eq!(gnu.len(), weft.len(), "objdump listed every halfword");
            let mut lax = 0;
            let mut bad = Vec::new();
            for (g, w) in gnu.iter().zip(&weft) {
                if g.contains("(GNU accepts") {
                    lax += 1;
                    assert!(w.ends_with(" -"), "{w}: weft must reject it ({g})");
                } else if g != w {
                    bad.push(format!("gnu: {g}\nweft: {w}"));
                }
            }
            assert!(
                bad.is_empty(),
                "{} differ:\n{}",
                bad.len(),
                bad[..bad.len().min(20)].join("\n")
            );
            // 7 × 32 c.slli + 2 × 8 × 32 c.srli/srai with shamt[5] = 1, and c.addi16sp sp, 0.
            assert_eq!(lax, 32 * 32 + 2 * 8 * 32 + 1);
            let digest: Vec<String> = gnu
                .iter()
                .map(|g| match g.find(" - (") {
                    Some(p) => format!("{} -", &g[..p]),
                    None => g.clone(),
                })
                .collect();
            assert_eq!(
                fnv1a(&digest),
                ORACLE_DIGEST,
                "GNU listing digest changed: update ORACLE_DIGEST"
            );
        }
        None => {
            eprintln!("binutils not installed: checking against the committed digest");
            assert_eq!(fnv1a(&weft), ORACLE_DIGEST);
        }
    }
}

/// Encodings LLVM 14's disassembler accepts that the specification reserves: shift amounts
/// with bit 5 set, and `c.lui` with a zero immediate (rd ≠ x2).
fn llvm_lax(h: u16) -> bool {
    let shift = h & 0xe803 == 0x8001 || h & 0xe003 == 0x0002;
    let lui0 = h & 0xe003 == 0x6001 && (h >> 7) & 31 != 2 && h & 0x107c == 0;
    (shift && h & 0x1000 != 0) || lui0
}

/// llvm-objdump-14's listing of every halfword, normalised; `None` without it.
fn llvm_listing() -> Option<Vec<String>> {
    let dir = std::env::temp_dir().join(format!("weft-rvc-llvm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let bin: Vec<u8> = halfwords().flat_map(|h| h.to_le_bytes()).collect();
    let (b, s, o) = (dir.join("c.bin"), dir.join("c.s"), dir.join("c.o"));
    std::fs::write(&b, bin).ok()?;
    std::fs::write(&s, format!(".text\n_start:\n.incbin \"{}\"\n", b.display())).ok()?;
    let st = std::process::Command::new("llvm-mc-14")
        .args(["-triple=riscv32", "-mattr=+c,+f,+m,+a", "-filetype=obj"])
        .arg(&s)
        .arg("-o")
        .arg(&o)
        .status()
        .ok()?;
    assert!(st.success(), "llvm-mc failed on {}", s.display());
    let out = std::process::Command::new("llvm-objdump-14")
        .args(["-d", "--mattr=+c,+f,+m,+a", "-M", "no-aliases"])
        .arg(&o)
        .output()
        .ok()?;
    assert!(out.status.success());
    let _ = std::fs::remove_dir_all(&dir);
    let mut lines = Vec::new();
    for l in String::from_utf8_lossy(&out.stdout).lines() {
        let f: Vec<&str> = l.split('\t').collect();
        let Some((addr, bytes)) = f[0].split_once(':') else {
            continue;
        };
        let Ok(pc) = u32::from_str_radix(addr.trim(), 16) else {
            continue;
        };
        let b: Vec<u8> = bytes
            .split_whitespace()
            .filter_map(|x| u8::from_str_radix(x, 16).ok())
            .collect();
        if b.len() != 2 || f.len() < 2 {
            continue;
        }
        let h = u16::from_le_bytes([b[0], b[1]]);
        let mnem = f[1].trim();
        let ops = f.get(2).copied().unwrap_or("");
        let line = match mnem {
            "<unknown>" | "c.unimp" => format!("{h:04x} -"),
            _ if llvm_lax(h) => format!("{h:04x} - (LLVM accepts the reserved {mnem})"),
            // LLVM names the C.NOP HINTs `c.nop N`; GNU and weft call them `c.addi zero, N`.
            "c.nop" => {
                let n = if ops.trim().is_empty() {
                    "0"
                } else {
                    ops.trim()
                };
                format!("{h:04x} {}", normalise(pc, "c.addi", &format!("zero,{n}")))
            }
            // For rd = x0 (the HINT) LLVM prints c.lui's field as a signed 6-bit value; the
            // 20-bit field it stands for is the one everyone else prints.
            "c.lui" if ops.contains(", -") => {
                let (rd, v) = ops.split_once(", ").unwrap_or((ops, "0"));
                let v: i32 = v.trim().parse().unwrap_or(0);
                let ops = format!("{rd},{}", (v as u32) & 0xfffff);
                format!("{h:04x} {}", normalise(pc, mnem, &ops))
            }
            _ => format!("{h:04x} {}", normalise(pc, mnem, ops)),
        };
        lines.push(line);
    }
    Some(lines)
}

#[test]
fn accept_set_and_operands_agree_with_llvm_objdump() {
    let Some(llvm) = llvm_listing() else {
        panic!(
            "llvm-mc-14 / llvm-objdump-14 are not installed: apt-get install -y llvm-14 \
             (scripts/test --setup installs it)"
        );
    };
    let weft = weft_listing();
    assert_eq!(llvm.len(), weft.len(), "llvm-objdump listed every halfword");
    let mut lax = 0;
    let mut bad = Vec::new();
    for (l, w) in llvm.iter().zip(&weft) {
        if l.contains("(LLVM accepts") {
            lax += 1;
            assert!(w.ends_with(" -"), "{w}: weft must reject it ({l})");
        } else if l != w {
            bad.push(format!("llvm: {l}\nweft: {w}"));
        }
    }
    assert!(
        bad.is_empty(),
        "{} differ:\n{}",
        bad.len(),
        bad[..bad.len().min(20)].join("\n")
    );
    // 1,536 shifts with shamt[5] = 1 and 31 `c.lui rd, 0`.
    assert_eq!(lax, 32 * 32 + 2 * 8 * 32 + 31);
}

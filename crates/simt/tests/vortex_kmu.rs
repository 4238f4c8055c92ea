//! Hardware CTA launch under the Vortex profile (`vortex/kmu.rs`, docs/vortex.md): the program
//! `tests/vortex/kmu.s` (Vortex's KMU start-up shape) launched through the KMU registers.
//! Expected values are computed here from Vortex v3.0's rules: the grid walk (x fastest),
//! thread ids carried across the block's rows, warps of `lanes` threads with a partial last
//! warp, local memory as an in-order ring of 64-byte-aligned slices, CTA barriers on slot =
//! `cta_id`, and a re-used warp re-entering its dispatch window instead of the start-up code.

use weft_simt::load::program_from_elf;
use weft_simt::vortex::kmu::{dcr, warp_step, KmuDcrs, KmuError};
use weft_simt::{Config, Machine, Profile, RunEnd};

const ARGS: u32 = 0x1_0000;
const OUT: u32 = 0x2_0000;
const HITS: u32 = 0x3_0000;
const INFO: u32 = 0x4_0000;
const INITS: u32 = 0x5_0000;

struct Prog {
    m: Machine,
    elf: weft_elf::ElfImage,
}

fn cfg(cores: usize, warps: usize, lanes: usize) -> Config {
    Config {
        cores,
        warps,
        lanes,
        max_cycles: 5_000_000,
        ..Config::for_profile(Profile::Vortex)
    }
}

fn load(cfg: Config) -> Prog {
    let src = std::fs::read_to_string(format!(
        "{}/../../tests/vortex/kmu.s",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let bytes = weft_asm::assemble(&src, "kmu.s").unwrap_or_else(|e| panic!("{e}"));
    let (prog, _) = program_from_elf(&bytes).unwrap();
    let mut m = Machine::new(cfg, &prog).unwrap();
    let mut args = Vec::new();
    for a in [OUT, HITS, INFO, INITS] {
        args.extend_from_slice(&a.to_le_bytes());
    }
    m.mem.write_bytes(0, ARGS, &args).unwrap();
    Prog {
        m,
        elf: weft_elf::read_elf(&bytes).unwrap(),
    }
}

impl Prog {
    fn sym(&self, s: &str) -> u32 {
        self.elf.symbol(s).unwrap().value
    }
    fn dcrs(&self, kernel: &str, grid: [u32; 3], block: [u32; 3], lmem: u32) -> KmuDcrs {
        let lanes = self.m.cfg.lanes as u32;
        KmuDcrs::launch(
            self.sym("_start"),
            self.sym(kernel),
            ARGS,
            grid,
            block,
            lmem,
            lanes,
        )
    }
    fn words(&self, at: u32, n: usize) -> Vec<u32> {
        (0..n as u32)
            .map(|i| self.m.mem.load(0, at + 4 * i, 4).unwrap())
            .collect()
    }
}

/// Run `ids` over `grid` × `block` and check every thread ran once with its own ids.
fn ids_cover_the_grid(c: Config, grid: [u32; 3], block: [u32; 3]) -> Prog {
    let mut p = load(c);
    let d = p.dcrs("ids", grid, block, 0);
    p.m.launch(&d).unwrap();
    assert_eq!(p.m.run(), RunEnd::Exit(0));
    let lanes = p.m.cfg.lanes as u32;
    let per_block = block[0] * block[1];
    let total = (grid[0] * grid[1] * per_block) as usize;
    let out = p.words(OUT, total + 8);
    let hits = p.words(HITS, total + 8);
    let info = p.words(INFO, total);
    for by in 0..grid[1] {
        for bx in 0..grid[0] {
            for ty in 0..block[1] {
                for tx in 0..block[0] {
                    let gid = ((by * grid[0] + bx) * per_block + ty * block[0] + tx) as usize;
                    assert_eq!(hits[gid], 1, "thread {gid} ran once");
                    assert_eq!(out[gid], tx | ty << 8 | bx << 16 | by << 24, "ids of {gid}");
                    // Row-major thread order: thread t of the block is in warp t / lanes.
                    let t = ty * block[0] + tx;
                    assert_eq!(info[gid] & 0xf, t / lanes, "rank of {gid}");
                }
            }
        }
    }
    assert!(
        hits[total..].iter().all(|&h| h == 0),
        "no thread beyond the grid"
    );
    // Every warp ran the start-up code once; later CTAs on it re-entered the window.
    let mut used: Vec<u32> = info.iter().map(|i| i >> 8).collect();
    used.sort();
    used.dedup();
    assert_eq!(p.words(INITS, 1)[0], used.len() as u32);
    p
}

#[test]
fn one_dimensional_grid_with_a_partial_last_warp() {
    // Blocks of 6 threads on 4-lane warps: two warps, the second with lanes 0-1 only.
    let p = ids_cover_the_grid(cfg(1, 4, 4), [5, 1, 1], [6, 1, 1]);
    // 5 CTAs × 2 warps = 10 warp dispatches on 4 warps: warps are re-used.
    assert!(p.words(INITS, 1)[0] <= 4);
}

#[test]
fn two_dimensional_blocks_carry_thread_ids_across_rows() {
    // 3 × 4 blocks on 4 lanes: warp steps (1, 1, 0); lane l of warp r is thread 4r + l.
    assert_eq!(warp_step(4, [3, 4, 1]), [1, 1, 0]);
    ids_cover_the_grid(cfg(1, 4, 4), [2, 3, 1], [3, 4, 1]);
}

#[test]
fn two_cores_of_eight_warps_of_eight_lanes_share_the_grid() {
    let p = ids_cover_the_grid(cfg(2, 8, 8), [7, 2, 1], [16, 2, 1]);
    let info = p.words(INFO, 7 * 2 * 32);
    let cores: std::collections::BTreeSet<u32> = info.iter().map(|i| i >> 16).collect();
    assert_eq!(cores.len(), 2, "both cores took CTAs");
}

#[test]
fn ctas_get_local_memory_from_an_in_order_ring_and_meet_at_their_barrier() {
    // 5000 bytes per CTA (5056 after 64-byte rounding) in 16 KiB: three fit, the fourth
    // wraps to the start. Blocks of 8 threads are two 4-lane warps.
    let mut p = load(cfg(1, 4, 4));
    let n = 9u32;
    let d = p.dcrs("share", [n, 1, 1], [8, 1, 1], 5000);
    p.m.launch(&d).unwrap();
    assert_eq!(p.m.run(), RunEnd::Exit(0));
    let out = p.words(OUT, (8 * n) as usize);
    for bx in 0..n {
        for tx in 0..8 {
            assert_eq!(
                out[(bx * 8 + tx) as usize],
                bx * 1000 + (tx + 4) % 8,
                "block {bx} thread {tx} read its CTA's value after the barrier"
            );
        }
    }
    // The ring, restated: an allocation that would run past the end starts again at 0.
    let (size, cap) = (5056u32, 16384u32);
    let mut tail = 0;
    let want: Vec<u32> = (0..n)
        .map(|_| {
            if tail + size > cap {
                tail = 0;
            }
            let a = 0xFFFF_0000 + tail;
            tail += size;
            a
        })
        .collect();
    assert_eq!(p.words(INFO, n as usize), want);
}

#[test]
fn the_kmu_registers_read_back_and_bad_launches_are_refused() {
    let mut d = KmuDcrs::default();
    assert_eq!(
        (d.grid_dim, d.block_dim, d.cluster_dim),
        ([1; 3], [1; 3], [1; 3])
    );
    for (k, a) in (dcr::BEGIN..dcr::END).enumerate() {
        d.write(a, 0x100 + k as u32).unwrap();
    }
    for (k, a) in (dcr::BEGIN..dcr::END).enumerate() {
        assert_eq!(d.read(a), Ok(0x100 + k as u32), "DCR {a:#x}");
    }
    assert_eq!(d.startup_addr, 0x101_0000_0100);
    assert_eq!(d.warp_step, [0x10e, 0x10f, 0x110]);
    assert_eq!(d.write(0x024, 1), Err(KmuError::UnknownDcr(0x24)));
    assert_eq!(d.read(0x00f), Err(KmuError::UnknownDcr(0xf)));

    let mut p = load(cfg(1, 4, 4));
    let too_big = p.dcrs("ids", [1, 1, 1], [17, 1, 1], 0);
    assert!(matches!(p.m.launch(&too_big), Err(KmuError::Launch(_))));
    let lmem = p.dcrs("ids", [1, 1, 1], [4, 1, 1], 16385);
    assert!(matches!(p.m.launch(&lmem), Err(KmuError::Launch(_))));
    let ok = p.dcrs("ids", [1, 1, 1], [4, 1, 1], 0);
    let bytes = weft_asm::assemble(".text\n.globl _start\n_start:\n    ebreak\n", "t.s").unwrap();
    let (prog, _) = program_from_elf(&bytes).unwrap();
    let mut weft = Machine::new(Config::default(), &prog).unwrap();
    assert_eq!(weft.launch(&ok), Err(KmuError::NotVortex));
}

#[test]
fn cta_csrs_are_read_only_and_standalone_warp_zero_is_simx_single_cta() {
    // SimX's standalone runner launches one CTA of one thread: warp 0 reads size 1, every
    // dimension 1, cluster size 1; a write to a CTA CSR is an illegal instruction.
    let src = "
    .text
    .globl _start
_start:
    csrr  s0, 0xCD2
    csrr  s1, 0xCD9
    csrr  s2, 0xCDE
    csrr  s3, 0xCE0
    csrr  s4, 0xCD3
    csrw  0xCD0, s0
";
    let bytes = weft_asm::assemble(src, "t.s").unwrap();
    let (prog, _) = program_from_elf(&bytes).unwrap();
    let mut m = Machine::new(cfg(1, 4, 4), &prog).unwrap();
    match m.run() {
        RunEnd::Fault(f) => assert_eq!(f.code, weft_isa::FaultCode::IllegalInstruction),
        e => panic!("expected an illegal instruction, got {e:?}"),
    }
    let x = &m.cores[0].warps[0].x;
    assert_eq!(
        [x[8][0], x[9][0], x[18][0], x[19][0], x[20][0]],
        [1, 1, 1, 1, 0]
    );
}

#[test]
fn the_kmu_walks_the_grid_cluster_by_cluster() {
    // Clusters of 2 × 2 CTAs over a 4 × 2 grid: each cluster's CTAs (x fastest) come before
    // the next cluster's; clusters advance in x, then y. One warp per core: CTAs run in the
    // order the KMU hands them out.
    let mut p = load(cfg(1, 1, 4));
    let (grid, cluster) = ([4u32, 2, 1], [2u32, 2, 1]);
    let mut d = p.dcrs("order", grid, [1, 1, 1], 0);
    d.cluster_dim = cluster;
    p.m.launch(&d).unwrap();
    assert_eq!(p.m.run(), RunEnd::Exit(0));
    let mut want = vec![0u32; 8];
    let mut ticket = 0;
    for oy in (0..grid[1]).step_by(cluster[1] as usize) {
        for ox in (0..grid[0]).step_by(cluster[0] as usize) {
            for iy in 0..cluster[1] {
                for ix in 0..cluster[0] {
                    want[((oy + iy) * grid[0] + ox + ix) as usize] = ticket;
                    ticket += 1;
                }
            }
        }
    }
    assert_eq!(p.words(OUT, 8), want);
    assert_eq!(p.words(INFO, 8), [4; 8], "cluster size");
}

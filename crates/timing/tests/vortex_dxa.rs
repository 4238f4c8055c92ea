//! Vortex's DXA copy engine on the machine (`weft_devices::dxa`, docs/vortex.md "The DXA copy
//! engine"): the program `tests/vortex/dxa.s` launched through the KMU copies tiles into each
//! CTA's local memory with `dxa.issue`, waits at the barrier the copy completes, and writes
//! its local memory out. Each mode — 1-D with an out-of-bounds tail, 2-D, k-major, and
//! multicast to the CTAs of a cluster — is checked against a tile computed here element by
//! element from the descriptor's definition, under the functional and the timing model.

use weft_simt::load::program_from_elf;
use weft_simt::vortex::kmu::KmuDcrs;
use weft_simt::{Config, Machine, Profile, RunEnd};
use weft_timing::{MachineConfig, TimingModel, TimingReport};

const ARGS: u32 = 0x1_0000;
const SRC: u32 = 0x2_0000;
const OUT: u32 = 0x4_0000;
const FILL: u32 = 0xdead_beef;

/// A descriptor as the host programs it (Vortex's `dxa.h`).
#[derive(Clone, Copy)]
struct Desc {
    slot: u32,
    rank: u32,
    elem: u32,
    sizes: [u32; 2],
    stride: u32,
    tiles: [u32; 2],
    kmajor: bool,
    smem_stride: u32,
}

impl Desc {
    fn program(&self, m: &mut Machine) {
        let base = 0x100 + self.slot * 24;
        let meta = self.rank | self.elem.trailing_zeros() << 3 | (self.kmajor as u32) << 5;
        for (off, v) in [
            (0, SRC),
            (1, 0),
            (2, self.sizes[0]),
            (3, self.sizes[1]),
            (7, self.stride),
            (11, meta),
            (17, self.tiles[0] | self.tiles[1] << 16),
            (20, FILL),
            (21, self.smem_stride),
        ] {
            m.dxa_dcr_write(base + off, v).unwrap();
        }
    }

    /// The tile at element `(c0, c1)` as the local memory must hold it, computed one element
    /// at a time: element (i0, i1) from `SRC + (c0 + i0) * elem + (c1 + i1) * stride`, or the
    /// fill word's bytes past the sizes; placed at `i1 * tile0 + i0` (k-major: `i0 * tile1 +
    /// i1`).
    fn reference(&self, src: &[u8], c: [u32; 2]) -> Vec<u8> {
        let e = self.elem as usize;
        let [t0, t1] = [self.tiles[0] as usize, self.tiles[1].max(1) as usize];
        let mut out = vec![0u8; t0 * t1 * e];
        for i1 in 0..t1 {
            for i0 in 0..t0 {
                let (g0, g1) = (c[0] as usize + i0, c[1] as usize + i1);
                let at = if self.kmajor {
                    i0 * t1 + i1
                } else {
                    i1 * t0 + i0
                } * e;
                for b in 0..e {
                    out[at + b] = if g0 < self.sizes[0] as usize && g1 < self.sizes[1] as usize {
                        src[g0 * e + g1 * self.stride as usize + b]
                    } else {
                        FILL.to_le_bytes()[b % 4]
                    };
                }
            }
        }
        out
    }
}

struct Run {
    grid: [u32; 2],
    cluster: u32,
    lmem: u32,
    /// Cores of the machine (4 warps of 4 lanes each).
    cores: usize,
}

/// Launch `tile` over `run` with descriptor `d` on a `cores` × 4 × 4 machine (timing model or
/// not); returns the machine, the source bytes and the timing model's report.
fn launch(d: Desc, run: &Run, timing: bool) -> (Machine, Vec<u8>, Option<TimingReport>) {
    let src = std::fs::read_to_string(format!(
        "{}/../../tests/vortex/dxa.s",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let bytes = weft_asm::assemble(&src, "dxa.s").unwrap_or_else(|e| panic!("{e}"));
    let (prog, _) = program_from_elf(&bytes).unwrap();
    let mut cfg = MachineConfig::for_profile(Profile::Vortex);
    cfg.machine = Config {
        max_cycles: 1_000_000,
        cores: run.cores,
        ..cfg.machine
    };
    let mut m = Machine::new(cfg.machine.clone(), &prog).unwrap();
    // A source whose every byte differs from its neighbours.
    let data: Vec<u8> = (0..4096u32).map(|i| (i * 7 + i / 251) as u8).collect();
    m.mem.write_bytes(0, SRC, &data).unwrap();
    let words = (d.tiles[0] * d.tiles[1].max(1) * d.elem).div_ceil(4);
    let args = [
        OUT,
        d.tiles[0],
        d.tiles[1],
        words,
        run.cluster,
        d.slot,
        run.grid[0],
    ];
    let args: Vec<u8> = args.iter().flat_map(|w| w.to_le_bytes()).collect();
    m.mem.write_bytes(0, ARGS, &args).unwrap();
    d.program(&mut m);
    let sym = |s: &str| prog.symbols.iter().find(|(n, _)| n == s).unwrap().1;
    let dcrs = KmuDcrs {
        cluster_dim: [run.cluster, 1, 1],
        ..KmuDcrs::launch(
            sym("_start"),
            sym("tile"),
            ARGS,
            [run.grid[0], run.grid[1], 1],
            [4, 1, 1],
            run.lmem,
            4,
        )
    };
    m.launch(&dcrs).unwrap();
    let mut report = None;
    let end = if timing {
        let mut t = TimingModel::new(&cfg.machine, &cfg.timing);
        let end = t.run(&mut m, u64::MAX);
        report = Some(t.report(&m));
        m.finish_run(end)
    } else {
        m.run()
    };
    assert!(
        matches!(end, RunEnd::Exit(_) | RunEnd::AllHalted),
        "the launch ended with {end:?}"
    );
    (m, data, report)
}

/// Check what every CTA of `run` wrote out against the reference for its tile origin.
fn check(d: Desc, run: &Run, timing: bool) -> (Machine, Option<TimingReport>) {
    let (m, src, report) = launch(d, run, timing);
    let tile_bytes = (d.tiles[0] * d.tiles[1].max(1) * d.elem) as usize;
    let per_cta = tile_bytes.div_ceil(4) * 4;
    for by in 0..run.grid[1] {
        for bx in 0..run.grid[0] {
            let origin = [bx / run.cluster * d.tiles[0], by * d.tiles[1]];
            let want = d.reference(&src, origin);
            let at = OUT + (by * run.grid[0] + bx) * per_cta as u32;
            let got = m.mem.read_bytes(0, at, tile_bytes).unwrap();
            assert_eq!(
                got, want,
                "CTA ({bx}, {by}) tile at {origin:?} (timing {timing})"
            );
        }
    }
    assert_eq!(m.dxa_pending(), 0);
    (m, report)
}

const ONE_D: Desc = Desc {
    slot: 3,
    rank: 1,
    elem: 4,
    sizes: [40, 1],
    stride: 0,
    tiles: [16, 0],
    kmajor: false,
    smem_stride: 0,
};

#[test]
fn one_dimensional_tiles_with_an_out_of_bounds_tail() {
    // 3 CTAs: elements 0-15, 16-31, and 32-47 of which 40-47 are past the end (the fill).
    let run = Run {
        grid: [3, 1],
        cluster: 1,
        lmem: 64,
        cores: 1,
    };
    for timing in [false, true] {
        let (m, t) = check(ONE_D, &run, timing);
        let s = m.dxa_stats();
        assert_eq!(s.transfers, 3);
        // 64 aligned bytes are one piece per tile; the third tile's is split where the
        // array ends (32 bytes read, 32 filled). SimX's gmem_reads counts every piece.
        assert_eq!(s.lmem_writes, 4);
        assert_eq!((s.gmem_reads, s.gmem_dedup), (4, 0));
        // The run's statistics carry the counters (`--stats-json`) and `--stats` prints them.
        let r = m.report();
        assert_eq!(r.dxa, s);
        let table = r.table();
        let row = |name: &str| {
            table
                .lines()
                .find(|l| l.trim_start().starts_with(name))
                .map(|l| l[l.find(name).unwrap() + name.len()..].trim().to_string())
                .unwrap_or_else(|| panic!("no {name} row in\n{table}"))
        };
        assert_eq!(row("DXA copies"), "3");
        assert_eq!(row("DXA pieces read / repeated"), "4 / 0");
        assert_eq!(row("DXA local-memory writes"), "4");
        assert_eq!(
            row("DXA cycles (copies summed)"),
            s.total_latency.to_string()
        );
        // Under the timing model the three pieces with a source read their 64-byte lines
        // through the memory system (the filled one reads nothing).
        if let Some(t) = t {
            assert_eq!(t.memory.dma_bytes, 3 * 64);
            assert!(t.table().contains("DMA and DXA"), "{}", t.table());
        }
    }
}

#[test]
fn two_dimensional_tiles_across_the_edges() {
    // A 24 × 10 array of words (row stride 96 bytes) in 8 × 4 tiles: 3 × 3 CTAs, the last
    // row of CTAs half past the end.
    let d = Desc {
        slot: 0,
        rank: 2,
        elem: 4,
        sizes: [24, 10],
        stride: 96,
        tiles: [8, 4],
        kmajor: false,
        smem_stride: 0,
    };
    let run = Run {
        grid: [3, 3],
        cluster: 1,
        lmem: 128,
        cores: 1,
    };
    for timing in [false, true] {
        let (m, _) = check(d, &run, timing);
        assert_eq!(m.dxa_stats().transfers, 9);
    }
}

#[test]
fn k_major_tiles_are_transposed() {
    // Half-word elements, a 32 × 8 array in 16 × 8 tiles written column-first
    // (smem[i0 * 8 + i1]): 2 CTAs.
    let d = Desc {
        slot: 15,
        rank: 2,
        elem: 2,
        sizes: [32, 8],
        stride: 64,
        tiles: [16, 8],
        kmajor: true,
        smem_stride: 0,
    };
    let run = Run {
        grid: [2, 1],
        cluster: 1,
        lmem: 256,
        cores: 1,
    };
    for timing in [false, true] {
        let (m, _) = check(d, &run, timing);
        // K-major writes one element per piece.
        assert_eq!(m.dxa_stats().lmem_writes, 2 * 16 * 8);
    }
}

#[test]
fn multicast_fills_every_cta_of_a_cluster() {
    // Clusters of 4 one-warp CTAs (the 4 warps of the core); rank 0 of each issues one copy
    // that lands in all 4 local memories (64 bytes apart) and completes all 4 barriers.
    // 2 clusters: the second copies the next tile.
    let d = Desc {
        smem_stride: 40, // rounded up to 64, the CTAs' local-memory stride
        ..ONE_D
    };
    let run = Run {
        grid: [8, 1],
        cluster: 4,
        lmem: 64,
        cores: 1,
    };
    for timing in [false, true] {
        let (m, _) = check(d, &run, timing);
        let s = m.dxa_stats();
        assert_eq!(s.transfers, 2, "one copy per cluster");
        assert_eq!(s.lmem_writes, 2 * 4, "each tile's piece written to 4 CTAs");
    }
}

#[test]
fn a_cluster_stays_on_one_core() {
    // Two cores: each cluster of 4 must be placed on the core that took its first CTA, or the
    // group barrier and the multicast (one core's local memory and barriers) cannot work.
    let d = Desc {
        smem_stride: 64,
        ..ONE_D
    };
    let run = Run {
        grid: [16, 1],
        cluster: 4,
        lmem: 64,
        cores: 2,
    };
    for timing in [false, true] {
        let (m, _) = check(d, &run, timing);
        assert_eq!(m.dxa_stats().transfers, 4, "one copy per cluster");
    }
}

//! The DXA engine alone: descriptors through DCRs, copies over memory checked element by
//! element against the descriptor's definition, its timing and its completions.

use super::*;
use crate::Invalidate;
use weft_mem::{MemConfig, LOCAL_BASE};

struct NoCode;
impl Invalidate for NoCode {
    fn invalidate(&mut self, _: u32, _: u32) {}
}

const SRC: u32 = 0x8000_1000;

fn memory() -> Memory {
    let mut m = Memory::new(MemConfig {
        cores: 2,
        ..MemConfig::default()
    })
    .unwrap();
    let data: Vec<u8> = (0..8192u32).map(|i| (i * 13 + i / 256) as u8).collect();
    m.write_bytes(0, SRC, &data).unwrap();
    m
}

/// Program slot `slot` through its DCRs.
fn program(x: &mut Dxa, slot: u32, words: &[(u32, u32)]) {
    for &(w, v) in words {
        x.dcr_write(dcr::BEGIN + slot * dcr::STRIDE + w, v).unwrap();
    }
}

/// Run the engine until nothing is pending; returns the cycle it finished and the
/// completions.
fn drain(x: &mut Dxa, mem: &mut Memory, from: u64) -> (u64, Vec<DxaDone>) {
    let active = |_: usize| true;
    let mut t = from;
    let mut done = Vec::new();
    while x.pending() > 0 {
        t = x.next_event();
        assert!(t < from + 100_000, "the engine finishes");
        let mut ctx = Ctx {
            mem,
            code: &mut NoCode,
            active: &active,
        };
        x.advance(t, &mut ctx);
        done.extend(x.take_done());
    }
    (t, done)
}

/// Element (g0, g1) of a 2-D array of `elem`-byte elements at SRC, row stride `stride`.
fn element(mem: &Memory, g0: u32, g1: u32, elem: u32, stride: u32) -> Vec<u8> {
    mem.read_bytes(0, SRC + g0 * elem + g1 * stride, elem as usize)
        .unwrap()
}

fn req(core: usize, slot: u32, smem: u32, coords: [u32; 5], cta_mask: u32) -> DxaRequest {
    DxaRequest {
        core,
        warp: 1,
        slot,
        bar: 2 << 8 | 1,
        smem,
        coords,
        cta_mask,
    }
}

#[test]
fn descriptors_are_programmed_through_vortex_dcrs() {
    let mut x = Dxa::new(DxaConfig::default(), 1);
    program(
        &mut x,
        5,
        &[
            (0, 0x8000_0040),
            (2, 100),
            (3, 7),
            (7, 400),
            (11, 0x2a),
            (17, 0x0008_0010),
        ],
    );
    x.dcr_write(0x100 + 5 * 24 + 21, 65).unwrap();
    let d = *x.descriptor(5).unwrap();
    assert_eq!(
        (d.base, d.sizes[..2].to_vec(), d.strides[0]),
        (0x8000_0040, vec![100, 7], 400)
    );
    assert_eq!((d.rank(), d.elem_bytes(), d.kmajor()), (2, 2, true));
    assert_eq!(d.tile()[..3], [16, 8, 1]);
    assert_eq!(
        d.smem_stride, 128,
        "the multicast stride is rounded to 64 bytes"
    );
    assert_eq!(x.dcr_read(0x100 + 5 * 24 + 17).unwrap(), 0x0008_0010);
    assert!(x.dcr_write(0x280, 0).is_err());
    assert!(x.dcr_write(0xff, 0).is_err());
    assert!(Dxa::is_dcr(0x100) && Dxa::is_dcr(0x27f) && !Dxa::is_dcr(0x280));
}

#[test]
fn a_two_dimensional_tile_lands_in_shared_memory_row_by_row() {
    let (elem, stride) = (4, 160);
    let mut x = Dxa::new(DxaConfig::default(), 2);
    // 40 × 12 words, tile 12 × 5 at (30, 9): columns 40.. and rows 12.. are past the end.
    program(
        &mut x,
        0,
        &[
            (0, SRC),
            (2, 40),
            (3, 12),
            (7, stride),
            (11, 2 | 2 << 3),
            (17, 12 | 5 << 16),
            (20, 0x1122_3344),
        ],
    );
    let mut mem = memory();
    let smem = LOCAL_BASE + 0x100;
    x.issue(10, req(1, 0, smem, [30, 9, 0, 0, 0], 0));
    let (_, done) = drain(&mut x, &mut mem, 10);
    assert_eq!(done.len(), 1);
    assert_eq!(
        (done[0].core, done[0].bars.clone(), done[0].error.clone()),
        (1, vec![2 << 8 | 1], None)
    );
    for i1 in 0..5 {
        for i0 in 0..12 {
            let (g0, g1) = (30 + i0, 9 + i1);
            let want = if g0 < 40 && g1 < 12 {
                element(&mem, g0, g1, elem, stride)
            } else {
                vec![0x44, 0x33, 0x22, 0x11]
            };
            let at = smem + (i1 * 12 + i0) * elem;
            assert_eq!(
                mem.read_bytes(1, at, 4).unwrap(),
                want,
                "element ({i0}, {i1})"
            );
        }
    }
    // Core 0's shared memory is untouched.
    assert!(mem
        .read_bytes(0, smem, 240)
        .unwrap()
        .iter()
        .all(|&b| b == 0));
}

#[test]
fn k_major_transposes_and_one_dimension_copies_a_run() {
    let mut x = Dxa::new(DxaConfig::default(), 1);
    // Bytes, 64 × 4, tile 8 × 4, k-major: smem[i0 * 4 + i1].
    program(
        &mut x,
        1,
        &[
            (0, SRC),
            (2, 64),
            (3, 4),
            (7, 64),
            (11, 2 | 1 << 5),
            (17, 8 | 4 << 16),
        ],
    );
    // 1-D half-words: 100 elements, tile 20 at 90 (10 past the end, fill 0).
    program(&mut x, 2, &[(0, SRC), (2, 100), (11, 1 | 1 << 3), (17, 20)]);
    let mut mem = memory();
    let (a, b) = (LOCAL_BASE, LOCAL_BASE + 0x200);
    x.issue(0, req(0, 1, a, [16, 0, 0, 0, 0], 0));
    x.issue(0, req(0, 2, b, [90, 0, 0, 0, 0], 0));
    let (_, done) = drain(&mut x, &mut mem, 0);
    assert_eq!(done.len(), 2);
    for i1 in 0..4 {
        for i0 in 0..8 {
            let got = mem.read_bytes(0, a + i0 * 4 + i1, 1).unwrap();
            assert_eq!(got, element(&mem, 16 + i0, i1, 1, 64), "({i0}, {i1})");
        }
    }
    for i in 0..20 {
        let want = if 90 + i < 100 {
            element(&mem, 90 + i, 0, 2, 0)
        } else {
            vec![0, 0]
        };
        assert_eq!(
            mem.read_bytes(0, b + 2 * i, 2).unwrap(),
            want,
            "element {i}"
        );
    }
    // K-major: a piece per element; 1-D: split at a line (6 elements), at the array's end (4)
    // and the filled rest (10).
    assert_eq!(x.stats().lmem_writes, 32 + 3);
}

#[test]
fn multicast_writes_each_cta_and_completes_each_barrier() {
    let mut x = Dxa::new(DxaConfig::default(), 1);
    program(
        &mut x,
        4,
        &[(0, SRC), (2, 64), (11, 1 | 2 << 3), (17, 16), (21, 100)],
    );
    let mut mem = memory();
    let smem = LOCAL_BASE + 0x40;
    // CTAs 0, 2 and 3 after the issuer (mask 0b1101).
    x.issue(0, req(0, 4, smem, [8, 0, 0, 0, 0], 0b1101));
    let (_, done) = drain(&mut x, &mut mem, 0);
    let raw = 2 << 8 | 1;
    assert_eq!(done[0].bars, vec![raw, raw + 2, raw + 3]);
    let want = mem.read_bytes(0, SRC + 32, 64).unwrap();
    for k in 0..4 {
        let got = mem.read_bytes(0, smem + k * 128, 64).unwrap();
        if k == 1 {
            assert!(got.iter().all(|&b| b == 0), "CTA 1 is not in the mask");
        } else {
            assert_eq!(got, want, "CTA {k}");
        }
    }
    // Two pieces (the source crosses a 64-byte line), each read once and written three times.
    assert_eq!((x.stats().gmem_reads, x.stats().lmem_writes), (2, 6));
}

/// Descriptor 0: 1-D words, tile 40 from a source 16 bytes into a line.
fn forty_words(x: &mut Dxa) {
    program(
        x,
        0,
        &[(0, SRC + 16), (2, 1000), (11, 1 | 2 << 3), (17, 40)],
    );
}

#[test]
fn time_is_simx_s_worker_reads_in_flight_then_writes_in_order() {
    let cfg = DxaConfig {
        units: 1,
        latency: 30,
        inflight: 8,
        issue_latency: 1,
    };
    let mut x = Dxa::new(cfg, 1);
    // Pieces of 48, 64, 48 bytes.
    forty_words(&mut x);
    let mut mem = memory();
    x.issue(100, req(0, 0, LOCAL_BASE + 16, [0; 5], 0));
    x.issue(100, req(0, 0, LOCAL_BASE + 0x400 + 16, [0; 5], 0));
    assert_eq!(x.pending(), 2);
    assert_eq!(x.next_event(), 101, "the requests reach the engine");
    // The first starts at 101, reads at 102..104, has its data at 132..134 and writes it
    // then, and ends at 135; the second starts then and ends 34 cycles later.
    let (end, _) = drain(&mut x, &mut mem, 100);
    assert_eq!(end, 135 + 34, "the second starts when the first ends");
    assert_eq!(x.stats().total_latency, 2 * 34);
    assert_eq!(x.stats().transfers, 2);
    // Two engines run them side by side.
    let mut y = Dxa::new(DxaConfig { units: 2, ..cfg }, 1);
    forty_words(&mut y);
    y.issue(100, req(0, 0, LOCAL_BASE + 16, [0; 5], 0));
    y.issue(100, req(0, 0, LOCAL_BASE + 0x400 + 16, [0; 5], 0));
    assert_eq!(drain(&mut y, &mut mem, 100).0, 135);
    // Shared memory out of phase with the source splits at both: 48, 16, 48, 16, 32 bytes;
    // 5 reads at 2..6, written at 32..36.
    let mut z = Dxa::new(cfg, 1);
    forty_words(&mut z);
    z.issue(0, req(0, 0, LOCAL_BASE, [0; 5], 0));
    assert_eq!(drain(&mut z, &mut mem, 0).0, 1 + 5 + 30 + 1);
    // Two reads in flight: reads at 2, 3; each write frees a place (32, 33 -> reads there,
    // data at 62, 63; the write at 62 lets the last read go, data at 92); the end at 93.
    // A request reaches the engines 6 cycles after its instruction: all 5 cycles later.
    let mut w = Dxa::new(
        DxaConfig {
            inflight: 2,
            issue_latency: 6,
            ..cfg
        },
        1,
    );
    forty_words(&mut w);
    w.issue(0, req(0, 0, LOCAL_BASE, [0; 5], 0));
    assert_eq!(drain(&mut w, &mut mem, 0).0, 93 + 5);
    assert_eq!(w.stats().total_latency, 93 - 1);
}

#[test]
fn a_paced_engine_reads_when_the_timing_model_says() {
    let mut x = Dxa::new(DxaConfig::default(), 1);
    x.set_paced(true, 0);
    forty_words(&mut x);
    let mut mem = memory();
    x.issue(10, req(0, 0, LOCAL_BASE, [0; 5], 0));
    let active = |_: usize| true;
    let mut lines = Vec::new();
    let mut t = 10;
    let mut done = Vec::new();
    let mut ended = 0;
    while x.pending() > 0 {
        assert!(t < 1000, "the copy ends");
        if x.next_event() <= t {
            let mut ctx = Ctx {
                mem: &mut mem,
                code: &mut NoCode,
                active: &active,
            };
            x.advance(t, &mut ctx);
            done.extend(x.take_done());
            ended = t;
        }
        // Each read takes 10 cycles more than the one before (a memory filling up).
        let next = x.pace(t, &mut |unit, line, at| {
            lines.push((unit, line, at));
            at + 10 * lines.len() as u64
        });
        t = next.min(x.next_event()).max(t + 1);
    }
    // Five pieces (48, 16, 48, 16, 32 bytes) of three lines, each piece reading its line
    // (the second and third piece's line again); the engine starts at 11 and reads from 12,
    // one line a cycle, through its port (engine 0).
    assert_eq!(
        lines,
        vec![
            (0, SRC, 12),
            (0, SRC + 64, 13),
            (0, SRC + 64, 14),
            (0, SRC + 128, 15),
            (0, SRC + 128, 16)
        ]
    );
    // The last read's data at 16 + 50 = 66, written then; the end at 67.
    assert_eq!(ended, 67);
    assert_eq!(done.len(), 1);
    assert_eq!(x.stats().total_latency, 67 - 11);
    assert_eq!((x.stats().gmem_reads, x.stats().gmem_dedup), (5, 2));
}

#[test]
fn an_unprogrammed_slot_or_a_bad_address_completes_with_what_happened() {
    let mut x = Dxa::new(DxaConfig::default(), 1);
    let mut mem = memory();
    // A descriptor whose array is at 0x10, outside memory.
    program(&mut x, 7, &[(0, 0x10), (2, 10)]);
    x.issue(0, req(0, 7, LOCAL_BASE, [0; 5], 0));
    let (_, done) = drain(&mut x, &mut mem, 0);
    let f = done[0].error.clone().unwrap();
    assert_eq!((f.addr, f.write), (0x10, false));
    assert!(
        f.detail.contains("descriptor 7") && f.detail.contains("outside memory"),
        "{}",
        f.detail
    );
    // A destination outside local memory and DRAM: the write fails.
    program(&mut x, 6, &[(0, SRC), (2, 10), (17, 4)]);
    x.issue(20, req(0, 6, 0x20, [0; 5], 0));
    let f = drain(&mut x, &mut mem, 20).1[0].error.clone().unwrap();
    assert_eq!((f.addr, f.write), (0x20, true));
    // A slot past the table writes nothing and completes its barrier at once.
    x.issue(50, req(0, 16, LOCAL_BASE, [0; 5], 0));
    let (end, done) = drain(&mut x, &mut mem, 50);
    assert_eq!(
        (end, done[0].error.clone(), done[0].bars.len()),
        (51, None, 1)
    );
}

#[test]
fn a_three_dimensional_tile_walks_planes_of_rows() {
    // 6 × 5 × 4 words (rows of 24 bytes, planes of 120), tile 4 × 3 × 2 at (4, 3, 3): past
    // the end in every dimension.
    let mut x = Dxa::new(DxaConfig::default(), 1);
    program(
        &mut x,
        9,
        &[
            (0, SRC),
            (2, 6),
            (3, 5),
            (4, 4),
            (7, 24),
            (8, 120),
            (11, 3 | 2 << 3),
            (17, 4 | 3 << 16),
            (18, 2),
            (20, 0x0707_0707),
        ],
    );
    let mut mem = memory();
    let smem = LOCAL_BASE + 0x80;
    x.issue(0, req(0, 9, smem, [4, 3, 3, 0, 0], 0));
    drain(&mut x, &mut mem, 0);
    for i2 in 0..2 {
        for i1 in 0..3 {
            for i0 in 0..4 {
                let (g0, g1, g2) = (4 + i0, 3 + i1, 3 + i2);
                let want = if g0 < 6 && g1 < 5 && g2 < 4 {
                    mem.read_bytes(0, SRC + g0 * 4 + g1 * 24 + g2 * 120, 4)
                        .unwrap()
                } else {
                    vec![7; 4]
                };
                let at = smem + ((i2 * 3 + i1) * 4 + i0) * 4;
                let got = mem.read_bytes(0, at, 4).unwrap();
                assert_eq!(got, want, "element ({i0}, {i1}, {i2})");
            }
        }
    }
}

#[test]
fn a_tile_larger_than_any_local_memory_is_refused() {
    let mut x = Dxa::new(DxaConfig::default(), 1);
    // 4 dimensions of 65535 elements: far beyond 16 MiB.
    program(
        &mut x,
        1,
        &[
            (0, SRC),
            (11, 4 | 3 << 3),
            (17, 0xffff_ffff),
            (18, 0xffff_ffff),
        ],
    );
    let mut mem = memory();
    x.issue(0, req(0, 1, LOCAL_BASE, [0; 5], 0));
    let (end, done) = drain(&mut x, &mut mem, 0);
    let f = done[0].error.clone().unwrap();
    assert!(
        f.write && f.detail.contains("more than any local memory"),
        "{}",
        f.detail
    );
    assert_eq!(end, 1, "refused at once");
}

#[test]
fn a_copy_paced_no_longer_finishes_with_the_engines_own_latency() {
    let mut x = Dxa::new(DxaConfig::default(), 1);
    x.set_paced(true, 0);
    forty_words(&mut x);
    let mut mem = memory();
    x.issue(0, req(0, 0, LOCAL_BASE, [0; 5], 0));
    let active = |_: usize| true;
    let mut ctx = Ctx {
        mem: &mut mem,
        code: &mut NoCode,
        active: &active,
    };
    x.advance(1, &mut ctx);
    // Started at 1; its first two reads at 2 and 3 (each taking 5 cycles), then the timing
    // model lets go at 4: the other three pieces read from 4 at dxa.latency = 20.
    for t in 2..4 {
        x.pace(t, &mut |_, _, at| at + 5);
    }
    assert_eq!(x.next_event(), u64::MAX, "a paced copy waits for its pacer");
    x.set_paced(false, 4);
    // Reads at 4, 5, 6 (data 24..26); written at 7, 8 and 24..26; the end at 27.
    assert_eq!(x.next_event(), 27);
    let (end, done) = drain(&mut x, &mut mem, 4);
    assert_eq!((end, done.len()), (27, 1));
}

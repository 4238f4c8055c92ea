//! The display and the DMA engines under the cycle-level timing model, which skips cycles in
//! which no warp can issue: the scan-out still matches a host model of the beam pixel by
//! pixel (the devices catch up in `begin_cycle`), and a DMA program leaves the same memory
//! as in the functional model.

use std::cell::RefCell;
use std::rc::Rc;
use weft_simt::config::DisplayConfig;
use weft_simt::load::program_from_elf;
use weft_simt::record::{AccessKind, RegFile, StepRecord};
use weft_simt::Observer;
use weft_simt::{Config, Frame, FrameSink, Machine, RunEnd};

#[derive(Clone, Default)]
struct StoreLog(Rc<RefCell<Vec<(u64, u32, u32)>>>);

impl Observer for StoreLog {
    fn step(&mut self, _m: &Machine, r: &StepRecord) {
        for a in r.mem.iter().filter(|a| a.kind == AccessKind::Store) {
            let v = r
                .reads
                .iter()
                .find(|v| v.file == RegFile::X && v.index == r.inst.rs2)
                .map_or(0, |v| v.values[a.lane as usize]);
            self.0.borrow_mut().push((r.cycle, a.addr, v));
        }
    }
}

#[derive(Clone, Default)]
struct Frames(Rc<RefCell<Vec<Frame>>>);

impl FrameSink for Frames {
    fn frame(&mut self, f: &Frame) -> bool {
        self.0.borrow_mut().push(f.clone());
        true
    }
}

fn config() -> Config {
    Config {
        lanes: 8,
        warps: 2,
        timing: true,
        display: DisplayConfig {
            cycles_per_line: 64,
            lines_per_frame: 20,
            visible_lines: 16,
            pixels_per_line: 64,
            visible_pixels: 48,
            ..DisplayConfig::default()
        },
        max_cycles: 400_000,
        ..Config::default()
    }
}

fn machine(src: &str, cfg: &Config) -> Machine {
    let bytes = weft_asm::assemble(src, "t.s").unwrap_or_else(|e| panic!("{e}"));
    let (prog, _) = program_from_elf(&bytes).unwrap();
    Machine::new(cfg.clone(), &prog).unwrap()
}

const FB: u32 = 0x8010_0000;

/// Races the beam as in crates/simt/tests/display.rs, with a cache-missing load each
/// iteration whose result is used at once, so the timing model has idle cycles to skip.
const CHASE: &str = "
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr a0, thread_id
    li t1, 0xffffff40
    li t2, 0x80100000
    sw t2, 0(t1)
    li t2, 16
    sw t2, 4(t1)
    li t2, 8
    sw t2, 8(t1)
    li t2, 1
    sw t2, 12(t1)
    li s0, 0x80100000
    slli s1, a0, 2
    add s2, s0, s1
    li s3, 0x80400000
    li a1, 4
loop:
    lw t6, 0(s3)
    add t3, t6, zero
    li t6, 4096
    add s3, s3, t6
    csrr t3, cycle
    xor t3, t3, s1
    csrr t4, scanline
    srli t5, t4, 1
    addi t5, t5, 1
    andi t5, t5, 7
    slli t5, t5, 6
    add t6, s2, t5
    sw t3, 0(t6)
    xori t4, t4, 0x5a5
    sw t4, 192(s2)
    csrr t2, display_frames
    blt t2, a1, loop
    li t0, 0xffffff04
    sw zero, 0(t0)
";

#[test]
fn the_beam_model_holds_when_the_timing_model_skips_cycles() {
    let cfg = config();
    let mut m = machine(CHASE, &cfg);
    let log = StoreLog::default();
    let frames = Frames::default();
    m.add_observer(Box::new(log.clone()));
    m.set_frame_sink(Box::new(frames.clone()));
    let mut t = weft_timing::TimingModel::new(&m.cfg);
    assert_eq!(t.run(&mut m, u64::MAX), RunEnd::Exit(0));
    let issued = m.report().warp_instructions;
    assert!(
        m.cycle > issued + 1000,
        "the run must have idle cycles: {} cycles, {issued} issued",
        m.cycle
    );
    let frames = frames.0.borrow();
    let log = log.0.borrow();
    assert_eq!(frames.len(), 3);
    for f in frames.iter() {
        for r in 0..8u32 {
            let fetch = (f.index * 20 + 2 * r as u64) * 64;
            for x in 0..16u32 {
                let word = FB + r * 64 + 4 * x;
                let v = log
                    .iter()
                    .rfind(|(c, a, _)| *c < fetch && *a == word)
                    .map_or(0, |e| e.2);
                let want = (v & 0xff) << 16 | (v >> 8 & 0xff) << 8 | (v >> 16 & 0xff);
                let got = f.picture.pixels()[(r * 16 + x) as usize];
                assert_eq!(got, want, "frame {} pixel ({x}, {r})", f.index);
            }
        }
    }
}

/// Lane 0 fills shared words 0..64, copies them out to `dst` and back in at word 100 with
/// three slots, and waits for the engine while a second warp keeps loading from DRAM.
const DMA: &str = "
    .text
    .globl _start
_start:
    csrr s0, local_mem_base
    li t0, 0
    li t1, 64
1:  slli t3, t0, 2
    add t3, t3, s0
    mul t4, t0, t0
    addi t4, t4, 7
    sw t4, 0(t3)
    addi t0, t0, 1
    blt t0, t1, 1b
    li s2, 0xffffff80
    li t0, (40 << 16)
    sw t0, 0(s2)
    la t0, dst
    sw t0, 4(s2)
    li t0, (24 << 16) | 40
    sw t0, 8(s2)
    la t0, dst
    addi t0, t0, 160
    sw t0, 12(s2)
    li t0, 0x80000000 | (64 << 16) | 100
    sw t0, 16(s2)
    la t0, dst
    sw t0, 20(s2)
    li t0, 3
    sw t0, 32(s2)
2:  lw t1, 32(s2)
    bnez t1, 2b
    li t0, 0xffffff04
    sw zero, 0(t0)
    .data
dst: .zero 256
";

#[test]
fn a_dma_program_leaves_the_same_memory_under_both_models() {
    let mut results = Vec::new();
    for timing in [false, true] {
        let cfg = Config { timing, ..config() };
        let mut m = machine(DMA, &cfg);
        let end = if timing {
            weft_timing::TimingModel::new(&m.cfg).run(&mut m, u64::MAX)
        } else {
            m.run()
        };
        assert_eq!(end, RunEnd::Exit(0));
        let base = m.cfg.local_mem_base;
        let shared: Vec<u32> = (0..256)
            .map(|i| m.mem.load(0, base + 4 * i, 4).unwrap())
            .collect();
        for i in 0..64u32 {
            assert_eq!(shared[i as usize], i * i + 7);
            assert_eq!(shared[100 + i as usize], i * i + 7, "word {i} came back");
        }
        results.push(shared);
    }
    assert_eq!(results[0], results[1]);
}

/// Under the timing model the DMA engine's words go through the memory system: every byte is
/// counted once, and a narrower DRAM channel makes the transfers (and the program waiting on
/// them) take longer, at least the bytes over the channel's width.
#[test]
fn dma_takes_time_and_bandwidth_in_the_timing_model() {
    let mut cycles = Vec::new();
    for bpc in [1u32, 16] {
        let mut cfg = Config {
            timing: true,
            ..config()
        };
        cfg.dram.bytes_per_cycle = bpc;
        let mut m = machine(DMA, &cfg);
        let mut t = weft_timing::TimingModel::new(&m.cfg);
        assert_eq!(t.run(&mut m, u64::MAX), RunEnd::Exit(0));
        let r = t.report(&m);
        // 40 + 24 words out to DRAM, 64 words back in.
        assert_eq!(r.memory.dma_bytes, 4 * (40 + 24 + 64));
        assert!(r.memory.dram_write_bytes >= 4 * (40 + 24));
        if bpc == 1 {
            assert!(r.cycles >= 4 * 128, "{} cycles", r.cycles);
        }
        cycles.push(r.cycles);
    }
    assert!(cycles[0] > cycles[1] + 300, "{cycles:?}");
}

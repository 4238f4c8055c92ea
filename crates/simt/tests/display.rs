//! The display controller and the DMA engines against independent references: a frame
//! scanned while a program races the beam, checked pixel by pixel against a host model of
//! the beam built from the program's own store log; `display_frames` standing still while
//! every warp of a core is halted, and refusing writes; DMA in both directions over several
//! slots, word by word; the race checker on a planted overlap and on a clean program.

mod common;

use common::run_src;
use std::cell::RefCell;
use std::rc::Rc;
use weft_simt::config::DisplayConfig;
use weft_simt::load::program_from_elf;
use weft_simt::record::{AccessKind, RegFile, StepRecord};
use weft_simt::Observer;
use weft_simt::{Config, Frame, FrameSink, Machine, RaceChecker, RunEnd};

/// A small display: 64-cycle lines, 20 lines of which 16 are visible.
fn small_display() -> DisplayConfig {
    DisplayConfig {
        cycles_per_line: 64,
        lines_per_frame: 20,
        visible_lines: 16,
        pixels_per_line: 64,
        visible_pixels: 48,
        ..DisplayConfig::default()
    }
}

fn config(lanes: usize) -> Config {
    Config {
        lanes,
        warps: 2,
        display: small_display(),
        max_cycles: 200_000,
        ..Config::default()
    }
}

/// Every word store the program makes: (cycle, address, value).
#[derive(Clone, Default)]
struct StoreLog(Rc<RefCell<Vec<(u64, u32, u32)>>>);

impl Observer for StoreLog {
    fn step(&mut self, _m: &Machine, r: &StepRecord) {
        for a in &r.mem {
            if a.kind != AccessKind::Store {
                continue;
            }
            assert_eq!(a.size, 4, "the test programs store words");
            let v = r
                .reads
                .iter()
                .find(|v| v.file == RegFile::X && v.index == r.inst.rs2)
                .map_or(0, |v| v.values[a.lane as usize]);
            self.0.borrow_mut().push((r.cycle, a.addr, v));
        }
    }
}

/// Keeps every frame.
#[derive(Clone, Default)]
struct Frames(Rc<RefCell<Vec<Frame>>>);

impl FrameSink for Frames {
    fn frame(&mut self, f: &Frame) -> bool {
        self.0.borrow_mut().push(f.clone());
        true
    }
}

fn machine(src: &str, cfg: Config) -> Machine {
    let bytes = weft_asm::assemble(src, "t.s").unwrap_or_else(|e| panic!("{e}"));
    let (prog, _) = program_from_elf(&bytes).unwrap();
    Machine::new(cfg, &prog).unwrap()
}

const FB: u32 = 0x8010_0000;

/// A raster-chase program: 8 lanes; each iteration reads `cycle` and `scanline`, writes them
/// into the row the beam fetches next (one word per lane), and rewrites row 3 every time;
/// it stops at the fourth vblank (frame 0 began before the display was on). `pitch` is the row size in bytes, `format` the display's.
fn chase_program(pitch: u32, format: u32) -> String {
    format!(
        "
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr a0, thread_id
    li t1, 0xffffff40
    li t2, {FB:#x}
    sw t2, 0(t1)
    li t2, 16
    sw t2, 4(t1)
    li t2, 8
    sw t2, 8(t1)
    li t2, {format}
    sw t2, 12(t1)
    li s0, {FB:#x}
    slli s1, a0, 2
    add s2, s0, s1
    li a1, 4
loop:
    csrr t3, cycle
    xor t3, t3, s1
    csrr t4, scanline
    srli t5, t4, 1
    addi t5, t5, 1
    andi t5, t5, 7
    li t6, {pitch}
    mul t5, t5, t6
    add t6, s2, t5
    sw t3, 0(t6)
    xori t4, t4, 0x5a5
    sw t4, {three}(s2)
    csrr t2, display_frames
    blt t2, a1, loop
    li t0, 0xffffff04
    sw zero, 0(t0)
",
        three = 3 * pitch
    )
}

/// The host model of the beam: row r of frame k is fetched at the first cycle of display
/// line 2r (8 rows over 16 lines) of that frame; a pixel holds the last store before then.
fn expected_frame(
    k: u64,
    log: &[(u64, u32, u32)],
    pitch: u32,
    pixel: impl Fn(u32, u32) -> u32,
) -> Vec<u32> {
    let d = small_display();
    let mut out = Vec::new();
    for r in 0..8u32 {
        let fetch = (k * d.lines_per_frame as u64 + 2 * r as u64) * d.cycles_per_line as u64;
        for x in 0..16u32 {
            let (word, shift) = if pitch == 64 {
                (FB + r * pitch + 4 * x, 0)
            } else {
                (FB + r * pitch + 4 * (x / 2), 16 * (x % 2))
            };
            let v = log
                .iter()
                .rfind(|(c, a, _)| *c < fetch && *a == word)
                .map_or(0, |e| e.2);
            out.push(pixel(v, shift));
        }
    }
    out
}

fn chase(pitch: u32, format: u32, pixel: impl Fn(u32, u32) -> u32) {
    let mut m = machine(&chase_program(pitch, format), config(8));
    let log = StoreLog::default();
    let frames = Frames::default();
    m.add_observer(Box::new(log.clone()));
    m.set_frame_sink(Box::new(frames.clone()));
    assert_eq!(m.run(), RunEnd::Exit(0));
    let frames = frames.0.borrow();
    let log = log.0.borrow();
    assert_eq!(frames.len(), 3, "three frames scanned with the display on");
    assert_eq!(frames[0].index, 1);
    for f in frames.iter() {
        assert_eq!((f.picture.width(), f.picture.height()), (16, 8));
        let want = expected_frame(f.index, &log, pitch, &pixel);
        for (i, (&got, &want)) in f.picture.pixels().iter().zip(&want).enumerate() {
            assert_eq!(
                got,
                want,
                "frame {} pixel ({}, {}): scanned {got:#08x}, the beam model says {want:#08x}",
                f.index,
                i % 16,
                i / 16
            );
        }
        let d = small_display();
        assert_eq!(
            f.cycle,
            (f.index * 20 + 16) * 64,
            "a frame is complete when vblank begins"
        );
        let _ = d;
    }
    // The race was real: row 3 differs from frame to frame, and rows hold many values.
    let row3 = |f: &Frame| f.picture.pixels()[3 * 16..4 * 16].to_vec();
    assert_ne!(row3(&frames[0]), row3(&frames[1]));
    let distinct: std::collections::BTreeSet<u32> =
        frames[1].picture.pixels().iter().copied().collect();
    assert!(distinct.len() > 16, "{distinct:?}");
}

#[test]
fn a_raster_chase_frame_matches_the_beam_model_in_rgba8888() {
    chase(64, 1, |v, _| {
        (v & 0xff) << 16 | (v >> 8 & 0xff) << 8 | (v >> 16 & 0xff)
    });
}

#[test]
fn a_raster_chase_frame_matches_the_beam_model_in_rgb565() {
    // RGB565 widens by repeating the top bits (0x1f -> 0xff, 0x10 -> 0x84): v·33/4 for five
    // bits, v·65/16 for six.
    chase(32, 2, |v, shift| {
        let h = v >> shift & 0xffff;
        let (r5, g6, b5) = (h >> 11, h >> 5 & 63, h & 31);
        (((r5 * 33) >> 2) << 16) | (((g6 * 65) >> 4) << 8) | ((b5 * 33) >> 2)
    });
}

#[test]
fn display_registers_read_back_and_refuse_bad_values() {
    let prog = |extra: &str| {
        format!(
            "
    .text
    .globl _start
_start:
    li t1, 0xffffff40
    li t2, 0x80200000
    sw t2, 0(t1)
    li t2, 40
    sw t2, 4(t1)
    li t2, 12
    sw t2, 8(t1)
    li t2, 2
    sw t2, 12(t1)
    la t3, res
    lw t2, 0(t1)
    sw t2, 0(t3)
    lw t2, 4(t1)
    sw t2, 4(t3)
    lw t2, 8(t1)
    sw t2, 8(t3)
    lw t2, 12(t1)
    sw t2, 12(t3)
    {extra}
    li t0, 0xffffff04
    sw zero, 0(t0)
    .data
res: .zero 16
"
        )
    };
    let r = run_src(&prog(""), config(1));
    assert_eq!(r.end, RunEnd::Exit(0));
    assert_eq!(r.words("res", 4), vec![0x8020_0000, 40, 12, 2]);
    for (bad, why) in [
        ("li t2, 49\n sw t2, 4(t1)", "width 49"),
        ("li t2, 17\n sw t2, 8(t1)", "height 17"),
        ("li t2, 3\n sw t2, 12(t1)", "format 3"),
        ("li t2, 0x80000002\n sw t2, 0(t1)", "not word-aligned"),
        ("sw zero, 16(t1)", "read-only"),
        ("sh zero, 0(t1)", "aligned word"),
    ] {
        let r = run_src(&prog(bad), config(1));
        match &r.end {
            RunEnd::Fault(f) => assert!(f.to_string().contains(why), "{bad}: {f}"),
            e => panic!("{bad}: {e:?}"),
        }
    }
}

/// Core 1 halts at once; core 0 waits for two vblanks and halts; program `second` reads
/// the counter into `res` and exits.
const FRAMES_PROG: &str = "
    .text
    .globl _start
_start:
    csrr t0, core_id
    bnez t0, halt
    li a1, 2
1:  csrr t2, display_frames
    blt t2, a1, 1b
halt:
    csrw tmask, zero
    .globl second
second:
    csrr t0, core_id
    bnez t0, halt
    csrr t2, display_frames
    la t3, res
    sw t2, 0(t3)
    li t0, 0xffffff04
    sw zero, 0(t0)
    .data
res: .word 0xffffffff
";

#[test]
fn display_frames_stand_still_while_every_warp_of_the_core_is_halted() {
    let cfg = Config {
        cores: 2,
        ..config(1)
    };
    let bytes = weft_asm::assemble(FRAMES_PROG, "t.s").unwrap();
    let elf = weft_elf::read_elf(&bytes).unwrap();
    let second = elf.symbol("second").unwrap().value;
    let res = elf.symbol("res").unwrap().value;
    let (prog, _) = program_from_elf(&bytes).unwrap();
    let mut m = Machine::new(cfg, &prog).unwrap();
    assert_eq!(m.run(), RunEnd::AllHalted);
    // Core 1 never had a started warp at a vblank; core 0 counted two.
    assert_eq!(m.display().frames, vec![2, 0]);
    let scanned = m.display().stats.frames_scanned;
    assert_eq!(scanned, 2);
    // Three frames pass with every warp halted (a host between two launches).
    let frame = small_display().cycles_per_frame();
    for _ in 0..3 * frame {
        m.begin_cycle();
        m.cycle += 1;
    }
    assert_eq!(m.display().stats.frames_scanned, 5, "the beam went on");
    assert_eq!(m.display().frames, vec![2, 0], "no core counted them");
    m.restart(second).unwrap();
    assert_eq!(m.run(), RunEnd::Exit(0));
    assert_eq!(m.mem.load(0, res, 4).unwrap(), 2);
}

#[test]
fn a_kernel_cannot_write_display_frames() {
    for op in [
        "csrw display_frames, t0",
        "csrs display_frames, t0",
        "csrwi display_frames, 5",
    ] {
        let src = format!(
            "    .text\n    .globl _start\n_start:\n    li t0, 7\n    {op}\n    li t0, 0xffffff04\n    sw zero, 0(t0)\n"
        );
        let bytes = weft_asm::assemble(&src, "t.s");
        let Ok(bytes) = bytes else {
            continue; // the assembler may refuse it outright: also a refusal
        };
        let (prog, _) = program_from_elf(&bytes).unwrap();
        let mut m = Machine::new(config(1), &prog).unwrap();
        match m.run() {
            RunEnd::Fault(f) => {
                assert_eq!(f.code, weft_isa::FaultCode::IllegalInstruction, "{op}");
                assert!(f.to_string().contains("read-only"), "{op}: {f}");
            }
            e => panic!("{op}: {e:?}"),
        }
        assert_eq!(m.display().frames, vec![0]);
    }
}

/// Lane 0 fills shared words 0..256 and DRAM `src` with patterns, runs four slots (out,
/// in, out of zero words, in), polls until idle counting the polls, and exits.
const DMA_PROG: &str = "
    .text
    .globl _start
_start:
    csrr s0, local_mem_base
    li t0, 0
    li t1, 256
    li t2, 0x13579bdf
1:  slli t3, t0, 2
    add t3, t3, s0
    mul t4, t0, t2
    sw t4, 0(t3)
    addi t0, t0, 1
    blt t0, t1, 1b
    la s1, src
    li t0, 0
    li t1, 64
    li t2, 0x9e3779b9
2:  slli t3, t0, 2
    add t3, t3, s1
    mul t4, t0, t2
    xori t4, t4, 0x3c5
    sw t4, 0(t3)
    addi t0, t0, 1
    blt t0, t1, 2b
    li s2, 0xffffff80
    # slot 0: shared words 4..14 -> dst
    li t0, (10 << 16) | 4
    sw t0, 0(s2)
    la t0, dst
    sw t0, 4(s2)
    # slot 1: src words 3..10 -> shared words 100..107
    li t0, 0x80000000 | (7 << 16) | 100
    sw t0, 8(s2)
    addi t0, s1, 12
    sw t0, 12(s2)
    # slot 2: zero words
    li t0, 50
    sw t0, 16(s2)
    la t0, dst
    sw t0, 20(s2)
    # slot 3: src words 0..33 -> shared words 200..233
    li t0, 0x80000000 | (33 << 16) | 200
    sw t0, 24(s2)
    sw s1, 28(s2)
    li t0, 4
    sw t0, 32(s2)
    lw t1, 32(s2)
    la t3, seen
    sw t1, 0(t3)
    li t2, 0
3:  addi t2, t2, 1
    lw t1, 32(s2)
    bnez t1, 3b
    sw t2, 4(t3)
    li t0, 0xffffff04
    sw zero, 0(t0)
    .data
seen: .zero 8
src: .zero 256
dst: .zero 64
";

fn local(m: &Machine, i: u32) -> u32 {
    m.mem.load(0, m.cfg.local_mem_base + 4 * i, 4).unwrap()
}

#[test]
fn dma_moves_words_both_ways_over_four_slots() {
    let r = run_src(DMA_PROG, config(1));
    assert_eq!(r.end, RunEnd::Exit(0));
    let m = &r.m;
    let shared0 = |i: u32| i.wrapping_mul(0x1357_9bdf);
    let src = |i: u32| i.wrapping_mul(0x9e37_79b9) ^ 0x3c5;
    let dst = r.words("dst", 16);
    for i in 0..16u32 {
        let want = if i < 10 { shared0(4 + i) } else { 0 };
        assert_eq!(dst[i as usize], want, "dst word {i}");
    }
    for i in 0..256u32 {
        let want = match i {
            100..=106 => src(3 + i - 100),
            200..=232 => src(i - 200),
            _ => shared0(i),
        };
        assert_eq!(local(m, i), want, "shared word {i}");
    }
    let seen = r.words("seen", 2);
    assert_eq!(seen[0], 4, "busy right after the trigger: four slots left");
    // Four slots of 8 setup cycles, 50 words at one per cycle: the warp kept running.
    assert!(seen[1] >= 10, "polls while the engine worked: {}", seen[1]);
    let s = m.dma_stats(0);
    assert_eq!(
        (s.triggers, s.transfers, s.dwords_in, s.dwords_out),
        (1, 4, 40, 10)
    );
}

#[test]
fn dma_errors_fault_the_writing_warp() {
    let base = |body: &str| {
        format!(
            "    .text\n    .globl _start\n_start:\n    li s2, 0xffffff80\n{body}\n    li t0, 0xffffff04\n    sw zero, 0(t0)\n"
        )
    };
    for (body, why) in [
        (
            "    li t0, (10 << 16)\n    sw t0, 0(s2)\n    li t0, 0x80000000\n    sw t0, 4(s2)\n    li t0, 1\n    sw t0, 32(s2)\n    sw t0, 32(s2)",
            "busy",
        ),
        ("    li t0, 5\n    sw t0, 32(s2)", "not 0..=4"),
        (
            "    li t0, (8 << 16) | 4092\n    sw t0, 0(s2)\n    li t0, 0x80000000\n    sw t0, 4(s2)\n    li t0, 1\n    sw t0, 32(s2)",
            "local range",
        ),
        (
            "    li t0, (8 << 16)\n    sw t0, 0(s2)\n    li t0, 0x80000002\n    sw t0, 4(s2)\n    li t0, 1\n    sw t0, 32(s2)",
            "word-aligned",
        ),
        (
            "    li t0, (8 << 16)\n    sw t0, 0(s2)\n    li t0, 0xff000000\n    sw t0, 4(s2)\n    li t0, 1\n    sw t0, 32(s2)",
            "inside DRAM",
        ),
    ] {
        let r = run_src(&base(body), config(1));
        match &r.end {
            RunEnd::Fault(f) => {
                assert_eq!(f.code, weft_isa::FaultCode::StoreFault, "{why}");
                assert!(f.to_string().contains(why), "{why}: {f}");
            }
            e => panic!("{why}: {e:?}"),
        }
    }
}

#[test]
fn a_paced_engine_moves_only_what_its_driver_grants() {
    let mut m = machine(DMA_PROG, config(1));
    m.set_dma_paced(true);
    assert!(matches!(m.run_until(20_000), RunEnd::CycleLimit(_)));
    let p = m.dma_pending(0);
    assert_eq!(p.len(), 4);
    assert_eq!(p.iter().map(|s| s.bytes_left()).sum::<u32>(), 200);
    assert_eq!(m.dma_advance(0, 5), 5);
    let p = m.dma_pending(0);
    assert_eq!((p[0].slot, p[0].bytes_done, p[0].bytes_left()), (0, 20, 20));
    assert_eq!(m.dma_advance(0, 1000), 45);
    assert!(m.dma_pending(0).is_empty());
    assert_eq!(m.run_until(40_000), RunEnd::Exit(0));
}

/// Lane 0 starts a shared → DRAM copy of words 0..64 and then (`racy`) stores into the
/// source and loads the destination while it is in flight, or (clean) waits for the
/// engine first; it also reads the source (not a race) in both.
fn race_prog(racy: bool) -> String {
    let wait = "1:  lw t1, 32(s2)\n    bnez t1, 1b";
    format!(
        "
    .text
    .globl _start
_start:
    csrr s0, local_mem_base
    li s2, 0xffffff80
    li t0, (64 << 16)
    sw t0, 0(s2)
    la s1, dst
    sw s1, 4(s2)
    li t0, 1
    sw t0, 32(s2)
    lw t2, 12(s0)
    {w1}
poke:
    sw t2, 40(s0)
peek:
    lw t3, 8(s1)
    {w2}
    li t0, 0xffffff04
    sw zero, 0(t0)
    .data
dst: .zero 256
",
        w1 = if racy { "" } else { wait },
        w2 = if racy { wait } else { "" },
    )
}

#[test]
fn check_races_reports_a_planted_overlap_and_nothing_on_a_clean_program() {
    for racy in [true, false] {
        let src = race_prog(racy);
        let bytes = weft_asm::assemble(&src, "t.s").unwrap();
        let elf = weft_elf::read_elf(&bytes).unwrap();
        let mut m = machine(&src, config(1));
        let (checker, log) = RaceChecker::new();
        m.add_observer(Box::new(checker));
        assert_eq!(m.run(), RunEnd::Exit(0));
        let races = log.borrow();
        if !racy {
            assert!(races.is_empty(), "{races:?}");
            continue;
        }
        assert_eq!(races.len(), 2, "{races:?}");
        let poke = elf.symbol("poke").unwrap().value;
        let peek = elf.symbol("peek").unwrap().value;
        let dst = elf.symbol("dst").unwrap().value;
        let (a, b) = (&races[0], &races[1]);
        assert_eq!(
            (a.pc, a.warp, a.slot.slot, a.kind),
            (poke, 0, 0, AccessKind::Store)
        );
        assert_eq!(a.addr, m.cfg.local_mem_base + 40);
        assert_eq!((b.pc, b.kind, b.addr), (peek, AccessKind::Load, dst + 8));
        let text = a.to_string();
        assert!(
            text.contains("sw") && text.contains("warp 0") && text.contains("DMA slot 0"),
            "{text}"
        );
    }
}

#[test]
fn display_status_and_beam_x_follow_the_beam() {
    // Lane 0 samples (cycle, DISP_STATUS, DISP_BEAM_X) 200 times, 37 cycles apart; the pixel
    // clock runs at half the core clock (32 pixels over 64 cycles, 24 visible).
    let src = "
    .text
    .globl _start
_start:
    li t1, 0xffffff40
    la t3, out
    li t4, 200
1:  csrr t0, cycle
    lw t2, 16(t1)
    lw t5, 20(t1)
    sw t0, 0(t3)
    sw t2, 4(t3)
    sw t5, 8(t3)
    addi t3, t3, 12
    li t6, 6
2:  addi t6, t6, -1
    bnez t6, 2b
    addi t4, t4, -1
    bnez t4, 1b
    li t0, 0xffffff04
    sw zero, 0(t0)
    .data
out: .zero 2400
";
    let mut cfg = config(1);
    cfg.display.pixels_per_line = 32;
    cfg.display.visible_pixels = 24;
    let r = run_src(src, cfg);
    assert_eq!(r.end, RunEnd::Exit(0));
    let out = r.words("out", 600);
    let mut seen = std::collections::BTreeSet::new();
    for s in out.chunks(3) {
        let (c, status, x) = (s[0] as u64, s[1], s[2]);
        let line = ((c + 1) / 64 % 20) as u32;
        let hx = ((c + 1) % 64 / 2) as u32;
        let vblank = line >= 16;
        let hblank = hx >= 24;
        assert_eq!(
            status,
            line << 16 | (hblank as u32) << 1 | vblank as u32,
            "status at cycle {}",
            c + 1
        );
        assert_eq!(x, ((c + 2) % 64 / 2) as u32, "beam x at cycle {}", c + 2);
        seen.insert((vblank, hblank));
    }
    assert_eq!(seen.len(), 4, "every combination of blanking was sampled");
}

#[test]
fn rows_outside_dram_are_black_and_counted() {
    // DRAM is 1 MiB; the 16×8 RGBA framebuffer starts 4 rows before its end.
    let src = "
    .text
    .globl _start
_start:
    li t1, 0xffffff40
    li t2, 0x800fff00
    sw t2, 0(t1)
    li t2, 16
    sw t2, 4(t1)
    li t2, 8
    sw t2, 8(t1)
    li t2, 1
    sw t2, 12(t1)
    li t3, 0x800fff00
    li t2, -1
    li t4, 0x80100000
1:  sw t2, 0(t3)
    addi t3, t3, 4
    bltu t3, t4, 1b
    li a1, 2
2:  csrr t2, display_frames
    blt t2, a1, 2b
    li t0, 0xffffff04
    sw zero, 0(t0)
";
    let cfg = Config {
        dram_size: 1 << 20,
        ..config(1)
    };
    let mut m = machine(src, cfg);
    let frames = Frames::default();
    m.set_frame_sink(Box::new(frames.clone()));
    assert_eq!(m.run(), RunEnd::Exit(0));
    let frames = frames.0.borrow();
    assert_eq!(frames.len(), 1);
    let px = frames[0].picture.pixels();
    assert!(px[..4 * 16].iter().all(|&p| p == 0x00ff_ffff));
    assert!(px[4 * 16..].iter().all(|&p| p == 0));
    assert_eq!(m.display().stats.bad_rows, 4);
}

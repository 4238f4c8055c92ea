//! CSR behaviour: swap idiom, fault pcs, counters, identity CSRs, watchdog, breakpoints,
//! cross-core barriers. Each program exits with a value the test compares with a value
//! worked out here from the rules.

mod common;
use common::*;
use weft_isa::FaultCode;
use weft_simt::{Config, ReconvMode, RunEnd};

const EXIT: &str = "li t6, 0xffffff04\n sw a0, 0(t6)\n";

fn prog(body: &str) -> String {
    format!("    .text\n    .globl _start\n_start:\n{body}\n{EXIT}")
}

#[test]
fn csrrw_swaps_when_rd_equals_rs1() {
    let r = run_src(&prog("li t0, 5\n csrw mscratch, t0\n li t1, 9\n csrrw t1, mscratch, t1\n csrr t2, mscratch\n slli a0, t2, 4\n or a0, a0, t1"), cfg(4, ReconvMode::Table));
    assert_eq!(r.end, RunEnd::Exit((9 << 4) | 5));
}

#[test]
fn faults_report_the_faulting_instruction() {
    // li expands to one addi here; the csrw is the second instruction.
    for (body, code) in [
        ("li t0, 99\n csrw xwarp, t0", FaultCode::IllegalInstruction),
        ("li t0, 9\n wspawn t0, t0", FaultCode::SpawnFault),
        (
            "li t0, 0x500000\n csrw barrier, t0",
            FaultCode::BarrierFault,
        ),
        ("li t0, 1\n csrw cycle, t0", FaultCode::IllegalInstruction),
    ] {
        let r = run_src(&prog(body), cfg(4, ReconvMode::Table));
        match r.end {
            RunEnd::Fault(f) => {
                assert_eq!(f.code, code, "{body}");
                assert_eq!(f.pc, 0x8000_0004, "{body}");
                assert_eq!(r.m.cores[0].warps[0].csr.fault_pc, 0x8000_0004);
            }
            e => panic!("{body}: expected a fault, got {e:?}"),
        }
    }
}

#[test]
fn identity_csrs() {
    // a0 = (core_id, warp_id, num_threads, num_warps, num_cores) packed in nibbles.
    let body = "csrr t0, core_id\n csrr t1, warp_id\n csrr t2, num_threads\n csrr t3, num_warps\n csrr t4, num_cores\n \
                slli a0, t0, 16\n slli t1, t1, 12\n or a0, a0, t1\n slli t2, t2, 8\n or a0, a0, t2\n slli t3, t3, 4\n or a0, a0, t3\n or a0, a0, t4";
    let r = run_src(
        &prog(body),
        Config {
            cores: 1,
            warps: 3,
            lanes: 5,
            ..cfg(5, ReconvMode::Table)
        },
    );
    assert_eq!(r.end, RunEnd::Exit((5 << 8) | (3 << 4) | 1));
}

#[test]
fn mhartid_and_thread_id_are_per_lane() {
    let src = "
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr a1, mhartid
    csrr a2, thread_id
    la t1, out
    slli t2, a2, 2
    add t1, t1, t2
    sw a1, 0(t1)
    csrw tmask, zero
    .data
out: .zero 32
";
    let r = run_src(
        src,
        Config {
            cores: 2,
            warps: 2,
            lanes: 4,
            ..cfg(4, ReconvMode::Table)
        },
    );
    // Both cores store to the same addresses in the same cycle; core 1 issues after core 0
    // within a cycle, so core 1's values remain: mhartid = (core 1 · 2 warps + warp 0) · 4 + lane.
    assert_eq!(r.end, RunEnd::AllHalted);
    let want: Vec<u32> = (0..4).map(|l| 8 + l).collect();
    assert_eq!(r.words("out", 4), want);
}

#[test]
fn cycle_lo_latches_cycle_hi_and_counts_advance() {
    let body = "csrr t0, cycle\n nop\n nop\n csrr t1, cycle\n sub a0, t1, t0\n csrr t2, cycle_lo\n csrr t3, cycle_hi\n or a0, a0, t3";
    let r = run_src(&prog(body), cfg(4, ReconvMode::Table));
    // One warp: one instruction per cycle, so cycle advances by 3 between the two reads.
    assert_eq!(r.end, RunEnd::Exit(3));
}

#[test]
fn hard_watchdog_faults_and_soft_sets_expired() {
    let hard = "li t0, 100\n csrw watchdog_limit, t0\n li t0, 1\n csrw watchdog, t0\n1: j 1b";
    let r = run_src(&prog(hard), cfg(4, ReconvMode::Table));
    match r.end {
        RunEnd::Fault(f) => assert_eq!(f.code, FaultCode::Watchdog),
        e => panic!("expected WATCHDOG, got {e:?}"),
    }
    let soft = "li t0, 50\n csrw watchdog_limit, t0\n li t0, 2\n csrw watchdog, t0\n li t1, 200\n1: addi t1, t1, -1\n bnez t1, 1b\n csrr a0, watchdog\n srli a0, a0, 31";
    let r = run_src(&prog(soft), cfg(4, ReconvMode::Table));
    assert_eq!(
        r.end,
        RunEnd::Exit(1),
        "SOFT mode sets the expired bit and keeps running"
    );
}

#[test]
fn breakpoint_stops_a_warp_and_a_cross_warp_write_resumes_it() {
    // Warp 1 counts in a loop and stores its count at `stop`; warp 0 sets warp 1's break_pc
    // to `stop`, waits until warp 1 is parked there (xw_warp_pc), then clears the breakpoint.
    let src = "
    .text
    .globl _start
_start:
    la t0, worker
    csrw spawn_pc, t0
    li t0, 1
    csrw xwarp, t0
    la t1, stop
    csrw xw_break_pc, t1
    li t0, 2
    csrw warp_active, t0
1:  csrr t2, xw_warp_pc
    bne t2, t1, 1b
    csrr t3, xw_fault_code      # BREAKPOINT = 8 recorded
    la t4, seen
    sw t3, 0(t4)
    csrw xw_break_pc, zero      # resume
2:  csrr t2, warp_done
    andi t2, t2, 2
    beqz t2, 2b
    li t6, 0xffffff04
    sw zero, 0(t6)
worker:
    csrr s0, thread_id
    bnez s0, stop
    li a0, 0
3:  addi a0, a0, 1
    li a1, 10
    blt a0, a1, 3b
stop:
    la t4, count
    sw a0, 0(t4)
    csrw tmask, zero
    .data
seen:  .word 0
count: .word 0
";
    let r = run_src(src, cfg(1, ReconvMode::Table));
    assert_eq!(r.end, RunEnd::Exit(0));
    assert_eq!(r.word("seen"), FaultCode::Breakpoint.code());
    assert_eq!(r.word("count"), 10);
}

#[test]
fn global_barrier_across_many_cores() {
    let src = "
    .text
    .globl _start
_start:
    li t0, 0x80000000         # global barrier 0
    csrr t1, num_cores
    bar t0, t1
    csrw tmask, zero
";
    for cores in [2, 33, 40] {
        let r = run_src(
            src,
            Config {
                cores,
                ..cfg(1, ReconvMode::Table)
            },
        );
        assert_eq!(r.end, RunEnd::AllHalted, "{cores} cores");
    }
}

#[test]
fn stores_into_code_are_seen_by_later_fetches() {
    // Overwrite the `li a0, 1` at `patch` with `li a0, 42` (addi a0, zero, 42 = 0x02a00513).
    let body = "la t0, patch\n li t1, 0x02a00513\n sw t1, 0(t0)\n fence.i\npatch:\n li a0, 1";
    let r = run_src(&prog(body), cfg(8, ReconvMode::Table));
    assert_eq!(r.end, RunEnd::Exit(42));
}

#[test]
fn lanes_storing_to_one_word_leave_the_last_lanes_value() {
    let src = "
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr a1, thread_id
    addi a1, a1, 100
    la t1, word
    sw a1, 0(t1)           # every lane, same address: lanes store in order
    flw ft0, 0(t1)
    fsw ft0, 4(t1)
    csrw tmask, zero
    .data
word: .word 0, 0
";
    for lanes in [1, 8, 32] {
        let r = run_src(src, cfg(lanes, ReconvMode::Table));
        assert_eq!(
            r.words("word", 2),
            vec![99 + lanes as u32; 2],
            "lanes {lanes}"
        );
    }
}

#[test]
fn scanline_and_display_frames_follow_the_display_timing() {
    // 10 cycles per line, 6 lines per frame, vblank at line 4: vblank k starts at cycle 60k+40.
    // The program spins until cycle ≥ 200, then reads scanline and display_frames.
    let body = "1: csrr t0, cycle\n li t1, 200\n blt t0, t1, 1b\n csrr t2, cycle\n csrr a1, scanline\n csrr a2, display_frames\n \
                la t3, res\n sw t2, 0(t3)\n sw a1, 4(t3)\n sw a2, 8(t3)\n li a0, 0";
    let src = format!("{}\n    .data\nres: .zero 12\n", prog(body));
    let mut c = cfg(4, ReconvMode::Table);
    c.display = weft_simt::config::DisplayConfig {
        cycles_per_line: 10,
        lines_per_frame: 6,
        visible_lines: 4,
        ..Default::default()
    };
    let r = run_src(&src, c);
    assert_eq!(r.end, RunEnd::Exit(0));
    let res = r.words("res", 3);
    let cycle = res[0] as u64 + 1; // scanline is read one cycle after `cycle`
    assert_eq!(res[1] as u64, (cycle / 10) % 6, "scanline");
    let frames_at = |t: u64| if t < 40 { 0 } else { (t - 40) / 60 + 1 };
    assert_eq!(
        res[2] as u64,
        frames_at(cycle + 1),
        "display_frames counts vblanks so far"
    );
    assert!(res[2] >= 3);
}

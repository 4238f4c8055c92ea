//! Super-steps over several running warps (docs/engine.md): every program runs on both
//! engines and must end in the same whole state — registers, pcs, counters, statistics, the
//! cycle, memory, and the cycle counts the warps read and store (which tell the interleaving
//! apart) — with warps and cores running loops of different lengths, starting at different
//! phases, diverging, sharing memory, and with float operations in the loops; and the engine
//! must have run those loops with several warps running.

use weft_jit::Jit;
use weft_simt::{Config, RunEnd};

mod common;
use common::{assert_super_steps_over, machine, same};

fn cfg(lanes: usize, warps: usize, cores: usize) -> Config {
    common::shape(lanes, warps, cores, 20_000_000)
}

/// Every warp of every core: a warp-dependent delay (a different phase), then a loop of
/// warp-dependent length with integer and float work, then it reads the cycle counter and
/// stores its results and the cycle (which differ if the interleaving does), adds to a shared
/// counter without atomics, and (`lanes_differ`) runs a lane-dependent branch.
fn kernel(iters: u32, lanes_differ: bool) -> String {
    let diverge = if lanes_differ {
        "    andi t6, a0, 1
    beqz t6, 5f
    addi a2, a2, 7
5:  addi a2, a2, 1
"
    } else {
        ""
    };
    format!(
        "
    .text
    .globl _start
_start:
    la t0, body
    csrw spawn_pc, t0
    li t0, -1
    csrw warp_active, t0
body:
    csrr s0, warp_id
    csrr s1, core_id
    csrr a0, thread_id
    mv t3, s0
    add t3, t3, s1
2:  addi t3, t3, -1
    bgez t3, 2b
    li a1, {iters}
    slli t4, s0, 3
    add a1, a1, t4
    li a2, 0x12345
    fcvt.s.w fa0, a0
    li t4, 3
    fcvt.s.w fa2, t4
    fmv.w.x fa1, zero
1:  add a3, a0, a2
    xor a4, a3, a1
    mul a5, a4, a3
    srli a6, a5, 7
    or a2, a6, a3
    fmadd.s fa1, fa0, fa2, fa1
    fmul.s fa3, fa1, fa2
    fadd.s fa1, fa3, fa0
    sub a2, a2, s0
{diverge}    addi a1, a1, -1
    bnez a1, 1b
    csrr t5, cycle
    fmv.x.w a7, fa1
    slli t2, s1, 10
    slli t3, s0, 7
    add t2, t2, t3
    slli t3, a0, 2
    add t2, t2, t3
    la t1, out_a
    add t1, t1, t2
    sw a2, 0(t1)
    la t1, out_c
    add t1, t1, t2
    sw t5, 0(t1)
    la t1, out_f
    add t1, t1, t2
    sw a7, 0(t1)
    la t1, counter
    lw t2, 0(t1)
    addi t2, t2, 1
    sw t2, 0(t1)
    csrw tmask, zero
    .data
counter: .word 0
out_a: .zero 4096
out_c: .zero 4096
out_f: .zero 4096
"
    )
}

#[test]
fn several_warps_and_cores_match_cycle_for_cycle() {
    for (lanes, warps, cores) in [
        (8, 2, 1),
        (8, 4, 1),
        (4, 3, 2),
        (1, 8, 1),
        (32, 4, 1),
        (8, 5, 3),
        (5, 2, 2),
    ] {
        let (m, end) = same(&kernel(300, false), &cfg(lanes, warps, cores));
        assert_eq!(end, RunEnd::AllHalted);
        let what = format!("{lanes} lanes, {warps} warps, {cores} cores");
        assert_super_steps_over(&m, 5, &what);
    }
}

#[test]
fn diverging_warps_among_several_match() {
    for (lanes, warps, cores) in [(8, 4, 1), (4, 2, 2)] {
        let (_, end) = same(&kernel(200, true), &cfg(lanes, warps, cores));
        assert_eq!(end, RunEnd::AllHalted);
    }
}

#[test]
fn a_cycle_bound_inside_a_multi_warp_step_stops_both_alike() {
    for bound in [1, 50, 333, 1000, 2345, 7777] {
        let mut c = cfg(8, 4, 2);
        c.max_cycles = bound;
        let (m, end) = same(&kernel(2000, false), &c);
        assert_eq!(end, RunEnd::CycleLimit(bound));
        assert_eq!(m.cycle, bound);
    }
}

/// The default (hot-threshold) engine, with its waits and declines, on several warps.
#[test]
fn the_default_engine_on_several_warps_matches() {
    let src = kernel(3000, false);
    let mut a = machine(&src, &cfg(8, 4, 1), false);
    let mut b = machine(&src, &cfg(8, 4, 1), false);
    b.set_engine(Some(Box::new(Jit::new().expect("a Cranelift back end"))));
    assert_eq!(a.run(), b.run());
    assert_eq!(a.first_difference(&b, "interp", "jit"), None);
    assert!(b.super_step_cycles() > b.report().cycles / 2);
}

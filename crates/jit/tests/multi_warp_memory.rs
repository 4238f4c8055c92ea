//! Word loads and stores in super-steps over several running warps (docs/engine.md § Memory
//! in super-steps over several warps): every program runs on both engines and must end in the
//! same whole state — registers, pcs, counters, statistics (loads and stores included), the
//! cycle, memory — with warps that communicate through memory (one writes, another reads the
//! same word; a warp spinning on a flag another sets; several warps writing one word; a
//! non-atomic shared counter after long private phases), where the interleaving decides the
//! result; and kernels whose warps touch different words (per-warp arrays, grid-stride loops
//! whose warps' ranges interleave, shared tables only read) must run mostly in super-steps.

use weft_jit::Jit;
use weft_simt::{Config, RunEnd};

mod common;
use common::{assert_super_steps_over, machine, same};

fn cfg(lanes: usize, warps: usize, cores: usize) -> Config {
    common::shape(lanes, warps, cores, 50_000_000)
}

/// The start of every kernel: every warp of every core at `body` with all lanes; `s0` the
/// warp, `s1` the core, `a0` the lane, `s2` the lanes per warp, `s3` the warps per core.
const START: &str = "
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
    csrr s2, num_threads
    csrr s3, num_warps
";

/// The end: each thread stores `a2` and the cycle counter at its own word (core, warp, lane),
/// then stops.
const END: &str = "
    csrr t5, cycle
    slli t2, s1, 12
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
    csrw tmask, zero
";

const DATA: &str = "
    .data
shared: .word 0
flag: .word 0
last: .word 0
    .balign 64
table: .zero 4096
out_a: .zero 16384
out_c: .zero 16384
arr: .zero 65536
";

fn program(body: &str) -> String {
    format!("{START}{body}{END}{DATA}")
}

/// Each core's array of 1024 words (arr + 4096·core); thread g of G (per core) adds to
/// words g, g + G, g + 2G … in `iters` passes: the warps' address ranges interleave, their
/// words never meet. Reads a table all warps read too.
fn grid_stride(iters: u32) -> String {
    program(&format!(
        "
    mul t1, s0, s2
    add t1, t1, a0
    mul t2, s3, s2
    la a3, arr
    slli t4, s1, 12
    add a3, a3, t4
    la a4, table
    li a1, {iters}
    li a2, 0
1:  mv t3, t1
2:  li t4, 1024
    bgeu t3, t4, 3f
    slli t5, t3, 2
    add t5, t5, a3
    lw t6, 0(t5)
    andi a5, t3, 63
    slli a5, a5, 2
    add a5, a5, a4
    lw a5, 0(a5)
    add t6, t6, t3
    add t6, t6, a5
    addi t6, t6, 1
    sw t6, 0(t5)
    add a2, a2, t6
    add t3, t3, t2
    j 2b
3:  addi a1, a1, -1
    bnez a1, 1b
"
    ))
}

/// Per-warp words (arr + 128·warp + 4·lane, per core 4096 apart), loaded and stored in a loop
/// of warp-dependent length.
fn own_words(iters: u32) -> String {
    program(&format!(
        "
    la a3, arr
    slli t4, s1, 12
    add a3, a3, t4
    slli t4, s0, 7
    add a3, a3, t4
    slli t4, a0, 2
    add a3, a3, t4
    li a1, {iters}
    slli t4, s0, 4
    add a1, a1, t4
    li a2, 0
1:  lw t6, 0(a3)
    add t6, t6, a1
    sw t6, 0(a3)
    add a2, a2, t6
    addi a1, a1, -1
    bnez a1, 1b
"
    ))
}

#[test]
fn grid_stride_and_per_warp_arrays_run_in_super_steps() {
    for (lanes, warps, cores) in [(8, 4, 1), (32, 4, 1), (4, 3, 2), (8, 8, 1), (1, 4, 1)] {
        for src in [grid_stride(40), own_words(3000)] {
            let (m, end) = same(&src, &cfg(lanes, warps, cores));
            assert_eq!(end, RunEnd::AllHalted);
            let what = format!("{lanes} lanes, {warps} warps, {cores} cores");
            assert_super_steps_over(&m, 8, &what);
        }
    }
}

/// Warp 0 reads `shared` in a loop and folds what it sees into its result; the other warps
/// keep storing their own values into it (every lane the same word).
#[test]
fn a_warp_reading_a_word_others_write_matches() {
    let src = program(
        "
    la t0, shared
    li a1, 3000
    li a2, 0
    bnez s0, 2f
1:  lw t1, 0(t0)
    add a2, a2, t1
    slli t4, a2, 1
    xor a2, t4, a1
    addi a1, a1, -1
    bnez a1, 1b
    j 3f
2:  addi t1, a1, 7
    mul t1, t1, s0
    add t1, t1, a0
    sw t1, 0(t0)
    addi t3, a1, 5
    addi a1, a1, -1
    bnez a1, 2b
3:
",
    );
    for (lanes, warps, cores) in [(8, 2, 1), (8, 4, 1), (4, 3, 2), (32, 3, 1)] {
        let (_, end) = same(&src, &cfg(lanes, warps, cores));
        assert_eq!(end, RunEnd::AllHalted);
    }
}

/// Warp 0 spins on `flag` counting its iterations; each other warp runs a private delay
/// loop of warp-dependent length, then sets the flag (write after the reader's reads, and
/// several warps writing it).
#[test]
fn a_warp_spinning_on_a_flag_another_sets_matches() {
    let src = program(
        "
    la t0, flag
    li a2, 0
    bnez s0, 2f
1:  lw t1, 0(t0)
    addi a2, a2, 1
    beqz t1, 1b
    j 3f
2:  li a1, 2000
    mul a1, a1, s0
    add a1, a1, s1
4:  addi a1, a1, -1
    addi a2, a2, 3
    bnez a1, 4b
    addi t1, s0, 1
    sw t1, 0(t0)
3:
",
    );
    for (lanes, warps, cores) in [(8, 2, 1), (8, 4, 1), (4, 3, 2), (1, 5, 1)] {
        let (m, end) = same(&src, &cfg(lanes, warps, cores));
        assert_eq!(end, RunEnd::AllHalted);
        assert!(m.super_step_cycles() > 0);
    }
}

/// Every warp stores into `last` in a loop (write-write on one word; which store is last
/// depends on the interleaving), and reads it back now and then.
#[test]
fn several_warps_writing_one_word_match() {
    let src = program(
        "
    la t0, last
    li a1, 2000
    slli t4, s0, 5
    add a1, a1, t4
    li a2, 0
1:  slli t1, s0, 16
    add t1, t1, a1
    sw t1, 0(t0)
    andi t4, a1, 15
    bnez t4, 2f
    lw t2, 0(t0)
    add a2, a2, t2
2:  addi a1, a1, -1
    bnez a1, 1b
",
    );
    for (lanes, warps, cores) in [(8, 2, 1), (8, 4, 1), (4, 3, 2)] {
        let (_, end) = same(&src, &cfg(lanes, warps, cores));
        assert_eq!(end, RunEnd::AllHalted);
    }
}

/// Long phases on per-warp words (super-steps), between which every warp adds to a shared
/// counter without atomics and reads it back: the steps that reach the counter stop there
/// and the warps that ran past it are taken back (their own stores undone) and run again.
#[test]
fn a_shared_counter_between_private_memory_phases_matches() {
    let src = program(
        "
    la a3, arr
    slli t4, s1, 12
    add a3, a3, t4
    slli t4, s0, 7
    add a3, a3, t4
    slli t4, a0, 2
    add a3, a3, t4
    li a2, 0
    li s4, 6
5:  li a1, 500
    slli t4, s0, 5
    add a1, a1, t4
    add a1, a1, s4
1:  lw t6, 0(a3)
    add t6, t6, a1
    sw t6, 0(a3)
    add a2, a2, t6
    addi a1, a1, -1
    bnez a1, 1b
    la t0, shared
    lw t1, 0(t0)
    add t1, t1, s0
    addi t1, t1, 1
    sw t1, 0(t0)
    lw t2, 0(t0)
    add a2, a2, t2
    addi s4, s4, -1
    bnez s4, 5b
",
    );
    for (lanes, warps, cores) in [(8, 2, 1), (8, 4, 1), (4, 3, 2), (32, 4, 1), (1, 6, 1)] {
        let (m, end) = same(&src, &cfg(lanes, warps, cores));
        assert_eq!(end, RunEnd::AllHalted);
        let what = format!("{lanes} lanes, {warps} warps, {cores} cores");
        assert_super_steps_over(&m, 5, &what);
    }
}

/// Stores on every lane of 32-lane warps, three per iteration: more words than one step's
/// undo logs hold, so steps end at the bound on them.
#[test]
fn steps_with_more_stores_than_the_undo_logs_hold_match() {
    let src = program(
        "
    la a3, arr
    slli t4, s0, 9
    add a3, a3, t4
    slli t4, a0, 2
    add a3, a3, t4
    li a1, 40000
    li a2, 0
1:  sw a1, 0(a3)
    sw a2, 128(a3)
    sw a1, 256(a3)
    add a2, a2, a1
    addi a1, a1, -1
    bnez a1, 1b
",
    );
    let (m, end) = same(&src, &cfg(32, 4, 1));
    assert_eq!(end, RunEnd::AllHalted);
    let cycles = m.report().cycles;
    assert!(m.super_step_cycles() * 10 > cycles * 8);
}

#[test]
fn a_cycle_bound_inside_a_multi_warp_memory_step_stops_both_alike() {
    for bound in [1, 50, 333, 1000, 2345, 7777, 20_001] {
        let mut c = cfg(8, 4, 2);
        c.max_cycles = bound;
        let (m, end) = same(&grid_stride(100), &c);
        assert_eq!(end, RunEnd::CycleLimit(bound));
        assert_eq!(m.cycle, bound);
    }
}

/// The default (hot-threshold) engine, with its waits and declines, on memory kernels.
#[test]
fn the_default_engine_on_several_warps_with_memory_matches() {
    for src in [grid_stride(100), own_words(20_000)] {
        let mut a = machine(&src, &cfg(8, 4, 1), false);
        let mut b = machine(&src, &cfg(8, 4, 1), false);
        b.set_engine(Some(Box::new(Jit::new().expect("a Cranelift back end"))));
        assert_eq!(a.run(), b.run());
        assert_eq!(a.first_difference(&b, "interp", "jit"), None);
        assert!(b.super_step_cycles() > b.report().cycles / 2);
    }
}

/// Every warp increments shared bins without atomics in a loop (the warps meet in memory at
/// once, every time): attempts are given up and spaced out; the state must be the
/// interpreter's on both the eager and the default engine, across I/O events.
#[test]
fn warps_incrementing_shared_bins_match() {
    let src = program(
        "
    la a3, table
    li a1, 20000
    li a2, 0
1:  add t1, a1, a0
    andi t1, t1, 15
    slli t1, t1, 2
    add t1, t1, a3
    lw t2, 0(t1)
    addi t2, t2, 1
    sw t2, 0(t1)
    add a2, a2, t2
    addi a1, a1, -1
    bnez a1, 1b
",
    );
    for (lanes, warps, cores) in [(8, 4, 1), (4, 3, 2)] {
        let (_, end) = same(&src, &cfg(lanes, warps, cores));
        assert_eq!(end, RunEnd::AllHalted);
        let mut a = machine(&src, &cfg(lanes, warps, cores), false);
        let mut b = machine(&src, &cfg(lanes, warps, cores), false);
        b.set_engine(Some(Box::new(Jit::new().expect("a Cranelift back end"))));
        assert_eq!(a.run(), b.run());
        assert_eq!(a.first_difference(&b, "interp", "jit"), None);
    }
}

/// Warp 0 rewrites an instruction outside the decoded code (in the data segment, which is
/// fetched from memory afresh each time) while the other warps keep jumping to it and back:
/// such fetches are no part of a super-step.
#[test]
fn code_outside_the_decoded_range_that_another_warp_rewrites_matches() {
    let src = program(
        "
    li a2, 0
    li a1, 3000
    bnez s0, 2f
    la t0, patch
    li t1, 0x00260613
1:  addi a1, a1, -1
    li t2, 1500
    bne a1, t2, 3f
    sw t1, 0(t0)
3:  bnez a1, 1b
    j 4f
2:  j patch
back:
    addi a1, a1, -1
    bnez a1, 2b
4:
",
    )
    .replace(
        "    .data\n",
        "    .data\npatch:\n    addi a2, a2, 1\n    j back\n    .balign 64\n",
    );
    for (lanes, warps, cores) in [(8, 2, 1), (4, 3, 1)] {
        let (_, end) = same(&src, &cfg(lanes, warps, cores));
        assert_eq!(end, RunEnd::AllHalted);
    }
}

/// A random loop body of integer operations and word loads and stores (sometimes misaligned:
/// the interpreter's slow path) on several warps, whose words are the warp's own (`shared`
/// false: arr + 1024·warp + 8192·core + 4·lane, plus 0, 128 or 256) or the same for every
/// warp (`shared`: the warps meet everywhere).
fn random_memory_kernel(ops: &[(u8, u8, u8, u8, i32)], iters: u32, shared: bool) -> String {
    const REGS: [&str; 6] = ["a1", "a2", "a3", "a4", "a5", "a6"];
    const RR: [&str; 6] = ["add", "sub", "xor", "or", "mul", "sltu"];
    let mut body = String::new();
    for &(kind, rd, rs1, rs2, imm) in ops {
        let (rd, rs1, rs2) = (
            REGS[rd as usize % 6],
            REGS[rs1 as usize % 6],
            REGS[rs2 as usize % 6],
        );
        let off = (imm as u32 % 3) * 128 + if imm % 11 == 0 { 2 } else { 0 };
        let line = match kind % 5 {
            0 => format!("sw {rs2}, {off}(s4)"),
            1 => format!("lw {rd}, {off}(s4)"),
            2 => format!("addi {rd}, {rs1}, {}", imm % 2048),
            _ => format!("{} {rd}, {rs1}, {rs2}", RR[kind as usize / 5 % RR.len()]),
        };
        body.push_str("    ");
        body.push_str(&line);
        body.push('\n');
    }
    let place = if shared {
        ""
    } else {
        "    slli t4, s0, 10
    add s4, s4, t4
    slli t4, s1, 13
    add s4, s4, t4
"
    };
    program(&format!(
        "
    la s4, arr
{place}    slli t4, a0, 2
    add s4, s4, t4
    mul a1, a0, s0
    addi a2, s0, -3
    xori a3, a0, 0x5a5
    add a4, s0, s1
    li a5, 7
    li a6, -1
    li t1, {iters}
1:
{body}    addi t1, t1, -1
    bnez t1, 1b
    add a2, a2, a1
    xor a2, a2, a3
    add a2, a2, a4
    xor a2, a2, a5
    add a2, a2, a6
"
    ))
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 40, ..Default::default() })]
    #[test]
    fn random_memory_kernels_on_several_warps_match(
        ops in proptest::collection::vec(
            (proptest::prelude::any::<u8>(), 0u8..6, 0u8..6, 0u8..6, proptest::prelude::any::<i32>()),
            1..24,
        ),
        iters in 20u32..400,
        shape in proptest::sample::select(vec![(8usize, 4usize, 1usize), (4, 3, 2), (32, 2, 1), (1, 5, 1)]),
        shared in proptest::prelude::any::<bool>(),
    ) {
        let (lanes, warps, cores) = shape;
        same(&random_memory_kernel(&ops, iters, shared), &cfg(lanes, warps, cores));
    }
}

//! Diverged warps in super-steps (docs/engine.md § Diverged warps): a warp with open
//! divergence entries runs translated code up to the first pc where it may reconverge, and
//! the interpreter reconverges it there. Each program runs on the interpreter and the block
//! engine, which must end with the same whole state (registers, memory, statistics — the
//! divergences, reconvergences and deepest stack included — and cycles); each test also
//! checks the diverged groups' loops really ran in super-steps and that the results are what
//! the test computes itself. And: code one lane class cannot run in blocks (refused after a
//! probation with all lanes active) still runs in scalar translations with one lane.

mod common;

use common::{machine, out_addr, same, shape, SPAWN_ALL, STORE_OUTPUTS};
use weft_jit::Jit;
use weft_simt::{Config, Machine, RunEnd};

/// Every warp runs `body` (s0 = thread id, s1 = warp id, a0–a2 zero), stores a0–a2 of each
/// thread to `out` (a0 at `out + 128 × warp + 4 × thread`, a1 1024 bytes on, a2 2048) and
/// halts. `funcs` follows the kernel.
fn kernel(body: &str, funcs: &str) -> String {
    format!(
        "{SPAWN_ALL}    csrr s0, thread_id
    csrr s1, warp_id
    li a0, 0
    li a1, 0
    li a2, 0
{body}
{STORE_OUTPUTS}{funcs}
    .data
out: .zero 4096
"
    )
}

/// The words a0, a1, a2 the program stored for thread `t` of warp `w`, `out` being the
/// program's `out` ([`out_addr`]).
fn outputs(m: &Machine, out: u32, w: u32, t: u32) -> [u32; 3] {
    let base = out + 128 * w + 4 * t;
    [0, 1024, 2048].map(|o| m.mem.load(0, base + o, 4).expect("out is in memory"))
}

fn cfg(lanes: usize, warps: usize) -> Config {
    shape(lanes, warps, 1, 50_000_000)
}

/// Odd lanes run a loop of `n` iterations inside the `if` of a divergent branch; every lane
/// then runs a second loop after the reconvergence point, which a translation of the first
/// loop's exit path would reach.
fn if_loop(n: u32) -> String {
    kernel(
        &format!(
            "    andi t0, s0, 1
    beqz t0, 2f
    li t5, {n}
1:  add a0, a0, t5
    xor a1, a1, a0
    addi t5, t5, -1
    bnez t5, 1b
2:  li t5, 100
3:  addi a2, a2, 3
    addi t5, t5, -1
    bnez t5, 3b"
        ),
        "",
    )
}

/// What `if_loop(n)` leaves in thread `t`'s a0, a1, a2, computed here.
fn if_loop_want(n: u32, t: u32) -> [u32; 3] {
    let (mut a0, mut a1) = (0u32, 0u32);
    if t & 1 == 1 {
        for k in (1..=n).rev() {
            a0 = a0.wrapping_add(k);
            a1 ^= a0;
        }
    }
    [a0, a1, 300]
}

#[test]
fn a_diverged_group_runs_its_loop_in_super_steps_and_reconverges_exactly() {
    let n = 20_000;
    let src = if_loop(n);
    let out = out_addr(&src);
    for (lanes, warps) in [(8, 1), (8, 4), (32, 1), (2, 3), (4, 2)] {
        let what = format!("{lanes}×{warps}");
        let (m, end) = same(&src, &cfg(lanes, warps));
        assert_eq!(end, RunEnd::AllHalted, "{what}");
        // The loop (4 instructions × n per warp) is most of the run.
        let cycles = m.report().cycles;
        assert!(
            m.super_step_cycles() * 10 > cycles * 8,
            "{what}: {} of {cycles} cycles in super-steps",
            m.super_step_cycles()
        );
        // Each warp diverged once and reconverged.
        let r = m.report();
        assert_eq!(r.divergences, warps as u64, "{what}");
        assert_eq!(r.max_divergence_depth, 1, "{what}");
        for w in 0..warps as u32 {
            for t in 0..lanes as u32 {
                assert_eq!(
                    outputs(&m, out, w, t),
                    if_loop_want(n, t),
                    "{what} warp {w} thread {t}"
                );
            }
        }
    }
}

#[test]
fn cycle_bounds_inside_a_diverged_loop_match() {
    let src = if_loop(3_000);
    for bound in [5, 17, 64, 1_000, 4_321, 9_999, 12_007] {
        for (lanes, warps) in [(8, 1), (8, 3)] {
            let mut c = cfg(lanes, warps);
            c.max_cycles = bound;
            let (m, end) = same(&src, &c);
            assert_eq!(end, RunEnd::CycleLimit(bound), "{lanes}×{warps}");
            assert_eq!(m.cycle, bound);
        }
    }
}

/// Nested divergence: lanes split by bit 0, then by bit 1 inside, each inner group looping;
/// the inner reconvergence point lies inside the outer group's straight code, which a
/// translation covering it must not run past.
#[test]
fn nested_divergent_loops_stop_at_every_reconvergence_point() {
    let src = kernel(
        "    andi t0, s0, 1
    beqz t0, 5f
    andi t1, s0, 2
    beqz t1, 2f
    li t5, 5000
1:  addi a0, a0, 7
    addi t5, t5, -1
    bnez t5, 1b
    j 3f
2:  li t5, 3000
4:  addi a0, a0, 11
    addi t5, t5, -1
    bnez t5, 4b
3:  addi a1, a1, 1
    slli a1, a1, 3
    add a1, a1, s0
    li t5, 2000
6:  addi a2, a2, 1
    addi t5, t5, -1
    bnez t5, 6b
5:  addi a2, a2, 5",
        "",
    );
    let out = out_addr(&src);
    for (lanes, warps) in [(8, 1), (8, 2), (32, 1), (4, 3)] {
        let what = format!("{lanes}×{warps}");
        let (m, end) = same(&src, &cfg(lanes, warps));
        assert_eq!(end, RunEnd::AllHalted, "{what}");
        assert_eq!(m.report().max_divergence_depth, 2, "{what}");
        let cycles = m.report().cycles;
        assert!(
            m.super_step_cycles() * 10 > cycles * 7,
            "{what}: {} of {cycles} cycles in super-steps",
            m.super_step_cycles()
        );
        for w in 0..warps as u32 {
            for t in 0..lanes as u32 {
                let want = if t & 1 == 0 {
                    [0, 0, 5]
                } else {
                    let a0 = if t & 2 != 0 { 7 * 5000 } else { 11 * 3000 };
                    [a0, 8 + t, 2005]
                };
                assert_eq!(outputs(&m, out, w, t), want, "{what} warp {w} thread {t}");
            }
        }
    }
}

/// One-lane groups (two lanes split) calling a function whose divergent branch reconverges
/// at the function's exit (two returns): scalar translations with calls and returns run the
/// loops, never a return while that entry is open.
#[test]
fn one_lane_groups_with_calls_and_an_exit_reconvergence_match() {
    let src = kernel(
        "    li t6, 300
7:  andi a6, s0, 1
    call f
    addi t6, t6, -1
    bnez t6, 7b",
        "f:
    beqz a6, 2f
    li t5, 40
1:  addi a0, a0, 3
    xor a1, a1, a0
    addi t5, t5, -1
    bnez t5, 1b
    ret
2:  li t5, 25
3:  addi a2, a2, 1
    addi t5, t5, -1
    bnez t5, 3b
    ret",
    );
    let out = out_addr(&src);
    for (lanes, warps) in [(2, 1), (2, 4), (1, 2), (8, 1)] {
        let what = format!("{lanes}×{warps}");
        let (m, end) = same(&src, &cfg(lanes, warps));
        assert_eq!(end, RunEnd::AllHalted, "{what}");
        if lanes == 2 {
            assert!(m.report().divergences >= 300 * warps as u64, "{what}");
            // The groups' loops (300 × (40 × 4 + 25 × 3) instructions a warp) ran mostly in
            // scalar translations.
            let loops = 300 * 235 * warps as u64;
            let scalar = m.engine_counts().scalar;
            assert!(
                scalar * 2 > loops,
                "{what}: {scalar} in scalar translations"
            );
        }
        for w in 0..warps as u32 {
            for t in 0..lanes as u32 {
                let (mut a0, mut a1, mut a2) = (0u32, 0u32, 0u32);
                for _ in 0..300 {
                    if t & 1 == 1 {
                        for _ in 0..40 {
                            a0 = a0.wrapping_add(3);
                            a1 ^= a0;
                        }
                    } else {
                        a2 += 25;
                    }
                }
                assert_eq!(
                    outputs(&m, out, w, t),
                    [a0, a1, a2],
                    "{what} warp {w} thread {t}"
                );
            }
        }
    }
}

/// A loop whose head is an `if` the lanes disagree on every iteration is dropped after its
/// probation with all lanes active; the same loop, run again by one lane, still runs in a
/// scalar translation (a refusal holds for one lane class).
#[test]
fn a_loop_refused_for_all_lanes_still_runs_scalar_on_one_lane() {
    let src = kernel(
        "    call f
    li t0, 1
    csrw tmask, t0
    call f",
        "f:
    li a1, 300000
    li a2, 0
    andi a6, s0, 1
1:  beqz a6, 2f
    addi a2, a2, 3
    xor a2, a2, a1
    j 3f
2:  addi a2, a2, 5
    sub a2, a2, a1
3:  addi a1, a1, -1
    bnez a1, 1b
    ret",
    );
    let out = out_addr(&src);
    let c = cfg(8, 1);
    let mut a = machine(&src, &c, false);
    let mut b = machine(&src, &c, false);
    b.set_engine(Some(Box::new(Jit::new().expect("a Cranelift back end"))));
    assert_eq!(a.run(), RunEnd::AllHalted);
    assert_eq!(b.run(), RunEnd::AllHalted);
    if let Some(d) = a.first_difference(&b, "interp", "jit") {
        panic!("engines differ: {d}");
    }
    let counts = b.engine_counts();
    assert!(counts.dropped >= 1, "{counts:?}");
    // Lane 0's pass is 300,000 iterations of 5 instructions: most of it in the engine.
    assert!(
        counts.scalar > 1_200_000,
        "{} warp-instructions in scalar translations",
        counts.scalar
    );
    let mut want = 0u32;
    for n in (1..=300_000u32).rev() {
        want = want.wrapping_add(5).wrapping_sub(n);
    }
    assert_eq!(outputs(&b, out, 0, 0)[2], want);
}

//! Regions: loops whose body has its own control flow (an if/else the lanes agree on, an
//! inner loop) run as one translated region, with the same final state, statistics and
//! cycles as the interpreter — including when the lanes disagree at a branch inside the
//! region, when the memory port refuses an access in a later block of it, and when a cycle
//! bound falls anywhere inside it. Each test also checks the region really ran translated, so
//! it fails if regions silently stop forming.

mod common;

use common::{assert_super_steps_over, machine, out_addr, same, shape, SPAWN_ALL, STORE_OUTPUTS};
use weft_jit::Jit;
use weft_simt::{Config, RunEnd};

fn cfg(lanes: usize, warps: usize) -> Config {
    shape(lanes, warps, 1, 20_000_000)
}

/// Every warp of the machine runs `body` (which may use s0 = thread id, s1 = warp id), then
/// stores a0–a2 per thread and halts.
fn kernel(body: &str) -> String {
    format!(
        "{SPAWN_ALL}    csrr s0, thread_id
    csrr s1, warp_id
{body}
{STORE_OUTPUTS}    .data
out: .zero 4096
"
    )
}

/// A loop of 11–12 instructions whose body is an if/else on the (uniform) iteration count:
/// four basic blocks, none of 8 instructions, none looping on itself.
fn if_else_loop(iter: u32) -> String {
    kernel(&format!(
        "    li t5, {iter}
    li t4, 0
    li a1, 7
    lui a2, 0x12345
    mv a0, s0
1:  mul a3, a0, a1
    add a2, a2, a3
    sltu a4, a2, a3
    xor a1, a1, a4
    srai a5, a2, 3
    andi t0, t4, 1
    beqz t0, 2f
    addi a0, a0, 3
    sub a2, a2, a5
    j 3f
2:  addi a0, a0, -1
    or a2, a2, a5
3:  addi t4, t4, 1
    blt t4, t5, 1b"
    ))
}

/// An inner loop of three instructions inside an outer loop of five.
fn nested_loops(outer: u32) -> String {
    kernel(&format!(
        "    li t5, {outer}
    mv a0, s0
    li a2, 1
1:  li t4, 6
2:  add a0, a0, a2
    addi t4, t4, -1
    bnez t4, 2b
    xor a2, a2, a0
    addi a1, a1, 1
    addi t5, t5, -1
    bnez t5, 1b"
    ))
}

fn default_engine(src: &str, c: &Config) -> (weft_simt::Machine, weft_simt::Machine) {
    let mut a = machine(src, c, false);
    let mut b = machine(src, c, false);
    b.set_engine(Some(Box::new(Jit::new().expect("a Cranelift back end"))));
    let (ea, eb) = (a.run(), b.run());
    assert_eq!(ea, eb, "run ends differ");
    assert_eq!(ea, RunEnd::AllHalted);
    if let Some(d) = a.first_difference(&b, "interp", "jit") {
        panic!("engines differ: {d}");
    }
    (a, b)
}

#[test]
fn a_loop_with_an_if_else_runs_as_one_region_on_the_default_engine() {
    for (lanes, warps) in [(8, 1), (8, 4), (32, 1), (4, 2)] {
        let (_, b) = default_engine(&if_else_loop(100_000), &cfg(lanes, warps));
        // Nearly all of it in super-steps: the region loops inside the translated code (and
        // it pays: no translation dropped).
        assert_super_steps_over(&b, 9, &format!("{lanes}×{warps}"));
        assert_eq!(b.engine_counts().dropped, 0, "{lanes}×{warps}");
    }
}

#[test]
fn nested_loops_run_as_one_region() {
    for (lanes, warps) in [(8, 1), (8, 4), (32, 2)] {
        let (_, b) = default_engine(&nested_loops(100_000), &cfg(lanes, warps));
        assert_super_steps_over(&b, 9, &format!("{lanes}×{warps}"));
    }
}

#[test]
fn lanes_disagreeing_inside_a_region_leave_it_exactly() {
    // Every 16th iteration the inner if depends on the lane: the warp leaves the region at a
    // branch in a later block, the interpreter splits and reconverges it, and it comes back.
    let src = kernel(
        "    li t5, 300
    li t4, 0
    mv a0, s0
1:  andi t0, t4, 15
    bnez t0, 2f
    andi t1, s0, 1
    beqz t1, 2f
    addi a2, a2, 5
2:  add a0, a0, t4
    addi a1, a1, 1
    addi t4, t4, 1
    blt t4, t5, 1b",
    );
    for (lanes, warps) in [(8, 1), (8, 3), (32, 1), (1, 2)] {
        let (m, end) = same(&src, &cfg(lanes, warps));
        assert_eq!(end, RunEnd::AllHalted);
        assert!(m.super_step_cycles() > 0, "{lanes}×{warps}: no super-step");
        // The result, computed here: a2 = 5 × (odd lane ? 300/16 rounded up : 0).
        let base = out_addr(&src);
        let out = |i: u32, t: u32| m.mem.load(0, base + 2048 + 4 * i + 128 * t, 4);
        for lane in 0..lanes as u32 {
            let want = if lane & 1 == 1 { 5 * 19 } else { 0 };
            assert_eq!(out(lane, 0).unwrap(), want, "{lanes}×{warps} lane {lane}");
        }
    }
}

#[test]
fn a_refused_access_in_a_later_block_and_cycle_bounds_anywhere_match() {
    // The if side writes the console (a device: the port refuses it) every 64th iteration.
    let src = kernel(
        "    li t5, 400
    li t4, 0
    li t6, 0xffffff00
    la t3, out
1:  andi t0, t4, 63
    bnez t0, 2f
    li t1, 46
    sw t1, 0(t6)
    lw a2, 0(t3)
2:  add a0, a0, t4
    addi a1, a1, 1
    addi t4, t4, 1
    blt t4, t5, 1b",
    );
    let (m, end) = same(&src, &cfg(8, 2));
    assert_eq!(end, RunEnd::AllHalted);
    assert!(m.super_step_cycles() > 0);
    for bound in [3, 50, 333, 777, 1234, 2001] {
        let mut c = cfg(8, 2);
        c.max_cycles = bound;
        let (m, end) = same(&src, &c);
        assert_eq!(end, RunEnd::CycleLimit(bound));
        assert_eq!(m.cycle, bound);
    }
}

/// A loop whose head is an `if` the lanes disagree on every iteration: its region (entered
/// reconverged, at the head) leaves at once each time. The default engine drops such a
/// translation after its probation (counted), and the loop runs in the interpreter.
#[test]
fn a_region_whose_lanes_disagree_at_once_is_dropped_after_its_probation() {
    let src = kernel(
        "    li a1, 300000
    li a2, 0
    andi a6, s0, 1
1:  beqz a6, 2f
    addi a2, a2, 3
    xor a2, a2, a1
    j 3f
2:  addi a2, a2, 5
    sub a2, a2, a1
3:  addi a1, a1, -1
    bnez a1, 1b",
    );
    for (lanes, warps) in [(8, 1), (32, 1), (8, 4)] {
        let (a, b) = default_engine(&src, &cfg(lanes, warps));
        let cycles = b.report().cycles;
        assert!(
            b.super_step_cycles() * 100 < cycles,
            "{lanes}×{warps}: {} of {cycles} cycles in super-steps",
            b.super_step_cycles()
        );
        let counts = b.engine_counts();
        assert!(
            counts.translated >= 1 && counts.dropped >= 1,
            "{lanes}×{warps}: {counts:?}"
        );
        // The result, computed here: odd lanes add 3 and xor the count, even ones add 5 and
        // subtract it, from 300,000 down to 1.
        let base = out_addr(&src);
        for lane in 0..lanes as u32 {
            let mut want = 0u32;
            for n in (1..=300_000u32).rev() {
                want = if lane & 1 == 1 {
                    want.wrapping_add(3) ^ n
                } else {
                    want.wrapping_add(5).wrapping_sub(n)
                };
            }
            let got = a.mem.load(0, base + 1024 * 2 + 4 * lane, 4).unwrap();
            assert_eq!(got, want, "{lanes}×{warps} lane {lane}");
        }
    }
}

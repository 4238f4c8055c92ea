//! Scalar translations (docs/engine.md § One active lane): a warp with exactly one active
//! lane runs regions specialised to that lane. Each program runs on both engines and must
//! leave the same whole state (registers, counters, cycles, memory, end); the one lane's
//! results are also checked against a reference computed here on the host, and the engine's
//! counts must show the scalar translations ran most of the work — for lane 0 and for lanes
//! that are not lane 0 (the lane is a parameter of the translation).

mod common;

use common::{same, shape, CALLEES};
use weft_simt::{Machine, RunEnd};

/// Words each loop walks.
const N: u32 = 700;

/// One lane (`lane`) alone from the start (`tmc`): it fills `arr` with i·7 + 3 + lane, then
/// walks it with loads, a multiply, a division and a remainder (the lane-by-lane operations),
/// a byte store and a signed and an unsigned byte load every step, a float multiply-add and
/// conversions; then halts with the integer sum in `a0`, the float sum converted to an
/// integer in `a1` and the byte sums in `a2`.
fn one_lane_program(lane: usize) -> String {
    format!(
        "
    .globl _start
_start:
    li t0, {mask}
    tmc t0
    csrr s0, thread_id
    li t0, 0x6000
    csrs mstatus, t0
    la t0, arr
    li t1, 0
    li t2, {N}
1:  slli t3, t1, 3
    sub t3, t3, t1
    addi t3, t3, 3
    add t3, t3, s0
    sw t3, 0(t0)
    addi t0, t0, 4
    addi t1, t1, 1
    blt t1, t2, 1b
    la t0, arr
    la s1, bytes
    li t1, 0
    li a0, 0
    li a2, 0
    fcvt.s.w ft0, zero
    li t4, 0x3f000000
    fmv.w.x ft1, t4
2:  lw t3, 0(t0)
    addi t4, t1, 1
    mul t5, t3, t4
    li t6, 3
    div t5, t5, t6
    li t6, 5
    rem t6, t3, t6
    xor t5, t5, t6
    add a0, a0, t5
    sb t3, 0(s1)
    lbu t6, 0(s1)
    add a2, a2, t6
    lb t6, 0(s1)
    slli t6, t6, 8
    add a2, a2, t6
    fcvt.s.w ft2, t3
    fmadd.s ft0, ft2, ft1, ft0
    addi t0, t0, 4
    addi t1, t1, 1
    bltu t1, t2, 2b
    fcvt.w.s a1, ft0
    csrw tmask, zero
    .data
    .balign 64
bytes: .zero 64
arr: .zero {bytes}
",
        mask = 1u32 << lane,
        bytes = 4 * N,
    )
}

/// What `one_lane_program(lane)` leaves in a0, a1 and a2, computed on the host.
fn one_lane_reference(lane: usize) -> [u32; 3] {
    let (mut a0, mut acc, mut a2) = (0u32, 0f32, 0u32);
    for i in 0..N {
        let v = (i * 7 + 3 + lane as u32) as i32;
        let q = v.wrapping_mul(i as i32 + 1) / 3;
        a0 = a0.wrapping_add((q ^ (v % 5)) as u32);
        a2 = a2
            .wrapping_add(v as u32 & 0xff)
            .wrapping_add(((v as u8 as i8 as i32) << 8) as u32);
        acc = (v as f32).mul_add(0.5, acc);
    }
    [a0, acc.round_ties_even() as i32 as u32, a2]
}

fn scalar(m: &Machine) -> u64 {
    m.engine_counts().scalar
}

/// Run `program(lane)` at each of `widths` lanes on lanes 0, n/2 and n−1 of one warp, on both
/// engines (the same whole state); each must halt and run more than `percent` % of its
/// warp-instructions in scalar translations; `check` then looks at the jit's machine.
fn on_every_lane(
    widths: &[usize],
    percent: u64,
    program: impl Fn(usize) -> String,
    check: impl Fn(&Machine, usize, &str),
) {
    for &lanes in widths {
        for lane in [0, lanes / 2, lanes - 1] {
            let at = format!("{lanes} lanes, lane {lane}");
            let (m, end) = same(&program(lane), &shape(lanes, 1, 1, 10_000_000));
            assert!(matches!(end, RunEnd::AllHalted), "{at}: {end:?}");
            check(&m, lane, &at);
            let instret = m.report().warp_instructions;
            assert!(
                scalar(&m) * 100 > instret * percent,
                "{at}: {} of {instret} warp-instructions in scalar translations",
                scalar(&m)
            );
        }
    }
}

#[test]
fn one_lane_loops_run_scalar_on_every_lane_and_match() {
    // The loops, byte accesses included, all but their first passes (before the
    // translation) and the set-up around them: over 90 %.
    on_every_lane(&[1, 4, 8, 32], 90, one_lane_program, |m, lane, at| {
        let w = &m.cores[0].warps[0];
        let got = [w.x[10][lane], w.x[11][lane], w.x[12][lane]];
        assert_eq!(got, one_lane_reference(lane), "{at}");
    });
}

/// Two lanes active (both walking the same words): no scalar translation (the lanes may
/// disagree at a branch); the engines still agree on everything.
#[test]
fn two_lanes_take_no_scalar_translation() {
    let src = one_lane_program(0).replace("li t0, 1\n    tmc t0", "li t0, 5\n    tmc t0");
    let (m, end) = same(&src, &shape(8, 1, 1, 10_000_000));
    assert!(matches!(end, RunEnd::AllHalted), "{end:?}");
    // Only the `li` before the `tmc` (lane 0 alone) ran scalar.
    assert_eq!(scalar(&m), 1);
    assert!(m.super_step_cycles() > 5_000, "{}", m.super_step_cycles());
}

/// Several warps, each on one lane of its own (warp w on lane w mod lanes), in super-steps
/// over several warps: every warp's loop runs scalar, and a warp's stores into a word the
/// next warp reads (a ring of shared words) keep the interleaving's result.
#[test]
fn one_lane_warps_in_super_steps_match() {
    let src = RING;
    for lanes in [4, 8, 32] {
        let (m, end) = same(src, &shape(lanes, 4, 1, 10_000_000));
        assert!(matches!(end, RunEnd::AllHalted), "{lanes} lanes: {end:?}");
        assert!(
            scalar(&m) > 4 * 600 * 5,
            "{lanes} lanes: {} warp-instructions in scalar translations",
            scalar(&m)
        );
    }
}

/// The same with a byte store and load in the loop, which a super-step over several warps
/// leaves to the interpreter (the port records words only): the warps' shares end there
/// exactly, and the engines still agree on everything.
#[test]
fn one_lane_warps_with_byte_accesses_in_super_steps_match() {
    let src = RING.replace(
        "    sw t6, 0(t5)\n",
        "    sw t6, 0(t5)\n    sb t4, 1(t5)\n    lbu t6, 2(t5)\n    add a0, a0, t6\n",
    );
    assert_ne!(src, RING);
    for lanes in [4, 8, 32] {
        let (_, end) = same(&src, &shape(lanes, 4, 1, 10_000_000));
        assert!(matches!(end, RunEnd::AllHalted), "{lanes} lanes: {end:?}");
    }
}

/// Four warps, warp w on lane w mod lanes alone, each looping over a ring word its
/// neighbour writes and a page of its own.
const RING: &str = "
    .globl _start
_start:
    la t0, body
    csrw spawn_pc, t0
    li t0, -1
    csrw warp_active, t0
body:
    csrr s0, warp_id
    csrr s2, num_threads
    remu t0, s0, s2
    li t1, 1
    sll t1, t1, t0
    tmc t1
    la s1, ring
    slli t0, s0, 2
    add s3, s1, t0
    addi t0, s0, 1
    andi t0, t0, 3
    slli t0, t0, 2
    add s4, s1, t0
    la s5, own
    slli t0, s0, 12
    add s5, s5, t0
    li t1, 0
    li t2, 600
    li a0, 0
1:  lw t3, 0(s4)
    add a0, a0, t3
    mul t4, t1, t1
    add t4, t4, s0
    sw t4, 0(s3)
    andi t5, t1, 255
    slli t5, t5, 2
    add t5, t5, s5
    lw t6, 0(t5)
    add t6, t6, t4
    sw t6, 0(t5)
    addi t1, t1, 1
    blt t1, t2, 1b
    la t0, sums
    slli t1, s0, 2
    add t0, t0, t1
    sw a0, 0(t0)
    csrw tmask, zero
    .data
    .balign 64
ring: .zero 16
sums: .zero 16
    .balign 4096
own: .zero 16384
";

/// Byte and halfword accesses off the direct path, each executed by the interpreter at its
/// exact place inside a scalar translation's loop: a store into the page holding the code (a
/// byte equal to the one there: the decoded code is dropped all the same), a store while an
/// LR reservation is open on the page (the store breaks it, the SC fails), halfword loads
/// and stores (signed and unsigned) on the direct path and misaligned ones (which the
/// interpreter does, byte by byte).
#[test]
fn byte_and_halfword_accesses_off_the_direct_path_match() {
    let src = "
    .globl _start
_start:
    li t0, 4
    tmc t0
    la s1, half
    la s2, _start
    li t1, 0
    li t2, 300
    li a0, 0
1:  addi t3, t1, -150
    slli t3, t3, 7
    sh t3, 2(s1)
    lh t4, 2(s1)
    lhu t5, 2(s1)
    add a0, a0, t4
    xor a0, a0, t5
    sh t3, 5(s1)
    lhu t4, 5(s1)
    add a0, a0, t4
    andi t6, t1, 63
    bnez t6, 2f
    lbu t4, 0(s2)
    sb t4, 0(s2)
    lr.w t5, (s1)
    sb t1, 1(s1)
    li t4, 9
    sc.w t5, t4, (s1)
    add a0, a0, t5
2:  addi t1, t1, 1
    blt t1, t2, 1b
    sh a0, 9(s1)
    csrw tmask, zero
    .data
    .balign 64
half: .zero 64
";
    for lanes in [4, 8, 32] {
        let (m, end) = same(src, &shape(lanes, 1, 1, 10_000_000));
        assert!(matches!(end, RunEnd::AllHalted), "{lanes} lanes: {end:?}");
        // Most passes run the loop's aligned accesses in scalar translations (measured at 4
        // lanes: 2,988 warp-instructions; each pass re-enters the translation after
        // the misaligned halfwords, its first access through the port's helper, which opens
        // the page window for the next two: 300 accesses on the direct path; the store into
        // the code drops every translation each 64 passes).
        let counts = m.engine_counts();
        assert!(counts.scalar > 2500, "{lanes} lanes: {counts:?}");
        assert!(counts.direct >= 250, "{lanes} lanes: {counts:?}");
    }
}

/// Passes of the calls loop.
const CALLS_N: u32 = 400;

/// One lane (`lane`) alone calls functions every pass of a loop, in every form the
/// interpreter's `jal`/`jalr` handlers run: a `jal` call; `call` (`auipc` + `jalr`) into a
/// function that saves `ra` on a stack, calls another and tail-calls a third (`tail`:
/// `jalr x0` through `t1`); an indirect call through a table of function pointers; `c.jal`
/// to a function returning with `c.jr`; `c.jalr`; a call linking `t0` returned from by
/// `jr t0`; and a recursion whose leaf reads `call_depth` (the interpreter's CSR read: the
/// call stack the translations kept). Halts with the sum in `a0`, the depth sum in `a1`.
fn calls_program(lane: usize) -> String {
    format!(
        "
    .globl _start
_start:
    li t0, {mask}
    tmc t0
    csrr s0, thread_id
    la sp, stack_top
    li s1, 0
    li s2, {CALLS_N}
    li s3, 0
    li s4, 0
    la s5, table
1:  add a0, s1, s0
    jal ra, f1
    add s3, s3, a0
    mv a0, s1
    call f2
    add s3, s3, a0
    andi t0, s1, 1
    slli t0, t0, 2
    add t0, t0, s5
    lw t1, 0(t0)
    mv a0, s1
    jalr ra, 0(t1)
    xor s3, s3, a0
    mv a0, s1
    c.jal f5
    add s3, s3, a0
    la t1, f6
    mv a0, s1
    c.jalr t1
    add s3, s3, a0
    mv a0, s1
    jal t0, f7
    add s3, s3, a0
    andi a0, s1, 3
    call rec
    add s4, s4, a0
    addi s1, s1, 1
    blt s1, s2, 1b
    mv a0, s3
    mv a1, s4
    csrw tmask, zero
{CALLEES}    .data
    .balign 64
table: .word f1, f4
stack: .zero 1024
stack_top:
",
        mask = 1u32 << lane,
    )
}

/// What `calls_program(lane)` leaves in a0 and a1, computed on the host.
fn calls_reference(lane: usize) -> [u32; 2] {
    let f1 = |a: u32| a.wrapping_mul(3).wrapping_add(1);
    let f4 = |a: u32| a.wrapping_mul(a).wrapping_sub(7);
    let (mut s3, mut s4) = (0u32, 0u32);
    for i in 0..CALLS_N {
        s3 = s3.wrapping_add(f1(i + lane as u32));
        s3 = s3.wrapping_add(f1(i + 5) ^ 0x55);
        s3 ^= if i & 1 == 0 { f1(i) } else { f4(i) };
        s3 = s3.wrapping_add(i + 100);
        s3 = s3.wrapping_add(i << 2);
        s3 = s3.wrapping_add(i.wrapping_sub(9));
        // rec(n) at depth 1 recurses to rec(0) at depth n + 1, which returns its depth; each
        // level adds its n.
        let n = i & 3;
        s4 = s4.wrapping_add(n + 1 + n * (n + 1) / 2);
    }
    [s3, s4]
}

#[test]
fn one_lane_calls_and_returns_run_scalar_and_match() {
    // Everything but the leaf's CSR read each pass, the set-up and the first pass: over 90 %.
    on_every_lane(&[1, 4, 8, 32], 90, calls_program, |m, lane, at| {
        let w = &m.cores[0].warps[0];
        let got = [w.x[10][lane], w.x[11][lane]];
        assert_eq!(got, calls_reference(lane), "{at}");
        assert_eq!(w.calls.depth(), 0, "{at}: every call returned");
    });
}

/// Passes of the float-CSR loop.
const CSR_N: u32 = 300;

/// One lane (`lane`) alone reads `frm`, `fflags` and `fcsr` every pass (`frrm`, `frflags`,
/// `frcsr`, and `csrrci` with a zero immediate: reads that write nothing), in a function it
/// calls as soft-float routines do; every 16th pass it writes `fflags` (a CSR write: the
/// interpreter's) and every 32nd it makes the float state Clean (the next read, which sets
/// it Dirty again, is the interpreter's), the first read of all with the state Initial.
/// Halts with the sum in `a0` and `mstatus` (Dirty again) in `a1`.
fn csr_program(lane: usize) -> String {
    format!(
        "
    .globl _start
_start:
    li t0, {mask}
    tmc t0
    la sp, stack_top
    li t0, 0x2000
    csrs mstatus, t0
    frrm a0
    fsrmi 3
    li s1, 0
    li s2, {CSR_N}
1:  andi t0, s1, 15
    bnez t0, 2f
    andi t0, s1, 31
    fsflags t0
2:  andi t0, s1, 31
    bnez t0, 3f
    li t0, 0x2000
    csrc mstatus, t0
3:  call reads
    addi s1, s1, 1
    blt s1, s2, 1b
    csrr a1, mstatus
    csrw tmask, zero
reads:
    frrm t3
    add a0, a0, t3
    frflags t4
    add a0, a0, t4
    frcsr t5
    xor a0, a0, t5
    csrrci t6, fflags, 0
    add a0, a0, t6
    ret
    .data
    .balign 64
stack: .zero 256
stack_top:
",
        mask = 1u32 << lane,
    )
}

/// What `csr_program` leaves in a0, computed on the host.
fn csr_reference() -> u32 {
    // The first read (frm 0 at reset) adds 0.
    let (mut a0, mut flags) = (0u32, 0u32);
    for i in 0..CSR_N {
        if i % 16 == 0 {
            flags = i & 31;
        }
        a0 = a0.wrapping_add(3).wrapping_add(flags);
        a0 ^= 3 << 5 | flags;
        a0 = a0.wrapping_add(flags);
    }
    a0
}

/// Soft-float's way of raising flags: `csrs fflags, rs` and `csrsi fflags, k` (the old flags
/// to `rd` in some), in a loop with reads between, the lane's flags cleared every 8 passes.
fn fflags_program(lane: usize) -> String {
    format!(
        "
    .globl _start
_start:
    li t0, {mask}
    tmc t0
    li t0, 0x2000
    csrs mstatus, t0
    li a0, 0
    li s1, 0
    li s2, {CSR_N}
1:  andi t0, s1, 7
    bnez t0, 2f
    fsflags zero
2:  srli t1, s1, 3
    xori t1, t1, 0x35
    csrs fflags, t1
    frflags t2
    add a0, a0, t2
    csrrs t3, fflags, s1
    slli t3, t3, 5
    add a0, a0, t3
    csrsi fflags, 16
    frcsr t4
    xor a0, a0, t4
    addi s1, s1, 1
    blt s1, s2, 1b
    frflags a1
    csrw tmask, zero
",
        mask = 1u32 << lane,
    )
}

/// What [`fflags_program`] leaves in `a0` and `a1`, computed on the host.
fn fflags_reference() -> (u32, u32) {
    let (mut a0, mut flags) = (0u32, 0u32);
    for i in 0..CSR_N {
        if i % 8 == 0 {
            flags = 0;
        }
        flags |= ((i >> 3) ^ 0x35) & 31;
        a0 = a0.wrapping_add(flags);
        let old = flags;
        flags |= i & 31;
        a0 = a0.wrapping_add(old << 5);
        flags |= 16;
        a0 ^= flags;
    }
    (a0, flags)
}

#[test]
fn one_lane_fflags_sets_run_scalar_and_match() {
    // Everything but the first passes (before the translation) and the `fsflags` every 8
    // passes (a write the translations leave to the interpreter): over 90 %. (With the
    // sets left to the interpreter too, 3 of every pass's 14 instructions: under 80 %.)
    on_every_lane(&[1, 8, 32], 90, fflags_program, |m, lane, at| {
        let w = &m.cores[0].warps[0];
        let (a0, a1) = fflags_reference();
        assert_eq!((w.x[10][lane], w.x[11][lane]), (a0, a1), "{at}");
        assert_eq!(u32::from(w.fflags[lane]), a1, "{at}: the warp's flags");
    });
}

#[test]
fn one_lane_float_csr_reads_run_scalar_and_match() {
    // The reads ran in scalar translations but on the passes after a write: over 80 %.
    on_every_lane(&[1, 8, 32], 80, csr_program, |m, lane, at| {
        let w = &m.cores[0].warps[0];
        assert_eq!(w.x[10][lane], csr_reference(), "{at}");
        assert_eq!(w.x[11][lane] & 0x6000, 0x6000, "{at}: FS Dirty");
    });
}

//! Calls and returns in translations of a full warp (docs/engine.md, scalar translations'
//! calls and returns): every lane calls functions ([`common::CALLEES`]) each pass of a loop —
//! `jal`, `call` into a function that saves `ra` on the lane's stack, calls another and
//! tail-calls a third, `c.jal`/`c.jr`, a call linking `t0`, a recursion whose leaf reads
//! `call_depth`, an indirect call every lane makes through the same table entry, and one
//! where the lanes pick different entries (the interpreter splits the warp there). Both engines must end with the same whole state, the
//! results must be what the host computes, and with one warp most of the run must be in
//! super-steps (the calls ran translated).

mod common;

use common::{out_addr, same, shape, CALLEES, SPAWN_ALL};
use weft_simt::RunEnd;

/// Passes of the loop.
const N: u32 = 300;

fn program() -> String {
    format!(
        "{SPAWN_ALL}    csrr s0, thread_id
    csrr s6, warp_id
    slli t0, s6, 5
    add t0, t0, s0
    slli t0, t0, 7
    la sp, stack_top
    sub sp, sp, t0
    li s1, 0
    li s2, {N}
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
    add t0, s1, s0
    andi t0, t0, 1
    slli t0, t0, 2
    add t0, t0, s5
    lw t1, 0(t0)
    mv a0, s1
    jalr ra, 0(t1)
    add s3, s3, a0
    mv a0, s1
    c.jal f5
    add s3, s3, a0
    mv a0, s1
    jal t0, f7
    add s3, s3, a0
    andi a0, s1, 3
    call rec
    add s4, s4, a0
    addi s1, s1, 1
    blt s1, s2, 1b
    la t0, out
    slli t1, s6, 5
    add t1, t1, s0
    slli t1, t1, 3
    add t0, t0, t1
    sw s3, 0(t0)
    sw s4, 4(t0)
    csrw tmask, zero
{CALLEES}    .data
    .balign 64
table: .word f1, f4
out: .zero 1024
stack: .zero 16384
stack_top:
"
    )
}

/// What thread `t` stores (s3, s4), computed on the host.
fn reference(t: u32) -> [u32; 2] {
    let f1 = |a: u32| a.wrapping_mul(3).wrapping_add(1);
    let f4 = |a: u32| a.wrapping_mul(a).wrapping_sub(7);
    let (mut s3, mut s4) = (0u32, 0u32);
    for i in 0..N {
        s3 = s3.wrapping_add(f1(i + t));
        s3 = s3.wrapping_add(f1(i + 5) ^ 0x55);
        s3 ^= if i & 1 == 0 { f1(i) } else { f4(i) };
        s3 = s3.wrapping_add(if (i + t) & 1 == 0 { f1(i) } else { f4(i) });
        s3 = s3.wrapping_add(i + 100);
        s3 = s3.wrapping_add(i.wrapping_sub(9));
        let n = i & 3;
        s4 = s4.wrapping_add(n + 1 + n * (n + 1) / 2);
    }
    [s3, s4]
}

#[test]
fn a_full_warps_calls_and_returns_run_translated_and_match() {
    let src = program();
    let out = out_addr(&src);
    for (lanes, warps) in [(4, 1), (8, 1), (32, 1), (8, 3), (6, 1)] {
        let what = format!("{lanes}×{warps}");
        let (m, end) = same(&src, &shape(lanes, warps, 1, 50_000_000));
        assert_eq!(end, RunEnd::AllHalted, "{what}");
        for w in 0..warps as u32 {
            for t in 0..lanes as u32 {
                let at = out + 8 * (32 * w + t);
                let got = [0, 4].map(|o| m.mem.load(0, at + o, 4).expect("in memory"));
                assert_eq!(got, reference(t), "{what} warp {w} thread {t}");
            }
        }
        // With one warp of whole vectors the calls run in full translations; the divergent
        // indirect call and its two groups, the CSR reads and the set-up do not (without
        // calls in full translations: 66 % at 4 lanes).
        if warps == 1 && lanes % 4 == 0 {
            let cycles = m.report().cycles;
            assert!(
                m.super_step_cycles() * 10 > cycles * 8,
                "{what}: {} of {cycles} cycles in super-steps",
                m.super_step_cycles()
            );
        }
    }
}

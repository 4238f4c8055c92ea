//! A store breaks another lane's LR reservation exactly when it writes a byte of the reserved
//! word: every store size at every offset from three bytes below the word to just past it.
//! (Lane 0 reserves X; lane 1 stores at X + offset between lane 0's lr.w and sc.w; lane 0's
//! sc.w result is the exit code.)

mod common;

use common::run_src;
use weft_simt::{Config, RunEnd};

#[test]
fn a_store_breaks_a_reservation_iff_it_writes_a_byte_of_the_word() {
    for (op, size) in [("sb", 1i32), ("sh", 2), ("sw", 4)] {
        for off in -4i32..=4 {
            let src = format!(
                "
    .text
    .globl _start
_start:
    li t0, 3
    csrw tmask, t0
    csrr s0, thread_id
    la a3, X
    la a4, Y
    beqz s0, 1f
    addi a4, a3, {off}
1:  lr.w t1, (a3)
    li t2, 0x55
    {op} t2, 0(a4)
    sc.w t3, t2, (a3)
    li t0, 0xffffff04
    sw t3, 0(t0)
    .data
    .align 4
pad: .word 0, 0
X:  .word 0
    .word 0, 0
Y:  .word 0
"
            );
            let touches = (off..off + size).any(|b| (0..4).contains(&b));
            let r = run_src(
                &src,
                Config {
                    lanes: 2,
                    ..Config::default()
                },
            );
            assert_eq!(
                r.end,
                RunEnd::Exit(touches as u32),
                "{op} at X{off:+}: lane 0's sc.w must {}",
                if touches { "fail" } else { "succeed" }
            );
        }
    }
}

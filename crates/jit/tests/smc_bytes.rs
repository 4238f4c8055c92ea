//! Self-modifying code, store by store: every way a program or the host can write memory —
//! `sb`/`sh`/`sw`/`fsw` from one lane and from lanes that are not consecutive, the AMOs,
//! `sc.w`, and the host's `write_bytes` (the runtime and the GDB stub) — must forget the
//! decoded instruction whose bytes it writes, on both engines, even when only the last bytes
//! of the access fall inside the code. The code starts at 2 mod 4 (0x8000_0012), so an
//! aligned word at 0x8000_0010 covers its first two bytes while its first address lies
//! outside it: the case the direct store paths once missed.
//!
//! `f` is `li a0, 1` (0x00100513); each store turns its low bytes into `li a1, 1`
//! (0x00100593), so a call of `f` after the store must leave a0 = 7, the exit code.

mod common;

use common::{machine, same, shape};
use weft_simt::RunEnd;

/// A program: `f` at 0x8000_0012, called once (decoded), then `store` (which may use t0 =
/// 0x8000_0010, t1 = the word that patches f, s0 = the lane), `fence.i`, `f` again; exit a0.
fn program(store: &str) -> String {
    format!(
        "
    .entry 0x8000001c
    .section .data, \"aw\", @progbits
    .base 0x80000000
    .zero 18
    .section .text, \"ax\", @progbits
    .base 0x80000012
f:  li a0, 1
    ret
    c.nop
    .globl _start
_start:
    li a0, 7
    call f
    li a0, 7
    csrr s0, thread_id
    li t0, 0x80000010
    li t1, 0x05930000
{store}
    fence.i
    call f
    li t0, 0xffffff04
    sw a0, 0(t0)
"
    )
}

/// The stores, each writing byte 0x12 (and maybe 0x13) to what `li a1, 1` has there.
const STORES: &[(&str, &str)] = &[
    ("sw", "    sw t1, 0(t0)"),
    ("sh", "    li t1, 0x0593\n    sh t1, 2(t0)"),
    ("sb", "    li t1, 0x93\n    sb t1, 2(t0)"),
    ("fsw", "    fmv.w.x ft0, t1\n    fsw ft0, 0(t0)"),
    ("amoswap.w", "    amoswap.w zero, t1, (t0)"),
    // 0x13 | 0x80 = 0x93 in byte 0x12; bytes 0x10, 0x11 are zero data.
    (
        "amoor.w",
        "    li t1, 0x00800000\n    amoor.w zero, t1, (t0)",
    ),
    (
        "amoadd.w",
        "    li t1, 0x00800000\n    amoadd.w zero, t1, (t0)",
    ),
    (
        "sc.w",
        "2:  lr.w t2, (t0)\n    sc.w t2, t1, (t0)\n    bnez t2, 2b",
    ),
];

#[test]
fn every_store_that_writes_a_byte_of_code_is_seen_by_the_next_fetch() {
    for &(what, store) in STORES {
        for jit in [false, true] {
            let mut m = machine(&program(store), &shape(1, 1, 1, 100_000), jit);
            assert_eq!(
                m.run(),
                RunEnd::Exit(7),
                "{what} (engine {}): the old `li a0, 1` still ran",
                if jit { "jit" } else { "interp" }
            );
        }
    }
}

/// Lanes 0 and 2 of four store words that are not consecutive (lane 0 over the code's first
/// bytes, lane 2 far off in the data): the per-lane direct path of both engines, the word
/// store in a translated block. The same whole state on both engines, exit 7.
#[test]
fn lanes_storing_scattered_words_check_every_word_against_the_code() {
    let store = "
    li t2, 5
    csrw tmask, t2
    csrr s0, thread_id
    beqz s0, 2f
    li t0, 0x80000000    # lane 2 stores over data bytes 0..3
2:  sw t1, 0(t0)
    li t2, 1
    csrw tmask, t2";
    let src = program(store);
    for lanes in [4, 8, 32] {
        let (_, end) = same(&src, &shape(lanes, 1, 1, 100_000));
        assert_eq!(end, RunEnd::Exit(7), "{lanes} lanes");
    }
}

/// The host writes the two bytes at 0x8000_0012 (as the runtime's copies and GDB's `M` do)
/// after `f` was decoded, and a restarted run calls it again.
#[test]
fn a_host_write_into_the_code_is_seen_by_the_next_fetch() {
    for jit in [false, true] {
        let mut m = machine(&program(""), &shape(1, 1, 1, 100_000), jit);
        // Unpatched: t1 is stored nowhere, f still says `li a0, 1`.
        assert_eq!(m.run(), RunEnd::Exit(1));
        // A write of 4 bytes from 0x8000_0010: the last two are f's first.
        weft_simt::Device::write_bytes(&mut m, 0x8000_0010, &[0, 0, 0x93, 0x05]).unwrap();
        m.restart(0x8000_001c).unwrap();
        assert_eq!(m.run(), RunEnd::Exit(7), "jit {jit}");
    }
}

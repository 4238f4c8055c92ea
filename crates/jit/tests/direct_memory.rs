//! The block engine's direct memory path (crates/jit/src/memory.rs): word loads and stores of
//! consecutive lanes done by the translated code on host pointers to DRAM pages. Each program
//! runs on both engines and must leave the same whole state (registers, counters, cycles,
//! memory, end); the ones built for it must also show accesses done on the direct path, and
//! the others the cases that must leave it: pages holding decoded code or the HTIF words,
//! an open LR reservation, misaligned and out-of-DRAM addresses (the same trap), lanes
//! switched off (their words untouched), vectors straddling two pages, pages never written.

mod common;

use common::{same, shape};
use weft_simt::RunEnd;

/// Exit with code `a0`.
const EXIT: &str = "
    li t6, 0xffffff04
    sw a0, 0(t6)";

/// A loop over `iters` rows of 128 bytes from `base`: each lane adds the row number to its
/// word (load, add, store) and sums the old words in a0; the exit code is lane 0's sum's low
/// byte.
fn rows(base: u32, iters: u32, before: &str) -> String {
    format!(
        "
    .globl _start
_start:
{before}
    csrr s0, thread_id
    slli s1, s0, 2
    li t0, {base}
    add t0, t0, s1
    li t3, {iters}
    li t4, 0
    li a0, 0
1:  lw t1, 0(t0)
    add a0, a0, t1
    add t1, t1, t4
    sw t1, 0(t0)
    addi t4, t4, 1
    addi t0, t0, 128
    blt t4, t3, 1b
    andi a0, a0, 0xff
{EXIT}
"
    )
}

/// Fill `words` words from `base` with i·7 + 3 (one lane's loop: the data the row loops
/// read, so that their loads see more than zeros).
fn fill(base: u32, words: u32) -> String {
    format!(
        "
    li t0, {base}
    li t1, 0
    li t2, {words}
2:  slli t5, t1, 3
    sub t5, t5, t1
    addi t5, t5, 3
    sw t5, 0(t0)
    addi t0, t0, 4
    addi t1, t1, 1
    blt t1, t2, 2b"
    )
}

const LANES: [usize; 4] = [4, 6, 8, 32];

fn direct(m: &weft_simt::Machine) -> u64 {
    m.engine_counts().direct
}

#[test]
fn consecutive_lanes_in_a_loop_take_the_direct_path() {
    // 1,024 rows of 128 bytes from a page boundary: two pages, every vector inside one.
    let src = rows(0x8010_0000, 1024, &fill(0x8010_0000, 32 * 1024));
    for lanes in LANES {
        let (m, end) = same(&src, &shape(lanes, 1, 1, 10_000_000));
        assert!(matches!(end, RunEnd::Exit(_)), "{lanes} lanes: {end:?}");
        assert!(
            direct(&m) > 1000,
            "{lanes} lanes: {} accesses on the direct path",
            direct(&m)
        );
    }
}

/// Every lane loading the same word (a table walked by a uniform pointer) and storing its
/// running sum to its own word of a row: both on the direct path, at a page boundary too
/// (the table's last words at the end of a page, where whole vectors would not fit).
#[test]
fn uniform_loads_take_the_direct_path() {
    let src = format!(
        "
    .globl _start
_start:
{}
    csrr s0, thread_id
    slli s1, s0, 2
    li t0, 0x80200000
    add t0, t0, s1
    li t2, 0x8010ff00
    li t3, 500
    li t4, 0
    li a0, 0
1:  lw t1, 0(t2)
    add a0, a0, t1
    sw a0, 0(t0)
    addi t2, t2, 4
    addi t0, t0, 128
    addi t4, t4, 1
    blt t4, t3, 1b
    andi a0, a0, 0xff
{EXIT}
",
        fill(0x8010_ff00, 500)
    );
    for lanes in LANES {
        let (m, end) = same(&src, &shape(lanes, 1, 1, 10_000_000));
        assert!(matches!(end, RunEnd::Exit(_)), "{lanes} lanes: {end:?}");
        assert!(
            direct(&m) > 900,
            "{lanes} lanes: {} accesses on the direct path",
            direct(&m)
        );
    }
}

/// Each lane on a word of its own 8 KiB apart (as on per-thread stacks), a gather from a
/// table at lane-dependent indices, and a scatter where pairs of lanes store to one word (the
/// higher lane's value stays): all lane by lane on the direct path, with every lane on and
/// with some off.
#[test]
fn strided_gathered_and_colliding_lanes_go_lane_by_lane_on_the_direct_path() {
    let body = |before: &str| {
        format!(
            "
    .globl _start
_start:
{}
{before}
    csrr s0, thread_id
    slli s1, s0, 13
    li t0, 0x80200000
    add t0, t0, s1
    li t3, 400
    li t4, 0
    li a0, 0
1:  lw t1, 0(t0)
    add t1, t1, t4
    sw t1, 0(t0)
    add t5, s0, t4
    andi t5, t5, 63
    slli t5, t5, 2
    li t6, 0x80100000
    add t5, t5, t6
    lw t2, 0(t5)
    add a0, a0, t2
    srli t5, s0, 1
    slli t5, t5, 2
    andi t6, t4, 15
    slli t6, t6, 7
    add t5, t5, t6
    li t6, 0x80300000
    add t5, t5, t6
    sw t1, 0(t5)
    addi t4, t4, 1
    blt t4, t3, 1b
    andi a0, a0, 0xff
{EXIT}
",
            fill(0x8010_0000, 64)
        )
    };
    for lanes in LANES {
        let all = (1u64 << lanes) - 1;
        for (what, before) in [
            ("every lane", String::new()),
            (
                "some lanes off",
                format!("    li t0, {}\n    tmc t0", 0xb5b5_b5b5 & all),
            ),
        ] {
            let (m, end) = same(&body(&before), &shape(lanes, 1, 1, 10_000_000));
            assert!(
                matches!(end, RunEnd::Exit(_)),
                "{lanes} lanes, {what}: {end:?}"
            );
            // Four accesses a pass, 400 passes: most of them once the loop is translated.
            assert!(
                direct(&m) > 1200,
                "{lanes} lanes, {what}: {} accesses on the direct path",
                direct(&m)
            );
        }
    }
}

#[test]
fn vectors_straddling_two_pages_match() {
    // From 64 bytes below a page boundary: at 32 lanes every access straddles two pages
    // (the port's per-lane path), at 8 none does.
    let src = rows(0x8010_ffc0, 300, &fill(0x8010_ff00, 32 * 300));
    for lanes in LANES {
        let (_, end) = same(&src, &shape(lanes, 1, 1, 10_000_000));
        assert!(matches!(end, RunEnd::Exit(_)), "{lanes} lanes: {end:?}");
    }
}

#[test]
fn loads_from_a_page_never_written_read_zero_then_stores_allocate_it() {
    let src = rows(0x8020_0000, 600, "");
    for lanes in LANES {
        let (_, end) = same(&src, &shape(lanes, 1, 1, 10_000_000));
        assert_eq!(end, RunEnd::Exit(0), "{lanes} lanes");
    }
}

/// Lanes switched off (every other one, and all but lane 0) neither load nor store: their
/// words keep the fill pattern, their registers their old values.
#[test]
fn inactive_lanes_touch_no_word() {
    for mask in [0x5555_5555u32, 1, 0x7fff_fffe] {
        let before = format!(
            "{}\n    li t2, {mask}\n    csrw tmask, t2",
            fill(0x8010_0000, 32 * 512)
        );
        let src = rows(0x8010_0000, 512, &before);
        for lanes in LANES {
            let (m, end) = same(&src, &shape(lanes, 1, 1, 10_000_000));
            assert!(matches!(end, RunEnd::Exit(_)), "{mask:#x} {lanes}: {end:?}");
            if mask == 0x5555_5555 {
                assert!(direct(&m) > 500, "{mask:#x} {lanes}: {}", direct(&m));
            }
        }
    }
}

/// Data in the page of the code, outside it: a loop copies 16 rows of 128 bytes onto
/// themselves, walking down from 0x8000_0780 to `f` at 0x8000_0000; in the last row, over
/// `f`, lane 0 stores `li a0, 7` over `li a0, 1`. Stores to that page must stay off the
/// direct path (its first rows are plain data the port stores directly), or the patch is not
/// seen: `f` returns 1 unpatched, 7 patched.
#[test]
fn a_loop_storing_next_to_the_code_and_into_it_matches() {
    let src = "
    .entry _start
    .section .text, \"ax\", @progbits
    .base 0x80000000
f:  li a0, 1
    ret
    .globl _start
_start:
    csrr s0, thread_id
    slli s1, s0, 2
    li t0, 0x80000780
    add t0, t0, s1
    li s3, 0x00700513
    seqz s4, s0
    li t4, 0
    li t3, 16
1:  lw t1, 0(t0)
    addi t6, t4, -15
    seqz t6, t6
    and t5, s4, t6
    neg t5, t5
    and t2, s3, t5
    not t5, t5
    and t1, t1, t5
    or t1, t1, t2
    sw t1, 0(t0)
    addi t4, t4, 1
    addi t0, t0, -128
    blt t4, t3, 1b
    fence.i
    call f
    li t6, 0xffffff04
    sw a0, 0(t6)
";
    for lanes in LANES {
        let (_, end) = same(src, &shape(lanes, 1, 1, 10_000_000));
        assert_eq!(end, RunEnd::Exit(7), "{lanes} lanes");
    }
}

/// The HTIF words in the page the loop stores to: those stores take the full path (the
/// loop does not write `tohost`; the exit does).
#[test]
fn a_loop_storing_in_the_page_of_tohost_matches() {
    let src = "
    .globl _start
_start:
    csrr s0, thread_id
    slli s1, s0, 2
    la t0, data
    add t0, t0, s1
    li t4, 0
    li t3, 40
1:  lw t1, 0(t0)
    add t1, t1, t4
    sw t1, 0(t0)
    addi t4, t4, 1
    addi t0, t0, 128
    blt t4, t3, 1b
    li a0, 5
    slli a0, a0, 1
    ori a0, a0, 1
    la t0, tohost
    sw a0, 0(t0)
2:  j 2b
    .section .data, \"aw\", @progbits
    .base 0x80100000
    .globl tohost
    .balign 8
tohost: .word 0, 0
data: .zero 8192
";
    for lanes in LANES {
        let (_, end) = same(src, &shape(lanes, 1, 1, 10_000_000));
        assert_eq!(end, RunEnd::Exit(5), "{lanes} lanes");
    }
}

/// An LR reservation open on a word the loop then stores over: the store breaks it (stores
/// stay off the direct path while any reservation is open: the port refuses them, and opens
/// no window), so the `sc.w` after the loop fails, on both engines.
#[test]
fn a_reservation_open_during_the_loop_is_broken_by_its_stores() {
    let before = "
    li t0, 0x80100000
    lr.w t1, (t0)";
    let src = rows(0x8010_0000, 256, before).replace(
        "    andi a0, a0, 0xff",
        "    li t0, 0x80100000\n    sc.w a0, a0, (t0)\n    andi a0, a0, 0xff",
    );
    for lanes in LANES {
        let (_, end) = same(&src, &shape(lanes, 1, 1, 10_000_000));
        assert_eq!(end, RunEnd::Exit(1), "{lanes} lanes: the sc.w must fail");
    }
}

/// A loop that turns misaligned after a while (weft does misaligned word accesses, on the
/// full path) and one that walks off the end of DRAM (a fault): the same end at the same
/// instruction, after the same accesses.
#[test]
fn misaligned_and_out_of_dram_accesses_leave_the_direct_path_alike() {
    let misaligned = rows(0x8010_0000, 400, "").replace(
        "    addi t4, t4, 1\n",
        "    addi t4, t4, 1\n    li t5, 300\n    bne t4, t5, 3f\n    addi t0, t0, 2\n3:\n",
    );
    let off_end = rows(0x8fff_c000, 400, "");
    for lanes in LANES {
        let (m, end) = same(&misaligned, &shape(lanes, 1, 1, 10_000_000));
        assert_eq!(end, RunEnd::Exit(0), "misaligned, {lanes} lanes");
        assert!(
            direct(&m) > 300,
            "misaligned, {lanes} lanes: {}",
            direct(&m)
        );
        let (_, end) = same(&off_end, &shape(lanes, 1, 1, 10_000_000));
        assert!(
            !matches!(end, RunEnd::Exit(_)),
            "off the end, {lanes} lanes: {end:?}"
        );
    }
}

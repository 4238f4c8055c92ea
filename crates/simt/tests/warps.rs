//! Warp-core scheduler CSRs: spawn and await, side-effect-free cross-warp reads, self-spawn
//! restart, barriers.

mod common;
use common::*;
use weft_simt::{ReconvMode, RunEnd};

#[test]
fn spawn_and_await_through_csrs() {
    for lanes in [1, 8] {
        let r = run("spawn.s", cfg(lanes, ReconvMode::Table));
        assert_eq!(r.end, RunEnd::Exit(0));
        assert_eq!(r.word("done_mask"), 0xe);
        let out = r.words("out", 4 * lanes);
        for w in 1..4u32 {
            for l in 0..lanes as u32 {
                assert_eq!(out[(w * lanes as u32 + l) as usize], 500 + w * 10 + l);
            }
        }
        assert!(
            out[..lanes].iter().all(|&v| v == 0),
            "warp 0 never ran the worker"
        );
    }
}

#[test]
fn remote_read_of_warp_done_does_not_clear_it() {
    let r = run("remote_done.s", cfg(8, ReconvMode::Table));
    assert_eq!(r.end, RunEnd::Exit(0));
    let res = r.words("res", 4);
    assert_eq!(res[0], 2, "remote read still sees the bit");
    assert_eq!(res[1], 2, "the first local read sees it");
    assert_eq!(res[2], 0, "the local read cleared it");
    assert!(res[3] >= 1);
}

#[test]
fn self_spawn_restarts_the_warp() {
    let r = run("self_spawn.s", cfg(8, ReconvMode::Table));
    assert_eq!(r.end, RunEnd::Exit(0));
    assert_eq!(r.words("out", 8), vec![7; 8]);
    assert_eq!(r.word("mask_out"), 0xff);
    assert_eq!(r.word("marker"), 0, "nothing after the self-write ran");
}

#[test]
fn barrier_orders_shared_memory() {
    let r = run("barrier.s", cfg(8, ReconvMode::Table));
    assert_eq!(r.end, RunEnd::AllHalted);
    let want: Vec<u32> = (0..4).map(|w| (w + 1) % 4 + 40).collect();
    assert_eq!(r.words("out", 4), want);
}

#[test]
fn barrier_that_never_fills_is_a_deadlock() {
    let src = "
    .text
    .globl _start
_start:
    li t0, 0x20000   # wait for 2 warps at barrier 0; only one exists to arrive
    csrw barrier, t0
    csrw tmask, zero
";
    let r = run_src(src, cfg(4, ReconvMode::Table));
    match r.end {
        RunEnd::Deadlock(why) => assert!(why.contains("warp 0 waits at barrier 0"), "{why}"),
        e => panic!("expected a deadlock, got {e:?}"),
    }
}

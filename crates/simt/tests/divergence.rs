//! Divergence kernels: each lane's result is checked against a reference computed here on
//! the host, for several lane counts and for each reconvergence mechanism that applies.

mod common;
use common::*;
use weft_isa::FaultCode;
use weft_simt::{ReconvMode, RunEnd};

const MODES: [ReconvMode; 2] = [ReconvMode::Table, ReconvMode::Converge];

fn nested_ref(t: u32) -> u32 {
    let r = if t & 1 != 0 {
        if t & 2 != 0 {
            10
        } else {
            20
        }
    } else {
        30 + if t >= 4 { 5 } else { 0 }
    };
    r + t
}

#[test]
fn nested_if_else_with_converge() {
    for lanes in [1, 4, 8, 32] {
        for mode in MODES {
            let r = run("nested_if.s", cfg(lanes, mode));
            assert_eq!(r.end, RunEnd::AllHalted, "lanes {lanes} {mode:?}");
            let want: Vec<u32> = (0..lanes as u32).map(nested_ref).collect();
            assert_eq!(r.words("out", lanes), want, "lanes {lanes} {mode:?}");
            assert_eq!(r.word("mask_out"), full(lanes), "the warp reconverged");
            let rep = r.m.report();
            if lanes >= 8 {
                assert_eq!(rep.max_divergence_depth, 2, "{mode:?}");
            }
        }
    }
}

#[test]
fn nested_if_else_from_the_table() {
    for lanes in [1, 8, 32] {
        let r = run("nested_if_noconv.s", cfg(lanes, ReconvMode::Table));
        assert_eq!(r.end, RunEnd::AllHalted);
        let want: Vec<u32> = (0..lanes as u32).map(nested_ref).collect();
        assert_eq!(r.words("out", lanes), want, "lanes {lanes}");
        assert_eq!(r.word("mask_out"), full(lanes));
    }
}

#[test]
fn without_converge_or_table_the_warp_stays_split() {
    // The converge-only mechanism cannot reconverge code that has no converge: the end
    // mask is one group only. (Results per lane are still right: lanes run their own path.)
    let r = run("nested_if_noconv.s", cfg(8, ReconvMode::Converge));
    assert_ne!(r.word("mask_out"), full(8));
}

#[test]
fn loop_lanes_leave_one_per_iteration() {
    for lanes in [1, 8, 32] {
        for mode in MODES {
            let r = run("loop_leave.s", cfg(lanes, mode));
            assert_eq!(r.end, RunEnd::AllHalted);
            let want: Vec<u32> = (0..lanes as u32)
                .map(|t| (0..=t).map(|i| i * i).sum())
                .collect();
            assert_eq!(r.words("out", lanes), want, "lanes {lanes} {mode:?}");
            assert_eq!(r.word("mask_out"), full(lanes));
            let rep = r.m.report();
            assert_eq!(
                rep.max_divergence_depth,
                (lanes > 1) as u64,
                "one entry for the whole loop"
            );
        }
    }
}

#[test]
fn and_chain_shares_one_reconvergence_point() {
    for lanes in [8, 32] {
        let r = run("and_chain.s", cfg(lanes, ReconvMode::Table));
        let want: Vec<u32> = (0..lanes as u32)
            .map(|t| {
                if t > 1 && t < 6 && t % 2 == 0 {
                    100 + t
                } else {
                    t
                }
            })
            .collect();
        assert_eq!(r.words("out", lanes), want);
        assert_eq!(r.word("mask_out"), full(lanes));
        assert!(r.m.report().max_divergence_depth <= 3);
    }
}

#[test]
fn early_exit_reconverges_at_return() {
    for lanes in [1, 8, 32] {
        let r = run("early_exit.s", cfg(lanes, ReconvMode::Table));
        assert_eq!(r.end, RunEnd::AllHalted, "lanes {lanes}");
        let want: Vec<u32> = (0..lanes as u32)
            .map(|x| if x < 3 { x * 7 } else { (0..=x).sum() })
            .collect();
        assert_eq!(r.words("out", lanes), want);
        assert_eq!(r.word("mask_out"), full(lanes));
    }
}

#[test]
fn diverge_with_empty_predicate_faults() {
    let r = run("diverge_empty.s", cfg(8, ReconvMode::Converge));
    match &r.end {
        RunEnd::Fault(f) => {
            assert_eq!(f.code, FaultCode::DivergeEmpty);
            assert_eq!(f.code.code(), 9);
            assert_eq!(f.lanes, 0xff);
            assert_eq!(r.end.exit_status(), 128 + 9);
            assert_eq!(r.m.cores[0].warps[0].csr.fault_code, 9);
            assert_eq!(r.m.cores[0].warps[0].csr.fault_pc, f.pc);
        }
        e => panic!("expected DIVERGE_EMPTY, got {e:?}"),
    }
}

#[test]
fn hand_written_diverge_and_converge() {
    for mode in MODES {
        let r = run("diverge_ok.s", cfg(8, mode));
        let want: Vec<u32> = (0..8)
            .map(|t| if t & 1 == 1 { 1000 + t } else { 2000 + t })
            .collect();
        assert_eq!(r.words("out", 8), want);
        assert_eq!(r.word("mask_out"), 0xff);
    }
}

#[test]
fn divergence_stack_overflow_is_a_fault() {
    // One entry on chip and no spill area: the nested if overflows.
    let r = run(
        "nested_if.s",
        weft_simt::Config {
            stack_depth: 1,
            stack_spill: 0,
            ..cfg(8, ReconvMode::Converge)
        },
    );
    match r.end {
        RunEnd::Fault(f) => assert_eq!(f.code, FaultCode::DivergeOverflow),
        e => panic!("expected overflow, got {e:?}"),
    }
    // With a spill area it runs as with a deep stack on chip: the same end and state.
    let spilled = run(
        "nested_if.s",
        weft_simt::Config {
            stack_depth: 1,
            ..cfg(8, ReconvMode::Converge)
        },
    );
    let deep = run("nested_if.s", cfg(8, ReconvMode::Converge));
    assert_eq!(spilled.end, deep.end);
    assert_eq!(spilled.words("out", 32), deep.words("out", 32));
    assert_eq!(spilled.word("mask_out"), deep.word("mask_out"));
    let (mut a, b) = (spilled.m.report(), deep.m.report());
    assert!(a.stack_spills > 0 && a.stack_fills == a.stack_spills);
    assert_eq!(b.stack_spills, 0);
    // Apart from the spill counters, the same counters and cycles.
    (a.stack_spills, a.stack_fills) = (0, 0);
    for w in &mut a.per_warp {
        (w.stack_spills, w.stack_fills) = (0, 0);
    }
    assert_eq!(a, b);
}

#[test]
fn runs_are_deterministic() {
    let a = run("early_exit.s", cfg(8, ReconvMode::Table));
    let b = run("early_exit.s", cfg(8, ReconvMode::Table));
    assert_eq!(a.m.report(), b.m.report());
    assert_eq!(a.m.cycle, b.m.cycle);
}

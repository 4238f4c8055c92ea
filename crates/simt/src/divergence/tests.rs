//! Unit tests of the divergence stack's bookkeeping; whole programs are in
//! `crates/simt/tests/divergence.rs` and `tests/repro`.

use super::*;

fn g(pc: u32, mask: u32) -> Group {
    Group { pc, mask }
}

#[test]
fn if_else_parks_then_runs_the_waiting_group_then_pops() {
    let mut s = DivStack::new(4);
    let mut calls = CallStack::default();
    // Forward branch at 0x10: lanes 0,2 wait at 0x1c; reconverge at 0x20.
    assert_eq!(
        s.split(0x10, 0xf, g(0x1c, 0x5), Reconv::At(0x20), &calls),
        Ok(SplitOutcome::Pushed)
    );
    let e = s.top().unwrap();
    assert_eq!(
        (e.saved_mask, e.pending_mask(), e.parked_mask),
        (0xf, 0x5, 0)
    );
    let k = s.point_at(0x20, &calls).unwrap();
    assert_eq!(
        s.arrive(k, 0xa, 0x20, 0x20, &mut calls),
        Some(Next {
            mask: 0x5,
            pc: 0x1c
        })
    );
    assert_eq!(s.top().unwrap().parked_mask, 0xa);
    assert_eq!(
        s.arrive(k, 0x5, 0x20, 0x20, &mut calls),
        Some(Next {
            mask: 0xf,
            pc: 0x20
        })
    );
    assert!(s.is_empty());
}

#[test]
fn a_loop_exit_taken_first_keeps_one_entry() {
    // bug2: the exit branch is backward, so the leaving lanes run first and park at once.
    let mut s = DivStack::new(1);
    let mut calls = CallStack::default();
    let mut running = 0xffu32;
    for lane in 0..7 {
        let leaving = 1u32 << lane;
        let staying = running & !leaving;
        // First group: the leavers (at the exit 0x40 = the point); second: the stayers.
        s.split(0x80, running, g(0x84, staying), Reconv::At(0x40), &calls)
            .unwrap();
        let k = s.point_at(0x40, &calls).unwrap();
        let next = s.arrive(k, leaving, 0x40, 0x40, &mut calls).unwrap();
        assert_eq!(
            next,
            Next {
                mask: staying,
                pc: 0x84
            }
        );
        assert_eq!(s.len(), 1);
        running = staying;
    }
    let k = s.point_at(0x40, &calls).unwrap();
    assert_eq!(
        s.arrive(k, running, 0x40, 0x40, &mut calls),
        Some(Next {
            mask: 0xff,
            pc: 0x40
        })
    );
    assert!(s.is_empty());
    assert_eq!(s.max_depth(), 1);
}

#[test]
fn several_exits_of_one_region_share_an_entry() {
    // Two branches of one function both reconverge at its exit: one entry, and the return
    // that closes it closes it for everyone.
    let mut s = DivStack::new(1);
    let mut calls = CallStack::default();
    calls.call();
    s.split(0x100, 0x7, g(0x140, 0x1), Reconv::AtExit, &calls)
        .unwrap();
    assert_eq!(
        s.split(0x108, 0x6, g(0x130, 0x2), Reconv::AtExit, &calls),
        Ok(SplitOutcome::Joined)
    );
    let k = s.exit_point(&calls).unwrap();
    // Lane 2 returns; lane 1 runs (last added first), then lane 0, then the pop.
    assert_eq!(
        s.arrive(k, 0x4, 0x118, 0x118, &mut calls),
        Some(Next {
            mask: 0x2,
            pc: 0x130
        })
    );
    assert_eq!(
        s.arrive(k, 0x2, 0x138, 0x138, &mut calls),
        Some(Next {
            mask: 0x1,
            pc: 0x140
        })
    );
    assert_eq!(
        s.arrive(k, 0x1, 0x148, 0x148, &mut calls),
        Some(Next {
            mask: 0x7,
            pc: 0x148
        })
    );
    assert!(s.is_empty());
}

#[test]
fn later_calls_are_other_activations() {
    // bug3: the same loop branch reached in a second call at the same depth must not join the
    // first call's entry.
    let mut s = DivStack::new(4);
    let mut calls = CallStack::default();
    calls.call();
    s.split(0x200, 0xf, g(0x204, 0x3), Reconv::None, &calls)
        .unwrap();
    calls.ret();
    calls.call();
    assert_eq!(
        s.split(0x200, 0xc, g(0x204, 0x4), Reconv::None, &calls),
        Ok(SplitOutcome::Pushed)
    );
    assert_eq!(s.len(), 2);
    assert_ne!(s.entries()[0].frame(), s.entries()[1].frame());
    assert_eq!(s.entries()[0].depth(), s.entries()[1].depth());
}

#[test]
fn halting_resumes_waiting_groups_in_their_activation() {
    let mut s = DivStack::new(4);
    let mut calls = CallStack::default();
    calls.call();
    let inside = calls.chain().to_vec();
    s.split(0x300, 0x3, g(0x320, 0x2), Reconv::None, &calls)
        .unwrap();
    calls.ret();
    // Lane 0 returned and halts: lane 1 resumes inside the call, and the entry, now holding
    // only lane 1, is dropped.
    assert_eq!(
        s.retire(0x1, &mut calls),
        Some(Next {
            mask: 0x2,
            pc: 0x320
        })
    );
    assert_eq!(calls.chain(), inside.as_slice());
    assert!(s.is_empty());
    assert_eq!(s.retire(0x2, &mut calls), None);
}

#[test]
fn a_group_reaching_a_lower_point_leaves_the_entries_above() {
    let mut s = DivStack::new(4);
    let mut calls = CallStack::default();
    // Outer region reconverges at 0x90; an inner one at 0x50.
    s.split(0x10, 0xf, g(0x60, 0x8), Reconv::At(0x90), &calls)
        .unwrap();
    s.split(0x20, 0x7, g(0x40, 0x4), Reconv::At(0x50), &calls)
        .unwrap();
    // Lanes 0,1 jump straight to 0x90 (a break out of both): they park in the outer entry.
    let k = s.point_at(0x90, &calls).unwrap();
    assert_eq!(k, 0);
    assert_eq!(
        s.arrive(k, 0x3, 0x90, 0x90, &mut calls),
        Some(Next {
            mask: 0x4,
            pc: 0x40
        })
    );
    // Lane 2 is the inner entry's only lane: it was dropped when lane 2 started.
    assert_eq!(s.len(), 1);
    let k = s.point_at(0x90, &calls).unwrap();
    assert_eq!(
        s.arrive(k, 0x4, 0x90, 0x90, &mut calls),
        Some(Next {
            mask: 0x8,
            pc: 0x60
        })
    );
    assert_eq!(
        s.arrive(k, 0x8, 0x90, 0x90, &mut calls),
        Some(Next {
            mask: 0xf,
            pc: 0x90
        })
    );
}

#[test]
fn overflow_faults_and_diverge_empty_faults() {
    let mut s = DivStack::new(1);
    let calls = CallStack::default();
    s.split(0x100, 0xff, g(0x200, 0x0f), Reconv::None, &calls)
        .unwrap();
    assert_eq!(
        s.split(0x104, 0xf0, g(0x200, 0x30), Reconv::None, &calls),
        Err(FaultCode::DivergeOverflow)
    );
    let mut s = DivStack::new(4);
    assert_eq!(
        s.diverge(0x100, 0xff, 0x100, 0x200, &calls),
        Err(FaultCode::DivergeEmpty)
    );
    assert_eq!(
        s.diverge(0x100, 0xff, 0x03, 0x200, &calls),
        Ok(Next {
            mask: 0x03,
            pc: 0x104
        })
    );
    assert_eq!(s.top().unwrap().pending_mask(), 0xfc);
}

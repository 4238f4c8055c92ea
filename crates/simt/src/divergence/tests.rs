//! Unit tests of the divergence stack's bookkeeping; whole programs are in
//! `crates/simt/tests/divergence.rs` and `tests/repro`.

use super::*;

fn g(pc: u32, mask: u32) -> Group {
    Group { pc, mask }
}

#[test]
fn if_else_parks_then_runs_the_waiting_group_then_pops() {
    let mut s = DivStack::new(4, 0);
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
    let mut s = DivStack::new(1, 0);
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
    let mut s = DivStack::new(1, 0);
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
    let mut s = DivStack::new(4, 0);
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
fn setting_the_call_depth_keeps_the_shallower_activations_and_opens_fresh_ones() {
    let mut calls = CallStack::default();
    calls.call();
    calls.call();
    let two = calls.chain().to_vec();
    // Deeper: the two activations stay, three fresh ones follow.
    calls.set_depth(5);
    assert_eq!(calls.depth(), 5);
    assert_eq!(&calls.chain()[..3], two.as_slice());
    let five = calls.chain().to_vec();
    let mut ids = five.clone();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 6, "every activation is another: {five:?}");
    // Shallower: the first ones stay, as returns would leave them.
    calls.set_depth(1);
    assert_eq!(calls.chain(), &two[..2]);
    // Back to 3: the activation at depth 2 is a new one, not the one closed.
    calls.set_depth(3);
    assert_eq!(&calls.chain()[..2], &two[..2]);
    assert!(!five.contains(&calls.chain()[2]) && !five.contains(&calls.chain()[3]));
    calls.set_depth(0);
    assert_eq!(calls.chain(), &two[..1]);
}

#[test]
fn halting_resumes_waiting_groups_in_their_activation() {
    let mut s = DivStack::new(4, 0);
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
    let mut s = DivStack::new(4, 0);
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
    let mut s = DivStack::new(1, 0);
    let calls = CallStack::default();
    s.split(0x100, 0xff, g(0x200, 0x0f), Reconv::None, &calls)
        .unwrap();
    assert_eq!(
        s.split(0x104, 0xf0, g(0x200, 0x30), Reconv::None, &calls),
        Err(FaultCode::DivergeOverflow)
    );
    let mut s = DivStack::new(4, 0);
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

/// Nested splits that each leave one lane behind, on a stack of 2 entries on chip and a spill
/// area of 3: the bottom entries spill as the nesting passes 2, come back in order as the
/// inner regions close, and a sixth entry faults.
#[test]
fn entries_past_the_on_chip_ones_spill_and_fill_back_in_order() {
    let mut s = DivStack::new(2, 3);
    let mut calls = CallStack::default();
    let mut running = 0x3fu32;
    for k in 0..5u32 {
        s.events = 0;
        s.traffic = StackTraffic::default();
        let leaving = 1 << k;
        // The leaving lane waits at 0x100·(k+1) − 0x80 for the region's point 0x100·(k+1);
        // the others go on.
        s.split(
            0x10 + 4 * k,
            running,
            g(0x100 * (k + 1) - 0x80, leaving),
            Reconv::At(0x100 * (k + 1)),
            &calls,
        )
        .unwrap();
        running &= !leaving;
        let spills = k.saturating_sub(1);
        assert_eq!(s.spilled() as u32, spills, "after push {k}");
        assert_eq!(
            (
                DivEvents(s.events).has(DivEvents::SPILL),
                s.traffic.to_memory
            ),
            if k >= 2 {
                (true, SPILL_ENTRY_BYTES)
            } else {
                (false, 0)
            }
        );
    }
    assert_eq!(
        s.split(0x40, running, g(0x600, 0x20), Reconv::At(0x600), &calls),
        Err(FaultCode::DivergeOverflow),
        "2 on chip + 3 spilled"
    );
    // Close the regions from the innermost: each arrival runs the waiting lane, whose own
    // arrival pops the entry; a pop that leaves the top in the spill area fills it.
    let mut fills = 0;
    for k in (0..5u32).rev() {
        let p = 0x100 * (k + 1);
        let e = s.point_at(p, &calls).unwrap();
        let next = s.arrive(e, running, p, p, &mut calls).unwrap();
        assert_eq!(
            next,
            Next {
                mask: 1 << k,
                pc: p - 0x80
            }
        );
        s.events = 0;
        let next = s
            .arrive(e, 1 << k, p, p, &mut calls)
            .unwrap_or(Next { mask: 0, pc: 0 });
        running |= 1 << k;
        if k > 0 {
            assert_eq!(
                next,
                Next {
                    mask: running,
                    pc: p
                }
            );
        }
        if DivEvents(s.events).has(DivEvents::FILL) {
            fills += 1;
        }
        assert!(s.is_empty() || s.len() > s.spilled(), "the top is on chip");
    }
    assert!(s.is_empty());
    assert_eq!((s.spills, s.fills, fills), (3, 3, 3));
}

proptest::proptest! {
    /// Spilling changes nothing but where entries are: any sequence of splits, arrivals,
    /// calls, returns and halts gives the same groups and entries on a stack of `chip`
    /// entries with a spill area as on one that holds them all on chip; the top entry is
    /// always on chip and at most `chip` entries are.
    #[test]
    fn a_spilling_stack_behaves_as_one_all_on_chip(
        chip in 1usize..4,
        ops in proptest::collection::vec((0u8..6, proptest::prelude::any::<u32>()), 1..200),
    ) {
        let mut a = DivStack::new(chip, 64);
        let mut b = DivStack::new(chip + 64, 0);
        let (mut ca, mut cb) = (CallStack::default(), CallStack::default());
        let mut active = 0xffu32;
        let points = [Reconv::At(0x100), Reconv::At(0x200), Reconv::AtExit, Reconv::None];
        for (op, r) in ops {
            if active == 0 {
                break;
            }
            match op {
                0 | 1 => {
                    let second = active & r;
                    if second == 0 || second == active {
                        continue;
                    }
                    let reconv = points[(r >> 8) as usize % 4];
                    let src = 0x10 + 4 * (r >> 12 & 3);
                    let pc = if let Reconv::At(p) = reconv { p + 0x10 } else { 0x300 };
                    let ra = a.split(src, active, g(pc, second), reconv, &ca);
                    let rb = b.split(src, active, g(pc, second), reconv, &cb);
                    proptest::prop_assert_eq!(ra, rb);
                    if ra.is_ok() {
                        active &= !second;
                    }
                }
                2 => {
                    let p = if r & 1 == 0 { 0x100 } else { 0x200 };
                    let (ka, kb) = (a.point_at(p, &ca), b.point_at(p, &cb));
                    proptest::prop_assert_eq!(ka, kb);
                    if let Some(k) = ka {
                        let na = a.arrive(k, active, p, p, &mut ca);
                        let nb = b.arrive(k, active, p, p, &mut cb);
                        proptest::prop_assert_eq!(na, nb);
                        active = na.map_or(0, |n| n.mask);
                    }
                }
                3 => {
                    ca.call();
                    cb.call();
                }
                4 => {
                    let (ka, kb) = (a.exit_point(&ca), b.exit_point(&cb));
                    proptest::prop_assert_eq!(ka, kb);
                    match ka {
                        Some(k) => {
                            let na = a.arrive(k, active, 0x400, 0x400, &mut ca);
                            let nb = b.arrive(k, active, 0x400, 0x400, &mut cb);
                            proptest::prop_assert_eq!(na, nb);
                            active = na.map_or(0, |n| n.mask);
                        }
                        None => {
                            ca.ret();
                            cb.ret();
                        }
                    }
                }
                _ => {
                    // The running group halts, as the machine retires one (`retire_group`:
                    // every lane of the warp's current mask; lanes of a group never halt
                    // apart, they split first); the stack runs what waits, if anything.
                    if r & 1 != 0 {
                        continue;
                    }
                    let na = a.retire(active, &mut ca);
                    let nb = b.retire(active, &mut cb);
                    proptest::prop_assert_eq!(na, nb);
                    active = na.map_or(0, |n| n.mask);
                }
            }
            proptest::prop_assert_eq!(a.entries(), b.entries());
            proptest::prop_assert_eq!(ca.chain(), cb.chain());
            proptest::prop_assert!(a.len() - a.spilled() <= chip);
            proptest::prop_assert!(a.is_empty() || a.len() > a.spilled());
        }
    }
}

//! The divergence unit: weft's per-warp divergence stack (warp-core's model, DESIGN §2.2) and
//! Vortex's IPDOM stack for split/join.
//!
//! Everything here is pure bookkeeping on masks and pcs: the executor tells it what a branch,
//! `converge`, `diverge` or a reconvergence point did, and it answers with the mask and pc the
//! warp continues with. `docs/isa.md` walks through these rules with worked traces.

use weft_isa::FaultCode;

/// Where a table-driven entry reconverges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reconv {
    /// Only an explicit `converge` closes this entry.
    None,
    /// The branch's immediate post-dominator.
    At(u32),
    /// The branch's post-dominator is the function's exit: reconverge at its return.
    AtExit,
}

/// One divergence stack entry: {saved_mask, pending_mask, target_pc, source_pc, phase} plus the
/// call depth at the branch and, for table reconvergence, where it reconverges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The active mask when the warp diverged, restored at the final pop.
    pub saved_mask: u32,
    /// Lanes waiting for their turn.
    pub pending_mask: u32,
    /// Where the waiting lanes start.
    pub target_pc: u32,
    /// The pc of the branch that created the entry (for loop re-entry and `converge`).
    pub source_pc: u32,
    /// 0 = the first group runs; 1 = the second group runs.
    pub phase: u8,
    /// The warp's call depth at the branch.
    pub depth: u32,
    /// Table reconvergence point.
    pub reconv: Reconv,
    /// Where the first group parked when the entry went to phase 1.
    pub resume_pc: u32,
}

/// What the warp does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Next {
    /// The new active mask.
    pub mask: u32,
    /// The new pc.
    pub pc: u32,
}

/// Result of a conditional branch seen by the divergence unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BranchOutcome {
    /// All active lanes agreed: an ordinary branch to `pc`.
    Uniform(u32),
    /// The warp diverged (a new entry was pushed).
    Pushed(Next),
    /// A loop came round again: the entry was updated in place.
    Updated(Next),
}

/// A warp's divergence stack.
#[derive(Clone, Debug, Default)]
pub struct DivStack {
    entries: Vec<Entry>,
    depth_limit: usize,
    max_seen: usize,
}

impl DivStack {
    /// An empty stack holding at most `depth_limit` entries.
    pub fn new(depth_limit: usize) -> DivStack {
        DivStack {
            entries: Vec::with_capacity(depth_limit),
            depth_limit,
            max_seen: 0,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when no entry is open.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Deepest the stack has been.
    pub fn max_depth(&self) -> usize {
        self.max_seen
    }

    /// The top entry.
    pub fn top(&self) -> Option<&Entry> {
        self.entries.last()
    }

    /// All entries, bottom first.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Drop every entry (warp restart).
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    fn push(&mut self, e: Entry) -> Result<(), FaultCode> {
        if self.entries.len() >= self.depth_limit {
            return Err(FaultCode::DivergeOverflow);
        }
        self.entries.push(e);
        self.max_seen = self.max_seen.max(self.entries.len());
        Ok(())
    }

    /// A conditional branch at `pc` with active mask `active`, taken lanes `taken`, target
    /// `target`; `depth` is the warp's call depth and `reconv` the table entry for the branch.
    pub fn branch(
        &mut self,
        pc: u32,
        active: u32,
        taken: u32,
        target: u32,
        depth: u32,
        reconv: Reconv,
    ) -> Result<BranchOutcome, FaultCode> {
        let taken = taken & active;
        let fall = pc.wrapping_add(4);
        if taken == active {
            return Ok(BranchOutcome::Uniform(target));
        }
        if taken == 0 {
            return Ok(BranchOutcome::Uniform(fall));
        }
        let not_taken = active & !taken;
        // Backward branch (a loop): the taken lanes go first; forward: the fall-through lanes.
        let (first, first_pc, second, second_pc) = if target <= pc {
            (taken, target, not_taken, fall)
        } else {
            (not_taken, fall, taken, target)
        };
        let next = Next {
            mask: first,
            pc: first_pc,
        };
        if let Some(top) = self.entries.last_mut() {
            if top.source_pc == pc && top.phase == 0 && top.depth == depth {
                top.pending_mask |= second;
                return Ok(BranchOutcome::Updated(next));
            }
            // Table reconvergence only: a second group that waits where the top entry's
            // pending lanes wait, and reconverges at the same point, joins that entry (this
            // keeps loops with `break` at one entry). Documented in docs/isa.md.
            if reconv != Reconv::None
                && top.phase == 0
                && top.depth == depth
                && top.reconv == reconv
                && top.target_pc == second_pc
            {
                top.pending_mask |= second;
                return Ok(BranchOutcome::Updated(next));
            }
        }
        self.push(Entry {
            saved_mask: active,
            pending_mask: second,
            target_pc: second_pc,
            source_pc: pc,
            phase: 0,
            depth,
            reconv,
            resume_pc: 0,
        })?;
        Ok(BranchOutcome::Pushed(next))
    }

    /// `diverge` at `pc`: lanes of `active` in `pred` continue at `pc + 4`, the others wait at
    /// `label`. An empty predicate faults with DIVERGE_EMPTY.
    pub fn diverge(
        &mut self,
        pc: u32,
        active: u32,
        pred: u32,
        label: u32,
        depth: u32,
    ) -> Result<Next, FaultCode> {
        let go = active & pred;
        if go == 0 {
            return Err(FaultCode::DivergeEmpty);
        }
        let wait = active & !go;
        if wait != 0 {
            self.push(Entry {
                saved_mask: active,
                pending_mask: wait,
                target_pc: label,
                source_pc: pc,
                phase: 0,
                depth,
                reconv: Reconv::None,
                resume_pc: 0,
            })?;
        }
        Ok(Next {
            mask: go,
            pc: pc.wrapping_add(4),
        })
    }

    /// Reconverge the top entry at `pc` (a matching `converge`, or a group reaching its
    /// table reconvergence point). Returns where the warp continues; `current` is the active
    /// mask and `cont` the pc to continue at if the entry pops.
    pub fn reconverge(&mut self, pc: u32, cont: u32) -> Option<Next> {
        let top = self.entries.last_mut()?;
        if top.phase == 0 && top.target_pc != pc && top.pending_mask != 0 {
            top.phase = 1;
            top.resume_pc = pc;
            return Some(Next {
                mask: top.pending_mask,
                pc: top.target_pc,
            });
        }
        let e = self.entries.pop()?;
        Some(Next {
            mask: e.saved_mask,
            pc: cont,
        })
    }

    /// Does `converge` at `pc` naming the branch at `branch_pc` act (top entry matches)?
    pub fn converge_matches(&self, branch_pc: u32, depth: u32) -> bool {
        self.entries
            .last()
            .is_some_and(|t| t.source_pc == branch_pc && t.depth == depth)
    }

    /// Does a group at `pc` reach the top entry's table reconvergence point?
    #[inline]
    pub fn at_reconv_point(&self, pc: u32, depth: u32) -> bool {
        match self.entries.last() {
            Some(t) => t.reconv == Reconv::At(pc) && t.depth == depth,
            None => false,
        }
    }

    /// Does a return at call depth `depth` close the top entry (its post-dominator is the exit)?
    pub fn at_exit_point(&self, depth: u32) -> bool {
        self.entries
            .last()
            .is_some_and(|t| t.reconv == Reconv::AtExit && t.depth == depth)
    }

    /// The current group (`current` lanes) has halted. Returns the group that runs next, or
    /// `None` when no lanes are left. Halted lanes are removed from every entry.
    pub fn retire(&mut self, current: u32) -> Option<Next> {
        for e in &mut self.entries {
            e.saved_mask &= !current;
            e.pending_mask &= !current;
        }
        while let Some(top) = self.entries.last_mut() {
            if top.phase == 0 && top.pending_mask != 0 {
                top.phase = 1;
                return Some(Next {
                    mask: top.pending_mask,
                    pc: top.target_pc,
                });
            }
            let e = self.entries.pop()?;
            // Phase 1: the first group parked at resume_pc.
            let parked = e.saved_mask & !e.pending_mask;
            if e.phase == 1 && parked != 0 {
                return Some(Next {
                    mask: parked,
                    pc: e.resume_pc,
                });
            }
        }
        None
    }
}

/// One Vortex IPDOM stack entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IpdomEntry {
    /// The mask before the split.
    pub orig_mask: u32,
    /// The pc after the split (where the else group re-executes the branch).
    pub else_pc: u32,
    /// True once the else group has run.
    pub fallthrough: bool,
}

/// Vortex's `split`: returns the new mask and pushes an entry if the predicate diverges;
/// `token` receives the depth before any push. The warp continues with the smaller group
/// (the then group on a tie).
pub fn vx_split(
    stack: &mut Vec<IpdomEntry>,
    limit: usize,
    mask: u32,
    pred: u32,
    pc: u32,
) -> Result<(u32, u32), FaultCode> {
    let token = stack.len() as u32;
    let then = mask & pred;
    let els = mask & !pred;
    if then == 0 || els == 0 {
        return Ok((mask, token));
    }
    if stack.len() >= limit {
        return Err(FaultCode::IpdomOverflow);
    }
    stack.push(IpdomEntry {
        orig_mask: mask,
        else_pc: pc.wrapping_add(4),
        fallthrough: false,
    });
    let next = if els.count_ones() < then.count_ones() {
        els
    } else {
        then
    };
    Ok((next, token))
}

/// What a Vortex `join` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinOutcome {
    /// The matching split was uniform: nothing happens.
    Uniform,
    /// Run the else group: set the mask and jump back to the branch after the split.
    Else {
        /// The else lanes.
        mask: u32,
        /// Where they re-execute the branch.
        pc: u32,
    },
    /// Both groups ran: restore the mask and fall through.
    Pop {
        /// The mask before the split.
        mask: u32,
    },
}

/// Vortex's `join` with `token` (the depth `split` returned).
pub fn vx_join(
    stack: &mut Vec<IpdomEntry>,
    mask: u32,
    token: u32,
) -> Result<JoinOutcome, FaultCode> {
    if token as usize == stack.len() {
        return Ok(JoinOutcome::Uniform);
    }
    let top = stack.last_mut().ok_or(FaultCode::IpdomUnderflow)?;
    if !top.fallthrough {
        top.fallthrough = true;
        Ok(JoinOutcome::Else {
            mask: top.orig_mask & !mask,
            pc: top.else_pc,
        })
    } else {
        let e = stack.pop().ok_or(FaultCode::IpdomUnderflow)?;
        Ok(JoinOutcome::Pop { mask: e.orig_mask })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PC: u32 = 0x100;

    #[test]
    fn uniform_branches_do_not_touch_the_stack() {
        let mut s = DivStack::new(4);
        assert_eq!(
            s.branch(PC, 0xff, 0xff, 0x200, 0, Reconv::None),
            Ok(BranchOutcome::Uniform(0x200))
        );
        assert_eq!(
            s.branch(PC, 0xff, 0, 0x200, 0, Reconv::None),
            Ok(BranchOutcome::Uniform(PC + 4))
        );
        assert!(s.is_empty());
    }

    #[test]
    fn forward_branch_runs_fallthrough_first() {
        let mut s = DivStack::new(4);
        let r = s.branch(PC, 0xff, 0x0f, 0x200, 0, Reconv::None).unwrap();
        assert_eq!(
            r,
            BranchOutcome::Pushed(Next {
                mask: 0xf0,
                pc: PC + 4
            })
        );
        let e = *s.top().unwrap();
        assert_eq!(
            (
                e.saved_mask,
                e.pending_mask,
                e.target_pc,
                e.source_pc,
                e.phase
            ),
            (0xff, 0x0f, 0x200, PC, 0)
        );
        // if/else: converge at 0x300 (≠ target) switches to the else group.
        assert_eq!(
            s.reconverge(0x300, 0x304),
            Some(Next {
                mask: 0x0f,
                pc: 0x200
            })
        );
        assert_eq!(s.top().unwrap().phase, 1);
        assert_eq!(
            s.reconverge(0x300, 0x304),
            Some(Next {
                mask: 0xff,
                pc: 0x304
            })
        );
        assert!(s.is_empty());
    }

    #[test]
    fn loop_reentry_updates_in_place() {
        let mut s = DivStack::new(1);
        // Backward branch at 0x140 to 0x100: lanes leave one per iteration.
        let mut active = 0xffu32;
        for i in 0..7 {
            let taken = active & !(1 << i);
            let r = s
                .branch(0x140, active, taken, 0x100, 0, Reconv::None)
                .unwrap();
            assert_eq!(
                r.clone(),
                if i == 0 {
                    BranchOutcome::Pushed(Next {
                        mask: taken,
                        pc: 0x100,
                    })
                } else {
                    BranchOutcome::Updated(Next {
                        mask: taken,
                        pc: 0x100,
                    })
                }
            );
            active = taken;
            assert_eq!(s.len(), 1);
        }
        assert_eq!(s.top().unwrap().pending_mask, 0x7f);
        // The last lane leaves: uniform not-taken.
        assert_eq!(
            s.branch(0x140, active, 0, 0x100, 0, Reconv::None),
            Ok(BranchOutcome::Uniform(0x144))
        );
        // converge at the exit (= target_pc): pop.
        assert_eq!(
            s.reconverge(0x144, 0x148),
            Some(Next {
                mask: 0xff,
                pc: 0x148
            })
        );
    }

    #[test]
    fn overflow_faults() {
        let mut s = DivStack::new(1);
        s.branch(0x100, 0xff, 0x0f, 0x200, 0, Reconv::None).unwrap();
        assert_eq!(
            s.branch(0x104, 0xf0, 0x30, 0x200, 0, Reconv::None),
            Err(FaultCode::DivergeOverflow)
        );
    }

    #[test]
    fn diverge_empty_faults() {
        let mut s = DivStack::new(4);
        assert_eq!(
            s.diverge(PC, 0xff, 0x100, 0x200, 0),
            Err(FaultCode::DivergeEmpty)
        );
        assert_eq!(
            s.diverge(PC, 0xff, 0x03, 0x200, 0),
            Ok(Next {
                mask: 0x03,
                pc: PC + 4
            })
        );
        assert_eq!(s.top().unwrap().pending_mask, 0xfc);
    }

    #[test]
    fn retire_runs_waiting_lanes() {
        let mut s = DivStack::new(4);
        s.branch(PC, 0xff, 0x0f, 0x200, 0, Reconv::None).unwrap();
        assert_eq!(
            s.retire(0xf0),
            Some(Next {
                mask: 0x0f,
                pc: 0x200
            })
        );
        assert_eq!(s.retire(0x0f), None);
        assert!(s.is_empty());
    }

    #[test]
    fn vortex_split_join() {
        let mut st = Vec::new();
        let (m, tok) = vx_split(&mut st, 4, 0xf, 0x1, 0x100).unwrap();
        assert_eq!((m, tok), (0x1, 0)); // smaller group first
        assert_eq!(
            vx_join(&mut st, m, tok),
            Ok(JoinOutcome::Else {
                mask: 0xe,
                pc: 0x104
            })
        );
        assert_eq!(
            vx_join(&mut st, 0xe, tok),
            Ok(JoinOutcome::Pop { mask: 0xf })
        );
        assert!(st.is_empty());
        let (m, tok) = vx_split(&mut st, 4, 0xf, 0xf, 0x100).unwrap();
        assert_eq!((m, tok), (0xf, 0));
        assert_eq!(vx_join(&mut st, m, tok), Ok(JoinOutcome::Uniform));
    }
}

//! Control flow and the divergence unit at work: conditional branches, `jal`/`jalr` (calls,
//! returns, indirect jumps), `converge`, `diverge`, table reconvergence before issue, and a
//! group halting. The bookkeeping lives in `divergence.rs`; this module decides which groups
//! split and where they meet, and moves the warp (mask, pc, call stack) accordingly.
//! `docs/isa.md` §5–6 state the rules with worked traces.

use crate::config::ReconvMode;
use crate::divergence::{call_effect, is_return, Group, Reconv, SplitOutcome};
use crate::lane::{lanes, LaneMask};
use crate::machine::Issue;
use crate::trap::{misaligned_target, Trap, TrapInfo};
use crate::warp::{Warp, WarpState};
use weft_isa::FaultCode;

fn overflow((depth, spill): (usize, usize)) -> Trap {
    Trap::from(TrapInfo {
        code: FaultCode::DivergeOverflow,
        addr: None,
        detail: format!(
            "the divergence stack is full: {depth} entries on chip and {spill} in the spill \
             area (nested divergent regions need one entry each, recursion one per level; \
             raise the spill area with --set stack_spill=N, the on-chip size with --stack-depth)"
        ),
    })
}

impl Issue<'_> {
    /// A conditional branch whose lanes `taken` go to its target (the branch handler in
    /// `fast.rs`, its only caller, has already checked the target's alignment).
    pub(crate) fn branch(&mut self, taken: u32) -> Result<(), Trap> {
        let Issue {
            c,
            w,
            i,
            pc,
            reconv,
            ..
        } = *self;
        let mode = self.m.cfg.reconv;
        let depth = (self.m.cfg.stack_depth, self.m.cfg.stack_spill);
        let warp = &mut self.m.cores[c].warps[w];
        let active = warp.mask;
        let taken = taken & active;
        let target = pc.wrapping_add(i.imm as u32);
        let fall = pc.wrapping_add(i.len());
        if taken == active {
            warp.pc = target;
            return Ok(());
        }
        if taken == 0 {
            warp.pc = fall;
            return Ok(());
        }
        if mode == ReconvMode::FollowLast {
            let last = LaneMask(active).last().unwrap_or(0);
            warp.pc = if taken >> last & 1 != 0 { target } else { fall };
            return Ok(());
        }
        let rc = if mode == ReconvMode::Table {
            reconv
        } else {
            Reconv::None
        };
        let not_taken = active & !taken;
        // Backward branch (a loop's back edge): the taken lanes go first; forward: the
        // fall-through lanes.
        let (first, second) = if target <= pc {
            (
                Group {
                    pc: target,
                    mask: taken,
                },
                Group {
                    pc: fall,
                    mask: not_taken,
                },
            )
        } else {
            (
                Group {
                    pc: fall,
                    mask: not_taken,
                },
                Group {
                    pc: target,
                    mask: taken,
                },
            )
        };
        warp.stack
            .split(pc, active, second, rc, &warp.calls)
            .map_err(|_| overflow(depth))?;
        warp.stats.divergences += 1;
        warp.mask = first.mask;
        warp.pc = first.pc;
        Ok(())
    }

    /// `jal`: a call when it links.
    pub(crate) fn jal(&mut self) -> Result<(), Trap> {
        let Issue { c, w, i, pc, .. } = *self;
        let n = self.m.cfg.lanes;
        let target = pc.wrapping_add(i.imm as u32);
        if target & 1 != 0 {
            return Err(misaligned_target(target));
        }
        let warp = &mut self.m.cores[c].warps[w];
        if i.rd != 0 {
            let link = pc.wrapping_add(i.len());
            for l in lanes(warp.mask).filter(|&l| l < n) {
                warp.x[i.rd as usize][l] = link;
            }
        }
        warp.calls.apply(call_effect(&i));
        warp.pc = target;
        Ok(())
    }

    /// `jalr`: a call (it links), a return, or another indirect jump. Lanes that disagree on
    /// the target split: the lanes going where the lowest active lane goes run now, the rest
    /// wait at this `jalr` and execute it again when their turn comes. They reconverge when
    /// the call returns (a call), at the jump's post-dominator from the table or else at the
    /// function's exit (a jump), or at a `converge` naming the `jalr` (converge mode).
    pub(crate) fn jalr(&mut self) -> Result<(), Trap> {
        let Issue {
            c,
            w,
            i,
            pc,
            reconv,
            ..
        } = *self;
        let mode = self.m.cfg.reconv;
        let depth = (self.m.cfg.stack_depth, self.m.cfg.stack_spill);
        let warp = &mut self.m.cores[c].warps[w];
        let ret = is_return(&i);
        if ret && mode != ReconvMode::FollowLast {
            // A return closes the region of a branch whose post-dominator is the exit.
            while let Some(k) = warp.stack.exit_point(&warp.calls) {
                warp.stats.reconvergences += 1;
                let next = warp
                    .stack
                    .arrive(k, warp.mask, pc, pc, &mut warp.calls)
                    .expect("an entry with parked lanes pops to them");
                if next.pc != pc {
                    warp.go(next);
                    return Ok(());
                }
                warp.mask = next.mask;
            }
        }
        let target_of =
            |warp: &Warp, l: usize| warp.x[i.rs1 as usize][l].wrapping_add(i.imm as u32) & !1;
        // Every executing lane's target must be aligned before anything changes.
        if let Some(t) = lanes(warp.mask)
            .map(|l| target_of(warp, l))
            .find(|t| t & 1 != 0)
        {
            return Err(misaligned_target(t));
        }
        let first_lane = LaneMask(warp.mask).first().unwrap_or(0);
        let mut target = target_of(warp, first_lane);
        let mut go = 0u32;
        for l in lanes(warp.mask) {
            let t = target_of(warp, l);
            if mode == ReconvMode::FollowLast {
                target = t;
                go = warp.mask;
            } else if t == target {
                go |= 1 << l;
            }
        }
        let rest = warp.mask & !go;
        if rest != 0 {
            if ret {
                let other = target_of(warp, LaneMask(rest).first().unwrap_or(0));
                return Err(Trap::from(TrapInfo {
                    code: FaultCode::DivergentJump,
                    addr: Some(other),
                    detail: format!(
                        "lanes disagree on the return address ({target:#010x} and \
                         {other:#010x}): they are not in one activation, so no \
                         reconvergence point is known"
                    ),
                }));
            }
            let rc = if i.rd != 0 {
                Reconv::At(pc.wrapping_add(i.len()))
            } else if mode == ReconvMode::Table {
                match reconv {
                    Reconv::None => Reconv::AtExit,
                    r => r,
                }
            } else {
                Reconv::None
            };
            let second = Group { pc, mask: rest };
            let active = warp.mask;
            match warp.stack.split(pc, active, second, rc, &warp.calls) {
                Ok(SplitOutcome::Pushed | SplitOutcome::Joined) => {}
                Err(_) => return Err(overflow(depth)),
            }
            warp.stats.divergences += 1;
            warp.mask = go;
        }
        if i.rd != 0 {
            let link = pc.wrapping_add(i.len());
            for l in lanes(warp.mask) {
                warp.x[i.rd as usize][l] = link;
            }
        }
        warp.calls.apply(call_effect(&i));
        warp.pc = target;
        Ok(())
    }

    /// `converge LABEL` at `pc`: the running group arrives at the topmost entry made by the
    /// branch at `source` in this activation (wherever it is on the stack); otherwise a NOP.
    pub(crate) fn converge(&mut self, source: u32, pc: u32) {
        let Issue { c, w, i, .. } = *self;
        let warp = &mut self.m.cores[c].warps[w];
        let next = pc.wrapping_add(i.len());
        if let Some(k) = warp.stack.converge_target(source, &warp.calls) {
            warp.stats.reconvergences += 1;
            let nx = warp
                .stack
                .arrive(k, warp.mask, pc, next, &mut warp.calls)
                .expect("an entry with parked lanes pops to them");
            warp.go(nx);
        } else {
            warp.pc = next;
        }
    }

    /// `diverge rs1, LABEL` at `pc`.
    pub(crate) fn diverge(&mut self) -> Result<(), Trap> {
        let Issue { c, w, i, pc, .. } = *self;
        let depth = (self.m.cfg.stack_depth, self.m.cfg.stack_spill);
        let warp = &mut self.m.cores[c].warps[w];
        let pred = LaneMask(warp.mask)
            .select(|l| warp.x[i.rs1 as usize][l] != 0)
            .0;
        let label = pc.wrapping_add(i.imm as u32);
        let nx = match warp.stack.diverge(pc, warp.mask, pred, label, &warp.calls) {
            Ok(nx) => nx,
            Err(FaultCode::DivergeOverflow) => return Err(overflow(depth)),
            Err(code) => return Err(crate::trap::fault(code)),
        };
        if nx.mask != warp.mask {
            warp.stats.divergences += 1;
        }
        warp.go(nx);
        Ok(())
    }

    /// Halt the current group of warp `w` (a `tmask` write of 0, `tmc` 0, `pred` with an
    /// empty fallback): waiting groups run; when none is left the warp halts and sets its
    /// `warp_done` bit. A warp that would halt while lanes still wait on Vortex's IPDOM stack
    /// faults with LANES_LOST instead, naming them.
    pub(crate) fn retire_group(&mut self) -> Result<(), Trap> {
        let Issue { c, w, .. } = *self;
        let core = &mut self.m.cores[c];
        let warp = &mut core.warps[w];
        if let Some(next) = warp.stack.retire(warp.mask, &mut warp.calls) {
            warp.go(next);
            return Ok(());
        }
        let lost: Vec<String> = warp
            .ipdom
            .iter()
            .filter(|e| !e.fallthrough && e.orig_mask & !warp.mask != 0)
            .map(|e| {
                format!(
                    "lanes {:#x} wait for their split's else path at pc {:#010x}",
                    e.orig_mask & !warp.mask,
                    e.else_pc
                )
            })
            .collect();
        if !lost.is_empty() {
            return Err(Trap::from(TrapInfo {
                code: FaultCode::LanesLost,
                addr: None,
                detail: format!("the warp halted while {}", lost.join("; ")),
            }));
        }
        warp.mask = 0;
        warp.state = WarpState::Idle;
        core.warp_done |= 1 << w;
        core.wake_spawn_waiter();
        self.m.cta_warp_done(c, w);
        Ok(())
    }
}

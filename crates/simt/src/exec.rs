//! Executing one warp-instruction: reconvergence, breakpoint and watchdog checks, fetch from
//! the decoded cache, then the instruction's handler (with its step record when observers
//! are attached). System, CSR and SIMT instructions execute here; integer ALU ops and branches
//! in `fast.rs`, memory instructions in `exec_mem.rs`, floating point in `exec_fp.rs`, control
//! flow in `control.rs`. Per-lane semantics come from `weft-sem`.

use crate::fast::handler_for;
use crate::ipdom::{self, JoinOutcome};
use crate::lane::{lanes, LaneMask};
use crate::machine::{CodeSlot, Issue, Machine};
use crate::record::{self, Before, StepRecord};
use crate::trap::{fault, Trap, TrapInfo};
use crate::warp::{watchdog, Warp, WarpState};
use weft_isa::{Class, FaultCode, Inst, Op};

/// Set rd to a per-lane value computed from the lane index.
#[inline(always)]
fn map_lane(w: &mut Warp, n: usize, rd: u8, f: impl Fn(usize) -> u32) {
    if rd == 0 {
        return;
    }
    let m = w.mask;
    for l in 0..n.min(32) {
        if m >> l & 1 != 0 {
            w.x[rd as usize][l] = f(l);
        }
    }
}

impl Machine {
    /// Execute one warp-instruction of warp `w` on core `c`.
    #[inline(always)]
    pub(crate) fn step(&mut self, c: usize, w: usize) {
        if !self.observers.is_empty() {
            return self.step_observed(c, w);
        }
        let Some((pc, slot)) = self.prepare(c, w) else {
            return;
        };
        self.execute(c, w, pc, &slot);
    }

    /// Reconvergence, breakpoint and watchdog checks, then fetch. `None` when the warp does
    /// not issue (stopped, or a fetch fault).
    #[inline(always)]
    fn prepare(&mut self, c: usize, w: usize) -> Option<(u32, CodeSlot)> {
        let warp = &self.cores[c].warps[w];
        if (!warp.stack.is_empty()
            || warp.csr.break_pc != 0
            || warp.csr.watchdog & watchdog::MODE != 0)
            && self.pre_issue(c, w)
        {
            return None;
        }
        let pc = self.cores[c].warps[w].pc;
        match self.code.fetch(&self.mem, pc) {
            Ok(s) => Some((pc, s)),
            Err(code) => {
                self.fetch_fault(c, w, pc, code);
                None
            }
        }
    }

    /// Count the instruction and run its handler.
    #[inline(always)]
    fn execute(&mut self, c: usize, w: usize, pc: u32, slot: &CodeSlot) {
        let full = self.full_mask;
        let warp = &mut self.cores[c].warps[w];
        let mask = warp.mask;
        warp.stats.warp_instructions += 1;
        warp.stats.thread_instructions += if mask == full {
            self.cfg.lanes as u64
        } else {
            mask.count_ones() as u64
        };
        self.stats.count(slot.inst.op);
        let mut x = Issue {
            m: self,
            c,
            w,
            pc,
            i: slot.inst,
            reconv: slot.reconv,
        };
        if let Err(t) = (slot.handler)(&mut x) {
            self.finish_trap(c, w, pc, t);
        }
    }

    /// Execute warp `w`'s next instruction without counting it, if it is one a super-step
    /// over several warps may complete a warp's share with (`accel.rs`): a warp-private
    /// instruction (a conditional branch only when every active lane agrees: no divergence),
    /// or a float operation blocks may hold with the float state Dirty and every active
    /// lane's `frm` valid — none of them can trap or touch anything but the warp's registers,
    /// float flags and pc. Returns its operation, or `None` (nothing done).
    pub(crate) fn execute_private(&mut self, c: usize, w: usize) -> Option<weft_isa::Op> {
        use weft_isa::Op::*;
        if crate::accel::at_point(&self.cores[c].warps[w]) {
            return None;
        }
        let warp = &self.cores[c].warps[w];
        let pc = warp.pc;
        let slot = self.code.fetch(&self.mem, pc).ok()?;
        let op = slot.inst.op;
        let i = slot.inst;
        let agree = |f: fn(u32, u32) -> bool| {
            let (a, b) = (&warp.x[i.rs1 as usize], &warp.x[i.rs2 as usize]);
            let mut taken = lanes(warp.mask).map(|l| f(a[l], b[l]));
            let first = taken.next();
            taken.all(|t| Some(t) == first)
        };
        use weft_sem::alu;
        let plain = crate::engine::is_private(&i)
            && match op {
                Beq => agree(alu::beq),
                Bne => agree(alu::bne),
                Blt => agree(alu::blt),
                Bge => agree(alu::bge),
                Bltu => agree(alu::bltu),
                Bgeu => agree(alu::bgeu),
                _ => true,
            };
        let float = crate::engine::is_block_float(&slot.inst)
            && warp.csr.mstatus & crate::trap::mstatus::FS == crate::trap::mstatus::FS
            && lanes(warp.mask).all(|l| warp.frm[l] <= 4);
        if !plain && !float {
            return None;
        }
        let mut x = Issue {
            m: self,
            c,
            w,
            pc,
            i: slot.inst,
            reconv: slot.reconv,
        };
        (slot.handler)(&mut x).ok()?;
        Some(op)
    }

    /// The instruction warp `w` of core `c` would issue next, after the checks before issue
    /// (reconvergence of a group reaching its point, breakpoint, watchdog): `Some((pc,
    /// instruction, mask))`, or `None` if the warp does not issue (it stopped, or faulted
    /// fetching). Calling it again before [`Machine::issue`] changes nothing. A timing model
    /// uses it to look at the registers and unit the next instruction needs.
    pub fn peek(&mut self, c: usize, w: usize) -> Option<(u32, Inst, u32)> {
        let (pc, slot) = self.prepare(c, w)?;
        Some((pc, slot.inst, self.cores[c].warps[w].mask))
    }

    /// Issue warp `w` of core `c` now (at `self.cycle`): execute its next warp-instruction
    /// and fill `out` with what it did, for a driver that schedules warps itself (the timing
    /// model: execute at issue). Observers receive the step's record as in [`Machine::run`].
    /// Returns false if the warp did not issue (see [`Machine::peek`]).
    pub fn issue(&mut self, c: usize, w: usize, out: &mut crate::record::Issued) -> bool {
        let Some((pc, slot)) = self.prepare(c, w) else {
            return false;
        };
        let warp = &self.cores[c].warps[w];
        let mask = warp.mask;
        out.pc = pc;
        out.inst = slot.inst;
        out.mask = mask;
        if crate::record::memory_access(slot.inst.op).is_some() {
            let base = &warp.x[slot.inst.rs1 as usize];
            for l in lanes(mask) {
                out.addrs[l] = base[l].wrapping_add(slot.inst.imm as u32);
            }
        }
        let before = if self.observers.is_empty() {
            None
        } else {
            Some(self.note_before(c, w, pc, mask, &slot.inst))
        };
        self.execute(c, w, pc, &slot);
        let warp = &mut self.cores[c].warps[w];
        out.next_pc = warp.pc;
        out.next_mask = warp.mask;
        out.divergence = crate::divergence::DivEvents(warp.stack.events);
        out.stack_traffic = std::mem::take(&mut warp.stack.traffic);
        warp.stack.events = 0;
        if let Some(b) = before {
            let r = self.note_after(c, w, b);
            self.deliver(&r);
        }
        true
    }

    /// A step while observers are attached: the same step, with its record.
    #[cold]
    fn step_observed(&mut self, c: usize, w: usize) {
        self.cores[c].warps[w].stack.events = 0;
        let Some((pc, slot)) = self.prepare(c, w) else {
            return;
        };
        let mask = self.cores[c].warps[w].mask;
        let before = self.note_before(c, w, pc, mask, &slot.inst);
        self.execute(c, w, pc, &slot);
        let r = self.note_after(c, w, before);
        self.deliver(&r);
    }

    /// The record's part known before warp `w` of core `c` runs the instruction at `pc`.
    fn note_before(&self, c: usize, w: usize, pc: u32, mask: u32, inst: &Inst) -> Before {
        let warp = &self.cores[c].warps[w];
        record::before(
            warp,
            self.cfg.lanes,
            self.cycle,
            self.fault.is_some(),
            (pc, mask),
            inst,
        )
    }

    /// The record, completed after the instruction ran.
    fn note_after(&self, c: usize, w: usize, b: Before) -> StepRecord {
        let warp = &self.cores[c].warps[w];
        record::after(warp, self.cfg.lanes, (c, w), b, self.fault.as_ref())
    }

    /// The checks before issue that only apply to diverged warps, breakpoints and armed
    /// watchdogs. Returns true if the warp does not issue this cycle.
    #[cold]
    fn pre_issue(&mut self, c: usize, w: usize) -> bool {
        let warp = &mut self.cores[c].warps[w];
        warp.note_divergence_depth();
        // Table reconvergence: a group reaching its branch's post-dominator.
        if !warp.stack.is_empty() {
            self.cores[c].warps[w].reconverge_before_issue();
        }
        let warp = &mut self.cores[c].warps[w];
        let pc = warp.pc;
        if warp.csr.break_pc != 0 && warp.csr.break_pc == pc {
            warp.state = WarpState::Breakpoint;
            warp.csr.fault_code = FaultCode::Breakpoint.code();
            warp.csr.fault_pc = pc;
            return true;
        }
        if warp.csr.watchdog & watchdog::MODE != 0 {
            if let Some(t) = self.watchdog(c, w) {
                let pc = self.cores[c].warps[w].pc;
                self.finish_trap(c, w, pc, t);
                return true;
            }
        }
        false
    }

    #[cold]
    fn fetch_fault(&mut self, c: usize, w: usize, pc: u32, code: FaultCode) {
        let detail = match code {
            FaultCode::IllegalInstruction => match self.mem.load(0, pc, 2) {
                Ok(h) if Inst::len_of(h as u16) == 2 => {
                    format!("compressed (16-bit) instruction {h:#06x} does not decode")
                }
                _ => match self.mem.load(0, pc, 4) {
                    Ok(word) => format!("word {word:#010x} does not decode"),
                    Err(_) => String::new(),
                },
            },
            FaultCode::FetchFault if pc & 1 == 0 && self.mem.load(0, pc, 2).is_ok() => {
                "a 4-byte instruction runs past the end of memory".into()
            }
            _ => String::new(),
        };
        self.finish_trap(
            c,
            w,
            pc,
            Trap::from(TrapInfo {
                code,
                addr: Some(pc),
                detail,
            }),
        )
    }

    #[cold]
    /// An instruction at `pc` trapped: to the trap vector if one is set and the cause is an
    /// exception software can handle, otherwise a fault that ends the run. The warp's pc is
    /// put back to the trapping instruction first (some instructions advance it early).
    fn finish_trap(&mut self, c: usize, w: usize, pc: u32, t: Trap) {
        self.cores[c].warps[w].pc = pc;
        let TrapInfo { code, addr, detail } = *t.0;
        // With a trap vector, architectural exceptions go to software.
        let warp = &mut self.cores[c].warps[w];
        let cause = crate::trap::cause_of(code);
        if let (Some(cause), true) = (cause, warp.csr.mtvec != 0) {
            warp.csr.mepc = warp.pc;
            warp.csr.mcause = cause;
            // RISC-V allows only 0 or the instruction's bits for an illegal instruction.
            warp.csr.mtval = match code {
                FaultCode::IllegalInstruction => 0,
                _ => addr.unwrap_or(0),
            };
            warp.pc = warp.csr.mtvec & !3;
            return;
        }
        self.raise(c, w, code, addr, detail);
    }

    /// Check the warp's watchdog; HARD faults, SOFT sets the expired bit (and traps to mtvec
    /// when mie bit 16 is set).
    fn watchdog(&mut self, c: usize, w: usize) -> Option<Trap> {
        let cycle = self.cycle;
        let warp = &mut self.cores[c].warps[w];
        let limit = warp.csr.watchdog_limit as u64;
        if limit == 0
            || cycle.saturating_sub(warp.csr.watchdog_kick) <= limit
            || warp.csr.watchdog & watchdog::EXPIRED != 0
        {
            return None;
        }
        match warp.csr.watchdog & watchdog::MODE {
            watchdog::HARD => Some(Trap::from(TrapInfo {
                code: FaultCode::Watchdog,
                addr: None,
                detail: format!(
                    "no watchdog write for {} cycles (limit {limit})",
                    cycle - warp.csr.watchdog_kick
                ),
            })),
            watchdog::SOFT => {
                warp.csr.watchdog |= watchdog::EXPIRED;
                if warp.csr.mtvec != 0 && warp.csr.mie >> watchdog::MIE_BIT & 1 != 0 {
                    warp.csr.mepc = warp.pc;
                    warp.csr.mcause = crate::trap::cause::WATCHDOG_INTERRUPT;
                    warp.pc = warp.csr.mtvec & !3;
                }
                None
            }
            _ => None,
        }
    }
}

/// Vortex lane shuffle. Each active lane *l* reads its own control word from rs2,
/// (segmask << 12) | (c << 6) | b with 6-bit fields; min = l & segmask, max = min | (c &
/// !segmask). Source lane: up l − b (valid if ≥ min), down l + b (valid if ≤ max), bfly l ^ b
/// (valid if ≤ max), idx min | (b & !segmask) (valid if ≤ max). rd := rs1 of the source lane
/// if it is valid, exists and is active; otherwise the lane's own rs1 (as Vortex's simx).
fn shuffle(w: &mut Warp, n: usize, i: &Inst) {
    let src_vals = w.x[i.rs1 as usize];
    let ctl = w.x[i.rs2 as usize];
    let m = w.mask;
    let mut out = w.x[i.rd as usize];
    for l in lanes(m) {
        let (b, c, seg) = (ctl[l] & 0x3f, (ctl[l] >> 6) & 0x3f, (ctl[l] >> 12) & 0x3f);
        let lane = l as i64;
        let min = lane & seg as i64;
        let max = min | (c & !seg) as i64;
        let (src, ok) = match i.op {
            Op::VxShflUp => (lane - b as i64, lane - b as i64 >= min),
            Op::VxShflDown => (lane + b as i64, lane + b as i64 <= max),
            Op::VxShflBfly => (lane ^ b as i64, (lane ^ b as i64) <= max),
            _ => {
                let s = min | (b & !seg) as i64;
                (s, s <= max)
            }
        };
        let v = if ok && src >= 0 && (src as usize) < n.min(32) && m >> src & 1 != 0 {
            src_vals[src as usize]
        } else {
            src_vals[l]
        };
        out[l] = v;
    }
    if i.rd != 0 {
        w.x[i.rd as usize] = out;
    }
}

/// Warp vote. Without a member mask (`full` = `None`) the members are the active lanes.
/// With one, each active lane *l* reads its own mask from rs2 (bits of lanes that do not
/// exist ignored); it must name *l* and only active lanes, as CUDA requires of a `_sync`
/// mask on a warp that runs in lockstep (the union of the masks is then the active mask),
/// or the vote faults with SYNC_MASK. Lane *l*'s members are then its mask's lanes.
/// pred = bit 0 of rs1; all / any / uni / ballot over the members go to rd.
fn vote(w: &mut Warp, i: &Inst, full: Option<u32>) -> Result<(), Trap> {
    let m = w.mask;
    let pred = LaneMask(m).select(|l| w.x[i.rs1 as usize][l] & 1 != 0).0;
    let mut out = w.x[i.rd as usize];
    for l in lanes(m) {
        let member = match full {
            None => m,
            Some(full) => {
                let raw = w.x[i.rs2 as usize][l];
                let mine = raw & full;
                if mine & !m != 0 || mine >> l & 1 == 0 {
                    return Err(sync_mask_fault(i, l, raw, mine, m));
                }
                mine
            }
        };
        let p = pred & member;
        out[l] = match i.op {
            Op::VxVoteAll => (p == member) as u32,
            Op::VxVoteAny => (p != 0) as u32,
            Op::VxVoteUni => (p == 0 || p == member) as u32,
            _ => p,
        };
    }
    if i.rd != 0 {
        w.x[i.rd as usize] = out;
    }
    Ok(())
}

/// The SYNC_MASK fault of a vote whose lane `l` has member mask `raw` (`mine` once the lanes
/// that do not exist are dropped; active lanes `m`).
#[cold]
fn sync_mask_fault(i: &Inst, l: usize, raw: u32, mine: u32, m: u32) -> Trap {
    let why = if mine & !m != 0 {
        format!("names lanes {:#x} that are not active", mine & !m)
    } else {
        "leaves out the lane itself".into()
    };
    Trap::from(TrapInfo {
        code: FaultCode::SyncMask,
        addr: None,
        detail: format!(
            "{}: lane {l}'s member mask {raw:#x} {why} (active lanes {m:#x})",
            i.op.name()
        ),
    })
}

/// Vortex's `wgather rd, rs1, rs2, rs3, S`: in each group of four lanes, the lane at `S`
/// keeps its rd and the lanes 1, 2, 3 after it (mod 4) take rs1, rs2, rs3 of lane `S`.
fn wgather(w: &mut Warp, i: &Inst) {
    let s = (i.imm & 3) as usize;
    let mut out = w.x[i.rd as usize];
    for l in lanes(w.mask) {
        let src = (l & !3) + s;
        let v = match (l.wrapping_sub(src)) & 3 {
            0 => continue,
            1 => w.x[i.rs1 as usize].get(src),
            2 => w.x[i.rs2 as usize].get(src),
            _ => w.x[i.rs3 as usize].get(src),
        };
        out[l] = v.copied().unwrap_or(0);
    }
    if i.rd != 0 {
        w.x[i.rd as usize] = out;
    }
}

impl Issue<'_> {
    /// Execute `i` at `pc` for warp `w` of core `c`.
    pub(crate) fn exec(&mut self) -> Result<(), Trap> {
        let Issue { c, w, i, pc, .. } = *self;
        let n = self.m.cfg.lanes;
        let next = pc.wrapping_add(i.len());
        let warp = &mut self.m.cores[c].warps[w];
        match i.op {
            Op::Jal => return self.jal(),
            Op::Jalr => return self.jalr(),
            Op::Lb | Op::Lh | Op::Lw | Op::Lbu | Op::Lhu | Op::Flw => return self.load(),
            Op::Sb | Op::Sh | Op::Sw | Op::Fsw => return self.store(),
            Op::LrW | Op::ScW => return self.lr_sc(),
            Op::AmoswapW
            | Op::AmoaddW
            | Op::AmoxorW
            | Op::AmoandW
            | Op::AmoorW
            | Op::AmominW
            | Op::AmomaxW
            | Op::AmominuW
            | Op::AmomaxuW => return self.amo(),
            Op::Fence | Op::FenceTso | Op::FenceI | Op::VxWsync => warp.pc = next,
            Op::Wfi => warp.pc = next,
            Op::Ecall => return Err(fault(FaultCode::Ecall)),
            Op::Ebreak => return Err(fault(FaultCode::Breakpoint)),
            Op::Mret => warp.pc = warp.csr.mepc,
            Op::Csrrw | Op::Csrrs | Op::Csrrc | Op::Csrrwi | Op::Csrrsi | Op::Csrrci => {
                return self.csr_op()
            }
            Op::Converge => self.converge(pc.wrapping_add(i.imm as u32), pc),
            Op::Diverge => return self.diverge(),
            Op::VxTmc => {
                let m = warp.uniform(i.rs1) & self.m.cfg.full_mask();
                warp.pc = next;
                if m == 0 {
                    return self.retire_group();
                } else {
                    warp.mask = m;
                }
            }
            Op::VxWspawn => {
                let mut count = warp.uniform(i.rs1);
                let target = warp.uniform(i.rs2);
                warp.pc = next;
                if self.m.cfg.profile.wspawn_waits() {
                    // Vortex holds a wspawn until the issuing warp is the only active warp of
                    // its core (so `wspawn 1, _` waits for the spawned warps to finish) and
                    // caps the count at the core's warps. The wspawn retires now (it is
                    // counted and traced once, as in Vortex); the warp stops issuing until the
                    // last other warp halts, which starts the spawned warps and wakes it.
                    count = count.min(self.m.cfg.warps as u32);
                    if self.m.cores[c].others_active(w) {
                        self.m.cores[c].warps[w].state = WarpState::SpawnWait {
                            count,
                            target,
                            at: pc,
                        };
                        return Ok(());
                    }
                }
                if count as usize > self.m.cfg.warps {
                    return Err(Trap::from(TrapInfo {
                        code: FaultCode::SpawnFault,
                        addr: None,
                        detail: format!(
                            "wspawn of {count} warps on a core with {}",
                            self.m.cfg.warps
                        ),
                    }));
                }
                self.m.cores[c].spawn_warps(count, target);
            }
            Op::VxSplit => {
                let m = warp.mask;
                let neg = i.rs2 != 0;
                let pred = LaneMask(m)
                    .select(|l| (warp.x[i.rs1 as usize][l] & 1 != 0) != neg)
                    .0;
                let (nm, token) =
                    ipdom::vx_split(&mut warp.ipdom, n.max(2) - 1, m, pred, pc).map_err(fault)?;
                map_lane(warp, n, i.rd, |_| token);
                if nm != m {
                    warp.stats.divergences += 1;
                }
                warp.mask = nm;
                warp.pc = next;
            }
            Op::VxJoin => {
                let token = warp.uniform(i.rs1);
                match ipdom::vx_join(&mut warp.ipdom, warp.mask, token).map_err(fault)? {
                    JoinOutcome::Uniform => warp.pc = next,
                    JoinOutcome::Else { mask, pc } => {
                        warp.mask = mask;
                        warp.pc = pc;
                    }
                    JoinOutcome::Pop { mask } => {
                        warp.mask = mask;
                        warp.pc = next;
                        warp.stats.reconvergences += 1;
                    }
                }
            }
            Op::VxPred => {
                let m = warp.mask;
                let neg = i.rd != 0;
                let pass = LaneMask(m)
                    .select(|l| (warp.x[i.rs1 as usize][l] & 1 != 0) != neg)
                    .0;
                let fallback = warp.uniform(i.rs2) & self.m.cfg.full_mask();
                warp.pc = next;
                if pass != 0 {
                    warp.mask = pass;
                } else if fallback == 0 {
                    return self.retire_group();
                } else {
                    warp.mask = fallback;
                }
            }
            Op::VxBar | Op::VxBarArrive => {
                let id = warp.uniform(i.rs1);
                let count = warp.uniform(i.rs2);
                warp.pc = next;
                let global = id >> 31 != 0;
                let index = self.m.cfg.profile.barrier_index(id, self.m.cfg.barriers);
                let index = u32::try_from(index).unwrap_or(u32::MAX);
                let slots = self.m.global_barriers.len();
                let r = match i.op {
                    Op::VxBar => self.barrier(c, w, index, count, global),
                    _ if i.rd == 0 => self.barrier_wait(c, w, index, count, global),
                    _ => self
                        .barrier_arrive(c, w, index, count, global)
                        .map(|phase| {
                            map_lane(&mut self.m.cores[c].warps[w], n, i.rd, |_| phase);
                        }),
                };
                r.map_err(|code| {
                    Trap::from(TrapInfo {
                        code,
                        addr: None,
                        detail: format!(
                            "{} id {id:#x} (barrier {index} of {slots}), count {count}",
                            i.op.name()
                        ),
                    })
                })?;
            }
            Op::VxWgather => {
                wgather(warp, &i);
                warp.pc = next;
            }
            Op::VxPacklbF | Op::VxPacklhF => return self.packed_load(),
            Op::VxVoteAll | Op::VxVoteAny | Op::VxVoteUni | Op::VxVoteBallot => {
                // Vortex encodes rs2 = x0 and votes over the active lanes; weft's own
                // profile also takes a member mask in rs2 (a CUDA `_sync` mask), checked.
                let masked = i.rs2 != 0 && self.m.cfg.profile.votes_take_member_mask();
                vote(warp, &i, masked.then(|| self.m.cfg.full_mask()))?;
                warp.pc = next;
            }
            Op::VxShflUp | Op::VxShflDown | Op::VxShflBfly | Op::VxShflIdx => {
                shuffle(warp, n, &i);
                warp.pc = next;
            }
            Op::VxWmma | Op::VxWmmaSp | Op::VxWgmma | Op::VxTcuLd => return self.tcu(),
            Op::VxDxa => return self.dxa_issue(),
            // Integer ALU ops and branches have a handler for every lane count (fast.rs is
            // their one home); reaching here means a caller bypassed it.
            _ if matches!(
                i.op.class(),
                Class::Alu | Class::Mul | Class::Div | Class::Branch
            ) =>
            {
                return handler_for(&i, n)(self);
            }
            _ => return self.exec_fp(i.op),
        }
        Ok(())
    }
}

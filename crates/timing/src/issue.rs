//! Issue: whether a warp's next instruction can issue now — fetched (and past the front
//! end), its registers free on the scoreboard, its operand collector and its unit free — and
//! what issuing it costs: the functional model executes it (execute at issue), then its
//! unit's latency and occupancy, the memory system's answer, writeback, and the warp's next
//! fetch (the front end of `frontend.rs`, or weft's simple one: a redirect costs
//! `branch_latency`), plus divergence-stack work. A tensor-core macro-op issues as its
//! micro-ops (`tcu.rs`), one per call, executing with the first.

use crate::frontend::{bank_conflicts, stops_fetch};
use crate::units::unit_of;
use crate::{counters, reg_index, Check, Next, Stages, TimingModel, Unit, WarpT, Why};
use weft_isa::Class;
use weft_simt::record::{memory_access, operands_of, DivEvents, Operands};
use weft_simt::warp::WarpState;
use weft_simt::Machine;

/// When the registers `ops` reads and writes (every register with `all`) have their values
/// on warp `t`'s scoreboard, and why it waits (memory, if the latest comes from a load).
fn reg_wait(t: &WarpT, ops: &Operands, all: bool) -> (u64, Why) {
    let (mut until, mut why) = (0, Why::Scoreboard);
    let mut regs: u64 = if all { !0 } else { 0 };
    for &(file, r) in ops.sources().iter().chain(ops.dst.iter()) {
        regs |= 1 << reg_index(file, r);
    }
    while regs != 0 {
        let i = regs.trailing_zeros() as usize;
        regs &= regs - 1;
        if t.reg_ready[i] > until {
            until = t.reg_ready[i];
            why = if t.reg_mem >> i & 1 != 0 {
                Why::Memory
            } else {
                Why::Scoreboard
            };
        }
    }
    (until, why)
}

impl TimingModel {
    /// The cycles between issue and the unit's start for an instruction with `conflicts`
    /// register-bank conflicts (and the way to its operand collector).
    fn to_execute(&self, conflicts: u64) -> u64 {
        self.pipe.issue_to_execute as u64 + self.route + conflicts
    }

    /// Can warp `w` of core `c` issue at `now`?
    pub(crate) fn check(&mut self, m: &mut Machine, c: usize, w: usize, now: u64) -> Check {
        match m.cores[c].warps[w].state {
            WarpState::Running => {}
            WarpState::Barrier { .. } | WarpState::SpawnWait { .. } => {
                return Check::Blocked(Why::Barrier, u64::MAX)
            }
            _ => return Check::NotStarted,
        }
        let front_end = self.pipe.fetch_interval > 0;
        let t = &mut self.cores[c].warps[w];
        if now < t.fetch_ready {
            return Check::Blocked(t.fetch_why, t.fetch_ready);
        }
        let next = match t.next {
            Some(n) => n,
            None => {
                let Some((pc, inst, _)) = m.peek(c, w) else {
                    return Check::NotStarted;
                };
                let uop_ops = crate::tcu::micro_ops(&inst, m.cfg.lanes as u32);
                let ops = uop_ops
                    .first()
                    .copied()
                    .unwrap_or_else(|| operands_of(&inst));
                let class = inst.op.class();
                let t = &mut self.cores[c].warps[w];
                // What it waits for besides a unit, fixed until it issues: the binding
                // (latest) of its registers (all of them for wsync), and for a fence or atomic
                // its memory accesses.
                // Vortex's wsync drains the warp: every value still in flight (loads and
                // long-latency results) lands before it issues, as in SimX; stores, which
                // write no register, do not hold it.
                let wsync = inst.op == weft_isa::Op::VxWsync;
                let (mut until, mut why) = reg_wait(t, &ops, wsync);
                if matches!(class, Class::Fence | Class::Atomic) && t.mem_until > until {
                    until = t.mem_until;
                    why = Why::Memory;
                }
                let n = Next {
                    inst,
                    pc,
                    ops,
                    uop: 0,
                    uops: uop_ops.len().max(1) as u16,
                    began: now,
                    unit: unit_of(inst.op),
                    conflicts: bank_conflicts(&ops, self.pipe.register_banks),
                    until,
                    why,
                    fetched: if front_end { t.fetch_at } else { now },
                };
                t.uop_ops = uop_ops;
                t.next = Some(n);
                let line = self.mem.icache_line(c, pc);
                if t.line != Some(line) {
                    t.line = Some(line);
                    // The fetch reads the I-cache when the warp fetches it: now, or with a
                    // front end at its fetch cycle.
                    let at = n.fetched;
                    let ready = self.mem.fetch(c, pc, at);
                    let t = &mut self.cores[c].warps[w];
                    if ready > at {
                        t.fetch_at = ready;
                        t.fetch_ready = ready + self.pipe.fetch_to_issue as u64;
                        t.fetch_why = Why::Fetch;
                        if t.fetch_ready > now {
                            return Check::Blocked(Why::Fetch, t.fetch_ready);
                        }
                    }
                }
                n
            }
        };
        if next.until > now {
            return Check::Blocked(next.why, next.until);
        }
        let core = &self.cores[c];
        if !core.collectors.is_empty() {
            let free = core.collectors[w % core.collectors.len()];
            if free > now {
                return Check::Blocked(Why::Unit, free);
            }
        }
        if next.unit == Unit::Lsu {
            let q = self.pipe.lsu_queue as usize;
            if let Some(until) = self.mem.lsu_queue_full(c, now + self.to_execute(0), q) {
                return Check::Blocked(Why::Memory, until.saturating_sub(self.to_execute(0)));
            }
        }
        let ahead = self.to_execute(next.conflicts);
        let core = &mut self.cores[c];
        let pool = self.units.pool(next.unit);
        let free = core.units[pool as usize].iter().copied().min().unwrap_or(0);
        let queue = self.units[pool].queue as usize;
        if free > now + ahead && queue > 0 {
            // It may wait for an instance in the unit's queue, if that has room.
            let q = &mut core.queued[pool as usize];
            q.retain(|&s| s > now);
            if q.len() >= queue {
                let next_out = q.iter().copied().min().unwrap_or(now + 1);
                return Check::Blocked(Why::Unit, next_out);
            }
        } else if free > now + ahead {
            let why = if next.unit == Unit::Lsu {
                Why::Memory
            } else {
                Why::Unit
            };
            return Check::Blocked(why, free - ahead);
        }
        Check::Ready
    }

    /// Issue warp `w` of core `c` at `now` and charge what it did. False if it did not
    /// issue after all.
    pub(crate) fn issue(&mut self, m: &mut Machine, c: usize, w: usize, now: u64) -> bool {
        let mut next = self.cores[c].warps[w].next.expect("checked before issue");
        let class = next.inst.op.class();
        // The instruction executes with its first micro-op; `self.rec` describes it only then.
        let first = next.uop == 0;
        if first {
            if class == Class::Csr {
                counters::hpm(&self.cores[c].counters, &self.mem, c, &mut m.cores[c].hpm);
            }
            if !m.issue(c, w, &mut self.rec) {
                self.cores[c].warps[w].next = None;
                return false;
            }
            next.began = now;
        }
        let mut start = now + self.to_execute(next.conflicts);
        let rec = &self.rec;
        let core = &mut self.cores[c];
        core.last = w;
        core.counters.issued += 1;
        let ucfg = self.units[next.unit];
        let pool_unit = self.units.pool(next.unit);
        let pool = pool_unit as usize;
        if self.units[pool_unit].queue > 0 {
            // Through the unit's queue: it starts when an instance is free.
            let free = core.units[pool].iter().copied().min().unwrap_or(0);
            start = start.max(free);
            core.queued[pool].retain(|&s| s > now);
            core.queued[pool].push(start);
        }
        let mut done = start + ucfg.latency as u64;
        let mut unit_free = start + ucfg.interval as u64;
        let mut from_mem = false;
        if next.unit == Unit::Tcu {
            let k = &mut core.counters;
            k.tcu.instructions += first as u64;
            k.tcu.micro_ops += 1;
            k.tcu.busy_cycles += done.saturating_sub(start.max(k.tcu_busy_until));
            k.tcu_busy_until = k.tcu_busy_until.max(done);
        }
        if let Some((size, kind)) = memory_access(rec.inst.op).filter(|_| first) {
            let agen = start + ucfg.latency as u64;
            let mt = self.mem.access(c, kind, size, rec.mask, &rec.addrs, agen);
            done = mt.done.max(agen);
            // The LSU takes the next instruction `interval` cycles on, later by the cycles
            // this one's further line requests (or bank conflicts) hold it. (A load's wait
            // for a place among the loads in flight does not hold it; with
            // `pipeline.lsu_in_order` the memory system keeps later ones behind it.)
            unit_free += mt.lsu_free.saturating_sub(mt.start + 1);
            from_mem = true;
        }
        let core = &mut self.cores[c];
        if !core.collectors.is_empty() {
            let k = w % core.collectors.len();
            core.collectors[k] = now + 1 + next.conflicts;
        }
        let unit = &mut core.units[pool];
        if let Some(slot) = unit.iter_mut().min_by_key(|f| **f) {
            *slot = unit_free;
        }
        let t = &mut core.warps[w];
        t.act.issued += 1;
        t.act.first_issue.get_or_insert(now);
        t.act.last_issue = Some(now);
        t.next = None;
        if from_mem {
            t.mem_until = t.mem_until.max(done);
        }
        if let Some((file, r)) = next.ops.dst {
            let i = reg_index(file, r);
            t.reg_ready[i] = done + self.pipe.writeback as u64;
            if from_mem {
                t.reg_mem |= 1 << i;
            } else {
                t.reg_mem &= !(1 << i);
            }
        }
        if next.uop + 1 < next.uops {
            // The macro-op's next micro-op, with its own registers; the warp's fetch stays
            // stopped until the last one issues (SimX's sequencer holds the instruction
            // buffer's head until then).
            let ops = t.uop_ops[next.uop as usize + 1];
            let (until, why) = reg_wait(t, &ops, false);
            t.next = Some(Next {
                ops,
                uop: next.uop + 1,
                conflicts: bank_conflicts(&ops, self.pipe.register_banks),
                until,
                why,
                ..next
            });
            if first && class == Class::Simt {
                self.transitions(m, now);
            }
            return true;
        }
        // Front end: the next fetch, and divergence-stack work.
        let p = &self.pipe;
        let sequential = !first || rec.next_pc == rec.pc.wrapping_add(rec.inst.len());
        if p.fetch_interval > 0 {
            let mut f = if p.control_stops_fetch && stops_fetch(next.inst.op) {
                if next.uops > 1 {
                    // A macro-op's warp is resumed as its last micro-op issues and
                    // scheduled the cycle after (SimX's trace: the next instruction issues
                    // fetch_to_issue + 1 cycles after that micro-op).
                    now + 1
                } else {
                    // Others resume when their result leaves the unit.
                    done + 1 + p.branch_latency as u64
                }
            } else {
                next.fetched + p.fetch_interval as u64
            };
            if !sequential {
                t.line = None;
                if !p.control_stops_fetch {
                    f = f.max(now + 1 + p.branch_latency as u64);
                }
            }
            f = f.max(t.issued.push(now, p.ibuffer as usize));
            f = core.port.reserve(f);
            t.fetch_at = f;
            t.fetch_ready = f + p.fetch_to_issue as u64;
            t.fetch_why = Why::Fetch;
        } else if !sequential {
            t.fetch_ready = now + 1 + p.branch_latency as u64;
            t.fetch_why = Why::Fetch;
            t.line = None;
        }
        let ev = if first {
            rec.divergence
        } else {
            DivEvents::default()
        };
        let div =
            if ev.has(DivEvents::PUSH) {
                p.divergence_push as u64
            } else {
                0
            } + if ev.has(DivEvents::JOIN) || ev.has(DivEvents::PARK) || ev.has(DivEvents::POP) {
                p.divergence_pop as u64
            } else {
                0
            };
        if div > 0 {
            let until = now + 1 + div;
            if until >= t.fetch_ready {
                t.fetch_ready = until;
                t.fetch_why = Why::Divergence;
            }
        }
        // The divergence stack's spill area: spilled entries are posted writes that take
        // DRAM bandwidth; an entry read back must arrive before the warp goes on.
        let spill = if first {
            rec.stack_traffic
        } else {
            Default::default()
        };
        if spill.to_memory > 0 {
            self.mem.stack_spill(c, spill.to_memory, now, true);
        }
        if spill.from_memory > 0 {
            let back = self.mem.stack_spill(c, spill.from_memory, now, false);
            if back >= t.fetch_ready {
                t.fetch_ready = back;
                t.fetch_why = Why::Divergence;
            }
        }
        if !self.observers.is_empty() {
            let (pc, inst) = (next.pc, next.inst);
            let st = Stages {
                fetch: next.fetched.min(next.began),
                issue: next.began,
                done: done.max(now + 1),
            };
            for o in &mut self.observers {
                o.instruction(c, w, pc, &inst, st);
            }
        }
        if matches!(
            class,
            Class::Csr | Class::Simt | Class::System | Class::Fence
        ) {
            self.transitions(m, now);
        }
        true
    }
}

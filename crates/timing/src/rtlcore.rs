//! The timing of weft's own RTL core (`rtl/weft_core.sv`), clock cycle for clock cycle: a
//! multi-cycle, non-pipelined core that runs one warp-instruction at a time through its
//! controller's states (pick, the check before issue, fetch, decode, operands, execute, the
//! unit's states, write-back, retire). An instruction's cost is the sum of the cycles it
//! spends in each state, which depends on its class, its active lanes, its lanes' addresses
//! (the shared memory answers a cycle later than the testbench's DRAM port), the divergence
//! stack's depth (the divergence unit searches one entry per cycle) and the divergence
//! events of its step record (arrivals, halts and the scheduling steps that follow them).
//!
//! Its parameters are the machine file's `[rtl_core]` section (`configs/weft-rtl.toml` names
//! the RTL's values). [`RtlCore`] is fed the functional model's step records, in the order
//! its round-robin scheduler runs them (the RTL's `weft_sched.sv` issues in the same order),
//! by an observer: the RTL lockstep (crates/rtl-lockstep) does so and checks every
//! retirement's cycle against the RTL's. The pipelined model ([`TimingModel`]) does not use
//! the section. Nothing of an instruction's semantics is computed here: what a step did comes
//! from its record.
//!
//! [`TimingModel`]: crate::TimingModel

use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::rc::Rc;
use weft_config::{range, ConfigError};
use weft_isa::{Class, Inst, Op};
use weft_simt::record::{AccessKind, DivEvents, StepRecord};
use weft_simt::{Machine, ReconvMode, RunEnd};

/// The `[rtl_core]` section: the cycles each of the RTL controller's states takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RtlCoreConfig {
    /// `weft run --timing` (and every host of the timing model that asks) times the run as
    /// this core's clock instead of with the pipelined model; the RTL lockstep uses the
    /// section either way.
    pub enabled: bool,
    /// Cycles from the pick to the fetch with an empty divergence stack (S_PICK, S_CHECK,
    /// S_CHKD).
    pub issue: u32,
    /// The instruction fetch: its request and the memory's answer (S_FETCH).
    pub fetch: u32,
    /// Decode (S_DECODE), and the extra cycle that expands a compressed instruction.
    pub decode: u32,
    /// Expanding a compressed instruction (S_DECODE's first cycle).
    pub expand: u32,
    /// Register read (S_OPND) and execute (S_EXEC).
    pub operands: u32,
    /// Execute (S_EXEC).
    pub execute: u32,
    /// Write-back at least (S_WB: it registers the next pc and mask, then writes them).
    pub writeback: u32,
    /// The cycle the instruction is reported in (S_RETIRE).
    pub retire: u32,
    /// A divergence-unit search over an empty stack, in cycles from the request to its
    /// results (weft_diverge.sv: the start, the join's cycle, found).
    pub search_empty: u32,
    /// The same over a stack of L entries: `search + L` (a settling cycle, the start, one
    /// cycle per entry, the joined entry addressed, the join's cycle, found).
    pub search: u32,
    /// A memory lane's steps besides the access (S_MEM's phases 0, 1 and 3).
    pub mem_lane: u32,
    /// S_MEM's last cycle (no lane left).
    pub mem_done: u32,
    /// A DRAM access: the request and the answer (the testbench's port answers a cycle
    /// later).
    pub dram: u32,
    /// A shared-memory access (weft_smem answers two cycles after its request).
    pub smem: u32,
    /// The multiplier (S_DIV for a mul: the operands registered, the product two cycles
    /// later).
    pub mul: u32,
    /// The divider (S_DIV for a div or rem: 32 steps after the start).
    pub div: u32,
    /// The FPU's pipeline: S_FPU's cycles beyond one per lane.
    pub fpu: u32,
    /// fdiv.s: S_FPU's cycles per lane (one lane at a time through weft_fdiv.sv; fsqrt.s one
    /// more, for its 28th step).
    pub fdiv: u32,
    /// fdiv.s and fsqrt.s: S_FPU's cycles after the last lane's.
    pub fdiv_tail: u32,
    /// A shuffle: S_SHFL's cycles beyond one per lane.
    pub shfl: u32,
    /// A jalr's S_JUMP (its lanes' targets compared).
    pub jump: u32,
    /// A scheduling step of the divergence unit (S_SCHED: address the top entry, read it,
    /// take the step).
    pub sched_step: u32,
}

impl Default for RtlCoreConfig {
    fn default() -> Self {
        RtlCoreConfig {
            enabled: false,
            issue: 3,
            fetch: 2,
            decode: 1,
            expand: 1,
            operands: 1,
            execute: 1,
            writeback: 2,
            retire: 1,
            search_empty: 3,
            search: 5,
            mem_lane: 3,
            mem_done: 1,
            dram: 2,
            smem: 3,
            mul: 3,
            div: 33,
            fpu: 10,
            fdiv: 31,
            fdiv_tail: 6,
            shfl: 1,
            jump: 1,
            sched_step: 3,
        }
    }
}

impl RtlCoreConfig {
    /// Check every value is usable.
    pub fn validate(&self) -> Result<(), ConfigError> {
        for (k, v) in [
            ("rtl_core.issue", self.issue),
            ("rtl_core.fetch", self.fetch),
            ("rtl_core.decode", self.decode),
            ("rtl_core.expand", self.expand),
            ("rtl_core.operands", self.operands),
            ("rtl_core.execute", self.execute),
            ("rtl_core.writeback", self.writeback),
            ("rtl_core.retire", self.retire),
            ("rtl_core.search_empty", self.search_empty),
            ("rtl_core.search", self.search),
            ("rtl_core.mem_lane", self.mem_lane),
            ("rtl_core.mem_done", self.mem_done),
            ("rtl_core.dram", self.dram),
            ("rtl_core.smem", self.smem),
            ("rtl_core.mul", self.mul),
            ("rtl_core.div", self.div),
            ("rtl_core.fpu", self.fpu),
            ("rtl_core.fdiv", self.fdiv),
            ("rtl_core.fdiv_tail", self.fdiv_tail),
            ("rtl_core.shfl", self.shfl),
            ("rtl_core.jump", self.jump),
            ("rtl_core.sched_step", self.sched_step),
        ] {
            range(k, v as u64, 0, 1 << 16, "0..=65536")?;
        }
        Ok(())
    }
}

/// One retired warp-instruction: the clock cycle it retired in (S_RETIRE, counted from
/// reset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RtlRetire {
    /// Warp.
    pub warp: usize,
    /// Its pc.
    pub pc: u32,
    /// The instruction.
    pub inst: Inst,
    /// The clock cycle of its S_RETIRE.
    pub cycle: u64,
}

/// The RTL core's clock: times step records one after another.
#[derive(Clone, Debug)]
pub struct RtlCore {
    cfg: RtlCoreConfig,
    local: (u32, u32),
    /// Each warp's divergence-stack depth after its last step.
    depth: Vec<usize>,
    /// The warps running after the last step.
    alive: Vec<bool>,
    /// The first clock cycle of the next instruction (its S_PICK).
    now: u64,
    /// Every retirement so far (unless made with [`RtlCore::counting`]).
    pub retired: Vec<RtlRetire>,
    /// Whether `retired` is kept.
    keep: bool,
    /// Warp-instructions timed.
    steps: u64,
}

impl RtlCore {
    /// A core at reset, for machine `m` (its shared-memory window).
    pub fn new(cfg: RtlCoreConfig, m: &Machine) -> RtlCore {
        RtlCore {
            cfg,
            local: (m.cfg.local_mem_base, m.cfg.local_mem_size),
            depth: vec![0; m.cfg.warps],
            alive: (0..m.cfg.warps).map(|w| w == 0).collect(),
            now: 0,
            retired: Vec::new(),
            keep: true,
            steps: 0,
        }
    }

    /// The same core keeping no list of retirements (a whole program's run: only the clock
    /// and the count).
    pub fn counting(mut self) -> RtlCore {
        self.keep = false;
        self
    }

    /// Warp-instructions timed so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Clock cycles so far.
    pub fn cycles(&self) -> u64 {
        self.now
    }

    /// A search's cycles over a stack of `len` entries.
    fn search(&self, len: usize) -> u64 {
        if len == 0 {
            self.cfg.search_empty as u64
        } else {
            self.cfg.search as u64 + len as u64
        }
    }

    fn is_local(&self, addr: u32) -> bool {
        addr.wrapping_sub(self.local.0) < self.local.1
    }

    /// S_SPAWN's cycles after a write of `warp_active` or a `wspawn`: one per warp it starts
    /// (a warp_active write also restarts the writer itself if its bit is set), then one
    /// more; 0 for anything else. The warps running before the step are the last step's.
    fn spawned(&mut self, m: &Machine, r: &StepRecord) -> u64 {
        let before = std::mem::take(&mut self.alive);
        self.alive = m.cores[r.core]
            .warps
            .iter()
            .map(|w| w.is_running())
            .collect();
        if r.fault.is_some() {
            return 0;
        }
        let last = 31 - r.mask.leading_zeros().min(31) as usize;
        let rs1 = |i: u8| {
            r.reads
                .iter()
                .find(|g| g.file == weft_simt::record::RegFile::X && g.index == i)
                .and_then(|g| g.values.get(last).copied())
                .unwrap_or(0)
        };
        let n = before.len();
        let started = match r.inst.op {
            Op::Csrrw | Op::Csrrs | Op::Csrrwi | Op::Csrrsi
                if r.inst.imm as u32 & 0xfff == 0x800
                    && (r.inst.rs1 != 0 || matches!(r.inst.op, Op::Csrrw | Op::Csrrwi)) =>
            {
                let v = if matches!(r.inst.op, Op::Csrrwi | Op::Csrrsi) {
                    r.inst.rs1 as u32
                } else {
                    rs1(r.inst.rs1)
                };
                (0..n)
                    .filter(|&w| v >> w & 1 != 0 && (!before[w] || w == r.warp))
                    .count()
            }
            Op::VxWspawn => {
                let count = rs1(r.inst.rs1) as usize;
                (1..n.min(count)).filter(|&w| !before[w]).count()
            }
            _ => return 0,
        };
        started as u64 + 1
    }

    /// Time step `r` of machine `m` (the machine after it).
    pub fn step(&mut self, m: &Machine, r: &StepRecord) {
        let c = self.cfg;
        let lanes = r.mask.count_ones() as u64;
        let before = self.depth.get(r.warp).copied().unwrap_or(0);
        let after = m.cores[r.core].warps[r.warp].stack.len();
        if r.warp < self.depth.len() {
            self.depth[r.warp] = after;
        }
        // A group that reached a reconvergence point of its activation before issue parked
        // there and another group runs (the events of the record's step include it, unless
        // the instruction arrives, returns or halts itself): S_CHECK's search finds it,
        // S_CHKD, S_SCHED (the arrival's cycle, a scheduling step), then the check again
        // for the group that runs, over the stack it leaves.
        let ev = r.divergence;
        let own = matches!(r.inst.op, Op::Converge | Op::Jalr | Op::VxJoin)
            || r.next_mask == 0
            || r.fault.is_some();
        let pre = !own && (ev.has(DivEvents::PARK) || ev.has(DivEvents::POP));
        let mut t = 0;
        let mut before = before;
        if pre {
            t += self.search(before) + 1 + 1 + c.sched_step as u64;
            if ev.has(DivEvents::POP) {
                before = before.saturating_sub(1);
            }
        }
        // S_PICK, S_CHECK (a search before issue unless the stack is empty), S_CHKD
        t += c.issue as u64 - 1;
        t += if before == 0 { 1 } else { self.search(before) };
        t += c.fetch as u64 + c.decode as u64 + c.operands as u64 + c.execute as u64;
        if r.inst.len() == 2 {
            t += c.expand as u64;
        }
        // the unit's states after execute; `held`: cycles the divergence unit's search
        // request has been held by write-back (from execute on, but for a jalr, which
        // searches from S_JUMP, and the FPU and shuffle states, which drop it)
        let class = r.inst.op.class();
        let (unit, held) = match class {
            Class::Load | Class::Store | Class::Atomic => {
                let mut u = c.mem_done as u64;
                // a failed sc.w (rd = 1 in its lane) makes no request: phases 0, 1, 2
                let sc_failed = |lane: u8| {
                    r.inst.op == Op::ScW
                        && r.writes
                            .first()
                            .and_then(|w| w.values.get(lane as usize))
                            .is_some_and(|&v| v != 0)
                };
                for a in &r.mem {
                    if sc_failed(a.lane) {
                        u += c.mem_lane as u64;
                        continue;
                    }
                    let answer = if self.is_local(a.addr) {
                        let cross = a.size > 1 && (a.addr & 3) + a.size as u32 > 4;
                        c.smem as u64 * if cross { 2 } else { 1 }
                    } else {
                        c.dram as u64
                    };
                    u += c.mem_lane as u64 + answer;
                    if a.kind == AccessKind::Amo {
                        // the read, then (from phase 1) the write
                        u += c.mem_lane as u64 - 1 + answer;
                    }
                }
                (u, 1 + u)
            }
            Class::Mul => (c.mul as u64, 1 + c.mul as u64),
            Class::Div => (c.div as u64, 1 + c.div as u64),
            Class::Fpu => (lanes + c.fpu as u64, 0),
            // the iterative divider takes one lane at a time (weft_fdiv.sv: 27 steps for
            // fdiv, 28 for fsqrt)
            Class::FpuDiv => {
                let per = c.fdiv as u64 + (r.inst.op == Op::FsqrtS) as u64;
                (lanes * per + c.fdiv_tail as u64, 0)
            }
            _ if matches!(
                r.inst.op,
                Op::VxShflUp | Op::VxShflDown | Op::VxShflBfly | Op::VxShflIdx
            ) =>
            {
                (lanes + c.shfl as u64, 0)
            }
            _ if r.inst.op == Op::Jalr => (c.jump as u64, c.jump as u64),
            _ => (0, 1),
        };
        t += unit + self.spawned(m, r);
        let found = self.search(before);
        t += (c.writeback as u64).max(found.saturating_sub(held));
        // a `converge` whose group arrives (conv_hit): the arrival's cycle, then S_SCHED's
        // step runs the next group
        // (in table mode, measured: the step alone)
        if r.inst.op == Op::Converge && (ev.has(DivEvents::PARK) || ev.has(DivEvents::POP)) {
            t += c.sched_step as u64 + (m.cfg.reconv == ReconvMode::Converge) as u64;
        }
        // the running group halts (tmc 0, tmask 0, pred with no lane left): S_SCHED's step
        // finds the stack empty
        if r.fault.is_none()
            && r.next_mask == 0
            && matches!(class, Class::Csr | Class::Simt)
            && after == 0
            && before == 0
        {
            t += c.sched_step as u64;
        }
        t += c.retire as u64;
        self.now += t;
        self.steps += 1;
        if self.keep {
            self.retired.push(RtlRetire {
                warp: r.warp,
                pc: r.pc,
                inst: r.inst,
                cycle: self.now - 1,
            });
        }
    }
}

/// An observer of the functional model that feeds its step records to a shared [`RtlCore`]
/// (the machine runs them in the order the RTL's scheduler issues them).
pub struct RtlClock(pub Rc<RefCell<RtlCore>>);

impl weft_simt::Observer for RtlClock {
    fn step(&mut self, m: &Machine, r: &StepRecord) {
        self.0.borrow_mut().step(m, r);
    }
}

/// Run `m` (one core) to its end timed as the RTL core's clock (`[rtl_core]`): the machine's
/// cycle count becomes the RTL's clock cycles as its testbench counts them — to the exit's
/// retirement (the testbench stops in that cycle), or to the cycle the core raises `halted`
/// two cycles after the last retirement (every warp halted, or waiting at a barrier). The
/// machine's bound (`max_cycles`) bounds clock cycles, as `weft run --rtl`'s does. Returns the
/// run's end and the warp-instructions timed.
pub fn run_clocked(m: &mut Machine, cfg: RtlCoreConfig) -> (RunEnd, u64) {
    let core = Rc::new(RefCell::new(RtlCore::new(cfg, m).counting()));
    m.add_observer(Box::new(RtlClock(core.clone())));
    let bound = m.cfg.cycle_bound();
    let end = loop {
        // a warp-instruction takes one model cycle and at least one clock cycle (hundreds at
        // most): slices of the model's cycles shrink to one instruction near the bound
        let left = bound.saturating_sub(core.borrow().cycles());
        let target = m.cycle.saturating_add((left / 1024).max(1));
        match m.run_until(target) {
            RunEnd::CycleLimit(_) if m.cycle >= target && core.borrow().cycles() < bound => {}
            e => break e,
        }
    };
    let clock = core.borrow();
    let exited = m.exit_code().is_some();
    let mut steps = clock.steps();
    m.cycle = match &end {
        RunEnd::CycleLimit(_) => {
            // the testbench stops at the bound, in the middle of the last instruction
            if clock.cycles() > bound {
                steps -= 1;
            }
            bound
        }
        RunEnd::Exit(_) if exited => clock.cycles().saturating_sub(1),
        RunEnd::Fault(_) => clock.cycles(),
        _ => clock.cycles() + 1,
    };
    let end = match end {
        RunEnd::CycleLimit(_) => RunEnd::CycleLimit(m.cycle),
        e => e,
    };
    (end, steps)
}

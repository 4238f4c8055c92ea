//! The timing of weft's own RTL core (`rtl/weft_core.sv`), clock cycle for clock cycle: a
//! multi-cycle, non-pipelined core that runs one warp-instruction at a time through its
//! controller's states (pick, the check before issue, fetch, decode, operands, execute, the
//! unit's states, write-back, retire, and S_SCHED, S_FAULT and the others when the
//! instruction needs them). [`RtlCore`] follows each step through those states in absolute
//! clock cycles: what a state takes depends on the instruction's class, its active lanes, its
//! lanes' addresses and operands, and the divergence unit, which searches the warp's stack one
//! entry per cycle, walks the entries the lanes leave after an arrival, a halt or a join (a
//! search waits for the walk), and schedules the next group in steps.
//!
//! The divergence unit's work is read from the functional model's own state, never
//! recomputed: each warp's stack and activations as its last step left them are kept, the
//! checks before issue are replayed on a copy with the model's own [`DivStack`] operations
//! (an arrival at an At point, a return's at AtExit), and what a walk or a step costs is read
//! from the entries (how many the lanes leave, how many pop empty).
//!
//! Its parameters are the machine file's `[rtl_core]` section (`configs/weft-rtl.toml` names
//! the RTL's values). [`RtlCore`] is fed the functional model's step records, in the order
//! its round-robin scheduler runs them (the RTL's `weft_sched.sv` issues in the same order),
//! by an observer ([`RtlClock`]): the RTL lockstep (crates/rtl-lockstep) does so and checks
//! every retirement's cycle against the RTL's, and [`run_clocked`] times a whole run this way
//! (`weft run --timing` with `[rtl_core] enabled`). The pipelined model ([`TimingModel`])
//! does not use the section. Nothing of an instruction's semantics is computed here: what a step did comes
//! from its record.
//!
//! [`TimingModel`]: crate::TimingModel

use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::rc::Rc;
use weft_config::{range, ConfigError};
use weft_isa::{Class, FaultCode, Inst, Op};
use weft_simt::divergence::{CallStack, DivStack};
use weft_simt::record::{AccessKind, DivEvents, RegFile, StepRecord};
use weft_simt::warp::WarpState;
use weft_simt::{Machine, RunEnd};

/// The `[rtl_core]` section: the cycles each of the RTL controller's states takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RtlCoreConfig {
    /// `weft run --timing` (and every host of the timing model that asks) times the run as
    /// this core's clock instead of with the pipelined model; the RTL lockstep uses the
    /// section either way.
    pub enabled: bool,
    /// Cycles from the pick to the fetch with an empty divergence stack (S_PICK, S_CHECK,
    /// S_CHKD: one each; S_CHECK waits for a search over a stack that is not empty).
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
    /// The divergence unit's first cycle of an arrival or a halt (weft_diverge.sv: ar_on,
    /// wk_go) before its walk of one entry per cycle.
    pub walk_start: u32,
    /// S_FAULT: a fault registered, taken (a trap to mtvec or the record of the fault).
    pub fault: u32,
    /// S_TRD, S_TRR, S_TRW: rd read back for the record (a trap to mtvec, a divergent call).
    pub read_back: u32,
    /// S_RETQ: after a return reached its AtExit point, the group scheduled is compared with
    /// the return's pc.
    pub retq: u32,
    /// fdiv.s and fsqrt.s: S_FPU's cycles for a lane with special operands (NaN, infinity,
    /// zero, a negative root), which bypass the iterative divider (weft_fpu.sv: dv_busy
    /// from the feed to step 1).
    pub fdiv_bypass: u32,
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
            walk_start: 1,
            fault: 1,
            read_back: 3,
            retq: 1,
            fdiv_bypass: 3,
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
            ("rtl_core.walk_start", self.walk_start),
            ("rtl_core.fault", self.fault),
            ("rtl_core.read_back", self.read_back),
            ("rtl_core.retq", self.retq),
            ("rtl_core.fdiv_bypass", self.fdiv_bypass),
        ] {
            range(k, v as u64, 0, 1 << 16, "0..=65536")?;
        }
        // (S_PICK and S_CHECK take a cycle each: S_CHKD is the rest)
        range("rtl_core.issue", self.issue as u64, 2, 1 << 16, "2..=65536")?;
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

/// A warp's divergence state as its last step left it: the check before its next issue
/// starts from it.
#[derive(Clone, Debug, Default)]
struct Snap {
    pc: u32,
    mask: u32,
    stack: DivStack,
    calls: CallStack,
}

impl Snap {
    fn of(m: &Machine, core: usize, w: usize) -> Snap {
        let warp = &m.cores[core].warps[w];
        Snap {
            pc: warp.pc,
            mask: warp.mask,
            stack: warp.stack.clone(),
            calls: warp.calls.clone(),
        }
    }
}

/// What the divergence unit does after a group arrives at a point or halts: its walk (the
/// first cycle and one per entry it takes the lanes out of) and the scheduling steps (one
/// per entry popped with no lanes left, and the one that runs a group or finds none).
#[derive(Clone, Copy, Debug)]
struct Sched {
    walk: u64,
    steps: u64,
}

/// The RTL core's clock: times step records one after another.
#[derive(Clone, Debug)]
pub struct RtlCore {
    cfg: RtlCoreConfig,
    local: (u32, u32),
    /// Each warp's pc, mask, divergence stack and activations after its last step.
    snap: Vec<Snap>,
    /// The warps running after the last step.
    alive: Vec<bool>,
    /// The first clock cycle the divergence unit is not walking the entries (a join's walk
    /// goes on after its instruction retires; searches and steps wait for it).
    idle_from: u64,
    /// Each warp's LR reservations after the last step (valid lanes, their addresses): a
    /// `sc.w` with rd = x0 shows its lanes' success nowhere else.
    resv: Vec<(u32, Vec<u32>)>,
    /// The warps stopped at their breakpoint as the last step left them.
    stopped: Vec<bool>,
    /// The first clock cycle of the next instruction (its S_PICK).
    now: u64,
    /// Every retirement so far (unless made with [`RtlCore::counting`]).
    pub retired: Vec<RtlRetire>,
    /// Whether `retired` is kept.
    keep: bool,
    /// Warp-instructions timed.
    steps: u64,
    /// Whether the last instruction timed faulted.
    faulted: bool,
    /// Steps whose checks before issue could not be replayed from the warp's last state
    /// (another warp restarted it, or a trap moved it): timed without arrivals.
    pub unreplayed: u64,
}

/// The operands of fdiv.s (`x / y`) and fsqrt.s (`x`) that weft_fpu.sv's step 1 answers
/// without the iterative divider: a NaN, an infinity, a zero, a negative root.
fn fdiv_bypass(op: Op, x: u32, y: u32) -> bool {
    let special = |v: u32| v & 0x7fff_ffff == 0 || (v >> 23) & 0xff == 0xff;
    if op == Op::FsqrtS {
        special(x) || x >> 31 != 0
    } else {
        special(x) || special(y)
    }
}

impl RtlCore {
    /// A core at reset, for machine `m` (its shared-memory window).
    pub fn new(cfg: RtlCoreConfig, m: &Machine) -> RtlCore {
        RtlCore {
            cfg,
            local: (m.cfg.local_mem_base, m.cfg.local_mem_size),
            snap: (0..m.cfg.warps).map(|w| Snap::of(m, 0, w)).collect(),
            alive: (0..m.cfg.warps).map(|w| w == 0).collect(),
            idle_from: 0,
            stopped: vec![false; m.cfg.warps],
            resv: vec![(0, Vec::new()); m.cfg.warps],
            now: 0,
            retired: Vec::new(),
            keep: true,
            steps: 0,
            faulted: false,
            unreplayed: 0,
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

    /// The cycle a search requested from cycle `from` (and held) is found, over a stack of
    /// `len` entries: it starts once the unit is not walking.
    fn found(&self, from: u64, len: usize) -> u64 {
        let start = from.max(self.idle_from);
        let n = if len == 0 {
            self.cfg.search_empty as u64
        } else {
            self.cfg.search as u64 + len as u64
        };
        start + n - 1
    }

    /// S_CHECK from cycle `t` over a stack of `len` entries: the cycle after it.
    fn check(&self, t: u64, len: usize) -> u64 {
        if len == 0 {
            t + 1
        } else {
            self.found(t, len) + 1
        }
    }

    /// S_SCHED from cycle `t`: the cycle after it.
    fn sched(&self, t: u64, s: Sched) -> u64 {
        (t + s.walk).max(self.idle_from) + s.steps * self.cfg.sched_step as u64
    }

    /// `cur` arrives at entry `k` of `s` (before the arrival).
    fn arrival(&self, s: &DivStack, k: usize, cur: u32) -> Sched {
        let e = s.entries();
        let empties = e[k + 1..]
            .iter()
            .rev()
            .take_while(|x| x.saved_mask & !cur == 0)
            .count();
        Sched {
            walk: self.cfg.walk_start as u64 + (e.len() - 1 - k) as u64,
            steps: empties as u64 + 1,
        }
    }

    /// `cur` halts, over stack `s` (before the halt).
    fn halt(&self, s: &DivStack, cur: u32) -> Sched {
        let e = s.entries();
        let empties = e
            .iter()
            .rev()
            .take_while(|x| (x.saved_mask | x.parked_mask | x.pending_mask()) & !cur == 0)
            .count();
        Sched {
            walk: if e.is_empty() {
                0
            } else {
                self.cfg.walk_start as u64 + e.len() as u64
            },
            steps: empties as u64 + 1,
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
                .find(|g| g.file == RegFile::X && g.index == i)
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

    /// A lane register's value in the record (0 if it was not read).
    fn read(r: &StepRecord, file: RegFile, index: u8, lane: usize) -> u32 {
        r.reads
            .iter()
            .find(|g| g.file == file && g.index == index)
            .and_then(|g| g.values.get(lane).copied())
            .unwrap_or(0)
    }

    /// S_MEM's cycles, and whether the walk stopped at a fault (then S_FAULT follows).
    fn memory(&self, r: &StepRecord, fault_addr: Option<u32>) -> (u64, bool) {
        let c = self.cfg;
        let mut u = 0;
        // a failed sc.w (rd = 1 in its lane) makes no request: phases 0, 1, 2; with rd = x0,
        // from the reservations before the step (a lane's store breaks the later lanes' on
        // its word)
        let (mut valid, resv) = self.resv.get(r.warp).cloned().unwrap_or_default();
        let mut sc_failed = |lane: u8, addr: u32| {
            if r.inst.op != Op::ScW {
                return false;
            }
            if let Some(w) = r.writes.first() {
                return w.values.get(lane as usize).is_some_and(|&v| v != 0);
            }
            let l = lane as usize;
            let ok = valid >> l & 1 != 0 && resv.get(l) == Some(&addr);
            valid &= !(1 << l);
            if ok {
                for (j, &a) in resv.iter().enumerate() {
                    if a & !3 == addr & !3 {
                        valid &= !(1 << j);
                    }
                }
            }
            !ok
        };
        for a in &r.mem {
            if fault_addr == Some(a.addr) {
                // a misaligned atomic faults in phase 2, before its request; another access
                // when its answer (an error) is taken in phase 3
                let misaligned = r.inst.op.class() == Class::Atomic && a.addr & 3 != 0;
                return if misaligned {
                    (u + c.mem_lane as u64, true)
                } else {
                    (u + c.mem_lane as u64 + c.dram as u64, true)
                };
            }
            if sc_failed(a.lane, a.addr) {
                u += c.mem_lane as u64;
                continue;
            }
            let off = a.addr.wrapping_sub(self.local.0);
            let cross = a.size > 1 && (a.addr & 3) + a.size as u32 > 4;
            // (an access across the window's last word goes out on the port)
            let window = self.is_local(a.addr) && !(cross && off >> 2 == self.local.1 / 4 - 1);
            let answer = if window {
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
        (u + c.mem_done as u64, false)
    }

    /// S_FPU's cycles for the lanes `fed` (one per cycle into the pipeline, fdiv and fsqrt
    /// one at a time through the divider or its bypass).
    fn fpu(&self, r: &StepRecord, fed: u32) -> u64 {
        let c = self.cfg;
        let n = fed.count_ones() as u64;
        if n == 0 {
            return 1;
        }
        if r.inst.op.class() != Class::FpuDiv {
            return n + c.fpu as u64;
        }
        let sqrt = (r.inst.op == Op::FsqrtS) as u64;
        let mut u = 0;
        let lanes: Vec<usize> = (0..32).filter(|l| fed >> l & 1 != 0).collect();
        for (i, &l) in lanes.iter().enumerate() {
            let x = Self::read(r, RegFile::F, r.inst.rs1, l);
            let y = Self::read(r, RegFile::F, r.inst.rs2, l);
            let last = i + 1 == lanes.len();
            u += match (fdiv_bypass(r.inst.op, x, y), last) {
                (true, false) => c.fdiv_bypass as u64,
                (true, true) => 1 + c.fpu as u64,
                (false, false) => c.fdiv as u64 + sqrt,
                (false, true) => c.fdiv as u64 + sqrt + c.fdiv_tail as u64,
            };
        }
        u
    }

    /// Warp `warp` faulted before issue at `pc` without a step record (the HARD watchdog in
    /// S_CHKD; a fetch fault in S_FETCH with `fetch` set): S_PICK, S_CHECK, S_CHKD (and the
    /// fetch), S_FAULT, the retirement of the fault.
    pub fn fault_before_issue(&mut self, warp: usize, pc: u32, fetch: bool) {
        let c = self.cfg;
        let len = self.snap.get(warp).map_or(0, |s| s.stack.len());
        let mut t = self.check(self.now + 1, len) + c.issue as u64 - 2;
        if fetch {
            t += c.fetch as u64;
        }
        let cycle = t + (c.fault + c.retire) as u64 - 1;
        self.now = cycle + 1;
        // (not a warp-instruction: nothing issued)
        self.faulted = true;
        if self.keep {
            self.retired.push(RtlRetire {
                warp,
                pc,
                inst: Inst::new(Op::Ebreak),
                cycle,
            });
        }
    }

    /// The run ended with `end`: a fault that no step record showed (the HARD watchdog in
    /// S_CHKD, a fetch fault) is timed as [`RtlCore::fault_before_issue`]. Returns whether it
    /// was such a fault.
    pub fn end(&mut self, end: &RunEnd) -> bool {
        match end {
            RunEnd::Fault(f) if !self.faulted => {
                let fetch = f.code == FaultCode::FetchFault;
                self.fault_before_issue(f.warp, f.pc, fetch);
                true
            }
            _ => false,
        }
    }

    /// Time step `r` of machine `m` (the machine after it).
    pub fn step(&mut self, m: &Machine, r: &StepRecord) {
        let c = self.cfg;
        let w = r.warp;
        let warp = &m.cores[r.core].warps[w];
        let class = r.inst.op.class();
        let chkd = c.issue as u64 - 2;
        let mut t = self.now;
        // Warps stopped at their breakpoint since the last step: their slot passed (S_PICK,
        // S_CHECK, S_CHKD, no record).
        for v in 0..self.snap.len().min(m.cores[r.core].warps.len()) {
            let stopped = m.cores[r.core].warps[v].state == WarpState::Breakpoint;
            if stopped && !self.stopped[v] {
                t = self.check(t + 1, self.snap[v].stack.len()) + chkd;
            }
            self.stopped[v] = stopped;
        }
        // S_PICK
        t += 1;
        // The checks before issue, replayed from the warp's last state: a group at an At
        // point of its activation arrives there (S_CHECK's search finds it, S_CHKD, S_SCHED:
        // the walk and the steps), then the check repeats for the group that runs.
        let mut sn = self.snap.get(w).cloned().unwrap_or_default();
        // a trap before issue (the handler's slot follows), the SOFT watchdog's in S_CHKD
        let mut checked = false;
        let mut in_check = false;
        loop {
            while let Some(k) = sn.stack.point_at(sn.pc, &sn.calls) {
                let s = self.arrival(&sn.stack, k, sn.mask);
                t = self.check(t, sn.stack.len()) + chkd;
                t = self.sched(t, s);
                match sn.stack.arrive(k, sn.mask, sn.pc, sn.pc, &mut sn.calls) {
                    Some(n) => (sn.pc, sn.mask) = (n.pc, n.mask),
                    None => break,
                }
            }
            if (sn.pc, sn.mask) == (r.pc, r.mask) {
                break;
            }
            let csr = &warp.csr;
            if r.pc != csr.mtvec & !3 || csr.mepc != sn.pc || checked {
                // (another warp restarted this one: its checks are not known)
                self.unreplayed += 1;
                sn = Snap::of(m, r.core, w);
                break;
            }
            t = self.check(t, sn.stack.len()) + chkd;
            if csr.mcause == 0x8000_0010 {
                // the SOFT watchdog expired and trapped in S_CHKD: S_TRAPPED, then the
                // fetch at mtvec in the same slot
                t += c.fault as u64;
                in_check = true;
                sn.pc = r.pc;
                break;
            }
            // a word that does not decode traps to mtvec from S_OPND without a record
            // (S_FAULT, a silent S_RETIRE); the handler issues in the next slot
            t += (c.fetch + c.decode + c.operands + c.fault + c.retire) as u64 + 1;
            sn.pc = r.pc;
            checked = true;
        }
        let len = sn.stack.len();
        if !in_check {
            t = self.check(t, len) + chkd;
        }
        // S_FETCH, S_DECODE, S_OPND: t is S_EXEC's cycle
        t += (c.fetch + c.decode + c.operands) as u64;
        if r.inst.len() == 2 {
            t += c.expand as u64;
        }
        let exec = t;
        // a trap to mtvec (the record shows the instruction going on at mtvec, mepc at it)
        let trapped = r.fault.is_none()
            && warp.csr.mtvec != 0
            && r.next_pc == warp.csr.mtvec & !3
            && warp.csr.mepc == r.pc
            && warp.csr.mcause >> 31 == 0
            && !matches!(class, Class::Branch | Class::Jump);
        let fault_code = r.fault.as_ref().map(|f| f.code.code());
        let faults = r.fault.is_some() || trapped;
        let fault_addr = match &r.fault {
            Some(f) => f.addr,
            None if trapped => Some(warp.csr.mtval),
            None => None,
        };
        // S_FAULT from cycle `at`: the cycle of S_RETIRE (a trap reads rd back first)
        let fault_end =
            |at: u64| at + c.fault as u64 + if trapped { c.read_back as u64 } else { 0 };
        let fs_off = (warp.csr.mstatus >> 13) & 3 == 0;
        let spawn = self.spawned(m, r);
        let retire = 'done: {
            // write-back: from `wb0`, the search requested from `from` (`None`: from wb0)
            let wb = |core: &RtlCore, wb0: u64, from: Option<u64>, len: usize| -> u64 {
                let found = core.found(from.unwrap_or(wb0), len);
                (wb0 + c.writeback as u64 - 1).max(found)
            };
            let exec_fault = faults
                && match class {
                    Class::System => true,
                    Class::Csr => fault_code != Some(15) && r.inst.imm as u32 & 0xfff != 0x810,
                    Class::Fpu | Class::FpuDiv => fs_off,
                    Class::Load | Class::Store => fs_off && matches!(r.inst.op, Op::Flw | Op::Fsw),
                    _ => false,
                };
            if exec_fault {
                break 'done fault_end(exec + c.execute as u64);
            }
            let u0 = exec + c.execute as u64;
            let wb_at = match class {
                Class::Load | Class::Store | Class::Atomic => {
                    let (u, fault) = self.memory(r, if faults { fault_addr } else { None });
                    if fault {
                        break 'done fault_end(u0 + u);
                    }
                    wb(self, u0 + u, Some(exec), len)
                }
                Class::Mul => wb(self, u0 + c.mul as u64, Some(exec), len),
                Class::Div => wb(self, u0 + c.div as u64, Some(exec), len),
                Class::Fpu | Class::FpuDiv => {
                    // the lanes fed: all, or those below the first whose dynamic rounding
                    // mode is invalid (then the trap)
                    let bad = (0..32)
                        .filter(|&l| {
                            r.mask >> l & 1 != 0
                                && (if r.inst.rm == 7 {
                                    warp.frm[l]
                                } else {
                                    r.inst.rm
                                }) > 4
                        })
                        .fold(0u32, |m, l| m | 1 << l);
                    let fed = if bad == 0 {
                        r.mask
                    } else {
                        r.mask & ((bad & bad.wrapping_neg()) - 1)
                    };
                    let u = self.fpu(r, fed);
                    if faults {
                        break 'done fault_end(u0 + u);
                    }
                    wb(self, u0 + u, None, len)
                }
                _ if matches!(
                    r.inst.op,
                    Op::VxShflUp | Op::VxShflDown | Op::VxShflBfly | Op::VxShflIdx
                ) =>
                {
                    let lanes = r.mask.count_ones() as u64;
                    wb(self, u0 + lanes + c.shfl as u64, None, len)
                }
                _ if r.inst.op == Op::Jalr => {
                    // S_JUMP, then write-back (the search from S_JUMP); a return reaching
                    // the AtExit point of its activation arrives there (S_SCHED), S_RETQ,
                    // and goes on from S_EXEC if the group scheduled is at this return
                    let ret = r.inst.rd == 0 && (r.inst.rs1 == 1 || r.inst.rs1 == 5);
                    let mut jump = u0;
                    loop {
                        let at = wb(self, jump + c.jump as u64, Some(jump), sn.stack.len());
                        let k = if ret {
                            sn.stack.exit_point(&sn.calls)
                        } else {
                            None
                        };
                        let Some(k) = k else {
                            break at;
                        };
                        let s = self.arrival(&sn.stack, k, sn.mask);
                        let nx = sn.stack.arrive(k, sn.mask, r.pc, r.pc, &mut sn.calls);
                        let t = self.sched(at + 1, s) + c.retq as u64;
                        match nx {
                            Some(n) if n.pc == r.pc => {
                                sn.mask = n.mask;
                                jump = t + c.execute as u64;
                            }
                            _ => break 'done t,
                        }
                    }
                }
                _ => wb(self, u0, Some(exec), len),
            };
            // after write-back
            let t = wb_at + 1;
            if fault_code == Some(FaultCode::LanesLost.code()) {
                // a halt (S_SCHED finds no group left), then S_LOST looks at the IPDOM stack's
                // entries from the bottom, one per cycle, up to one with lanes still waiting
                let t = self.sched(t, self.halt(&sn.stack, sn.mask));
                let lost = warp
                    .ipdom
                    .iter()
                    .position(|e| !e.fallthrough && e.orig_mask & !r.mask != 0)
                    .unwrap_or(0);
                break 'done fault_end(t + lost as u64 + 1);
            }
            if faults {
                break 'done fault_end(t);
            }
            let ev = r.divergence;
            if r.inst.op == Op::Converge {
                let source = r.pc.wrapping_add(r.inst.imm as u32);
                if let Some(k) = sn.stack.converge_target(source, &sn.calls) {
                    break 'done self.sched(t, self.arrival(&sn.stack, k, sn.mask));
                }
            }
            if ev.has(DivEvents::HALT) {
                let mut t = self.sched(t, self.halt(&sn.stack, sn.mask));
                // the warp halts with entries of Vortex's IPDOM stack: S_LOST looks at each
                if r.next_mask == 0 {
                    t += warp.ipdom.len() as u64;
                }
                break 'done t;
            }
            if ev.has(DivEvents::JOIN) {
                // the entries above the one joined lose the waiting lanes, one per cycle,
                // while the core goes on
                let (a, b) = (sn.stack.entries(), warp.stack.entries());
                if let Some(j) = (0..a.len().min(b.len()))
                    .find(|&j| a[j].waiting != b[j].waiting || a[j].parked_mask != b[j].parked_mask)
                {
                    let n = a.len() - 1 - j;
                    if n > 0 {
                        self.idle_from = wb_at + 1 + c.walk_start as u64 + n as u64;
                    }
                }
            }
            if r.inst.op == Op::Jalr && r.inst.rd != 0 && ev.has(DivEvents::PUSH | DivEvents::JOIN)
            {
                // a divergent call: the record's rd of the lanes that wait is read back
                break 'done t + c.read_back as u64;
            }
            t + spawn
        };
        let cycle = retire + c.retire as u64 - 1;
        self.now = cycle + 1;
        self.steps += 1;
        self.faulted = r.fault.is_some();
        if self.keep {
            self.retired.push(RtlRetire {
                warp: w,
                pc: r.pc,
                inst: r.inst,
                cycle,
            });
        }
        for (v, x) in m.cores[r.core]
            .warps
            .iter()
            .enumerate()
            .take(self.resv.len())
        {
            if x.resv_mask != 0 || self.resv[v].0 != 0 {
                self.resv[v] = (x.resv_mask, x.resv.to_vec());
            }
        }
        // the state the next checks start from: this warp's, every warp's after a start
        if r.warp < self.snap.len() {
            self.snap[w] = Snap::of(m, r.core, w);
        }
        if spawn > 0 {
            for v in 0..self.snap.len() {
                self.snap[v] = Snap::of(m, r.core, v);
            }
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
    core.borrow_mut().end(&end);
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
        RunEnd::Fault(_) => clock.cycles().saturating_sub(1),
        _ => clock.cycles() + 1,
    };
    let end = match end {
        RunEnd::CycleLimit(_) => RunEnd::CycleLimit(m.cycle),
        e => e,
    };
    (end, steps)
}

//! weft-timing: the cycle-level timing model. It owns the cycle loop and, per core and cycle,
//! decides which warp may issue — the instruction fetched through the I-cache, its source
//! and destination registers free on the scoreboard, its functional unit free — picks one
//! by the configured policy (loose round-robin, greedy-then-oldest, two-level), and has the
//! functional model execute it then ([`Machine::issue`]: execute at issue). What the step
//! did (class, registers, lane addresses, mask, divergence events, redirect) decides its
//! cost: unit latency and occupancy, the memory system's answer (`memsys.rs`), control-flow
//! and divergence penalties, warp start-up. The model never computes a result itself, so
//! functional and timing runs cannot disagree on one.
//!
//! Issue slots that go unused are charged to one reason (`counters.rs`); when no core can
//! issue, the loop jumps straight to the next cycle at which anything can change, charging
//! the skipped slots to the same reasons, so long memory waits cost no host time.
//!
//! Modules: `sched` (the three warp-scheduling policies), `cache` (set-associative cache
//! with MSHRs), `memsys` (coalescing, L1, shared memory, L2, DRAM), `counters` (issue-slot
//! and memory counters, the report). A [`TimingObserver`] sees every instruction's stages
//! and every run of lost issue slots (the command's Konata and stall-slice writers).

mod cache;
mod counters;
mod memsys;
mod sched;

pub use cache::CacheStats;
pub use counters::{LaunchTiming, TimingReport, WarpActivity, Why};
pub use memsys::MemStats;

use counters::CoreCounters;
use memsys::MemSys;
use weft_isa::{Class, Inst};
use weft_simt::config::{SchedPolicy, UnitConfig};
use weft_simt::record::{memory_access, operands_of, DivEvents, Issued, Operands, RegFile};
use weft_simt::warp::WarpState;
use weft_simt::{Config, Machine, RunEnd};

/// Bytes a DMA engine moves per burst.
pub const DMA_BURST: u32 = 64;

/// A functional unit kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unit {
    Alu,
    Mul,
    Div,
    Fpu,
    Fdiv,
    Lsu,
    Sfu,
}

fn unit_of(class: Class) -> Unit {
    match class {
        Class::Alu | Class::Branch | Class::Jump => Unit::Alu,
        Class::Mul => Unit::Mul,
        Class::Div => Unit::Div,
        Class::Fpu => Unit::Fpu,
        Class::FpuDiv => Unit::Fdiv,
        Class::Load | Class::Store | Class::Atomic => Unit::Lsu,
        Class::Csr | Class::Fence | Class::System | Class::Simt => Unit::Sfu,
    }
}

/// The instruction a warp will issue next, with what the model needs of it.
#[derive(Clone, Copy, Debug)]
struct Next {
    inst: Inst,
    ops: Operands,
    unit: Unit,
    /// It cannot issue before this cycle (its registers, or memory for a fence), …
    until: u64,
    /// … for this reason.
    why: Why,
    /// When it was fetched (became the warp's next instruction).
    fetched: u64,
}

/// Something that watches the timing model: each warp-instruction's pipeline stages and each
/// run of issue slots a core lost, with its reason (the Konata view and the stall slices of
/// the Perfetto trace are such observers). Attach with [`TimingModel::add_observer`].
pub trait TimingObserver {
    /// Warp `warp` of core `core` fetched `inst` at `pc` in cycle `fetch`, issued it in
    /// cycle `issue`, and its result was ready (or its memory access done) in cycle `done`.
    fn instruction(&mut self, core: usize, warp: usize, pc: u32, inst: &Inst, t: Stages);
    /// Core `core` issued nothing in cycles `from..to` because of `why`.
    fn stall(&mut self, core: usize, why: Why, from: u64, to: u64);
}

/// The cycles of one warp-instruction's stages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stages {
    /// Fetched: the warp's front end had it.
    pub fetch: u64,
    /// Issued (and executed by the functional model).
    pub issue: u64,
    /// Its result ready, or its memory access complete.
    pub done: u64,
}

/// A warp's timing state.
#[derive(Clone, Debug)]
struct WarpT {
    /// No fetch before this cycle, for `fetch_why`.
    fetch_ready: u64,
    fetch_why: Why,
    /// When each register (x0–x31, then f0–f31) has its pending value.
    reg_ready: [u64; 64],
    /// Registers whose pending value comes from memory (bit per register).
    reg_mem: u64,
    /// When all its memory accesses are done (fences wait for it).
    mem_until: u64,
    /// The fetched next instruction.
    next: Option<Next>,
    /// The I-cache line the front end holds.
    line: Option<u32>,
    /// Cycle it was started (for greedy-then-oldest).
    started: u64,
    /// Was it running at the last look?
    was_running: bool,
    /// Activity.
    act: WarpActivity,
}

/// A core's timing state: warps, unit occupancy, scheduler state, counters.
struct CoreT {
    warps: Vec<WarpT>,
    /// Per unit kind (index = `Unit as usize`), when each instance is next free.
    units: [Vec<u64>; 7],
    /// The warp that issued last.
    last: usize,
    /// Two-level scheduler: the active set and the pending queue.
    active: Vec<usize>,
    pending: std::collections::VecDeque<usize>,
    /// Warps by start cycle (greedy-then-oldest).
    age: Vec<usize>,
    /// Why it did not issue in its last cycle without an issue.
    why: Why,
    counters: CoreCounters,
}

/// Whether a warp can issue now.
enum Check {
    Ready,
    Blocked(Why, u64),
    NotStarted,
}

/// The timing model of one machine configuration. Keep it across runs of the same
/// [`Machine`] (the host runtime's launches) and the caches stay warm.
pub struct TimingModel {
    policy: SchedPolicy,
    active_warps: usize,
    branch_latency: u64,
    spawn_latency: u64,
    div_push: u64,
    div_pop: u64,
    units: [UnitConfig; 7],
    mem: MemSys,
    cores: Vec<CoreT>,
    rec: Issued,
    order: Vec<usize>,
    observers: Vec<Box<dyn TimingObserver>>,
    /// Per core, the DMA burst in flight: words it moves, and the cycle it is done.
    dma: Vec<Option<(u32, u64)>>,
    /// Per core, the run of lost slots in progress (for observers): reason and first cycle.
    stall_runs: Vec<Option<(Why, u64)>>,
    /// The machine's launch events seen so far, and each launch's counters at its start and
    /// end (a report is the snapshot).
    launch_seen: u64,
    launch_marks: Vec<(TimingReport, Option<TimingReport>)>,
}

impl TimingModel {
    /// A model for `cfg` (caches empty, every unit free).
    pub fn new(cfg: &Config) -> TimingModel {
        let u = &cfg.units;
        let units = [u.alu, u.mul, u.div, u.fpu, u.fdiv, u.lsu, u.sfu];
        let warp = WarpT {
            fetch_ready: 0,
            fetch_why: Why::Fetch,
            reg_ready: [0; 64],
            reg_mem: 0,
            mem_until: 0,
            next: None,
            line: None,
            started: 0,
            was_running: false,
            act: WarpActivity::default(),
        };
        let cores = (0..cfg.cores)
            .map(|c| CoreT {
                warps: (0..cfg.warps)
                    .map(|w| WarpT {
                        act: WarpActivity {
                            core: c,
                            warp: w,
                            ..WarpActivity::default()
                        },
                        ..warp.clone()
                    })
                    .collect(),
                units: units.map(|k| vec![0; k.count as usize]),
                last: cfg.warps - 1,
                active: Vec::new(),
                pending: std::collections::VecDeque::new(),
                age: (0..cfg.warps).collect(),
                why: Why::Idle,
                counters: CoreCounters::default(),
            })
            .collect();
        TimingModel {
            policy: cfg.pipeline.scheduler,
            active_warps: cfg.pipeline.active_warps,
            branch_latency: cfg.pipeline.branch_latency as u64,
            spawn_latency: cfg.pipeline.spawn_latency as u64,
            div_push: cfg.pipeline.divergence_push as u64,
            div_pop: cfg.pipeline.divergence_pop as u64,
            units,
            mem: MemSys::new(cfg),
            cores,
            rec: Issued::default(),
            order: Vec::with_capacity(32),
            observers: Vec::new(),
            dma: vec![None; cfg.cores],
            stall_runs: vec![None; cfg.cores],
            launch_seen: 0,
            launch_marks: Vec::new(),
        }
    }

    /// Attach an observer of pipeline stages and lost issue slots.
    pub fn add_observer(&mut self, o: Box<dyn TimingObserver>) {
        self.observers.push(o);
    }

    /// Core `c` issued (`None`) or lost its slot to `why` at `now`: close or open its run of
    /// lost slots for the observers.
    fn note_slot(&mut self, c: usize, why: Option<Why>, now: u64) {
        let run = self.stall_runs[c];
        match (run, why) {
            (Some((w, _)), Some(n)) if w == n => {}
            (run, why) => {
                if let Some((w, from)) = run {
                    for o in &mut self.observers {
                        o.stall(c, w, from, now);
                    }
                }
                self.stall_runs[c] = why.map(|w| (w, now));
            }
        }
    }

    /// Close every open run of lost slots at `now` (the end of a run).
    fn close_stall_runs(&mut self, now: u64) {
        for c in 0..self.stall_runs.len() {
            self.note_slot(c, None, now);
        }
    }

    /// Run `m` until its program ends or the machine has run `max_cycles` cycles in all (its
    /// configured bound applies too). The same ends as [`Machine::run_until`].
    pub fn run(&mut self, m: &mut Machine, max_cycles: u64) -> RunEnd {
        let bound = m.cfg.cycle_bound().min(max_cycles);
        self.resync(m);
        // The DMA engines move words when the memory system has moved them (below).
        m.set_dma_paced(true);
        let end = loop {
            if let Some(end) = m.ended(bound) {
                break end;
            }
            let now = m.cycle;
            if m.begin_cycle() {
                self.transitions(m, now);
            }
            let mut issued = false;
            let mut next_change = self.dma_cycle(m, now);
            let watched = !self.observers.is_empty();
            for c in 0..self.cores.len() {
                match self.cycle_core(m, c, now) {
                    Ok(()) => {
                        issued = true;
                        if watched {
                            self.note_slot(c, None, now);
                        }
                    }
                    Err((why, until)) => {
                        self.cores[c].counters.stalls[why as usize] += 1;
                        self.cores[c].why = why;
                        next_change = next_change.min(until);
                        if watched {
                            self.note_slot(c, Some(why), now);
                        }
                    }
                }
            }
            m.pump_console();
            if m.launch_events() != self.launch_seen {
                self.sync_launches(m);
            }
            if issued {
                m.cycle = now + 1;
                continue;
            }
            if let Some(end) = m.idle_end() {
                m.cycle = now + 1;
                break end;
            }
            // Nothing can change before `next_change`: skip there, charging each core's
            // slots to the reason it had this cycle.
            let to = next_change.clamp(now + 1, bound.max(now + 1));
            let skip = to - now - 1;
            for core in &mut self.cores {
                core.counters.stalls[core.why as usize] += skip;
            }
            m.cycle = to;
        };
        if !self.observers.is_empty() {
            self.close_stall_runs(m.cycle);
        }
        m.finish_run(end)
    }

    /// The DMA engines at `now`: a burst whose DRAM transfer is done moves its words, and an
    /// engine with work and no burst in flight starts the next (up to [`DMA_BURST`] bytes of
    /// its current slot, through the L2 or to DRAM, competing with the cores' misses).
    /// Returns the cycle the next burst completes (`u64::MAX` if none is in flight).
    fn dma_cycle(&mut self, m: &mut Machine, now: u64) -> u64 {
        let mut next = u64::MAX;
        for c in 0..self.dma.len() {
            if let Some((words, done)) = self.dma[c] {
                if now < done {
                    next = next.min(done);
                    continue;
                }
                m.dma_advance(c, words.max(1));
                self.dma[c] = None;
            }
            if !m.dma_busy(c) {
                continue;
            }
            let Some(s) = m.dma_pending(c).into_iter().next() else {
                continue;
            };
            let bytes = s.bytes_left().min(DMA_BURST);
            let addr = s.global.0.wrapping_add(s.bytes_done);
            let done = self.mem.dma(c, addr, bytes, now, !s.to_local).max(now + 1);
            self.dma[c] = Some((bytes / 4, done));
            next = next.min(done);
        }
        next
    }

    /// Bring the warps' timing state in line with the machine at the start of a run (the
    /// runtime restarts the machine between launches, and a run may go on in slices): the
    /// next instructions are fetched again (the same ones, if nothing changed), and warps
    /// started meanwhile count as started now.
    fn resync(&mut self, m: &Machine) {
        let now = m.cycle;
        for (c, core) in self.cores.iter_mut().enumerate() {
            for (w, t) in core.warps.iter_mut().enumerate() {
                let running = m.cores[c].warps[w].state != WarpState::Idle;
                t.next = None;
                if running && !t.was_running {
                    t.started = now;
                    t.fetch_ready = t.fetch_ready.max(now);
                }
                t.was_running = running;
            }
            sched::sort_by_age(core);
        }
    }

    /// One cycle of core `c`: issue a warp (`Ok`), or say why none issued and until when
    /// nothing will change.
    fn cycle_core(&mut self, m: &mut Machine, c: usize, now: u64) -> Result<(), (Why, u64)> {
        m.cycle = now;
        let w = self.pick(m, c, now)?;
        if self.issue(m, c, w, now) {
            Ok(())
        } else {
            // The warp stopped as it was about to issue (a breakpoint): look again next cycle.
            Err((Why::Fetch, now + 1))
        }
    }

    /// Can warp `w` of core `c` issue at `now`?
    fn check(&mut self, m: &mut Machine, c: usize, w: usize, now: u64) -> Check {
        match m.cores[c].warps[w].state {
            WarpState::Running => {}
            WarpState::Barrier { .. } | WarpState::SpawnWait { .. } => {
                return Check::Blocked(Why::Barrier, u64::MAX)
            }
            _ => return Check::NotStarted,
        }
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
                let ops = operands_of(&inst);
                let class = inst.op.class();
                let t = &mut self.cores[c].warps[w];
                // What it waits for besides a unit, fixed until it issues: the binding
                // (latest) of its registers (all of them for wsync), and for a fence or atomic
                // its memory accesses.
                let (mut until, mut why) = (0, Why::Scoreboard);
                // Vortex's wsync drains the warp: every value still in flight (loads and
                // long-latency results) lands before it issues, as in SimX; stores, which
                // write no register, do not hold it.
                let wsync = inst.op == weft_isa::Op::VxWsync;
                let mut regs: u64 = if wsync { !0 } else { 0 };
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
                if matches!(class, Class::Fence | Class::Atomic) && t.mem_until > until {
                    until = t.mem_until;
                    why = Why::Memory;
                }
                let n = Next {
                    inst,
                    ops,
                    unit: unit_of(class),
                    until,
                    why,
                    fetched: now,
                };
                t.next = Some(n);
                let line = self.mem.icache_line(c, pc);
                if t.line != Some(line) {
                    t.line = Some(line);
                    let ready = self.mem.fetch(c, pc, now);
                    let t = &mut self.cores[c].warps[w];
                    if ready > now {
                        t.fetch_ready = ready;
                        t.fetch_why = Why::Fetch;
                        return Check::Blocked(Why::Fetch, ready);
                    }
                }
                n
            }
        };
        if next.until > now {
            return Check::Blocked(next.why, next.until);
        }
        let free = self.cores[c].units[next.unit as usize]
            .iter()
            .copied()
            .min()
            .unwrap_or(0);
        if free > now {
            let why = if next.unit == Unit::Lsu {
                Why::Memory
            } else {
                Why::Unit
            };
            return Check::Blocked(why, free);
        }
        Check::Ready
    }

    /// Issue warp `w` of core `c` at `now` and charge what it did. False if it did not
    /// issue after all.
    fn issue(&mut self, m: &mut Machine, c: usize, w: usize, now: u64) -> bool {
        let next = self.cores[c].warps[w].next.expect("checked before issue");
        let class = next.inst.op.class();
        if class == Class::Csr {
            counters::hpm(&self.cores[c].counters, &self.mem, c, &mut m.cores[c].hpm);
        }
        if !m.issue(c, w, &mut self.rec) {
            self.cores[c].warps[w].next = None;
            return false;
        }
        let rec = &self.rec;
        let core = &mut self.cores[c];
        core.last = w;
        core.counters.issued += 1;
        let ucfg = self.units[next.unit as usize];
        let mut done = now + ucfg.latency as u64;
        let mut unit_free = now + ucfg.interval as u64;
        let mut from_mem = false;
        if let Some((size, kind)) = memory_access(rec.inst.op) {
            let agen = now + ucfg.latency as u64;
            let mt = self.mem.access(c, kind, size, rec.mask, &rec.addrs, agen);
            done = mt.done.max(agen);
            unit_free = unit_free.max(mt.lsu_free);
            from_mem = true;
        }
        let core = &mut self.cores[c];
        let unit = &mut core.units[next.unit as usize];
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
            t.reg_ready[i] = done;
            if from_mem {
                t.reg_mem |= 1 << i;
            } else {
                t.reg_mem &= !(1 << i);
            }
        }
        // Front end: a redirect refills; divergence-stack work costs its own cycles.
        let sequential = rec.next_pc == rec.pc.wrapping_add(rec.inst.len());
        if !sequential {
            t.fetch_ready = now + 1 + self.branch_latency;
            t.fetch_why = Why::Fetch;
            t.line = None;
        }
        let ev = rec.divergence;
        let div =
            if ev.has(DivEvents::PUSH) {
                self.div_push
            } else {
                0
            } + if ev.has(DivEvents::JOIN) || ev.has(DivEvents::PARK) || ev.has(DivEvents::POP) {
                self.div_pop
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
        let spill = rec.stack_traffic;
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
            let (pc, inst) = (self.rec.pc, self.rec.inst);
            let st = Stages {
                fetch: next.fetched.min(now),
                issue: now,
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

    /// After an instruction that may start, stop or release other warps: warps that started
    /// wait `spawn_latency`; warps released from a barrier go on next cycle.
    fn transitions(&mut self, m: &Machine, now: u64) {
        for (c, core) in self.cores.iter_mut().enumerate() {
            for (w, t) in core.warps.iter_mut().enumerate() {
                let state = m.cores[c].warps[w].state;
                let running = state != WarpState::Idle && state != WarpState::Faulted;
                if running && !t.was_running {
                    t.started = now;
                    t.fetch_ready = t.fetch_ready.max(now + 1 + self.spawn_latency);
                    t.fetch_why = Why::Fetch;
                    t.next = None;
                    t.line = None;
                    t.reg_ready = [0; 64];
                }
                if state != WarpState::Running {
                    t.next = None;
                }
                t.was_running = running;
            }
            sched::sort_by_age(core);
        }
    }

    /// A kernel launch started or ended in this cycle: snapshot the counters (a launch that
    /// started while another was open ends that one).
    fn sync_launches(&mut self, m: &Machine) {
        self.launch_seen = m.launch_events();
        let now = self.snapshot(m);
        while self.launch_marks.len() < m.launches_begun() {
            if let Some((_, end @ None)) = self.launch_marks.last_mut() {
                *end = Some(now.clone());
            }
            self.launch_marks.push((now.clone(), None));
        }
        if !m.launch_open() {
            if let Some((_, end @ None)) = self.launch_marks.last_mut() {
                *end = Some(now);
            }
        }
    }

    /// The cumulative counters (a report without per-launch figures).
    fn snapshot(&self, m: &Machine) -> TimingReport {
        let counters: Vec<CoreCounters> = self.cores.iter().map(|c| c.counters.clone()).collect();
        TimingReport::new(
            self.policy.name(),
            m.cycle,
            &counters,
            &self.mem,
            Vec::new(),
        )
    }

    /// The report so far (`cycles` is the machine's cycle count).
    pub fn report(&self, m: &Machine) -> TimingReport {
        let counters: Vec<CoreCounters> = self.cores.iter().map(|c| c.counters.clone()).collect();
        let per_warp = self
            .cores
            .iter()
            .flat_map(|c| c.warps.iter().map(|w| w.act.clone()))
            .collect();
        let mut r = TimingReport::new(self.policy.name(), m.cycle, &counters, &self.mem, per_warp);
        let now = self.snapshot(m);
        r.launches = self
            .launch_marks
            .iter()
            .enumerate()
            .map(|(k, (start, end))| end.as_ref().unwrap_or(&now).since(start, k))
            .collect();
        r
    }
}

fn reg_index(file: RegFile, r: u8) -> usize {
    match file {
        RegFile::X => r as usize,
        RegFile::F => 32 + r as usize,
    }
}

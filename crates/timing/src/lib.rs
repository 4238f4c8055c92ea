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
//! Modules: `config` (the timing sections of the machine file, and the whole file),
//! `units` (the functional units), `tcu` (the micro-ops of the tensor core's instructions),
//! `frontend` (fetch, the instruction buffer, operand collectors), `issue` (whether a warp can issue, and what issuing costs), `sched` (the
//! three warp-scheduling policies), `cache`
//! (set-associative cache with MSHRs), `memsys` (coalescing, L1, shared memory, L2, DRAM),
//! `counters` (issue-slot and memory counters, the report). A [`TimingObserver`] sees every instruction's stages
//! and every run of lost issue slots (the command's Konata and stall-slice writers).

mod cache;
pub mod config;
mod counters;
mod dram;
mod frontend;
mod issue;
mod memsys;
pub mod rtlcore;
mod sched;
mod tcu;
mod units;

pub use cache::CacheStats;
pub use config::{MachineConfig, TimingConfig};
pub use counters::{LaunchTiming, TcuStats, TimingReport, WarpActivity, Why};
pub use memsys::MemStats;

use config::{PipelineConfig, SchedPolicy, Unit, UnitsConfig};
use counters::CoreCounters;
use memsys::MemSys;
use weft_isa::Inst;
use weft_simt::record::{Issued, Operands, RegFile};
use weft_simt::warp::WarpState;
use weft_simt::{Config, Machine, RunEnd};

/// Bytes a DMA engine moves per burst.
pub const DMA_BURST: u32 = 64;

/// Bytes of one DXA global read (SimX's `VX_CFG_L1_LINE_SIZE`).
const DXA_LINE: u32 = 64;

/// The instruction a warp will issue next, with what the model needs of it.
#[derive(Clone, Copy, Debug)]
struct Next {
    inst: Inst,
    pc: u32,
    /// The registers it (its current micro-op) reads and writes.
    ops: Operands,
    /// Its current micro-op and how many it has (1 but for the tensor core's macro-ops,
    /// `tcu.rs`); `uop > 0` once the instruction has executed.
    uop: u16,
    uops: u16,
    /// The cycle its first micro-op issued.
    began: u64,
    unit: Unit,
    /// Pairs of its source registers in one register bank.
    conflicts: u64,
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
    /// Its next instruction cannot issue before this cycle, for `fetch_why`.
    fetch_ready: u64,
    fetch_why: Why,
    /// With a front end (`pipeline.fetch_interval`): the cycle its next instruction is
    /// fetched, and the issue cycles of its last instructions (for the instruction buffer).
    fetch_at: u64,
    issued: frontend::IssueRing,
    /// When each register (x0–x31, then f0–f31) has its pending value.
    reg_ready: [u64; 64],
    /// Registers whose pending value comes from memory (bit per register).
    reg_mem: u64,
    /// When all its memory accesses are done (fences wait for it).
    mem_until: u64,
    /// The fetched next instruction.
    next: Option<Next>,
    /// The micro-ops of that instruction when it is a tensor-core macro-op (else empty).
    uop_ops: Vec<Operands>,
    /// The I-cache line the front end holds.
    line: Option<u32>,
    /// Cycle it was started (for greedy-then-oldest).
    started: u64,
    /// Was it running at the last look?
    was_running: bool,
    /// Was it waiting (at a barrier, or a wspawn) at the last look?
    was_waiting: bool,
    /// Activity.
    act: WarpActivity,
}

/// A core's timing state: warps, unit occupancy, scheduler state, counters.
struct CoreT {
    warps: Vec<WarpT>,
    /// Per unit kind (index = `Unit as usize`), when each instance is next free (a unit that
    /// shares another's has none of its own).
    units: [Vec<u64>; Unit::COUNT],
    /// Per unit kind with a `queue`, the start cycles of the instructions issued to it, not
    /// yet started (and some already started, which `check` and `issue` drop).
    queued: [Vec<u64>; Unit::COUNT],
    /// With a front end: the cycles the fetch port is taken.
    port: frontend::FetchPort,
    /// When each operand collector is next free (none without collectors).
    collectors: Vec<u64>,
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
    /// The issue stage and front end (`[pipeline]`).
    pipe: PipelineConfig,
    /// Cycles from issue to the operand collectors: `pipeline.collector_route` when a core
    /// has more than one collector, else 0.
    route: u64,
    units: UnitsConfig,
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
    /// A model with the parameters `t` of the machine `cfg` (caches empty, every unit free).
    pub fn new(cfg: &Config, t: &TimingConfig) -> TimingModel {
        let units = t.units;
        let warp = WarpT {
            fetch_ready: 0,
            fetch_why: Why::Fetch,
            fetch_at: 0,
            issued: frontend::IssueRing::new(),
            reg_ready: [0; 64],
            reg_mem: 0,
            mem_until: 0,
            next: None,
            uop_ops: Vec::new(),
            line: None,
            started: 0,
            was_running: false,
            was_waiting: false,
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
                units: Unit::ALL.map(|u| {
                    let n = if units[u].shares.is_some() {
                        0
                    } else {
                        units[u].count
                    };
                    vec![0; n as usize]
                }),
                queued: Default::default(),
                port: frontend::FetchPort::new(),
                collectors: match t.pipeline.warps_per_collector {
                    0 => Vec::new(),
                    k => vec![0; cfg.warps.div_ceil(k as usize)],
                },
                last: cfg.warps - 1,
                active: Vec::new(),
                pending: std::collections::VecDeque::new(),
                age: (0..cfg.warps).collect(),
                why: Why::Idle,
                counters: CoreCounters::default(),
            })
            .collect();
        TimingModel {
            policy: t.pipeline.scheduler,
            active_warps: t.pipeline.active_warps,
            pipe: t.pipeline,
            route: match t.pipeline.warps_per_collector {
                k if k > 0 && cfg.warps > k as usize => t.pipeline.collector_route as u64,
                _ => 0,
            },
            units,
            mem: MemSys::new(cfg, t),
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
        // The DXA engine's global reads go through the memory system (below).
        m.set_dxa_paced(true);
        let end = loop {
            if let Some(end) = m.ended(bound) {
                break end;
            }
            let now = m.cycle;
            if m.begin_cycle() {
                self.transitions(m, now);
            }
            let mut issued = false;
            // A device's next event (a DXA copy landing) may release warps.
            let mut next_change = self
                .dma_cycle(m, now)
                .min(self.dxa_cycle(m, now))
                .min(m.dxa_next_event());
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
                if self.pipe.end_waits_for_writeback && matches!(end, RunEnd::AllHalted) {
                    self.wait_for_writeback(m);
                }
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

    /// At the end of a run (`pipeline.end_waits_for_writeback`): the cycle moves on to when
    /// the warps' last results are written back and their memory accesses done (writes
    /// posted to DRAM excepted), the slots charged to `no_warp`.
    fn wait_for_writeback(&mut self, m: &mut Machine) {
        let wb = self.pipe.writeback as u64;
        let mut until = 0;
        for core in &self.cores {
            for t in &core.warps {
                until = until.max(t.mem_until + wb);
                until = until.max(t.reg_ready.iter().copied().max().unwrap_or(0));
            }
        }
        if until > m.cycle {
            let skip = until - m.cycle;
            for core in &mut self.cores {
                core.counters.stalls[Why::Idle as usize] += skip;
            }
            m.cycle = until;
        }
    }

    /// A new kernel launch on the same machine: with `pipeline.launch_resets_memory` the
    /// caches are emptied and the DRAM rows closed (the counters go on). The hosts' runtimes
    /// call it before each launch.
    pub fn new_launch(&mut self) {
        if self.pipe.launch_resets_memory {
            self.mem.empty();
        }
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

    /// The DXA engine's copies at `now` (SimX's worker: one global read issued per cycle,
    /// writes in order, docs/vortex.md "The DXA copy engine"): each read is a 64-byte line
    /// below the L1s (through the L2 if there is one, else DRAM), through engine `u`'s port —
    /// core `u`'s, as SimX's DXA memory port shares the first socket's — competing with the
    /// cores' misses. Returns the next cycle a copy has work (`u64::MAX`: none).
    fn dxa_cycle(&mut self, m: &mut Machine, now: u64) -> u64 {
        if m.dxa_pending() == 0 {
            return u64::MAX;
        }
        let mem = &mut self.mem;
        let cores = self.cores.len();
        m.dxa_pace(now, &mut |unit, line, t| {
            mem.dma(unit % cores, line, DXA_LINE, t, false)
        })
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
                // A macro-op whose first micro-ops issued (and which has executed) goes on.
                if t.next.is_none_or(|n| n.uop == 0) {
                    t.next = None;
                }
                if running && !t.was_running {
                    t.started = now;
                    t.fetch_ready = t.fetch_ready.max(now);
                    t.fetch_at = t.fetch_at.max(now);
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

    /// After an instruction that may start, stop or release other warps: warps that started
    /// wait `spawn_latency`; warps released from a barrier go on next cycle (with a front
    /// end: they fetch again from next cycle).
    fn transitions(&mut self, m: &Machine, now: u64) {
        let p = &self.pipe;
        let front_end = p.fetch_interval > 0;
        for (c, core) in self.cores.iter_mut().enumerate() {
            for (w, t) in core.warps.iter_mut().enumerate() {
                let state = m.cores[c].warps[w].state;
                let running = state != WarpState::Idle && state != WarpState::Faulted;
                let waiting = matches!(
                    state,
                    WarpState::Barrier { .. } | WarpState::SpawnWait { .. }
                );
                let fetch_from = if running && !t.was_running {
                    t.started = now;
                    t.next = None;
                    t.line = None;
                    t.reg_ready = [0; 64];
                    Some(now + 1 + p.spawn_latency as u64)
                } else if t.was_waiting && state == WarpState::Running && front_end {
                    Some(now + 1)
                } else {
                    None
                };
                if let Some(from) = fetch_from {
                    t.fetch_at = t.fetch_at.max(from);
                    let issue = if front_end {
                        t.fetch_at + p.fetch_to_issue as u64
                    } else {
                        from
                    };
                    t.fetch_ready = t.fetch_ready.max(issue);
                    t.fetch_why = Why::Fetch;
                }
                if state != WarpState::Running {
                    t.next = None;
                }
                t.was_running = running;
                t.was_waiting = waiting;
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

    /// Core `c`'s memory counters so far: its L1, its I-cache, and the rest (shared memory,
    /// DRAM requests).
    pub fn core_memory(&self, c: usize) -> (CacheStats, CacheStats, MemStats) {
        self.mem.core_stats(c)
    }

    /// The L2's counters so far, if there is one.
    pub fn l2_memory(&self) -> Option<CacheStats> {
        self.mem.l2_stats()
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

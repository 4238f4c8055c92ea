//! The machine: cores of warps over one memory and the device bus, the [`Issue`] of one
//! warp-instruction with the handler type the decoded cache holds, the [`Observer`]s, the
//! warp scheduler (round-robin, one warp-instruction per core per cycle) and the run loop
//! with its end conditions (exit, all halted, fault, cycle bound, deadlock), and what a
//! debugger or a differential test reads (one warp's single step, the pending end, a
//! whole-state comparison). Building, loading and restarting are `reset.rs`; the modules
//! below this one (config, warp, code, engine, counters, kmu, …) never name the machine.

use crate::bus::bus_fault;
use crate::code::{CodeCache, Slot};
use crate::config::Config;
use crate::counters::Stats;
use crate::divergence::Reconv;
use crate::record::StepRecord;
use crate::trap::Trap;
use crate::warp::{Warp, WarpState};
use std::io::Write;
use weft_devices::{Ctx, Display, DmaSlot, Dmas, Dxa, DxaStats, FrameSink};
use weft_isa::{FaultCode, Inst};
use weft_mem::Memory;

pub use crate::program::{LoadError, Program, Segment};
pub use weft_device::{FaultInfo, RunEnd};

/// Something that watches every warp-instruction's [`StepRecord`]. Attach with
/// [`Machine::add_observer`].
pub trait Observer {
    /// Called after each warp-instruction with its record; `m` is the machine after it.
    fn step(&mut self, m: &Machine, r: &StepRecord);
    /// Called when the run ends.
    fn finish(&mut self) {}
}

/// Executes one warp-instruction (the slot's instruction, in the [`Issue`]): what the decoded
/// cache holds per slot.
pub(crate) type Handler = fn(&mut Issue<'_>) -> Result<(), Trap>;

/// The decoded-instruction cache of this executor, and one of its slots.
pub(crate) type Code = CodeCache<Handler>;
pub(crate) type CodeSlot = Slot<Handler>;

/// One warp-instruction being executed: the machine, the warp (core `c`, warp `w`), the
/// instruction's address and the decoded instruction with its reconvergence-table entry.
/// Every instruction executor is a method of it (here, `exec_mem.rs`, `exec_fp.rs`,
/// `control.rs`, `csr.rs`, and the handlers of `fast.rs`), so none needs the warp's
/// coordinates passed along.
pub(crate) struct Issue<'a> {
    /// The machine.
    pub m: &'a mut Machine,
    /// Core index.
    pub c: usize,
    /// Warp index within the core.
    pub w: usize,
    /// Address of the instruction.
    pub pc: u32,
    /// The instruction.
    pub i: Inst,
    /// Its reconvergence-table entry.
    pub reconv: Reconv,
}

/// Barrier bookkeeping (see `barriers.rs`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Barrier {
    /// Warps (or, for global barriers, cores) that have arrived: a 256-bit set.
    pub arrived: [u64; 4],
    /// How many must arrive.
    pub count: u32,
    /// Completions so far (Vortex's barrier phase; `bar.arrive` returns its low bit).
    pub phase: u32,
    /// Transactions announced with `expect_tx` that have not completed: the barrier cannot
    /// complete while there are any.
    pub events: u32,
}

impl Barrier {
    /// Number of arrivals.
    pub fn arrivals(&self) -> u32 {
        self.arrived.iter().map(|w| w.count_ones()).sum()
    }
}

/// One core.
#[derive(Clone, Debug)]
pub struct Core {
    pub warps: Vec<Warp>,
    /// What software wrote to `minstret`/`mcycle`, as offsets from the counts.
    pub instret_offset: u64,
    pub cycle_offset: u64,
    pub warp_done: u32,
    pub spawn_pc: u32,
    pub spawn_args: u32,
    pub barriers: Vec<Barrier>,
    /// Where the round-robin looks next: the warp after the one that issued last.
    pub next: usize,
    /// Issues left in the scheduling quantum of warp `next − 1`, the one that issued last
    /// (always 0 with the default quantum of 1: see [`Config::quantum`](crate::Config)).
    pub quantum_left: u64,
    /// Hardware performance counters `mhpmcounter3`…`mhpmcounter20` (index = counter
    /// number), kept by the timing model; 0 in a functional run except counter 3, which the
    /// CSR read computes (docs/isa.md §4.7).
    pub hpm: [u64; weft_isa::csr::HPM_LAST + 1],
}

impl Core {
    /// Is any warp other than `w` started (running or waiting)?
    pub fn others_active(&self, w: usize) -> bool {
        self.warps
            .iter()
            .enumerate()
            .any(|(k, o)| k != w && !matches!(o.state, WarpState::Idle | WarpState::Faulted))
    }

    /// A warp halted: a `wspawn` waiting to be alone on the core completes (its warps start)
    /// and its warp runs on.
    pub(crate) fn wake_spawn_waiter(&mut self) {
        for k in 0..self.warps.len() {
            if let WarpState::SpawnWait { count, target, .. } = self.warps[k].state {
                if !self.others_active(k) {
                    self.warps[k].state = WarpState::Running;
                    self.spawn_warps(count, target);
                }
            }
        }
    }

    /// `wspawn`'s effect: idle warps 1 … `count` − 1 start at `target` with lane 0 active.
    pub(crate) fn spawn_warps(&mut self, count: u32, target: u32) {
        for k in 1..(count as usize).min(self.warps.len()) {
            if self.warps[k].state == WarpState::Idle {
                self.warps[k].start(target, 1);
                self.warp_done &= !(1 << k);
            }
        }
    }

    /// Warp-instructions this core has retired.
    pub fn instret(&self) -> u64 {
        self.warps.iter().map(|w| w.stats.warp_instructions).sum()
    }

    /// `minstret` as the executing instruction sees it: the instructions retired before it
    /// (the count already includes the executing one), plus what software wrote.
    pub fn minstret(&self) -> u64 {
        self.instret()
            .wrapping_sub(1)
            .wrapping_add(self.instret_offset)
    }

    /// Bitmask of warps that are started (running or waiting).
    pub fn active_mask(&self) -> u32 {
        self.warps
            .iter()
            .enumerate()
            .filter(|(_, w)| !matches!(w.state, WarpState::Idle | WarpState::Faulted))
            .fold(0, |m, (i, _)| m | (1 << i))
    }
}

/// The whole machine.
pub struct Machine {
    pub cfg: Config,
    pub cores: Vec<Core>,
    pub mem: Memory,
    pub(crate) code: Code,
    pub cycle: u64,
    pub(crate) exit: Option<u32>,
    pub(crate) fault: Option<FaultInfo>,
    pub(crate) global_barriers: Vec<Barrier>,
    /// LR reservations outstanding anywhere: (core, warp, lane).
    pub(crate) reservations: Vec<(u16, u16, u8)>,
    pub(crate) console: Vec<u8>,
    pub(crate) console_sink: Option<Box<dyn Write>>,
    pub(crate) observers: Vec<Box<dyn Observer>>,
    pub symbols: Vec<(String, u32)>,
    pub stats: Stats,
    /// Every lane of a warp.
    pub(crate) full_mask: u32,
    /// Vortex profile: the KMU, its CTA dispatchers and the CTA CSRs.
    pub(crate) kmu: Option<Box<crate::vortex::kmu::Kmu>>,
    /// The device bus: the display controller and the DMA engines (kept across
    /// [`Machine::restart`]).
    pub(crate) bus: weft_devices::Bus,
    /// The block engine for warp-private runs (`accel.rs`), if any.
    pub(crate) engine: Option<Box<dyn crate::engine::BlockEngine>>,
    /// No super-step is tried before this cycle (`accel.rs`).
    pub(crate) accel_retry: u64,
    /// Cycles run in super-steps.
    pub(crate) accel_cycles: u64,
    /// Super-step attempts that failed in a row.
    pub(crate) accel_misses: u32,
    /// The last attempt was over several warps.
    pub(crate) accel_multi: bool,
    /// Kernel launches and their counters (`launch.rs`).
    pub(crate) launches: crate::launch::LaunchLog,
    /// The memory records of super-steps over several warps (`step_mem.rs`), made when first
    /// needed and reused.
    pub(crate) accel_mem: Option<Box<crate::step_mem::StepMem>>,
    /// The most cycles the next super-step over several warps tries: shrinks when one is
    /// given up after running (warps meeting in memory, most likely), grows with successes.
    pub(crate) accel_cap: u64,
    /// The last failed attempt over several warps ran and was given up: an I/O event does
    /// not make the next attempt come at once.
    pub(crate) accel_hold: bool,
}

impl Machine {
    /// Send console output to `w` as it is produced (otherwise it is collected; see
    /// [`Machine::console`]).
    pub fn set_console(&mut self, w: Box<dyn Write>) {
        self.console_sink = Some(w);
    }

    /// Attach an observer: it receives the [`StepRecord`](crate::record::StepRecord) of every
    /// warp-instruction from now on, and is told when the run ends.
    pub fn add_observer(&mut self, o: Box<dyn Observer>) {
        self.observers.push(o);
    }

    /// Hand a record to every observer.
    pub(crate) fn deliver(&mut self, r: &StepRecord) {
        let mut obs = std::mem::take(&mut self.observers);
        for o in &mut obs {
            o.step(self, r);
        }
        self.observers = obs;
    }

    /// Console output collected so far (when no sink is set).
    pub fn console(&self) -> &[u8] {
        &self.console
    }

    pub(crate) fn put_console(&mut self, b: u8) {
        match &mut self.console_sink {
            Some(w) => {
                let _ = w.write_all(&[b]);
                if b == b'\n' {
                    let _ = w.flush();
                }
            }
            None => self.console.push(b),
        }
    }

    /// Print what the Vortex console rings hold (at the end, unterminated lines too).
    fn pump_cout(&mut self, end: bool) {
        for b in self.mem.take_cout(end) {
            self.put_console(b);
        }
    }

    /// Record a fault: the warp halts, its CSRs hold the code, pc and address, and the run
    /// ends after this cycle.
    pub(crate) fn raise(
        &mut self,
        c: usize,
        w: usize,
        code: FaultCode,
        addr: Option<u32>,
        detail: String,
    ) {
        let warp = &mut self.cores[c].warps[w];
        warp.state = WarpState::Faulted;
        warp.csr.fault_code = code.code();
        warp.csr.fault_pc = warp.pc;
        warp.csr.fault_addr = addr.unwrap_or(0);
        if self.fault.is_none() {
            self.fault = Some(FaultInfo {
                code,
                core: c,
                warp: w,
                lanes: warp.mask,
                pc: warp.pc,
                addr,
                detail,
            });
        }
    }

    /// Run until the program ends or a bound is hit.
    pub fn run(&mut self) -> RunEnd {
        self.run_until(u64::MAX)
    }

    /// Like [`Machine::run`], stopping at `max_cycles` cycles in all if the configured bound
    /// is larger.
    pub fn run_until(&mut self, max_cycles: u64) -> RunEnd {
        let bound = self.cfg.cycle_bound().min(max_cycles);
        let end = loop {
            // The interpreter alone up to the next super-step attempt (with no block engine,
            // up to the end): the attempt's cycle is the bound its loop tests anyway, so
            // cycles between attempts cost nothing more than with no engine at all.
            let stop = if self.engine.is_some() {
                bound.min(self.accel_retry)
            } else {
                bound
            };
            if let Some(end) = self.interpret_until(bound, stop) {
                break end;
            }
            // An attempt is due at this cycle (and the run has not ended).
            self.begin_cycle();
            if self.super_step(bound) > 0 {
                self.pump_console();
                continue;
            }
            if let Some(end) = self.interpret_cycle() {
                break end;
            }
        };
        self.finish_run(end)
    }

    /// Interpreter cycles until the run ends (`Some`) or the cycle reaches `stop` before the
    /// bound (`None`).
    #[inline(always)]
    fn interpret_until(&mut self, bound: u64, stop: u64) -> Option<RunEnd> {
        loop {
            if let Some(end) = self.ended(stop) {
                let early =
                    matches!(end, RunEnd::CycleLimit(_)) && self.cycle < bound && !self.bus.stop();
                return (!early).then_some(end);
            }
            self.begin_cycle();
            if let Some(end) = self.interpret_cycle() {
                return Some(end);
            }
        }
    }

    /// One cycle of the interpreter (after `begin_cycle`): each core issues one instruction
    /// of its next ready warp. `Some` if no warp can issue any more.
    #[inline(always)]
    fn interpret_cycle(&mut self) -> Option<RunEnd> {
        let mut issued = false;
        for c in 0..self.cores.len() {
            if let Some(w) = self.pick(c) {
                self.step(c, w);
                issued = true;
            }
        }
        self.cycle += 1;
        self.pump_console();
        if !issued {
            return self.stalled();
        }
        None
    }

    /// Work at the start of each cycle before any warp issues: the display's line starts
    /// and vblanks and the DMA engines' progress (for every cycle since the last call, so a
    /// driver may skip cycles in which nothing issues), and the Vortex KMU places waiting
    /// CTAs on free warps. Returns true if warps may have been started (a driver with its
    /// own cycle loop then looks at the warps' states again).
    #[inline]
    pub fn begin_cycle(&mut self) -> bool {
        let mut changed = false;
        if self.cycle >= self.bus.next_event() {
            // A DXA copy that lands may release warps from a barrier.
            changed = self.io_advance();
            // An I/O event is what cut the last super-step short: try again at once (unless
            // warps met in memory).
            if !self.accel_hold {
                self.accel_retry = 0;
                self.accel_misses = 0;
            }
        }
        if self.kmu_busy() {
            self.dispatch_ctas();
            return true;
        }
        changed
    }

    /// Has the run ended — an exit, a fault, or the cycle bound (`bound` cycles in all)? A
    /// driver that keeps its own cycle loop (the timing model) checks this before each cycle.
    #[inline]
    pub fn ended(&self, bound: u64) -> Option<RunEnd> {
        if let Some(code) = self.exit {
            return Some(RunEnd::Exit(code));
        }
        if let Some(f) = &self.fault {
            return Some(RunEnd::Fault(f.clone()));
        }
        if self.cycle >= bound || self.bus.stop() {
            return Some(RunEnd::CycleLimit(self.cycle));
        }
        None
    }

    /// Move what the Vortex console rings hold to the console (once per cycle).
    #[inline]
    pub fn pump_console(&mut self) {
        if self.mem.has_cout() {
            self.pump_cout(false);
        }
    }

    /// Is any warp of any core running (able to issue)?
    pub fn any_running(&self) -> bool {
        self.cores
            .iter()
            .any(|c| c.warps.iter().any(|w| w.is_running()))
    }

    /// The end of a run in which no warp can issue: every warp halted, or a deadlock (who
    /// waits on what). `None` while some warp is running.
    pub fn idle_end(&mut self) -> Option<RunEnd> {
        if self.any_running() {
            return None;
        }
        self.stalled()
    }

    /// Close a run that ended with `end`: the console drained and flushed, the profile's
    /// reading of "all halted" applied, observers told. Returns the run's final end.
    pub fn finish_run(&mut self, end: RunEnd) -> RunEnd {
        self.pump_cout(true);
        let end = match end {
            RunEnd::AllHalted if self.cfg.profile.halt_is_exit() => {
                RunEnd::Exit(self.halt_exit_code())
            }
            RunEnd::AllHalted if self.cfg.require_exit => RunEnd::NoExit,
            e => e,
        };
        // A KMU launch (Vortex profile) ends when its run does.
        if self.kmu.is_some() && matches!(end, RunEnd::Exit(_) | RunEnd::AllHalted) {
            let now = self.counts();
            self.launches.write(0, now);
        }
        if let Some(w) = &mut self.console_sink {
            let _ = w.flush();
        }
        for o in &mut self.observers {
            o.finish();
        }
        end
    }

    /// Next running warp of core `c`: the one that issued last while its quantum lasts and
    /// it can issue, else the next one round-robin.
    #[inline]
    fn pick(&mut self, c: usize) -> Option<usize> {
        let quantum = self.cfg.quantum;
        let core = &mut self.cores[c];
        if core.quantum_left > 0 {
            let w = core.next - 1;
            if core.warps[w].is_running() {
                core.quantum_left -= 1;
                return Some(w);
            }
        }
        let n = core.warps.len();
        let mut w = core.next;
        for _ in 0..n {
            if w >= n {
                w = 0;
            }
            if core.warps[w].is_running() {
                core.next = w + 1;
                core.quantum_left = quantum - 1;
                return Some(w);
            }
            w += 1;
        }
        None
    }

    /// No warp issued this cycle: all halted, or a deadlock.
    fn stalled(&mut self) -> Option<RunEnd> {
        let mut waits = Vec::new();
        for (c, core) in self.cores.iter().enumerate() {
            for (w, warp) in core.warps.iter().enumerate() {
                match warp.state {
                    WarpState::Barrier { id, global } => {
                        let b = if global {
                            &self.global_barriers[id as usize]
                        } else {
                            &core.barriers[id as usize]
                        };
                        waits.push(format!(
                            "core {c} warp {w} waits at {}barrier {id} ({} of {} arrived) pc {:#010x}",
                            if global { "global " } else { "" },
                            b.arrivals(),
                            b.count,
                            warp.pc
                        ))
                    }
                    WarpState::Breakpoint => waits.push(format!(
                        "core {c} warp {w} is stopped at its breakpoint pc {:#010x}",
                        warp.pc
                    )),
                    WarpState::SpawnWait { at, .. } => waits.push(format!(
                        "core {c} warp {w} waits in wspawn at pc {at:#010x} for the core's other warps to halt"
                    )),
                    _ => {}
                }
            }
        }
        if self.kmu_busy() {
            waits.push("the KMU has CTAs no core can take".into());
        }
        // A DXA copy in flight will complete a barrier transaction (or end): not stalled.
        if self.dxa_pending() > 0 {
            return None;
        }
        if waits.is_empty() {
            Some(RunEnd::AllHalted)
        } else {
            Some(RunEnd::Deadlock(waits.join("; ")))
        }
    }

    /// Activate warps (`warp_active` write, activate-only): idle warps start at spawn_pc with
    /// every lane and spawn_args in a0; the writer's own bit restarts it.
    pub(crate) fn activate(&mut self, c: usize, writer: usize, bits: u32) {
        let full = self.cfg.full_mask();
        let core = &mut self.cores[c];
        let (pc, args) = (core.spawn_pc, core.spawn_args);
        for w in 0..core.warps.len() {
            if bits >> w & 1 == 0 {
                continue;
            }
            let warp = &mut core.warps[w];
            if w == writer || warp.state == WarpState::Idle {
                warp.start(pc, full);
                warp.x[10] = [args; crate::config::MAX_LANES];
                core.warp_done &= !(1 << w);
            }
        }
    }

    /// Look up a symbol for an address (`name+off`).
    pub fn symbolize(&self, addr: u32) -> Option<String> {
        let (name, a) = self
            .symbols
            .iter()
            .filter(|(_, a)| *a <= addr)
            .max_by_key(|(_, a)| *a)?;
        Some(if *a == addr {
            name.clone()
        } else {
            format!("{name}+{:#x}", addr - a)
        })
    }

    // What a debugger needs beyond `run`: one warp's single step, the pending end.

    /// Issue one warp-instruction of warp `w` of core `c` alone, outside the round-robin
    /// scheduler, and count one cycle: a debugger's single step of one warp while the others
    /// stay where they are. Returns false (and does nothing) if the warp is not running. The
    /// step is observed like any other; a fault or exit it causes is reported by the next
    /// [`Machine::run_until`].
    pub fn step_warp(&mut self, c: usize, w: usize) -> bool {
        let Some(warp) = self.cores.get(c).and_then(|core| core.warps.get(w)) else {
            return false;
        };
        if !warp.is_running() || self.exit.is_some() || self.fault.is_some() {
            return false;
        }
        // The display and the DMA engines catch up first, as at the start of any cycle.
        if self.cycle >= self.bus.next_event() {
            self.io_advance();
        }
        self.step(c, w);
        self.cycle += 1;
        true
    }

    /// The fault that ends the run, once a warp has faulted.
    pub fn fault(&self) -> Option<&FaultInfo> {
        self.fault.as_ref()
    }

    /// The exit code, once the program has written one.
    pub fn exit_code(&self) -> Option<u32> {
        self.exit
    }

    /// The cross-core barriers (`bar` with the global bit), by id.
    pub fn global_barriers(&self) -> &[Barrier] {
        &self.global_barriers
    }

    /// For the differential engine mode (`weft run --engine diff`) and the tests that hold
    /// the engines to each other: compares the run's end, the cycle, every warp's pc, mask,
    /// state, registers, fcsr, counters and call stack, the statistics report, the console and
    /// DRAM.
    /// The first difference between `self` (named `a`) and `other` (`b`), or `None` if their
    /// state is the same.
    pub fn first_difference(&self, other: &Machine, a: &str, b: &str) -> Option<String> {
        macro_rules! same {
            ($what:expr, $x:expr, $y:expr) => {
                if $x != $y {
                    return Some(format!("{}: {a} has {:x?}, {b} has {:x?}", $what, $x, $y));
                }
            };
        }
        same!("cycle", self.cycle, other.cycle);
        same!("exit", self.exit, other.exit);
        same!("fault", self.fault, other.fault);
        for (c, (p, q)) in self.cores.iter().zip(&other.cores).enumerate() {
            same!(format!("core {c} next warp"), p.next, q.next);
            same!(
                format!("core {c} quantum left"),
                p.quantum_left,
                q.quantum_left
            );
            for (w, (x, y)) in p.warps.iter().zip(&q.warps).enumerate() {
                let at = |f: &str| format!("core {c} warp {w} {f}");
                same!(at("pc"), x.pc, y.pc);
                same!(at("mask"), x.mask, y.mask);
                same!(at("state"), x.state, y.state);
                for r in 0..32 {
                    same!(at(&format!("x{r}")), x.x[r], y.x[r]);
                    same!(at(&format!("f{r}")), x.f[r], y.f[r]);
                }
                same!(at("fflags"), x.fflags, y.fflags);
                same!(at("frm"), x.frm, y.frm);
                same!(at("counters"), x.stats, y.stats);
                same!(at("divergence stack depth"), x.stack.len(), y.stack.len());
                same!(at("call stack"), x.calls, y.calls);
            }
        }
        same!("console", self.console, other.console);
        if let Some(addr) = self.mem.first_dram_difference(&other.mem) {
            let word = |m: &Machine| m.mem.load(0, addr & !3, 4).ok();
            return Some(format!(
                "memory at {addr:#010x}: {a} has {:x?}, {b} has {:x?}",
                word(self),
                word(other)
            ));
        }
        same!("statistics", self.report(), other.report());
        None
    }
}

/// The devices on the bus (`bus.rs` says which are attached where).
impl Machine {
    /// A store to device register `addr` by core `c`.
    pub(crate) fn io_store(&mut self, c: usize, addr: u32, size: u32, v: u32) -> Result<(), Trap> {
        self.bus
            .store(self.cycle, c, addr, size, v, &self.mem)
            .map_err(|e| bus_fault(true, e))
    }

    /// Process the devices' work for every cycle up to and including the current one, in
    /// time order. True if DXA copies completed (barriers may have released warps).
    #[cold]
    pub(crate) fn io_advance(&mut self) -> bool {
        let cores = &self.cores;
        let active = |c: usize| cores[c].active_mask() != 0;
        let mut ctx = Ctx {
            mem: &mut self.mem,
            code: &mut self.code,
            active: &active,
        };
        self.bus.advance(self.cycle, &mut ctx);
        self.dxa_collect()
    }

    /// Send every scanned frame to `sink` from now on (`weft run --frames`, `--gif`).
    pub fn set_frame_sink(&mut self, sink: Box<dyn FrameSink>) {
        self.display_mut().sink = Some(sink);
    }

    /// The display controller (registers, counters).
    pub fn display(&self) -> &Display {
        self.bus
            .get::<Display>()
            .expect("the I/O page has a display")
    }

    fn display_mut(&mut self) -> &mut Display {
        self.bus
            .get_mut::<Display>()
            .expect("the I/O page has a display")
    }

    /// The DMA engines.
    pub fn dmas(&self) -> &Dmas {
        self.bus
            .get::<Dmas>()
            .expect("the I/O page has DMA engines")
    }

    /// Did a frame sink end the run (a frame limit)?
    pub fn stopped_by_frames(&self) -> bool {
        self.bus.stop()
    }

    /// The slots core `c`'s engine has not finished, in the order they run.
    pub fn dma_pending(&self, c: usize) -> Vec<DmaSlot> {
        self.dmas().pending(c)
    }

    /// Is core `c`'s DMA engine busy (cheap, unlike [`Machine::dma_pending`])?
    pub fn dma_busy(&self, c: usize) -> bool {
        self.dmas().busy(c)
    }

    /// DMA counters of core `c`.
    pub fn dma_stats(&self, c: usize) -> weft_fb::DmaStats {
        self.dmas().stats(c)
    }

    /// Hand the DMA engines' pacing to the caller (true) or back to their own timing.
    /// While paced, nothing moves except through [`Machine::dma_advance`].
    pub fn set_dma_paced(&mut self, paced: bool) {
        // Everything up to now happens under the old pacing.
        self.io_advance();
        let from = self.cycle + 1;
        if let Some(d) = self.bus.get_mut::<Dmas>() {
            d.set_paced(paced, from);
        }
        self.bus.wake(from);
    }

    /// Move up to `max_words` words of core `c`'s current DMA work now (for a paced
    /// engine); returns how many moved.
    pub fn dma_advance(&mut self, c: usize, max_words: u32) -> u32 {
        let (mem, code) = (&mut self.mem, &mut self.code);
        match self.bus.get_mut::<Dmas>() {
            Some(d) => d.advance_paced(c, max_words, mem, code),
            None => 0,
        }
    }
}

// Barrier completion, shared by `bar`'s arrivals (barriers.rs) and the DXA engine's copies.
impl Machine {
    /// Complete barrier `id`: wake its waiters (on core `c`, or on every core for a global
    /// barrier) and advance the phase (of core `c`'s slot, or of every core's slot).
    pub(crate) fn complete_barrier(&mut self, c: usize, id: u32, global: bool) {
        for (ci, core) in self.cores.iter_mut().enumerate() {
            if !global && ci != c {
                continue;
            }
            core.barriers[id as usize].phase = core.barriers[id as usize].phase.wrapping_add(1);
            for warp in &mut core.warps {
                if warp.state == (WarpState::Barrier { id, global }) {
                    warp.state = WarpState::Running;
                }
            }
        }
        if global {
            self.global_barriers[id as usize].phase =
                self.global_barriers[id as usize].phase.wrapping_add(1);
        }
    }

    /// One announced transaction of core `c`'s barrier `id` completed (a DXA copy landed):
    /// when none is left and every warp it counts has arrived, it completes.
    pub(crate) fn complete_tx(&mut self, c: usize, id: u32) -> Result<(), FaultCode> {
        let b = self
            .cores
            .get_mut(c)
            .and_then(|k| k.barriers.get_mut(id as usize))
            .ok_or(FaultCode::BarrierFault)?;
        b.events = b.events.saturating_sub(1);
        if b.events == 0 && b.count > 0 && b.arrivals() >= b.count {
            b.arrived = [0; 4];
            self.complete_barrier(c, id, false);
        }
        Ok(())
    }
}

// The DXA copy engine's host side and the completion of its copies (the engine itself is
// `weft_devices::dxa` on the bus; `dxa.issue` is in dxa.rs).
impl Machine {
    /// A host write of DXA descriptor DCR `addr` (`0x100..0x280`).
    pub fn dxa_dcr_write(&mut self, addr: u32, v: u32) -> Result<(), String> {
        self.dxa_mut().dcr_write(addr, v)
    }

    /// A host read of DXA descriptor DCR `addr`.
    pub fn dxa_dcr_read(&self, addr: u32) -> Result<u32, String> {
        self.bus
            .get::<Dxa>()
            .expect("the bus has a DXA engine")
            .dcr_read(addr)
    }

    /// The DXA engine's counters.
    pub fn dxa_stats(&self) -> DxaStats {
        self.bus.get::<Dxa>().map(Dxa::stats).unwrap_or_default()
    }

    /// Copies issued and not yet complete.
    pub fn dxa_pending(&self) -> usize {
        self.bus.get::<Dxa>().map(Dxa::pending).unwrap_or(0)
    }

    /// The cycle at which the next DXA copy lands (`u64::MAX`: none): a driver that skips
    /// cycles in which no warp can issue skips no further.
    pub fn dxa_next_event(&self) -> u64 {
        self.bus
            .get::<Dxa>()
            .map_or(u64::MAX, weft_devices::BusDevice::next_event)
    }

    /// Hand the timing of the DXA engine's global reads to a timing model (true), which then
    /// calls [`Machine::dxa_pace`] every cycle a copy has work, or back to `dxa.latency`.
    pub fn set_dxa_paced(&mut self, paced: bool) {
        let now = self.cycle;
        let dxa = self.dxa_mut();
        dxa.set_paced(paced, now);
        let due = weft_devices::BusDevice::next_event(dxa);
        self.bus.wake(due);
    }

    /// A paced DXA engine's work at the current cycle `now` (after the bus advanced to it):
    /// `read(unit, line, now)` is when engine `unit`'s read of the 64-byte global line `line`
    /// issued now has its data. Returns the next cycle at which a copy has work
    /// (`u64::MAX`: none); a copy that ended lands when the bus reaches its end.
    pub fn dxa_pace(&mut self, now: u64, read: &mut dyn FnMut(usize, u32, u64) -> u64) -> u64 {
        let dxa = self.dxa_mut();
        let next = dxa.pace(now, read);
        let due = weft_devices::BusDevice::next_event(dxa);
        self.bus.wake(due);
        next
    }

    fn dxa_mut(&mut self) -> &mut Dxa {
        self.bus.get_mut::<Dxa>().expect("the bus has a DXA engine")
    }

    /// Complete the transactions of the copies the engine finished (after the bus advanced).
    /// True if there were any.
    pub(crate) fn dxa_collect(&mut self) -> bool {
        let Some(dxa) = self.bus.get_mut::<Dxa>() else {
            return false;
        };
        let done = dxa.take_done();
        let any = !done.is_empty();
        for d in done {
            if let Some(f) = d.error {
                let code = if f.write {
                    FaultCode::StoreFault
                } else {
                    FaultCode::LoadFault
                };
                self.raise(d.core, d.warp, code, Some(f.addr), f.detail);
                continue;
            }
            for raw in d.bars {
                let index = crate::vortex::barrier_index(raw, self.cfg.barriers);
                let id = u32::try_from(index).unwrap_or(u32::MAX);
                if self.complete_tx(d.core, id).is_err() {
                    let slots = self.cores[d.core].barriers.len();
                    self.raise(
                        d.core,
                        d.warp,
                        FaultCode::BarrierFault,
                        None,
                        format!(
                            "dxa.issue: barrier id {raw:#x} (barrier {index} of {slots}) to complete"
                        ),
                    );
                }
            }
        }
        any
    }
}

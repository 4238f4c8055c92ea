//! The machine as a `gdbstub` target: each warp is a thread (thread id
//! `1 + core × warps + warp`), the registers gdb sees are those of one lane (chosen with
//! `monitor lane N`), memory is the address space as core 0 sees it, and execution is driven
//! one cycle at a time so breakpoints, watchpoints, single steps and Ctrl-C stop it exactly.

use crate::monitor::{self, Focus};
use gdbstub::common::{Signal, Tid};
use gdbstub::stub::MultiThreadStopReason;
use gdbstub::target::ext::base::multithread::{
    MultiThreadBase, MultiThreadResume, MultiThreadResumeOps, MultiThreadSchedulerLocking,
    MultiThreadSchedulerLockingOps, MultiThreadSingleStep, MultiThreadSingleStepOps,
};
use gdbstub::target::ext::base::BaseOps;
use gdbstub::target::ext::breakpoints::{
    Breakpoints, BreakpointsOps, HwBreakpoint, HwBreakpointOps, HwWatchpoint, HwWatchpointOps,
    SwBreakpoint, SwBreakpointOps, WatchKind,
};
use gdbstub::target::ext::monitor_cmd::MonitorCmdOps;
use gdbstub::target::ext::thread_extra_info::{ThreadExtraInfo, ThreadExtraInfoOps};
use gdbstub::target::{Target, TargetError, TargetResult};
use gdbstub_arch::riscv::reg::RiscvCoreRegs;
use std::cell::RefCell;
use std::rc::Rc;
use weft_simt::record::AccessKind;
use weft_simt::warp::WarpState;
use weft_simt::{Device, FaultInfo, Machine, Observer, RunEnd, StepRecord};

/// The stop reasons this target gives.
pub type Stop = MultiThreadStopReason<u32>;

/// Watchpoints, checked against every step record's memory accesses.
#[derive(Default)]
pub struct Watch {
    /// (address, length, kind).
    pub points: Vec<(u32, u32, WatchKind)>,
    /// The first access that hit one since the last resume: core, warp, kind, address.
    pub hit: Option<(usize, usize, WatchKind, u32)>,
}

/// The observer that feeds [`Watch`].
pub struct WatchObserver(pub Rc<RefCell<Watch>>);

impl Observer for WatchObserver {
    fn step(&mut self, _m: &Machine, r: &StepRecord) {
        let mut w = self.0.borrow_mut();
        if w.points.is_empty() || w.hit.is_some() {
            return;
        }
        for a in &r.mem {
            let (lo, hi) = (a.addr as u64, a.addr as u64 + a.size as u64);
            let found = w.points.iter().find(|(p, len, kind)| {
                let (plo, phi) = (*p as u64, *p as u64 + (*len).max(1) as u64);
                let overlap = lo < phi && plo < hi;
                let matches = match kind {
                    WatchKind::Write => a.kind != AccessKind::Load,
                    WatchKind::Read => a.kind != AccessKind::Store,
                    WatchKind::ReadWrite => true,
                };
                overlap && matches
            });
            if let Some(&(p, _, kind)) = found {
                w.hit = Some((r.core, r.warp, kind, p));
                return;
            }
        }
    }
}

/// What gdb asked a warp to do on resume.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    Continue,
    Step,
}

/// What the run loop reports to the event loop.
pub enum Event {
    /// The target stopped.
    Stopped(Stop),
    /// gdb sent data (Ctrl-C) while the target ran.
    Incoming,
}

/// The machine under gdb's control.
pub struct WeftTarget<'a> {
    /// The machine.
    pub m: &'a mut Machine,
    /// The lane whose registers gdb sees and the warp `monitor` commands describe.
    pub focus: Focus,
    breakpoints: Vec<u32>,
    watch: Rc<RefCell<Watch>>,
    actions: Vec<(usize, Action)>,
    /// gdb asked the warps without an action to stay where they are (scheduler locking).
    locked: bool,
    /// How the run ended, once it has, and whether gdb was told.
    pub end: Option<(RunEnd, bool)>,
}

/// The signal gdb is shown for a fault.
fn fault_signal(f: &FaultInfo) -> Signal {
    use weft_isa::FaultCode as F;
    match f.code {
        F::IllegalInstruction => Signal::SIGILL,
        F::Breakpoint => Signal::SIGTRAP,
        F::LoadFault | F::StoreFault | F::FetchFault | F::AmoMisaligned => Signal::SIGSEGV,
        _ => Signal::SIGABRT,
    }
}

impl<'a> WeftTarget<'a> {
    /// Take control of `m` (a watchpoint observer is attached to it).
    pub fn new(m: &'a mut Machine) -> WeftTarget<'a> {
        let watch = Rc::new(RefCell::new(Watch::default()));
        m.add_observer(Box::new(WatchObserver(watch.clone())));
        WeftTarget {
            m,
            focus: Focus::default(),
            breakpoints: Vec::new(),
            watch,
            actions: Vec::new(),
            locked: false,
            end: None,
        }
    }

    /// The thread id of a warp.
    pub fn tid(&self, c: usize, w: usize) -> Tid {
        monitor::thread_id(self.m, c, w)
    }

    /// The warp of a thread id.
    pub fn warp_of(&self, tid: Tid) -> Option<(usize, usize)> {
        monitor::warp_of(self.m, tid)
    }

    fn warp_or_err(&self, tid: Tid) -> Result<(usize, usize), TargetError<String>> {
        self.warp_of(tid).ok_or(TargetError::NonFatal)
    }

    /// The stop to report for a run end, the first time (a fault as a signal on its warp);
    /// asked again, the process is over.
    fn end_stop(&mut self, end: RunEnd) -> Stop {
        let told = matches!(&self.end, Some((e, true)) if *e == end);
        let stop = match (&end, told) {
            (RunEnd::Fault(f), false) => {
                eprintln!("weft: {f}");
                Stop::SignalWithThread {
                    tid: self.tid(f.core, f.warp),
                    signal: fault_signal(f),
                }
            }
            (RunEnd::Fault(f), true) => Stop::Terminated(fault_signal(f)),
            (RunEnd::Deadlock(why), false) => {
                eprintln!("weft: deadlock: {why}");
                Stop::Signal(Signal::SIGSTOP)
            }
            (RunEnd::CycleLimit(c), false) => {
                eprintln!("weft: stopped at the cycle bound ({c} cycles)");
                Stop::Signal(Signal::SIGXCPU)
            }
            (RunEnd::Deadlock(_) | RunEnd::CycleLimit(_), true) => {
                Stop::Terminated(Signal::SIGKILL)
            }
            (e, _) => Stop::Exited(e.exit_status().clamp(0, 255) as u8),
        };
        self.end = Some((end, true));
        stop
    }

    /// The run's end after the cycles run so far, if it has ended (checked without running a
    /// cycle).
    fn ended(&mut self) -> Option<RunEnd> {
        if let Some((e, _)) = &self.end {
            return Some(e.clone());
        }
        match self.m.run_until(self.m.cycle) {
            RunEnd::CycleLimit(_) if self.m.cycle < self.m.cfg.cycle_bound() => None,
            e => {
                self.end = Some((e.clone(), false));
                Some(e)
            }
        }
    }

    /// Run one cycle of the whole machine; the end if the run ended.
    fn cycle(&mut self) -> Option<RunEnd> {
        match self.m.run_until(self.m.cycle + 1) {
            RunEnd::CycleLimit(_) if self.m.cycle < self.m.cfg.cycle_bound() => None,
            e => {
                self.end = Some((e.clone(), false));
                Some(e)
            }
        }
    }

    /// A running warp (other than `skip`) whose next instruction has a breakpoint.
    fn at_breakpoint(&self, skip: Option<(usize, usize)>) -> Option<(usize, usize)> {
        if self.breakpoints.is_empty() {
            return None;
        }
        for (c, core) in self.m.cores.iter().enumerate() {
            for (w, warp) in core.warps.iter().enumerate() {
                if warp.is_running() && Some((c, w)) != skip && self.breakpoints.contains(&warp.pc)
                {
                    return Some((c, w));
                }
            }
        }
        None
    }

    fn watch_hit(&mut self) -> Option<Stop> {
        let (c, w, kind, addr) = self.watch.borrow_mut().hit.take()?;
        Some(Stop::Watch {
            tid: self.tid(c, w),
            kind,
            addr,
        })
    }

    /// Run as gdb asked, until a stop; the warp that stopped becomes the current one.
    pub fn run(&mut self, incoming: impl FnMut() -> bool) -> Event {
        let e = self.run_inner(incoming);
        if let Event::Stopped(
            Stop::SwBreak(tid) | Stop::Watch { tid, .. } | Stop::SignalWithThread { tid, .. },
        ) = &e
        {
            if let Some(k) = self.warp_of(*tid) {
                self.focus.current = k;
            }
        }
        e
    }

    fn run_inner(&mut self, mut incoming: impl FnMut() -> bool) -> Event {
        self.watch.borrow_mut().hit = None;
        if let Some(e) = self.ended() {
            return Event::Stopped(self.end_stop(e));
        }
        let step = self
            .actions
            .iter()
            .find(|(_, a)| *a == Action::Step)
            .map(|(k, _)| *k);
        let others_run = self.actions.iter().any(|(_, a)| *a == Action::Continue);
        if let Some(k) = step {
            let (c, w) = (k / self.m.cfg.warps, k % self.m.cfg.warps);
            self.focus.current = (c, w);
            if !others_run && self.m.step_warp(c, w) {
                // The others stay where they are.
                if let Some(e) = self.ended() {
                    return Event::Stopped(self.end_stop(e));
                }
                return Event::Stopped(self.watch_hit().unwrap_or(Stop::DoneStep));
            }
            // The warp steps as the machine runs (it may wait at a barrier first).
            let before = self.m.cores[c].warps[w].stats.warp_instructions;
            let mut n = 0u64;
            loop {
                if let Some((bc, bw)) = self.at_breakpoint(Some((c, w))) {
                    return Event::Stopped(Stop::SwBreak(self.tid(bc, bw)));
                }
                if let Some(e) = self.cycle() {
                    return Event::Stopped(self.end_stop(e));
                }
                if let Some(s) = self.watch_hit() {
                    return Event::Stopped(s);
                }
                if self.m.cores[c].warps[w].stats.warp_instructions != before {
                    return Event::Stopped(Stop::DoneStep);
                }
                n += 1;
                if n.is_multiple_of(4096) && incoming() {
                    return Event::Incoming;
                }
            }
        }
        let mut n = 0u64;
        if self.locked {
            // Only the warps gdb resumed run, one instruction each in turn.
            let run: Vec<(usize, usize)> = self
                .actions
                .iter()
                .map(|(k, _)| (k / self.m.cfg.warps, k % self.m.cfg.warps))
                .collect();
            loop {
                for &(c, w) in &run {
                    let warp = &self.m.cores[c].warps[w];
                    if warp.is_running() && self.breakpoints.contains(&warp.pc) {
                        return Event::Stopped(Stop::SwBreak(self.tid(c, w)));
                    }
                    self.m.step_warp(c, w);
                    if let Some(e) = self.ended() {
                        return Event::Stopped(self.end_stop(e));
                    }
                    if let Some(s) = self.watch_hit() {
                        return Event::Stopped(s);
                    }
                }
                n += 1;
                if n.is_multiple_of(4096) && incoming() {
                    return Event::Incoming;
                }
            }
        }
        loop {
            if let Some((c, w)) = self.at_breakpoint(None) {
                return Event::Stopped(Stop::SwBreak(self.tid(c, w)));
            }
            if let Some(e) = self.cycle() {
                return Event::Stopped(self.end_stop(e));
            }
            if let Some(s) = self.watch_hit() {
                return Event::Stopped(s);
            }
            n += 1;
            if n.is_multiple_of(4096) && incoming() {
                return Event::Incoming;
            }
        }
    }

    fn lane(&self) -> usize {
        self.focus.lane.min(self.m.cfg.lanes - 1)
    }
}

impl Target for WeftTarget<'_> {
    type Arch = gdbstub_arch::riscv::Riscv32;
    type Error = String;

    fn base_ops(&mut self) -> BaseOps<'_, Self::Arch, Self::Error> {
        BaseOps::MultiThread(self)
    }

    fn support_breakpoints(&mut self) -> Option<BreakpointsOps<'_, Self>> {
        Some(self)
    }

    fn support_monitor_cmd(&mut self) -> Option<MonitorCmdOps<'_, Self>> {
        Some(self)
    }
}

impl MultiThreadBase for WeftTarget<'_> {
    fn read_registers(
        &mut self,
        regs: &mut RiscvCoreRegs<u32>,
        tid: Tid,
    ) -> TargetResult<(), Self> {
        let (c, w) = self.warp_or_err(tid)?;
        let lane = self.lane();
        let warp = &self.m.cores[c].warps[w];
        for (i, r) in regs.x.iter_mut().enumerate() {
            *r = warp.x[i][lane];
        }
        regs.pc = warp.pc;
        Ok(())
    }

    fn write_registers(&mut self, regs: &RiscvCoreRegs<u32>, tid: Tid) -> TargetResult<(), Self> {
        let (c, w) = self.warp_or_err(tid)?;
        let lane = self.lane();
        let warp = &mut self.m.cores[c].warps[w];
        for (i, r) in regs.x.iter().enumerate().skip(1) {
            warp.x[i][lane] = *r;
        }
        warp.pc = regs.pc;
        Ok(())
    }

    fn read_addrs(&mut self, start: u32, data: &mut [u8], _tid: Tid) -> TargetResult<usize, Self> {
        let mut n = 0;
        for (i, b) in data.iter_mut().enumerate() {
            let mut one = [0u8];
            if self
                .m
                .read_bytes(start.wrapping_add(i as u32), &mut one)
                .is_err()
            {
                break;
            }
            *b = one[0];
            n += 1;
        }
        if n == 0 && !data.is_empty() {
            return Err(TargetError::NonFatal);
        }
        Ok(n)
    }

    fn write_addrs(&mut self, start: u32, data: &[u8], _tid: Tid) -> TargetResult<(), Self> {
        self.m
            .write_bytes(start, data)
            .map_err(|_| TargetError::NonFatal)
    }

    fn list_active_threads(&mut self, each: &mut dyn FnMut(Tid)) -> Result<(), Self::Error> {
        let mut any = false;
        for (c, core) in self.m.cores.iter().enumerate() {
            for (w, warp) in core.warps.iter().enumerate() {
                if warp.state != WarpState::Idle {
                    each(self.tid(c, w));
                    any = true;
                }
            }
        }
        if !any {
            each(self.tid(0, 0));
        }
        Ok(())
    }

    fn support_resume(&mut self) -> Option<MultiThreadResumeOps<'_, Self>> {
        Some(self)
    }

    fn support_thread_extra_info(&mut self) -> Option<ThreadExtraInfoOps<'_, Self>> {
        Some(self)
    }
}

impl MultiThreadResume for WeftTarget<'_> {
    fn resume(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }

    fn clear_resume_actions(&mut self) -> Result<(), Self::Error> {
        self.actions.clear();
        self.locked = false;
        Ok(())
    }

    fn support_scheduler_locking(&mut self) -> Option<MultiThreadSchedulerLockingOps<'_, Self>> {
        Some(self)
    }

    /// A signal gdb passes back (the fault's, on `continue` after it) is not delivered: the
    /// fault has ended the run, and resuming reports that.
    fn set_resume_action_continue(
        &mut self,
        tid: Tid,
        _signal: Option<Signal>,
    ) -> Result<(), Self::Error> {
        let (c, w) = self.warp_of(tid).ok_or("no such thread")?;
        self.actions
            .push((c * self.m.cfg.warps + w, Action::Continue));
        Ok(())
    }

    fn support_single_step(&mut self) -> Option<MultiThreadSingleStepOps<'_, Self>> {
        Some(self)
    }
}

impl MultiThreadSingleStep for WeftTarget<'_> {
    fn set_resume_action_step(
        &mut self,
        tid: Tid,
        _signal: Option<Signal>,
    ) -> Result<(), Self::Error> {
        let (c, w) = self.warp_of(tid).ok_or("no such thread")?;
        self.actions.push((c * self.m.cfg.warps + w, Action::Step));
        Ok(())
    }
}

impl MultiThreadSchedulerLocking for WeftTarget<'_> {
    fn set_resume_action_scheduler_lock(&mut self) -> Result<(), Self::Error> {
        self.locked = true;
        Ok(())
    }
}

impl Breakpoints for WeftTarget<'_> {
    fn support_sw_breakpoint(&mut self) -> Option<SwBreakpointOps<'_, Self>> {
        Some(self)
    }
    fn support_hw_breakpoint(&mut self) -> Option<HwBreakpointOps<'_, Self>> {
        Some(self)
    }
    fn support_hw_watchpoint(&mut self) -> Option<HwWatchpointOps<'_, Self>> {
        Some(self)
    }
}

impl SwBreakpoint for WeftTarget<'_> {
    fn add_sw_breakpoint(&mut self, addr: u32, _kind: usize) -> TargetResult<bool, Self> {
        if !self.breakpoints.contains(&addr) {
            self.breakpoints.push(addr);
        }
        Ok(true)
    }
    fn remove_sw_breakpoint(&mut self, addr: u32, _kind: usize) -> TargetResult<bool, Self> {
        let n = self.breakpoints.len();
        self.breakpoints.retain(|a| *a != addr);
        Ok(self.breakpoints.len() != n)
    }
}

impl HwBreakpoint for WeftTarget<'_> {
    fn add_hw_breakpoint(&mut self, addr: u32, kind: usize) -> TargetResult<bool, Self> {
        self.add_sw_breakpoint(addr, kind)
    }
    fn remove_hw_breakpoint(&mut self, addr: u32, kind: usize) -> TargetResult<bool, Self> {
        self.remove_sw_breakpoint(addr, kind)
    }
}

impl HwWatchpoint for WeftTarget<'_> {
    fn add_hw_watchpoint(
        &mut self,
        addr: u32,
        len: u32,
        kind: WatchKind,
    ) -> TargetResult<bool, Self> {
        self.watch.borrow_mut().points.push((addr, len, kind));
        Ok(true)
    }
    fn remove_hw_watchpoint(
        &mut self,
        addr: u32,
        len: u32,
        kind: WatchKind,
    ) -> TargetResult<bool, Self> {
        let mut w = self.watch.borrow_mut();
        match w.points.iter().position(|p| *p == (addr, len, kind)) {
            Some(i) => {
                w.points.remove(i);
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

impl ThreadExtraInfo for WeftTarget<'_> {
    fn thread_extra_info(&self, tid: Tid, buf: &mut [u8]) -> Result<usize, Self::Error> {
        let Some((c, w)) = self.warp_of(tid) else {
            return Ok(0);
        };
        let warp = &self.m.cores[c].warps[w];
        let s = format!(
            "core {c} warp {w} {} mask {:#x}",
            weft_view::state::warp_state(self.m, c, w),
            warp.mask
        );
        let n = s.len().min(buf.len());
        buf[..n].copy_from_slice(&s.as_bytes()[..n]);
        Ok(n)
    }
}

impl gdbstub::target::ext::monitor_cmd::MonitorCmd for WeftTarget<'_> {
    fn handle_monitor_cmd(
        &mut self,
        cmd: &[u8],
        mut out: gdbstub::target::ext::monitor_cmd::ConsoleOutput<'_>,
    ) -> Result<(), Self::Error> {
        let text = monitor::command(self.m, &mut self.focus, &String::from_utf8_lossy(cmd));
        gdbstub::output!(out, "{text}");
        Ok(())
    }
}

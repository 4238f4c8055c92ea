//! The device side of one open device: a thread that owns the weft machine (functional, or
//! driven by the timing model) and does what the host asks of it, one request at a time —
//! memory reads and writes, DCR accesses, kernel launches, counter reads. It plays the part
//! of Vortex's command processor: queues and synchronous calls alike send it closures and
//! wait for their answers, so device work is serialised in the order it arrives.
//!
//! A launch runs in slices of cycles; between slices the thread looks at the device's stop
//! flag (set when the host closes the device), so a kernel that never ends cannot keep a
//! closing host waiting.

use crate::config::PerfScope;
use crate::error::{VxError, VxResult};
use crate::perf_mem::{MemCounters, MPM_CLASS_MEM};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;
use weft_device::{Device as _, RunEnd};
use weft_simt::vortex::kmu::{self, KmuDcrs};
use weft_simt::{Dxa, Machine, Program};
use weft_timing::{MachineConfig, TimingModel};

/// Where DRAM (and so a kernel image) starts.
const DRAM_BASE: u32 = 0x8000_0000;
/// Cycles a launch runs between looks at the stop flag.
const SLICE: u64 = 1 << 22;
/// Vortex's base DCRs: cache flush and the performance-counter value port.
pub const DCR_CACHE_FLUSH: u32 = 0x000;
pub const DCR_MPM_VALUE: u32 = 0x001;
/// Vortex's machine performance-monitor counters: `mcycle` (0xB00) … 0xB1F.
pub const MPM_BASE: u32 = 0xB00;
/// `VX_DCR_MPM_CLASS_DXA`: the counter class of the DXA copy engine.
const MPM_CLASS_DXA: u32 = 6;

/// A request to the device thread.
type Job = Box<dyn FnOnce(&mut Engine) + Send>;

/// What the device thread owns.
pub struct Engine {
    pub m: Machine,
    /// The KMU's registers as the host last wrote them.
    pub dcrs: KmuDcrs,
    /// The host wrote `KERNEL_ENTRY` itself (`vx_start` then keeps its choice).
    pub host_entry: bool,
    timing: Option<TimingModel>,
    stop: Arc<AtomicBool>,
    /// Warp-instructions retired per core over every launch since the device opened (or
    /// the last launch, with [`PerfScope::Launch`]).
    instrs: Vec<u64>,
    /// Cycles of every launch since the device opened (or of the last).
    cycles: u64,
    /// The memory counters over every launch since the device opened (or of the last).
    mem: MemCounters,
    /// What the counters count.
    scope: PerfScope,
}

impl Engine {
    fn new(all: MachineConfig, scope: PerfScope, stop: Arc<AtomicBool>) -> VxResult<Engine> {
        let prog = Program {
            entry: DRAM_BASE,
            ..Program::default()
        };
        let cfg = all.machine;
        let timing = cfg.timing.then(|| TimingModel::new(&cfg, &all.timing));
        let cores = cfg.cores;
        let mem = MemCounters::read(timing.as_ref(), cores);
        let mut m = Machine::new(cfg, &prog).map_err(|e| VxError::Config(e.to_string()))?;
        // Vortex's `#slot: text` lines, on stdout after the host program's own output.
        m.set_console(Box::new(weft_runtime::host::StdoutAfterC));
        Ok(Engine {
            m,
            dcrs: KmuDcrs::default(),
            host_entry: false,
            timing,
            stop,
            mem,
            instrs: vec![0; cores],
            cycles: 0,
            scope,
        })
    }

    /// Copy `len` bytes of device memory at `addr` out.
    pub fn read(&self, addr: u32, len: usize) -> VxResult<Vec<u8>> {
        let mut out = vec![0u8; len];
        self.m
            .read_bytes(addr, &mut out)
            .map_err(|e| VxError::Memory(e.to_string()))?;
        Ok(out)
    }

    /// Copy host bytes to device memory at `addr`.
    pub fn write(&mut self, addr: u32, data: &[u8]) -> VxResult<()> {
        self.m
            .write_bytes(addr, data)
            .map_err(|e| VxError::Memory(e.to_string()))
    }

    /// Copy `len` bytes within device memory (the ranges may overlap).
    pub fn copy(&mut self, dst: u32, src: u32, len: usize) -> VxResult<()> {
        let tmp = self.read(src, len)?;
        self.write(dst, &tmp)
    }

    /// Write a device configuration register: a KMU register, a DXA descriptor's, or a base
    /// one (cache flush, which has nothing to do in weft's coherent memory).
    pub fn dcr_write(&mut self, addr: u32, value: u32) -> VxResult<()> {
        match addr {
            DCR_CACHE_FLUSH => Ok(()),
            a if (kmu::dcr::BEGIN..kmu::dcr::END).contains(&a) => {
                Ok(self.dcrs.write(addr, value)?)
            }
            a if Dxa::is_dcr(a) => self.m.dxa_dcr_write(a, value).map_err(VxError::Invalid),
            _ => Err(VxError::NotSupported(format!("DCR {addr:#05x}"))),
        }
    }

    /// Read a device configuration register. The performance-counter port answers the
    /// counter its tag names as Vortex's `vx_mpm_query` builds it: bits 15:0 the core, bits
    /// 21:16 the counter (32 and up: the high half), bits 31:22 the counter class.
    pub fn dcr_read(&self, addr: u32, tag: u32) -> VxResult<u32> {
        match addr {
            DCR_CACHE_FLUSH => Ok(0),
            DCR_MPM_VALUE => {
                let core = tag & 0xffff;
                let id = (tag >> 16) & 0x3f;
                let v = match tag >> 22 {
                    MPM_CLASS_DXA => self.mpm_dxa(MPM_BASE + (id & 31)),
                    MPM_CLASS_MEM if core as usize >= self.instrs.len() => {
                        return Err(VxError::Invalid(format!("core {core}")))
                    }
                    MPM_CLASS_MEM => self.mem.value(MPM_BASE + (id & 31), core as usize),
                    _ => self.mpm(MPM_BASE + (id & 31), core)?,
                };
                Ok(if id >= 32 { (v >> 32) as u32 } else { v as u32 })
            }
            a if Dxa::is_dcr(a) => self.m.dxa_dcr_read(a).map_err(VxError::Invalid),
            _ => Ok(self.dcrs.read(addr)?),
        }
    }

    /// A performance counter of a core, summed over every launch since the device opened (or
    /// of the last launch, with [`PerfScope::Launch`]):
    /// `mcycle` (0xB00) and `minstret` (0xB02); the others read 0 (weft keeps no such state
    /// for Vortex's classes).
    pub fn mpm(&self, addr: u32, core: u32) -> VxResult<u64> {
        let c = core as usize;
        if c >= self.instrs.len() {
            return Err(VxError::Invalid(format!("core {core}")));
        }
        Ok(match addr {
            0xB00 => self.cycles,
            0xB02 => self.instrs[c],
            0xB01 | 0xB03..=0xB1F => 0,
            _ => return Err(VxError::Invalid(format!("counter {addr:#x}"))),
        })
    }

    /// A counter of Vortex's DXA class (`VX_DCR_MPM_CLASS_DXA`): the copy engine's, since
    /// the device opened, the same on every core (as SimX's, per cluster): copies (0xB03),
    /// global lines read (0xB04), reads saved (0xB05), local-memory writes (0xB06), cycles
    /// (0xB07); the others read 0.
    pub fn mpm_dxa(&self, addr: u32) -> u64 {
        let s = self.m.dxa_stats();
        match addr {
            0xB03 => s.transfers,
            0xB04 => s.gmem_reads,
            0xB05 => s.gmem_dedup,
            0xB06 => s.lmem_writes,
            0xB07 => s.total_latency,
            _ => 0,
        }
    }

    /// The memory counters (Vortex's class 2) over the launches [`Engine::mpm`] counts.
    pub fn memory_counters(&self) -> &MemCounters {
        &self.mem
    }

    /// Kernel launches run since the device opened.
    pub fn launches(&self) -> usize {
        self.m.launches_begun()
    }

    /// Cores of the machine.
    pub fn cores(&self) -> usize {
        self.instrs.len()
    }

    /// Launch what the KMU registers hold and run it to its end.
    pub fn launch(&mut self) -> VxResult<()> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(VxError::Closed);
        }
        let t0 = self.m.cycle;
        // the cores' counts before the launch: warps keep theirs across launches
        let i0: Vec<u64> = self.m.cores.iter().map(|c| c.instret()).collect();
        let mem0 = MemCounters::read(self.timing.as_ref(), i0.len());
        self.m.launch(&self.dcrs)?;
        if let Some(t) = &mut self.timing {
            t.new_launch();
        }
        let bound = self.m.cfg.cycle_bound();
        let end = loop {
            let until = self.m.cycle.saturating_add(SLICE).min(bound);
            let end = match &mut self.timing {
                Some(t) => t.run(&mut self.m, until),
                None => self.m.run_until(until),
            };
            match end {
                RunEnd::CycleLimit(c) if c < bound => {
                    if self.stop.load(Ordering::Relaxed) {
                        self.count(t0, &i0, &mem0);
                        return Err(VxError::Closed);
                    }
                }
                e => break e,
            }
        };
        self.count(t0, &i0, &mem0);
        match end {
            RunEnd::Exit(_) | RunEnd::AllHalted => Ok(()),
            RunEnd::Fault(f) => {
                let at = self
                    .m
                    .symbolize(f.pc)
                    .map(|s| format!(" ({s})"))
                    .unwrap_or_default();
                Err(VxError::Run(format!("{f}{at}")))
            }
            RunEnd::CycleLimit(c) => Err(VxError::Run(format!(
                "the cycle bound ({c} cycles) was reached"
            ))),
            RunEnd::Deadlock(why) => Err(VxError::Run(format!("deadlock: {why}"))),
            RunEnd::NoExit => Err(VxError::Run("no exit".into())),
        }
    }

    /// Add a launch's cycles (from cycle `t0`), instructions (from the cores' counts `i0`)
    /// and memory counts (from `mem0`), after clearing the counts with [`PerfScope::Launch`].
    fn count(&mut self, t0: u64, i0: &[u64], mem0: &MemCounters) {
        let now = MemCounters::read(self.timing.as_ref(), i0.len());
        if self.scope == PerfScope::Launch {
            self.cycles = 0;
            self.instrs.fill(0);
            self.mem = now.since(mem0);
        } else {
            self.mem = now;
        }
        self.cycles += self.m.cycle - t0;
        for ((n, c), before) in self.instrs.iter_mut().zip(&self.m.cores).zip(i0) {
            *n += c.instret() - before;
        }
    }
}

/// The host's end of a device thread.
pub struct EngineHandle {
    tx: Option<mpsc::Sender<Job>>,
    thread: Option<JoinHandle<()>>,
    stop: Arc<AtomicBool>,
}

impl EngineHandle {
    /// Start a device thread with a machine of shape `cfg`, its counters counting `scope`.
    pub fn start(cfg: MachineConfig, scope: PerfScope) -> VxResult<EngineHandle> {
        let (tx, rx) = mpsc::channel::<Job>();
        let (ready_tx, ready_rx) = mpsc::channel::<VxResult<()>>();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::Builder::new()
            .name("weft-vortex-device".into())
            .stack_size(16 << 20)
            .spawn(move || {
                let mut e = match Engine::new(cfg, scope, flag) {
                    Ok(e) => e,
                    Err(err) => {
                        let _ = ready_tx.send(Err(err));
                        return;
                    }
                };
                let _ = ready_tx.send(Ok(()));
                while let Ok(job) = rx.recv() {
                    // A panic in the model must not take the host process down: the
                    // request's caller sees its answer channel close (an internal error).
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&mut e)));
                    if r.is_err() {
                        eprintln!("libvortex (weft): internal error in the device thread");
                    }
                }
            })
            .map_err(|e| VxError::Internal(format!("cannot start the device thread: {e}")))?;
        let handle = EngineHandle {
            tx: Some(tx),
            thread: Some(thread),
            stop,
        };
        match ready_rx.recv() {
            Ok(Ok(())) => Ok(handle),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(VxError::Internal("the device thread ended".into())),
        }
    }

    /// Run `f` on the device thread and wait for its answer.
    pub fn call<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Engine) -> VxResult<R> + Send + 'static,
    ) -> VxResult<R> {
        let (rtx, rrx) = mpsc::sync_channel(1);
        let tx = self
            .tx
            .as_ref()
            .ok_or_else(|| VxError::Internal("the device thread is gone".into()))?;
        tx.send(Box::new(move |e: &mut Engine| {
            let _ = rtx.send(f(e));
        }))
        .map_err(|_| VxError::Internal("the device thread is gone".into()))?;
        rrx.recv()
            .map_err(|_| VxError::Internal("the device thread ended".into()))?
    }

    /// Stop the kernel that runs now, and refuse later launches (the device is closing).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Drop for EngineHandle {
    fn drop(&mut self) {
        self.stop();
        drop(self.tx.take());
        if let Some(t) = self.thread.take() {
            // The last holder of a device is never a request on its own thread (the queue
            // that sent it still holds the device), but a join of oneself must not happen.
            if t.thread().id() != std::thread::current().id() {
                let _ = t.join();
            }
        }
    }
}

//! A context's device: a thread that owns the weft machine (the functional model, or the
//! timing model driving it, through weft-runtime's [`Backend`]) and does the device work the
//! queues send it, one request at a time: memory reads, writes and copies, and kernel
//! launches. A launch loads the kernel's program into memory if another one is there, writes
//! the argument block and the runtime's launch mailbox, restarts the cores and runs them to
//! the end, in slices of cycles between which it looks at the context's stop flag.
//!
//! Device memory: the program image, the lanes' stacks and the device's heap sit at the
//! bottom of DRAM (at most [`Layout::device_end`]); buffers are allocated above it.

use crate::error::{ClError, ClResult};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use weft_device::RunEnd;
use weft_runtime::{Backend, Dim3, FunctionalBackend, TimingBackend};
use weft_simt::{Config, Machine, Program};
use weft_timing::MachineConfig;

/// Where DRAM starts.
pub const DRAM_BASE: u32 = 0x8000_0000;
/// The largest program image (text, data and bss) a context takes.
pub const IMAGE_MAX: u32 = 32 << 20;
/// Cycles a launch runs between looks at the stop flag.
const SLICE: u64 = 1 << 22;

/// How a context's DRAM is divided.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// The end of the device's own memory (program, stacks, heap) and the start of buffers.
    pub device_end: u32,
    /// The end of DRAM.
    pub dram_end: u64,
}

impl Layout {
    /// The layout for machine `cfg` with programs of `stack_size` bytes of stack per lane.
    pub fn of(cfg: &Config, stack_size: u32) -> ClResult<Layout> {
        let harts = (cfg.cores * cfg.warps * cfg.lanes) as u64;
        let end = DRAM_BASE as u64
            + IMAGE_MAX as u64
            + harts * stack_size as u64
            + weft_runtime::device_heap_bytes(cfg.cores, stack_size);
        let dram_end = DRAM_BASE as u64 + cfg.dram_size as u64;
        if end + (16 << 20) > dram_end {
            return Err(ClError::new(
                crate::cl::err::DEVICE_NOT_AVAILABLE,
                format!(
                    "{} bytes of DRAM leave no room for buffers after the program, {harts} \
                     stacks and the device heap (raise dram_size)",
                    cfg.dram_size
                ),
            ));
        }
        Ok(Layout {
            device_end: end as u32,
            dram_end,
        })
    }
}

/// One kernel launch, as the engine runs it.
pub struct Launch {
    /// The program (its id, image, entry and mailbox address).
    pub program: Arc<LoadedProgram>,
    /// The launch wrapper's address.
    pub kernel: u32,
    /// The argument block's bytes (header first).
    pub args: Vec<u8>,
    /// Where to put it.
    pub args_addr: u32,
    pub grid: Dim3,
    pub block: Dim3,
    /// Shared-memory bytes per block.
    pub shared: u32,
}

/// A built program as the engine loads it.
pub struct LoadedProgram {
    /// Unique per built program.
    pub id: u64,
    pub image: Program,
    pub entry: u32,
    pub mailbox: u32,
}

/// A request to the device thread.
type Job = Box<dyn FnOnce(&mut Engine) + Send>;

/// What the device thread owns.
pub struct Engine {
    backend: Box<dyn Backend>,
    loaded: Option<u64>,
    layout: Layout,
    stop: Arc<AtomicBool>,
    /// The most cycles one launch may run.
    bound: u64,
}

fn internal(e: impl std::fmt::Display) -> ClError {
    ClError::new(crate::cl::err::OUT_OF_RESOURCES, e.to_string())
}

impl Engine {
    fn new(all: MachineConfig, layout: Layout, stop: Arc<AtomicBool>) -> ClResult<Engine> {
        let MachineConfig {
            machine: cfg,
            timing: tcfg,
        } = all;
        let prog = Program {
            entry: DRAM_BASE,
            ..Program::default()
        };
        let timing = cfg.timing;
        let bound = cfg.cycle_bound();
        let m = Machine::new(cfg, &prog).map_err(internal)?;
        let mut backend: Box<dyn Backend> = if timing {
            Box::new(TimingBackend::new(m, &tcfg))
        } else {
            Box::new(FunctionalBackend::new(m))
        };
        backend.set_console(Box::new(weft_runtime::host::StdoutAfterC));
        Ok(Engine {
            backend,
            loaded: None,
            layout,
            stop,
            bound,
        })
    }

    /// Device bytes at `addr`.
    pub fn read(&self, addr: u32, out: &mut [u8]) -> ClResult<()> {
        self.backend.read_bytes(addr, out).map_err(internal)
    }

    /// Store `data` at `addr`.
    pub fn write(&mut self, addr: u32, data: &[u8]) -> ClResult<()> {
        self.backend.write_bytes(addr, data).map_err(internal)
    }

    /// Copy `len` bytes within device memory.
    pub fn copy(&mut self, dst: u32, src: u32, len: usize) -> ClResult<()> {
        let mut tmp = vec![0u8; len];
        self.read(src, &mut tmp)?;
        self.write(dst, &tmp)
    }

    /// The device's cycle count (all launches so far).
    pub fn cycles(&self) -> u64 {
        self.backend.cycles()
    }

    /// The machine's statistics (`weft run --stats-json`'s keys).
    pub fn stats(&self) -> serde_json::Value {
        self.backend.stats_json()
    }

    /// Run a launch to its end: its first and last cycle.
    pub fn launch(&mut self, l: &Launch) -> ClResult<(u64, u64)> {
        if self.loaded != Some(l.program.id) {
            self.backend
                .load_module(&l.program.image)
                .map_err(internal)?;
            self.loaded = Some(l.program.id);
        }
        self.write(l.args_addr, &l.args)?;
        let rec = weft_runtime::mailbox_record(
            l.kernel,
            l.args_addr,
            l.grid,
            l.block,
            l.shared,
            self.layout.device_end,
        );
        self.write(l.program.mailbox, &rec)?;
        self.backend.restart(l.program.entry).map_err(internal)?;
        let start = self.backend.cycles();
        let limit = start.saturating_add(self.bound);
        let end = loop {
            let until = self.backend.cycles().saturating_add(SLICE).min(limit);
            let weft_device::Stop::End(end) = self.backend.run(until) else {
                return Err(internal("the device stopped unexpectedly"));
            };
            match end {
                RunEnd::CycleLimit(c) if c < limit => {
                    if self.stop.load(Ordering::Relaxed) {
                        return Err(internal("the context was released during a launch"));
                    }
                }
                e => break e,
            }
        };
        let stop = self.backend.cycles();
        let fail = |why: String| {
            Err(ClError::new(
                crate::cl::err::OUT_OF_RESOURCES,
                format!("the kernel failed: {why}"),
            ))
        };
        match end {
            RunEnd::Exit(0) | RunEnd::AllHalted | RunEnd::NoExit => Ok((start, stop)),
            RunEnd::Exit(status) => fail(format!(
                "the device runtime stopped it with status {status}"
            )),
            RunEnd::Fault(f) => fail(format!("{f}")),
            RunEnd::Deadlock(d) => fail(format!("deadlock: {d}")),
            RunEnd::CycleLimit(_) => fail(format!(
                "it ran {} cycles, the bound (max_cycles in WEFT_CONFIG)",
                self.bound
            )),
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
    /// Start a device thread with a machine of shape `cfg`.
    pub fn start(cfg: MachineConfig, layout: Layout) -> ClResult<EngineHandle> {
        let (tx, rx) = mpsc::channel::<Job>();
        let (ready_tx, ready_rx) = mpsc::channel::<ClResult<()>>();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::Builder::new()
            .name("weft-opencl-device".into())
            .stack_size(16 << 20)
            .spawn(move || {
                let mut e = match Engine::new(cfg, layout, flag) {
                    Ok(e) => e,
                    Err(err) => {
                        let _ = ready_tx.send(Err(err));
                        return;
                    }
                };
                let _ = ready_tx.send(Ok(()));
                while let Ok(job) = rx.recv() {
                    // A panic in the model must not take the host process down: the
                    // request's caller sees its answer channel close.
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&mut e)));
                    if r.is_err() {
                        eprintln!("weft OpenCL: internal error in the device thread");
                    }
                }
            })
            .map_err(|e| internal(format!("cannot start the device thread: {e}")))?;
        let handle = EngineHandle {
            tx: Some(tx),
            thread: Some(thread),
            stop,
        };
        match ready_rx.recv() {
            Ok(Ok(())) => Ok(handle),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(internal("the device thread ended")),
        }
    }

    /// Run `f` on the device thread and wait for its answer.
    pub fn call<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Engine) -> ClResult<R> + Send + 'static,
    ) -> ClResult<R> {
        let (rtx, rrx) = mpsc::sync_channel(1);
        let tx = self
            .tx
            .as_ref()
            .ok_or_else(|| internal("the device thread is gone"))?;
        tx.send(Box::new(move |e: &mut Engine| {
            let _ = rtx.send(f(e));
        }))
        .map_err(|_| internal("the device thread is gone"))?;
        rrx.recv()
            .map_err(|_| internal("the device thread ended during a request"))?
    }
}

impl Drop for EngineHandle {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        drop(self.tx.take());
        if let Some(t) = self.thread.take() {
            if t.thread().id() != std::thread::current().id() {
                let _ = t.join();
            }
        }
    }
}

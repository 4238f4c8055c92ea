//! weft-runtime: the host side of a weft GPU. Open a device with a kernel program, allocate
//! device buffers, copy data in and out, launch kernels over a grid **by name**, wait with a
//! cycle limit, read the console and the counters — several launches on one device keep its
//! memory. The same API runs over a [`Backend`]: the functional model
//! ([`FunctionalBackend`]), the cycle-level timing model ([`TimingBackend`], with
//! `DeviceConfig::timing` or [`BackendKind::Timing`]) or the RTL, weft's SystemVerilog core
//! under Verilator ([`RtlBackend`], [`BackendKind::Rtl`]: one core; Verilator 5 needed).
//!
//! ```no_run
//! use weft_runtime::{Args, Device, DeviceConfig, Dim3};
//! let mut d = Device::from_c(DeviceConfig::default(), &["vecadd.c".as_ref()]).unwrap();
//! let a = d.alloc_from(&[1u32, 2, 3]).unwrap();
//! let b = d.alloc_from(&[10u32, 20, 30]).unwrap();
//! let c = d.alloc(12).unwrap();
//! let args = Args::new().buffer(&a).buffer(&b).buffer(&c).push(3u32);
//! d.launch("vecadd", Dim3::x(1), Dim3::x(32), &args).unwrap();
//! d.wait(None).unwrap();
//! assert_eq!(d.read::<u32>(&c).unwrap(), vec![11, 22, 33]);
//! ```
//!
//! **The launch convention.** A kernel is `void name(void *args)` in a program built by `weft
//! cc` (mark it `WEFT_KERNEL` so the compiler keeps it). To launch, the host copies the
//! argument block into device memory, writes the runtime's `__weft_mailbox` record (kernel
//! address, argument pointer, grid, block, shared bytes), restarts the machine at its entry
//! and runs it: crt0 sets up every lane, the runtime's `main()` — the weak default, when the
//! program has none — performs the launch and returns. Host allocations live at the top of
//! DRAM, above the device's stacks, printf buffer and heap; they persist across launches, as
//! does initialised data (`.data`), while `.bss` is cleared by crt0 at every launch.
//!
//! **Several programs.** [`Device::load`] adds another program to the device; a launch names
//! its program in [`LaunchOptions`], and the device swaps that program's image in when
//! another one is resident ([`module`]). Buffers lie above every program's memory, so the
//! kernels of all of a device's programs work on the same buffers.
//!
//! **Recording a launch.** [`LaunchOptions::record`] keeps the launch's trace and its
//! `weft view` step-through page ([`Recording`], [`Device::recording`]).

pub mod alloc;
pub mod args;
pub mod backend;
pub mod compile;
pub mod host;
pub mod module;
pub mod record;

pub use args::{from_bytes, to_bytes, Args, Scalar};
pub use backend::{Backend, FunctionalBackend, RtlBackend, TimingBackend};
pub use module::ModuleId;
pub use record::{Recording, TraceStep};
pub use weft_device::FaultInfo;
use weft_device::{RunEnd, Stop};
use weft_simt::{Config, Machine};
use weft_timing::MachineConfig;

use std::path::Path;
use std::time::{Duration, Instant};
use thiserror::Error;

/// Grid and block extents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim3 {
    /// x extent.
    pub x: u32,
    /// y extent.
    pub y: u32,
    /// z extent.
    pub z: u32,
}

impl Dim3 {
    /// Three extents.
    pub fn new(x: u32, y: u32, z: u32) -> Dim3 {
        Dim3 { x, y, z }
    }
    /// One dimension.
    pub fn x(x: u32) -> Dim3 {
        Dim3 { x, y: 1, z: 1 }
    }
}

/// Which machine runs the kernels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BackendKind {
    /// The functional model (one warp-instruction per core per cycle).
    #[default]
    Functional,
    /// The cycle-level timing model over the functional model: the same results, with its
    /// cycle counts and counters (the same as `timing: true`).
    Timing,
    /// The RTL: weft's SystemVerilog core (`rtl/`) under Verilator, one core of the
    /// configured warps, lanes and divergence-stack depth: the same results, with the RTL's
    /// clock cycles and counters. Needs Verilator 5 at run time (the model is built on first
    /// use, a minute or two, and kept in `target/rtl/`).
    Rtl,
}

impl BackendKind {
    /// A backend by name: `functional`, `timing` or `rtl`.
    pub fn parse(s: &str) -> Option<BackendKind> {
        match s {
            "functional" => Some(BackendKind::Functional),
            "timing" => Some(BackendKind::Timing),
            "rtl" => Some(BackendKind::Rtl),
            _ => None,
        }
    }
}

/// A device's shape and limits.
#[derive(Clone, Debug)]
pub struct DeviceConfig {
    /// Cores.
    pub cores: usize,
    /// Warps per core.
    pub warps: usize,
    /// Lanes per warp.
    pub lanes: usize,
    /// DRAM bytes.
    pub dram_size: u32,
    /// Run under the cycle-level timing model (`weft-timing`): the same results, and
    /// cycle counts and the timing counters in [`Device::stats`] (the same as `backend`
    /// [`BackendKind::Timing`]).
    pub timing: bool,
    /// The machine that runs the kernels (`backend = "functional" | "timing" | "rtl"` in the
    /// configuration TOML).
    pub backend: BackendKind,
    /// Any further machine configuration (TOML, as `weft run --config` reads: caches, units,
    /// scheduler, DRAM, …); the fields above override it.
    pub config_toml: Option<String>,
}

impl Default for DeviceConfig {
    fn default() -> Self {
        let c = Config::default();
        DeviceConfig {
            cores: c.cores,
            warps: c.warps,
            lanes: c.lanes,
            dram_size: c.dram_size,
            timing: false,
            backend: BackendKind::Functional,
            config_toml: None,
        }
    }
}

impl DeviceConfig {
    /// A device configuration from machine-configuration TOML (the keys `weft run --config`
    /// reads, `timing = true` included, and the runtime's own `backend = "functional" |
    /// "timing" | "rtl"`): shape, DRAM and the backend from the text, every other key kept
    /// for the machine.
    pub fn from_toml(text: &str) -> Result<DeviceConfig> {
        let bad = |e: String| RuntimeError::Load(format!("configuration: {e}"));
        let mut table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| bad(e.to_string()))?;
        let backend = match table.remove("backend") {
            None => BackendKind::Functional,
            Some(toml::Value::String(s)) => BackendKind::parse(&s).ok_or_else(|| {
                bad(format!(
                    "backend = \"{s}\": expected \"functional\", \"timing\" or \"rtl\""
                ))
            })?,
            Some(v) => return Err(bad(format!("backend = {v}: expected a string"))),
        };
        let rest = toml::to_string(&table).map_err(|e| bad(e.to_string()))?;
        let c = MachineConfig::from_toml(&rest)
            .map_err(|e| bad(e.to_string()))?
            .machine;
        Ok(DeviceConfig {
            cores: c.cores,
            warps: c.warps,
            lanes: c.lanes,
            dram_size: c.dram_size,
            timing: c.timing || backend == BackendKind::Timing,
            backend,
            config_toml: Some(rest),
        })
    }

    /// The backend this configuration asks for (`timing: true` is the timing model).
    pub fn kind(&self) -> BackendKind {
        match self.backend {
            BackendKind::Functional if self.timing => BackendKind::Timing,
            b => b,
        }
    }
}

/// What went wrong, typed.
#[derive(Debug, Error)]
pub enum RuntimeError {
    /// No free block is large enough.
    #[error("out of device memory: {requested} bytes requested, the largest free block is {largest} bytes")]
    OutOfMemory {
        /// Bytes asked for.
        requested: u64,
        /// The largest free block.
        largest: u32,
    },
    /// A copy touched memory outside the buffer (or a buffer that was freed).
    #[error("bad device address: {len} bytes at {addr:#010x} are not inside an allocated buffer")]
    BadAddress {
        /// Start (the buffer's address plus the offset, which may lie past 4 GiB).
        addr: u64,
        /// Length.
        len: u64,
    },
    /// The program has no such kernel.
    #[error("no kernel named '{0}' in the program (is it marked WEFT_KERNEL?)")]
    NoSuchKernel(String),
    /// A kernel faulted: where and why.
    #[error("kernel fault: {0}")]
    KernelFault(FaultInfo),
    /// The kernel did not finish within the limit.
    #[error("timeout: the kernel was still running after {cycles} cycles")]
    Timeout {
        /// Cycles run.
        cycles: u64,
    },
    /// No warp could make progress.
    #[error("deadlock: {0}")]
    Deadlock(String),
    /// The device program stopped with a non-zero status (a runtime error such as a stack
    /// overflow; its message is in `output`).
    #[error("the kernel ended the run with status {status}: {output}")]
    KernelExit {
        /// The exit status.
        status: u32,
        /// Console output of the launch.
        output: String,
    },
    /// `wait` with no launch queued.
    #[error("nothing was launched")]
    NothingLaunched,
    /// The program or configuration could not be loaded.
    #[error("{0}")]
    Load(String),
}

/// Result of the runtime's operations.
pub type Result<T> = std::result::Result<T, RuntimeError>;

/// A device buffer: a block of device memory the host allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Buffer {
    /// Device address.
    pub addr: u32,
    /// Length in bytes.
    pub len: u32,
}

/// The mailbox's magic word ('EUAL', as in device/lib/runtime.c).
const MAILBOX_MAGIC: u32 = 0x4c41_5545;
/// The RTL backend for a configuration: one core; the shape, divergence-stack depth,
/// reconvergence mode and DRAM of the configuration (the timing model's keys do not apply).
fn rtl_backend(config: &Config, prog: &weft_simt::Program) -> Result<RtlBackend> {
    if config.cores != 1 {
        return Err(RuntimeError::Load(format!(
            "the RTL backend is one core (weft's SystemVerilog core); the configuration asks \
             for {} cores",
            config.cores
        )));
    }
    let shape = weft_rtl::Shape {
        warps: config.warps,
        lanes: config.lanes,
        depth: config.stack_depth,
    };
    weft_rtl::RtlDevice::new(shape, prog, config.reconv, config.dram_size)
        .map(RtlBackend::new)
        .map_err(|e| RuntimeError::Load(format!("the RTL backend: {e}")))
}

/// Cycles run between looks at the clock when a wait has a time limit.
const TIME_SLICE: u64 = 1 << 20;

/// Bytes the device keeps above its stacks for its heap: the printf buffer and malloc
/// (2 MiB), and the stacks of a 1,024-thread block larger than a core on every core (each of
/// its threads waits at a barrier on a stack of its own, `stack_size` bytes).
pub fn device_heap_bytes(cores: usize, stack_size: u32) -> u64 {
    (2 << 20) + cores as u64 * 1024 * stack_size as u64
}

/// A launch as the device runtime's `__weft_mailbox` record holds it (device/lib/runtime.c):
/// the kernel's address, the argument block's, the grid, the block, the shared bytes per
/// block and the end of the device's heap (where the host's memory begins).
pub fn mailbox_record(
    kernel: u32,
    args: u32,
    grid: Dim3,
    block: Dim3,
    shared_bytes: u32,
    heap_end: u32,
) -> Vec<u8> {
    let mut rec = Vec::with_capacity(44);
    for w in [
        MAILBOX_MAGIC,
        kernel,
        args,
        grid.x,
        grid.y,
        grid.z,
        block.x,
        block.y,
        block.z,
        shared_bytes,
        heap_end,
    ] {
        rec.extend_from_slice(&w.to_le_bytes());
    }
    rec
}

/// How to launch a kernel besides its grid, block and arguments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaunchOptions {
    /// The program the kernel is in (default: the one the device was opened with).
    pub module: ModuleId,
    /// Shared memory per block, bytes.
    pub shared_bytes: u32,
    /// Record the launch — its trace and its step-through page — keeping at most this many
    /// warp-instructions ([`Device::recording`]; the device runs on the interpreter from
    /// then on, see [`record`]).
    pub record: Option<usize>,
}

/// A queued launch, named by [`Device::launch_with`]'s answer (numbered from 0 in the order
/// the device queued them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaunchId(pub u64);

/// A launch waiting in the queue: its program, kernel (name and address), argument block
/// (already on the device), the grid, block and shared bytes of its mailbox record, and
/// whether to record it.
struct Launch {
    id: LaunchId,
    module: usize,
    name: String,
    kernel: u32,
    args: Buffer,
    grid: Dim3,
    block: Dim3,
    shared_bytes: u32,
    record: Option<usize>,
}

/// A weft device with its kernel programs loaded.
pub struct Device {
    backend: Box<dyn Backend>,
    /// The programs loaded, [`ModuleId::MAIN`] first.
    modules: Vec<module::Module>,
    /// The program whose image is in memory now.
    resident: usize,
    /// The machine's lanes and cores (a loaded program's stacks and heap take room for them).
    harts: u64,
    cores: usize,
    heap: alloc::Allocator,
    /// Where the device's own memory ends and the host's allocations begin: above the
    /// device region of every loaded program.
    device_end: u32,
    dram_end: u64,
    /// Launches not run yet, oldest first: [`Device::wait`] runs them in order.
    queue: std::collections::VecDeque<Launch>,
    next_launch: u64,
    output: Vec<u8>,
    /// Each launch run: its first cycle and its kernel's name (a program swapped out since
    /// leaves the machine no symbol for it).
    runs: Vec<(u64, String)>,
    /// The recorder attached to the machine once a launch asked to be recorded.
    recorder: Option<record::Slot>,
    recordings: std::collections::HashMap<LaunchId, Recording>,
}

impl Device {
    /// Open a device of shape `cfg` running the kernel program `elf` (built by `weft cc`).
    pub fn new(cfg: DeviceConfig, elf: &[u8]) -> Result<Device> {
        let harts = (cfg.cores * cfg.warps * cfg.lanes) as u64;
        let main = module::Module::from_elf(elf, harts, cfg.cores)?;
        let prog = &main.prog;
        let base = match &cfg.config_toml {
            Some(text) => MachineConfig::from_toml(text)
                .map_err(|e| RuntimeError::Load(format!("configuration: {e}")))?,
            None => MachineConfig::default(),
        };
        let kind = cfg.kind();
        let config = Config {
            cores: cfg.cores,
            warps: cfg.warps,
            lanes: cfg.lanes,
            dram_size: cfg.dram_size,
            timing: kind == BackendKind::Timing,
            ..base.machine
        };
        config
            .validate()
            .map_err(|e| RuntimeError::Load(format!("configuration: {e}")))?;
        let device_end = main.end;
        let dram_end = weft_mem::DRAM_BASE as u64 + cfg.dram_size as u64;
        if device_end > dram_end {
            return Err(RuntimeError::Load(format!(
                "the program, {harts} lanes' stacks and the device heap take {:#x} bytes, more \
                 than the {:#x} bytes of DRAM",
                device_end - weft_mem::DRAM_BASE as u64,
                cfg.dram_size
            )));
        }
        let backend: Box<dyn Backend> = match kind {
            BackendKind::Rtl => Box::new(rtl_backend(&config, prog)?),
            BackendKind::Timing => Box::new(TimingBackend::new(
                Machine::new(config, prog).map_err(|e| RuntimeError::Load(e.to_string()))?,
                &base.timing,
            )),
            BackendKind::Functional => Box::new(FunctionalBackend::new(
                Machine::new(config, prog).map_err(|e| RuntimeError::Load(e.to_string()))?,
            )),
        };
        Ok(Device {
            backend,
            modules: vec![main],
            resident: 0,
            harts,
            cores: cfg.cores,
            heap: alloc::Allocator::new(device_end as u32, dram_end.min(u32::MAX as u64) as u32),
            device_end: device_end as u32,
            dram_end,
            queue: std::collections::VecDeque::new(),
            next_launch: 0,
            runs: Vec::new(),
            output: Vec::new(),
            recorder: None,
            recordings: std::collections::HashMap::new(),
        })
    }

    /// Build C sources with `weft cc` (defaults: -O2, the reconvergence table) and open a
    /// device running them.
    pub fn from_c(cfg: DeviceConfig, sources: &[&Path]) -> Result<Device> {
        Device::new(cfg, &build_c(sources)?)
    }

    /// Load another kernel program (built by `weft cc`) onto the device: its kernels are
    /// launched with [`LaunchOptions::module`] set to the answer, on the same buffers as the
    /// device's other programs ([`module`] says how they share the device). The program's
    /// image, stacks and heap must fit below the host's buffers: a program larger than any
    /// loaded so far takes the free memory above them, which fails (with a `Load` error)
    /// once buffers lie there — load a device's programs before allocating its buffers. The
    /// RTL backend runs only the program it was opened with.
    pub fn load(&mut self, elf: &[u8]) -> Result<ModuleId> {
        if self.backend.machine().is_none() {
            return Err(RuntimeError::Load(
                "the RTL backend runs the one program it was opened with (no second module)".into(),
            ));
        }
        let m = module::Module::from_elf(elf, self.harts, self.cores)?;
        if m.end > self.device_end as u64 {
            let fits = m.end <= self.dram_end && self.heap.raise_floor(m.end as u32);
            if !fits {
                return Err(RuntimeError::Load(format!(
                    "the program, its stacks and heap need device memory up to {:#x}, but the \
                     host's memory begins at {:#x} and {}: load a device's programs before \
                     allocating its buffers",
                    m.end,
                    self.device_end,
                    if m.end > self.dram_end {
                        format!("DRAM ends at {:#x}", self.dram_end)
                    } else {
                        "buffers lie in the way".to_string()
                    }
                )));
            }
            self.device_end = m.end as u32;
        }
        self.modules.push(m);
        Ok(ModuleId(self.modules.len() - 1))
    }

    /// Build C sources with `weft cc` (as [`Device::from_c`]) and load them as another
    /// program ([`Device::load`]).
    pub fn load_c(&mut self, sources: &[&Path]) -> Result<ModuleId> {
        self.load(&build_c(sources)?)
    }

    /// Programs loaded, the one the device was opened with included.
    pub fn modules(&self) -> usize {
        self.modules.len()
    }

    fn module(&self, m: ModuleId) -> Result<&module::Module> {
        self.modules.get(m.0).ok_or_else(|| {
            RuntimeError::Load(format!(
                "no program #{} on this device (it has {})",
                m.0,
                self.modules.len()
            ))
        })
    }

    /// Make program `k` the resident one (see [`module`]): the resident program's
    /// initialised data kept, `k`'s image loaded and its code decoded afresh.
    fn make_resident(&mut self, k: usize) -> Result<()> {
        if k == self.resident {
            return Ok(());
        }
        let backend = &self.backend;
        self.modules[self.resident].save_data(|addr, out| {
            backend
                .read_bytes(addr, out)
                .map_err(|e| RuntimeError::Load(format!("saving a program's data: {e}")))
        })?;
        let image = self.modules[k].image_over(&self.modules[self.resident]);
        self.backend.load_module(&image)?;
        // Traces and fault messages name the resident program's symbols, and only those.
        if let Some(m) = self.backend.machine_mut() {
            m.symbols = image.symbols;
        }
        self.resident = k;
        Ok(())
    }
}

/// Build C sources with `weft cc` (defaults: -O2, the reconvergence table): the ELF's bytes.
fn build_c(sources: &[&Path]) -> Result<Vec<u8>> {
    let dir = tempfile::Builder::new()
        .prefix("weft-runtime-")
        .tempdir()
        .map_err(|e| RuntimeError::Load(format!("temporary directory: {e}")))?;
    let out = dir.path().join("kernels.elf");
    let o = weft_cc::Options {
        inputs: sources.iter().map(|p| p.to_path_buf()).collect(),
        output: out.clone(),
        ..weft_cc::Options::default()
    };
    let r = weft_cc::build(&o).map_err(|e| RuntimeError::Load(e.to_string()));
    r.and_then(|()| std::fs::read(&out).map_err(|e| RuntimeError::Load(e.to_string())))
}

impl Device {
    /// A buffer of `bytes` bytes (contents unspecified).
    pub fn alloc(&mut self, bytes: u32) -> Result<Buffer> {
        match self.heap.alloc(bytes) {
            Some(addr) => Ok(Buffer { addr, len: bytes }),
            None => Err(RuntimeError::OutOfMemory {
                requested: bytes as u64,
                largest: self.heap.largest_free(),
            }),
        }
    }

    /// Could a buffer of `bytes` bytes be allocated now? `OutOfMemory` if not (checked
    /// before a host API reads or allocates that many bytes).
    pub fn check_alloc(&self, bytes: usize) -> Result<()> {
        let largest = self.heap.largest_free();
        if bytes > largest as usize {
            return Err(RuntimeError::OutOfMemory {
                requested: bytes as u64,
                largest,
            });
        }
        Ok(())
    }

    /// A buffer holding `data`.
    pub fn alloc_from<T: Scalar>(&mut self, data: &[T]) -> Result<Buffer> {
        let bytes = to_bytes(data);
        let len = u32::try_from(bytes.len()).map_err(|_| RuntimeError::OutOfMemory {
            requested: bytes.len() as u64,
            largest: self.heap.largest_free(),
        })?;
        let b = self.alloc(len)?;
        self.write_bytes(&b, 0, &bytes)?;
        Ok(b)
    }

    /// Give a buffer back.
    pub fn free(&mut self, b: Buffer) -> Result<()> {
        if self.heap.free(b.addr) {
            Ok(())
        } else {
            Err(RuntimeError::BadAddress {
                addr: b.addr.into(),
                len: b.len as u64,
            })
        }
    }

    /// The device address of `len` bytes at `offset` in buffer `b`, if they all lie inside
    /// it (and it is allocated); else `BadAddress`. Every copy checks this first, before it
    /// allocates or touches anything, so a host API can check a length the same way before
    /// it makes a slice of it.
    pub fn check_range(&self, b: &Buffer, offset: u32, len: usize) -> Result<u32> {
        let addr = b.addr as u64 + offset as u64;
        let inside = offset as u64 + len as u64 <= b.len as u64
            && addr <= u32::MAX as u64
            && u32::try_from(len).is_ok_and(|n| self.heap.block_of(addr as u32, n).is_some());
        if inside {
            Ok(addr as u32)
        } else {
            Err(RuntimeError::BadAddress {
                addr,
                len: len as u64,
            })
        }
    }

    /// Copy bytes into a buffer at `offset`.
    pub fn write_bytes(&mut self, b: &Buffer, offset: u32, data: &[u8]) -> Result<()> {
        let addr = self.check_range(b, offset, data.len())?;
        self.backend
            .write_bytes(addr, data)
            .map_err(|_| RuntimeError::BadAddress {
                addr: addr.into(),
                len: data.len() as u64,
            })
    }

    /// Copy a buffer's bytes from `offset` into `out`.
    pub fn read_bytes(&self, b: &Buffer, offset: u32, out: &mut [u8]) -> Result<()> {
        let addr = self.check_range(b, offset, out.len())?;
        self.backend
            .read_bytes(addr, out)
            .map_err(|_| RuntimeError::BadAddress {
                addr: addr.into(),
                len: out.len() as u64,
            })
    }

    /// Write values at the start of a buffer.
    pub fn write<T: Scalar>(&mut self, b: &Buffer, data: &[T]) -> Result<()> {
        self.write_bytes(b, 0, &to_bytes(data))
    }

    /// The whole buffer as values.
    pub fn read<T: Scalar>(&self, b: &Buffer) -> Result<Vec<T>> {
        let mut v = vec![0u8; b.len as usize];
        self.read_bytes(b, 0, &mut v)?;
        Ok(from_bytes(&v))
    }

    /// The device address of kernel `name` of the program the device was opened with.
    pub fn kernel(&self, name: &str) -> Result<u32> {
        self.kernel_in(ModuleId::MAIN, name)
    }

    /// The device address of kernel `name` of program `m`.
    pub fn kernel_in(&self, m: ModuleId, name: &str) -> Result<u32> {
        self.module(m)?.kernel(name)
    }

    /// Queue a launch of kernel `name` over `grid` blocks of `block` threads with argument
    /// block `args`; it runs at [`Device::wait`].
    pub fn launch(&mut self, name: &str, grid: Dim3, block: Dim3, args: &Args) -> Result<()> {
        self.launch_shared(name, grid, block, 0, args)
    }

    /// [`Device::launch`] with `shared_bytes` of shared memory per block.
    ///
    /// Nothing runs here: the launch joins the queue behind any launch already waiting (its
    /// argument block is copied to the device now), and [`Device::wait`] runs the queue in
    /// order. So a launch returns at once whatever the launches before it do, and the limits
    /// the host gives `wait` bound them all.
    pub fn launch_shared(
        &mut self,
        name: &str,
        grid: Dim3,
        block: Dim3,
        shared_bytes: u32,
        args: &Args,
    ) -> Result<()> {
        let o = LaunchOptions {
            shared_bytes,
            ..LaunchOptions::default()
        };
        self.launch_with(name, grid, block, args, &o).map(|_| ())
    }

    /// [`Device::launch`] with options: the kernel's program, shared memory, and whether to
    /// record the launch. Queued as [`Device::launch_shared`] says; the answer names the
    /// launch ([`Device::recording`]).
    pub fn launch_with(
        &mut self,
        name: &str,
        grid: Dim3,
        block: Dim3,
        args: &Args,
        o: &LaunchOptions,
    ) -> Result<LaunchId> {
        let kernel = self.kernel_in(o.module, name)?;
        if o.record.is_some() && self.backend.machine().is_none() {
            return Err(RuntimeError::Load(
                "the RTL backend does not record launches (use the functional or timing model)"
                    .into(),
            ));
        }
        let args = self.alloc_args(args.bytes())?;
        let id = LaunchId(self.next_launch);
        self.next_launch += 1;
        self.queue.push_back(Launch {
            id,
            module: o.module.0,
            name: name.to_string(),
            kernel,
            args,
            grid,
            block,
            shared_bytes: o.shared_bytes,
            record: o.record,
        });
        Ok(id)
    }

    /// The recording of launch `id`, once it has run, if it asked for one
    /// ([`LaunchOptions::record`]).
    pub fn recording(&self, id: LaunchId) -> Option<&Recording> {
        self.recordings.get(&id)
    }

    /// [`Device::recording`], taken from the device (which then forgets it).
    pub fn take_recording(&mut self, id: LaunchId) -> Option<Recording> {
        self.recordings.remove(&id)
    }

    /// A launch's argument block: a block of the runtime's own (no host call can free it or
    /// copy into it, even through a stale buffer whose address it reused) holding `bytes`.
    fn alloc_args(&mut self, bytes: &[u8]) -> Result<Buffer> {
        let oom = |heap: &alloc::Allocator| RuntimeError::OutOfMemory {
            requested: bytes.len() as u64,
            largest: heap.largest_free(),
        };
        let len = u32::try_from(bytes.len()).map_err(|_| oom(&self.heap))?;
        let addr = self
            .heap
            .alloc_as(len, alloc::Owner::Runtime)
            .ok_or_else(|| oom(&self.heap))?;
        if let Err(e) = self.backend.write_bytes(addr, bytes) {
            self.heap.free_as(addr, alloc::Owner::Runtime);
            return Err(RuntimeError::Load(e.to_string()));
        }
        Ok(Buffer { addr, len })
    }

    /// Launches queued and not yet run.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// Run the queued launches to their end, at most `max_cycles` cycles in all (None: no
    /// limit).
    pub fn wait(&mut self, max_cycles: Option<u64>) -> Result<()> {
        self.wait_for(max_cycles, None)
    }

    /// Run the queued launches in order to their end, stopping with
    /// [`RuntimeError::Timeout`] after `max_cycles` simulated cycles or `max_time` of host
    /// time in all, whichever comes first. The first launch that fails (a fault, a timeout,
    /// a deadlock, a non-zero exit) ends the wait with its error, and the launches queued
    /// behind it are dropped (their argument blocks freed): they may depend on its results.
    pub fn wait_for(&mut self, max_cycles: Option<u64>, max_time: Option<Duration>) -> Result<()> {
        if self.queue.is_empty() {
            return Err(RuntimeError::NothingLaunched);
        }
        let start = self.backend.cycles();
        let limit = max_cycles.map_or(u64::MAX, |c| start.saturating_add(c));
        let deadline = max_time.and_then(|t| Instant::now().checked_add(t));
        while let Some(l) = self.queue.pop_front() {
            let r = self.run_launch(&l, start, limit, deadline);
            self.heap.free_as(l.args.addr, alloc::Owner::Runtime);
            if let Err(e) = r {
                for dropped in std::mem::take(&mut self.queue) {
                    self.heap.free_as(dropped.args.addr, alloc::Owner::Runtime);
                }
                return Err(e);
            }
        }
        Ok(())
    }

    /// Start launch `l` (its program resident, its mailbox record, the cores restarted) and
    /// run it to its end or to cycle `limit` / the `deadline`; `start` is the wait's first
    /// cycle. A launch that asked to be recorded is recorded from its first instruction to
    /// its end, whatever the end.
    fn run_launch(
        &mut self,
        l: &Launch,
        start: u64,
        limit: u64,
        deadline: Option<Instant>,
    ) -> Result<()> {
        self.make_resident(l.module)?;
        let module = &self.modules[l.module];
        let rec = mailbox_record(
            l.kernel,
            l.args.addr,
            l.grid,
            l.block,
            l.shared_bytes,
            self.device_end,
        );
        let (mailbox, entry) = (module.mailbox, module.entry);
        self.backend
            .write_bytes(mailbox, &rec)
            .map_err(|e| RuntimeError::Load(e.to_string()))?;
        self.backend.restart(entry)?;
        self.runs.push((self.backend.cycles(), l.name.clone()));
        let recording = match (l.record, self.backend.machine_mut()) {
            (Some(max), Some(m)) => {
                let slot = self.recorder.get_or_insert_with(|| {
                    let s = record::Slot::default();
                    m.add_observer(Box::new(s.clone()));
                    s
                });
                slot.start(m, max);
                Some(slot.clone())
            }
            _ => None,
        };
        let r = self.run_started(start, limit, deadline);
        if let (Some(slot), Some(m)) = (recording, self.backend.machine()) {
            let module = &self.modules[l.module];
            let end = match &r {
                Ok(()) => "the launch ended".to_string(),
                Err(e) => e.to_string(),
            };
            let page = slot.finish(m, &l.name, end, &module.exec, module.lines.as_ref());
            if let Some(rec) = page {
                self.recordings.insert(l.id, rec);
            }
        }
        r
    }

    /// Run the started launch to its end or to cycle `limit` / the `deadline` (`start` is
    /// the wait's first cycle).
    fn run_started(&mut self, start: u64, limit: u64, deadline: Option<Instant>) -> Result<()> {
        // With a time limit, run in slices and look at the clock between them.
        let slice = if deadline.is_some() {
            TIME_SLICE
        } else {
            u64::MAX
        };
        let end = loop {
            let bound = limit.min(self.backend.cycles().saturating_add(slice));
            let Stop::End(end) = self.backend.run(bound) else {
                return Err(RuntimeError::Load(
                    "the backend stopped unexpectedly".into(),
                ));
            };
            match end {
                RunEnd::CycleLimit(c)
                    if c < limit && deadline.is_none_or(|d| Instant::now() < d) => {}
                e => break e,
            }
        };
        let out = self.backend.take_console();
        self.output.extend_from_slice(&out);
        match end {
            RunEnd::Exit(0) | RunEnd::AllHalted => Ok(()),
            RunEnd::Exit(status) => Err(RuntimeError::KernelExit {
                status,
                output: String::from_utf8_lossy(&out).trim_end().to_string(),
            }),
            RunEnd::Fault(f) => Err(RuntimeError::KernelFault(f)),
            RunEnd::CycleLimit(c) => Err(RuntimeError::Timeout { cycles: c - start }),
            RunEnd::Deadlock(d) => Err(RuntimeError::Deadlock(d)),
            RunEnd::NoExit => Ok(()),
        }
    }

    /// Console output of the launches so far (printf), taken.
    pub fn take_output(&mut self) -> String {
        String::from_utf8_lossy(&std::mem::take(&mut self.output)).into_owned()
    }

    /// Cycles run so far (all launches).
    pub fn cycles(&self) -> u64 {
        self.backend.cycles()
    }

    /// Statistics of all launches so far (the keys of `weft run --stats-json`).
    pub fn stats(&self) -> serde_json::Value {
        let mut v = self.backend.stats_json();
        // Each launch's kernel by the name it was launched by (its program may be gone).
        if let Some(ls) = v["launches"].as_array_mut() {
            for l in ls {
                let at = l["start_cycle"].as_u64().unwrap_or(0);
                let k = self.runs.partition_point(|&(c, _)| c <= at);
                if let Some((_, name)) = k.checked_sub(1).and_then(|k| self.runs.get(k)) {
                    l["kernel"] = name.clone().into();
                }
            }
        }
        v
    }

    /// Each launch's own counters so far, in order (see [`launch_entries`]).
    pub fn launch_stats(&self) -> Vec<serde_json::Value> {
        launch_entries(&self.stats())
    }
}

/// The kernel launches of a statistics object (`weft run --stats-json`, [`Device::stats`]):
/// each entry of its `launches` list — cycles, warp- and thread-instructions, SIMD
/// efficiency, divergences, memory, classes — with the timing model's share of that launch
/// (issue slots, stalls by reason, caches, DRAM) under `timing` when the run was timed.
pub fn launch_entries(stats: &serde_json::Value) -> Vec<serde_json::Value> {
    let timing = stats["timing"]["launches"].as_array();
    stats["launches"]
        .as_array()
        .map(|ls| {
            ls.iter()
                .enumerate()
                .map(|(k, l)| {
                    let mut l = l.clone();
                    if let Some(t) = timing.and_then(|t| t.get(k)) {
                        l["timing"] = t.clone();
                    }
                    l
                })
                .collect()
        })
        .unwrap_or_default()
}

//! One open device: its configuration, the memory the host hands out, the device thread that
//! owns the machine ([`crate::engine`]), and the state of the classic `vortex.h` API (its
//! default queue and the last `vx_start`), which Vortex also layers over the asynchronous
//! API.

use crate::config::{config_from_env, perf_scope_from_env, PerfScope};
use crate::engine::{Engine, EngineHandle};
use crate::error::{VxError, VxResult};
use crate::memory::{DeviceMemory, Region, HEAP_END, LINE, USER_BASE};
use crate::sync::lock;
use std::any::Any;
use std::sync::{Arc, Mutex, MutexGuard};
use weft_simt::Config;
use weft_timing::MachineConfig;

/// `VX_CAPS_*` ids (vortex2.h).
pub mod caps {
    pub const VERSION: u32 = 0x0;
    pub const NUM_THREADS: u32 = 0x1;
    pub const NUM_WARPS: u32 = 0x2;
    pub const NUM_CORES: u32 = 0x3;
    pub const CACHE_LINE_SIZE: u32 = 0x4;
    pub const GLOBAL_MEM_SIZE: u32 = 0x5;
    pub const LOCAL_MEM_SIZE: u32 = 0x6;
    pub const ISA_FLAGS: u32 = 0x7;
    pub const NUM_MEM_BANKS: u32 = 0x8;
    pub const MEM_BANK_SIZE: u32 = 0x9;
    pub const NUM_CLUSTERS: u32 = 0xA;
    pub const SOCKET_SIZE: u32 = 0xB;
    pub const ISSUE_WIDTH: u32 = 0xC;
    pub const VM_SUPPORT: u32 = 0xF;
    pub const VM_PINNED_SIZE: u32 = 0x10;
    pub const VM_PINNED_FREE: u32 = 0x11;
}

/// The version `VX_CAPS_VERSION` reports: Vortex v3's runtime.
const VERSION: u64 = 3;

/// `VX_CAPS_ISA_FLAGS`: RV32 (misa bits 31:30 = 1) with I, M, A, F, local memory, the
/// tensor core unit (`VX_ISA_EXT_TCU`, bit 32 + 9; docs/isa.md §9) and the DXA copy engine
/// (`VX_ISA_EXT_DXA`, bit 32 + 10; docs/vortex.md).
const ISA_FLAGS: u64 = (1 << 30)
    | (1 << 8)
    | (1 << 12)
    | (1 << 0)
    | (1 << 5)
    | (1 << (32 + 4))
    | (1 << (32 + 9))
    | (1 << (32 + 10));

/// An open device.
pub struct Device {
    pub cfg: Config,
    mem: Mutex<DeviceMemory>,
    /// Launch argument slots free for the next launch (`commands::with_args`).
    args_slots: Mutex<Vec<Region>>,
    engine: EngineHandle,
    /// The classic API's state (`api/legacy.rs` owns its type; kept here so that it lives
    /// and dies with the device).
    legacy: Mutex<Option<Box<dyn Any + Send + Sync>>>,
}

impl Device {
    /// Open a device configured from the environment (see [`config_from_env`] and
    /// [`perf_scope_from_env`]).
    pub fn open() -> VxResult<Arc<Device>> {
        let get = |k: &str| std::env::var(k).ok();
        Device::with_config_scope(config_from_env(get)?, perf_scope_from_env(get)?)
    }

    /// Open a device of shape `cfg` (Vortex profile; its timing sections time it when
    /// `cfg.machine.timing`), its counters counting every launch.
    pub fn with_config(cfg: MachineConfig) -> VxResult<Arc<Device>> {
        Device::with_config_scope(cfg, PerfScope::Device)
    }

    /// Open a device of shape `cfg` whose counters count `scope`.
    pub fn with_config_scope(cfg: MachineConfig, scope: PerfScope) -> VxResult<Arc<Device>> {
        let engine = EngineHandle::start(cfg.clone(), scope)?;
        Ok(Arc::new(Device {
            cfg: cfg.machine,
            mem: Mutex::new(DeviceMemory::default()),
            args_slots: Mutex::new(Vec::new()),
            engine,
            legacy: Mutex::new(None),
        }))
    }

    /// Run `f` on the device thread and wait for its answer.
    pub fn call<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Engine) -> VxResult<R> + Send + 'static,
    ) -> VxResult<R> {
        self.engine.call(f)
    }

    pub fn alloc(&self, size: u64) -> VxResult<Region> {
        lock(&self.mem).alloc(size)
    }

    pub fn reserve(&self, addr: u64, size: u64) -> VxResult<Region> {
        lock(&self.mem).reserve(addr, size)
    }

    pub fn free(&self, r: Region) -> VxResult<()> {
        lock(&self.mem).free(r)
    }

    /// A launch argument slot freed by an earlier launch (the last one given back first).
    pub(crate) fn take_args_slot(&self) -> Option<Region> {
        lock(&self.args_slots).pop()
    }

    /// A launch is done with its argument slot: the next launch takes it.
    pub(crate) fn give_args_slot(&self, r: Region) {
        lock(&self.args_slots).push(r)
    }

    /// Heap bytes free and in use.
    pub fn mem_info(&self) -> (u64, u64) {
        lock(&self.mem).info()
    }

    /// Device bytes at `addr`.
    pub fn read(&self, addr: u32, len: usize) -> VxResult<Vec<u8>> {
        self.call(move |e| e.read(addr, len))
    }

    /// Store `data` at `addr`.
    pub fn write(&self, addr: u32, data: Vec<u8>) -> VxResult<()> {
        self.call(move |e| e.write(addr, &data))
    }

    /// `vx_device_query`: what the configuration says; unknown ids are
    /// `VX_ERR_INVALID_VALUE`, as in Vortex.
    pub fn caps(&self, id: u32) -> VxResult<u64> {
        let c = &self.cfg;
        let heap = (HEAP_END - USER_BASE) as u64;
        Ok(match id {
            caps::VERSION => VERSION,
            caps::NUM_THREADS => c.lanes as u64,
            caps::NUM_WARPS => c.warps as u64,
            caps::NUM_CORES => c.cores as u64,
            caps::CACHE_LINE_SIZE => LINE as u64,
            caps::GLOBAL_MEM_SIZE => heap,
            caps::LOCAL_MEM_SIZE => c.local_mem_size as u64,
            caps::ISA_FLAGS => ISA_FLAGS,
            caps::NUM_MEM_BANKS => 1,
            caps::MEM_BANK_SIZE => heap,
            caps::NUM_CLUSTERS => 1,
            caps::SOCKET_SIZE => c.cores as u64,
            caps::ISSUE_WIDTH => 1,
            caps::VM_SUPPORT | caps::VM_PINNED_SIZE | caps::VM_PINNED_FREE => 0,
            _ => return Err(VxError::Invalid(format!("capability {id:#x}"))),
        })
    }

    /// The classic API's state slot (see `api/legacy.rs`).
    pub(crate) fn legacy_slot(&self) -> MutexGuard<'_, Option<Box<dyn Any + Send + Sync>>> {
        lock(&self.legacy)
    }

    /// `vx_dev_close`: stop a kernel that still runs (a launch never waited for), then
    /// [`Device::detach`].
    pub fn close(&self) {
        self.engine.stop();
        self.detach();
    }

    /// The program's last reference to the device went away: drop the classic API's queue
    /// (its worker ends once what it holds is done), which would otherwise keep the device
    /// alive (the queue holds the device), so the device goes once its other holders are
    /// done.
    pub fn detach(&self) {
        let state = lock(&self.legacy).take();
        drop(state);
    }

    /// The performance summary `vx_dump_perf` prints: Vortex's `PERF:` lines, with those
    /// of the counter class `VORTEX_PROFILING` names (as Vortex's runtime reads it).
    pub fn perf_text(&self) -> VxResult<String> {
        let class = match std::env::var("VORTEX_PROFILING") {
            Ok(v) => v.trim().parse().unwrap_or(u32::MAX),
            Err(_) => 0,
        };
        self.perf_text_for(class)
    }

    /// The performance summary with the lines of counter class `class`: 0 none, 2 the
    /// memory class (caches and DRAM, from the timing model); weft's libvortex prints no
    /// other class, and says so on stderr.
    pub fn perf_text_for(&self, class: u32) -> VxResult<String> {
        self.call(move |e| {
            let cores = e.cores();
            let mut text = String::new();
            let (mut instrs, cycles) = (0u64, e.mpm(0xB00, 0)?);
            let ipc = |i: u64| {
                if cycles == 0 {
                    0.0
                } else {
                    i as f64 / cycles as f64
                }
            };
            for c in 0..cores {
                let i = e.mpm(0xB02, c as u32)?;
                instrs += i;
                if cores > 1 {
                    text += &format!(
                        "PERF: core{c}: instrs={i}, cycles={cycles}, IPC={:.3}\n",
                        ipc(i)
                    );
                }
            }
            match class {
                0 => {}
                crate::perf_mem::MPM_CLASS_MEM => text += &e.memory_counters().lines(),
                _ => eprintln!(
                    "libvortex (weft): VORTEX_PROFILING: of the counter classes only 2 (memory) is printed"
                ),
            }
            // SimX resets its counters at each launch; weft's count every launch since the
            // device opened, and the line says so.
            let n = e.launches();
            text += &format!(
                "PERF: instrs={instrs}, cycles={cycles}, IPC={:.3} (cumulative: {n} launch{} since the device opened)\n",
                ipc(instrs),
                if n == 1 { "" } else { "es" }
            );
            Ok(text)
        })
    }
}

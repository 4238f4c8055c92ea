//! A context: the device's machine (its own device thread, [`crate::engine`]), the buffers
//! allocated in its DRAM, and the device time its events are stamped with.

use crate::engine::{EngineHandle, Layout};
use crate::error::{ClError, ClResult};
use crate::object::{lock, ClObj};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use weft_runtime::alloc::Allocator;
use weft_simt::Config;
use weft_timing::MachineConfig;

/// The stack per lane of the programs a context builds (weft cc's default).
pub const STACK_SIZE: u32 = weft_cc::DEFAULT_STACK_SIZE;

/// A context.
pub struct Context {
    /// The device's configuration.
    pub cfg: Config,
    /// How its DRAM is divided.
    pub layout: Layout,
    /// Its device thread.
    pub engine: EngineHandle,
    /// The buffers' memory.
    heap: Mutex<Allocator>,
    /// The properties the program gave (0-terminated), for `CL_CONTEXT_PROPERTIES`.
    pub props: Vec<isize>,
    /// The device cycle of the last thing the device did.
    now: AtomicU64,
    /// Kernel launches so far, and the device cycles they ran.
    launches: AtomicU64,
    kernel_cycles: AtomicU64,
    /// Its statistics were reported (WEFT_OPENCL_STATS): at its release, or at exit.
    reported: std::sync::atomic::AtomicBool,
}

impl Context {
    /// A context on a device configured as `cfg`.
    pub fn new(all: MachineConfig, props: Vec<isize>) -> ClResult<Context> {
        let layout = Layout::of(&all.machine, STACK_SIZE)?;
        let cfg = all.machine.clone();
        let engine = EngineHandle::start(all, layout)?;
        let hi = layout.dram_end.min(u32::MAX as u64) as u32;
        Ok(Context {
            cfg,
            layout,
            engine,
            heap: Mutex::new(Allocator::new(layout.device_end, hi)),
            props,
            now: AtomicU64::new(0),
            launches: AtomicU64::new(0),
            kernel_cycles: AtomicU64::new(0),
            reported: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// Device memory for a buffer of `size` bytes.
    pub fn alloc(&self, size: usize) -> ClResult<u32> {
        let mut h = lock(&self.heap);
        u32::try_from(size)
            .ok()
            .and_then(|n| h.alloc(n))
            .ok_or_else(|| {
                ClError::new(
                    crate::cl::err::MEM_OBJECT_ALLOCATION_FAILURE,
                    format!(
                        "no {size} bytes of device memory are free (the largest free block is {})",
                        h.largest_free()
                    ),
                )
            })
    }

    /// Give a buffer's memory back.
    pub fn free(&self, addr: u32) {
        lock(&self.heap).free(addr);
    }

    /// The bytes buffers may use in all.
    pub fn global_mem(&self) -> u64 {
        self.layout.dram_end - self.layout.device_end as u64
    }

    /// The device cycle of the last thing the device did (events are stamped with it).
    pub fn now(&self) -> u64 {
        self.now.load(Ordering::SeqCst)
    }

    /// The device has reached cycle `c`.
    pub fn advance(&self, c: u64) {
        self.now.fetch_max(c, Ordering::SeqCst);
    }

    /// A kernel ran from cycle `start` to `end`.
    pub fn record_launch(&self, start: u64, end: u64) {
        self.launches.fetch_add(1, Ordering::SeqCst);
        self.kernel_cycles.fetch_add(end - start, Ordering::SeqCst);
        self.advance(end);
    }

    /// The context's statistics as one JSON object: the machine's counters (the keys of
    /// `weft run --stats-json`) with the launches and the cycles they ran.
    pub fn stats(&self) -> serde_json::Value {
        let mut v = self
            .engine
            .call(|e| Ok(e.stats()))
            .unwrap_or(serde_json::Value::Null);
        if !v.is_object() {
            v = serde_json::json!({});
        }
        v["launches"] = self.launches.load(Ordering::SeqCst).into();
        v["kernel_cycles"] = self.kernel_cycles.load(Ordering::SeqCst).into();
        v
    }
}

/// With `WEFT_OPENCL_STATS` set, a context reports its statistics once, when it is released
/// or (if the program never releases it) when the program exits: one line on stderr for `1`,
/// else one JSON line appended to the file it names.
impl Context {
    pub fn report(&self) {
        let Some(dest) = std::env::var_os("WEFT_OPENCL_STATS") else {
            return;
        };
        if self.reported.swap(true, Ordering::SeqCst) {
            return;
        }
        let v = self.stats();
        if dest == "1" {
            let g = |k: &str| v.get(k).cloned().unwrap_or_default();
            eprintln!(
                "weft OpenCL: {} model, {} x {} x {}: {} launches, {} kernel cycles, {} warp \
                 instructions, SIMD efficiency {}",
                g("model").as_str().unwrap_or("?"),
                self.cfg.cores,
                self.cfg.warps,
                self.cfg.lanes,
                g("launches"),
                g("kernel_cycles"),
                g("warp_instructions"),
                g("simd_efficiency")
            );
        } else {
            use std::io::Write;
            if let Ok(mut f) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&dest)
            {
                let _ = writeln!(f, "{v}");
            }
        }
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        self.report();
    }
}

/// Contexts the program has not released, for the report at exit.
static LIVE: Mutex<Vec<std::sync::Weak<ClObj<Context>>>> = Mutex::new(Vec::new());

extern "C" {
    fn atexit(f: extern "C" fn()) -> std::ffi::c_int;
}

extern "C" fn report_live() {
    let live: Vec<_> = lock(&LIVE).iter().filter_map(|w| w.upgrade()).collect();
    for c in live {
        c.report();
    }
}

/// Follow a new context for the report at exit.
pub fn follow(c: &std::sync::Arc<ClObj<Context>>) {
    if std::env::var_os("WEFT_OPENCL_STATS").is_none() {
        return;
    }
    let mut live = lock(&LIVE);
    if live.is_empty() {
        // SAFETY: registers a function of ours with no arguments, called at exit.
        unsafe { atexit(report_live) };
    }
    live.retain(|w| w.strong_count() > 0);
    live.push(std::sync::Arc::downgrade(c));
}

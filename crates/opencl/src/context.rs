//! A context: the device's machine (its own device thread, [`crate::engine`]), the buffers
//! allocated in its DRAM, and the device time its events are stamped with.

use crate::engine::{EngineHandle, Layout};
use crate::error::{ClError, ClResult};
use crate::handle::lock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use weft_runtime::alloc::Allocator;
use weft_simt::Config;

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
}

impl Context {
    /// A context on a device configured as `cfg`.
    pub fn new(cfg: Config, props: Vec<isize>) -> ClResult<Context> {
        let layout = Layout::of(&cfg, STACK_SIZE)?;
        let engine = EngineHandle::start(cfg.clone(), layout)?;
        let hi = layout.dram_end.min(u32::MAX as u64) as u32;
        Ok(Context {
            cfg,
            layout,
            engine,
            heap: Mutex::new(Allocator::new(layout.device_end, hi)),
            props,
            now: AtomicU64::new(0),
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
}

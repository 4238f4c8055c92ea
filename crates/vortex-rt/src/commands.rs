//! The commands a queue runs (`vx_enqueue_*`): each checks its arguments when enqueued (with
//! Vortex's error codes), keeps what it uses alive (buffers, kernels, events), and does its
//! work when the queue reaches it. Host memory named by a command is read or written when the
//! command runs, as in Vortex and OpenCL: the host keeps it valid until the command's event.

use crate::buffer::Buffer;
use crate::device::Device;
use crate::engine::Engine;
use crate::error::{VxError, VxResult};
use crate::event::Event;
use crate::module::{default_entry, Kernel};
use crate::queue::{Command, Queue};
use crate::rect::{self, RectInfo};
use std::sync::Arc;
use weft_simt::vortex::kmu::{dcr, KmuDcrs};

/// A host address a command reads or writes when it runs.
#[derive(Clone, Copy)]
pub struct HostPtr(pub usize);

impl HostPtr {
    /// # Safety
    /// The host keeps `len` bytes at the address readable until the command is done.
    unsafe fn bytes(self, len: u64) -> Vec<u8> {
        if len == 0 {
            return Vec::new();
        }
        std::slice::from_raw_parts(self.0 as *const u8, len as usize).to_vec()
    }
    /// # Safety
    /// The host keeps `data.len()` bytes at `self + at` writable until the command is done.
    unsafe fn put(self, at: u64, data: &[u8]) {
        if !data.is_empty() {
            std::ptr::copy_nonoverlapping(
                data.as_ptr(),
                (self.0 as u64 + at) as *mut u8,
                data.len(),
            );
        }
    }
}

fn host_ok(p: HostPtr, size: u64) -> VxResult<()> {
    if p.0 == 0 && size != 0 {
        return Err(VxError::Invalid("a null host pointer".into()));
    }
    usize::try_from(size).map_err(|_| VxError::Invalid(format!("{size} bytes")))?;
    Ok(())
}

/// `vx_enqueue_write`.
pub fn write(
    q: &Queue,
    waits: Vec<Arc<Event>>,
    dst: Arc<Buffer>,
    off: u64,
    host: HostPtr,
    size: u64,
) -> VxResult<Arc<Event>> {
    host_ok(host, size)?;
    let at = dst.region.at(off, size)?;
    q.enqueue(Command::new(waits, move |dev| {
        // SAFETY: the host's promise (vortex2.h): the source stays valid until the event.
        let data = unsafe { host.bytes(size) };
        let r = dev.write(at, data);
        drop(dst);
        r
    }))
}

/// `vx_enqueue_read`.
pub fn read(
    q: &Queue,
    waits: Vec<Arc<Event>>,
    host: HostPtr,
    src: Arc<Buffer>,
    off: u64,
    size: u64,
) -> VxResult<Arc<Event>> {
    host_ok(host, size)?;
    let at = src.region.at(off, size)?;
    q.enqueue(Command::new(waits, move |dev| {
        let data = dev.read(at, size as usize)?;
        // SAFETY: the host's promise: the destination stays valid until the event.
        unsafe { host.put(0, &data) };
        drop(src);
        Ok(())
    }))
}

/// `vx_enqueue_copy`.
pub fn copy(
    q: &Queue,
    waits: Vec<Arc<Event>>,
    dst: Arc<Buffer>,
    doff: u64,
    src: Arc<Buffer>,
    soff: u64,
    size: u64,
) -> VxResult<Arc<Event>> {
    let d = dst.region.at(doff, size)?;
    let s = src.region.at(soff, size)?;
    let len = usize::try_from(size).map_err(|_| VxError::Invalid(format!("{size} bytes")))?;
    q.enqueue(Command::new(waits, move |dev| {
        let r = dev.call(move |e| e.copy(d, s, len));
        drop((dst, src));
        r
    }))
}

/// A rectangle checked against the buffer (and the source buffer's size for a copy).
fn rect_for(info: &RectInfo, buffer: &Buffer, other: Option<u64>) -> VxResult<rect::Rect> {
    let r = rect::resolve(info)?;
    if r.buffer_end > buffer.region.size as u64 || other.is_some_and(|n| r.host_end > n) {
        return Err(VxError::Invalid("the rect reaches past the buffer".into()));
    }
    Ok(r)
}

/// `vx_enqueue_read_rect`: host ← buffer.
pub fn read_rect(
    q: &Queue,
    waits: Vec<Arc<Event>>,
    host: HostPtr,
    src: Arc<Buffer>,
    info: &RectInfo,
) -> VxResult<Arc<Event>> {
    host_ok(host, 1)?;
    let r = rect_for(info, &src, None)?;
    let base = src.region.addr;
    q.enqueue(Command::new(waits, move |dev| {
        let runs = r.runs.clone();
        let rows = dev.call(move |e| {
            runs.iter()
                .map(|x| e.read(base + x.buffer as u32, x.len as usize))
                .collect::<VxResult<Vec<_>>>()
        })?;
        for (x, data) in r.runs.iter().zip(rows) {
            // SAFETY: the host's promise: the destination rectangle stays valid.
            unsafe { host.put(x.host, &data) };
        }
        drop(src);
        Ok(())
    }))
}

/// `vx_enqueue_write_rect`: buffer ← host.
pub fn write_rect(
    q: &Queue,
    waits: Vec<Arc<Event>>,
    dst: Arc<Buffer>,
    host: HostPtr,
    info: &RectInfo,
) -> VxResult<Arc<Event>> {
    host_ok(host, 1)?;
    let r = rect_for(info, &dst, None)?;
    let base = dst.region.addr;
    q.enqueue(Command::new(waits, move |dev| {
        let rows: Vec<(u32, Vec<u8>)> = r
            .runs
            .iter()
            // SAFETY: the host's promise: the source rectangle stays valid.
            .map(|x| {
                (base + x.buffer as u32, unsafe {
                    HostPtr(host.0 + x.host as usize).bytes(x.len)
                })
            })
            .collect();
        let res = dev.call(move |e| rows.iter().try_for_each(|(a, d)| e.write(*a, d)));
        drop(dst);
        res
    }))
}

/// `vx_enqueue_copy_rect`: `buffer_*` fields describe `dst`, `host_*` fields `src`.
pub fn copy_rect(
    q: &Queue,
    waits: Vec<Arc<Event>>,
    dst: Arc<Buffer>,
    src: Arc<Buffer>,
    info: &RectInfo,
) -> VxResult<Arc<Event>> {
    let r = rect_for(info, &dst, Some(src.region.size as u64))?;
    let (d, s) = (dst.region.addr, src.region.addr);
    q.enqueue(Command::new(waits, move |dev| {
        let runs = r.runs;
        let res = dev.call(move |e| {
            runs.iter()
                .try_for_each(|x| e.copy(d + x.buffer as u32, s + x.host as u32, x.len as usize))
        });
        drop((dst, src));
        res
    }))
}

/// `vx_enqueue_fill_buffer`: `pattern` repeated over `[off, off + size)`.
pub fn fill(
    q: &Queue,
    waits: Vec<Arc<Event>>,
    dst: Arc<Buffer>,
    off: u64,
    size: u64,
    pattern: Vec<u8>,
) -> VxResult<Arc<Event>> {
    if pattern.is_empty() || !size.is_multiple_of(pattern.len() as u64) {
        return Err(VxError::Invalid(format!(
            "fill of {size} bytes with a {}-byte pattern",
            pattern.len()
        )));
    }
    let at = dst.region.at(off, size)?;
    q.enqueue(Command::new(waits, move |dev| {
        let res = dev.call(move |e| {
            let chunk: Vec<u8> = pattern
                .iter()
                .copied()
                .cycle()
                .take(((64 << 10) / pattern.len()).max(1) * pattern.len())
                .collect();
            let mut done = 0u64;
            while done < size {
                let n = (chunk.len() as u64).min(size - done) as usize;
                e.write(at + done as u32, &chunk[..n])?;
                done += n as u64;
            }
            Ok(())
        });
        drop(dst);
        res
    }))
}

/// `vx_enqueue_map`: the host block now, filled (for reading) when the command runs.
pub fn map(
    q: &Queue,
    waits: Vec<Arc<Event>>,
    buf: Arc<Buffer>,
    off: u64,
    size: u64,
    flags: u32,
) -> VxResult<(Arc<Event>, *mut u8)> {
    let p = buf.map_reserve(off, size, flags)?;
    let b = buf.clone();
    match q.enqueue(Command::new(waits, move |_| b.map_commit())) {
        Ok(ev) => Ok((ev, p)),
        Err(e) => {
            buf.map_cancel();
            Err(e)
        }
    }
}

/// `vx_enqueue_unmap`.
pub fn unmap(
    q: &Queue,
    waits: Vec<Arc<Event>>,
    buf: Arc<Buffer>,
    host: HostPtr,
) -> VxResult<Arc<Event>> {
    q.enqueue(Command::new(waits, move |_| buf.unmap(host.0)))
}

/// A DCR write as the host makes it (a write to `KERNEL_ENTRY` is the host's choice of
/// kernel, which `vx_start` then keeps).
pub fn host_dcr_write(e: &mut Engine, addr: u32, value: u32) -> VxResult<()> {
    e.dcr_write(addr, value)?;
    if addr == dcr::KERNEL_ENTRY0 || addr == dcr::KERNEL_ENTRY1 {
        e.host_entry = true;
    }
    Ok(())
}

/// `vx_enqueue_dcr_write`.
pub fn dcr_write(q: &Queue, waits: Vec<Arc<Event>>, addr: u32, value: u32) -> VxResult<Arc<Event>> {
    q.enqueue(Command::new(waits, move |dev| {
        dev.call(move |e| host_dcr_write(e, addr, value))
    }))
}

/// `vx_enqueue_dcr_read` (and the classic `vx_dcr_read` with its tag).
pub fn dcr_read(
    q: &Queue,
    waits: Vec<Arc<Event>>,
    addr: u32,
    tag: u32,
    host: HostPtr,
) -> VxResult<Arc<Event>> {
    host_ok(host, 4)?;
    q.enqueue(Command::new(waits, move |dev| {
        let v = dev.call(move |e| e.dcr_read(addr, tag))?;
        // SAFETY: the host's promise: the u32 stays valid until the event.
        unsafe { host.put(0, &v.to_le_bytes()) };
        Ok(())
    }))
}

/// `vx_enqueue_signal`.
pub fn signal(
    q: &Queue,
    waits: Vec<Arc<Event>>,
    ev: Arc<Event>,
    value: u64,
) -> VxResult<Arc<Event>> {
    q.enqueue(Command::new(waits, move |_| {
        ev.signal(value);
        Ok(())
    }))
}

/// `vx_enqueue_wait_value`: later commands of the queue wait until `ev` reaches `value`.
pub fn wait_value(
    q: &Queue,
    waits: Vec<Arc<Event>>,
    ev: Arc<Event>,
    value: u64,
) -> VxResult<Arc<Event>> {
    q.enqueue(Command::new(waits, move |_| ev.wait(value, None)))
}

/// `vx_enqueue_barrier`.
pub fn barrier(q: &Queue, waits: Vec<Arc<Event>>) -> VxResult<Arc<Event>> {
    q.enqueue(Command::new(waits, |_| Ok(())))
}

/// A launch as `vx_launch_info_t` describes it, checked.
pub struct Launch {
    /// `None`: the host programmed the entry DCRs itself.
    pub kernel: Option<Arc<Kernel>>,
    /// The argument block (copied); empty: the host programmed the argument DCR.
    pub args: Vec<u8>,
    /// 0: the host programmed the grid DCRs itself.
    pub ndim: u32,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub lmem: u32,
    pub cluster: [u32; 3],
}

impl Launch {
    /// Check dimensions as Vortex does: at most 3, grid a multiple of the cluster (0 = 1).
    pub fn check(&mut self) -> VxResult<()> {
        if self.ndim > 3 {
            return Err(VxError::Invalid(format!("ndim {}", self.ndim)));
        }
        for i in 0..3 {
            if i >= self.ndim as usize {
                (self.grid[i], self.block[i], self.cluster[i]) = (1, 1, 1);
            }
            self.cluster[i] = self.cluster[i].max(1);
        }
        for i in 0..3 {
            if !self.grid[i].is_multiple_of(self.cluster[i]) {
                return Err(VxError::Invalid(format!(
                    "grid {:?} is not a multiple of the cluster {:?}",
                    self.grid, self.cluster
                )));
            }
        }
        Ok(())
    }

    /// Program the KMU on the device thread (args at `args_at`) and run the launch.
    fn run(&self, e: &mut Engine, args_at: Option<u32>) -> VxResult<()> {
        if let Some(k) = &self.kernel {
            e.dcrs.startup_addr = k.module.base as u64;
            e.dcrs.kernel_entry = k.pc as u64;
        }
        if let Some(a) = args_at {
            e.write(a, &self.args)?;
            e.dcrs.startup_arg = a as u64;
        }
        if self.ndim > 0 {
            let lanes = e.m.cfg.lanes as u32;
            let l = KmuDcrs::launch(0, 0, 0, self.grid, self.block, self.lmem, lanes);
            let d = &mut e.dcrs;
            d.block_dim = l.block_dim;
            d.grid_dim = l.grid_dim;
            d.lmem_size = l.lmem_size;
            d.block_size = l.block_size;
            d.warp_step = l.warp_step;
            d.cluster_dim = self.cluster;
        }
        e.launch()
    }
}

/// Stage `args` for the length of a launch in one of the device's argument slots, as
/// Vortex's runtime does (`Device::args_slot_acquire`): a 4 KiB slot from the heap, kept
/// after the launch for the next one (so every launch of a program finds its arguments where
/// SimX's runtime puts them); a larger block is a heap block of its own, freed after.
fn with_args<R>(
    dev: &Arc<Device>,
    len: usize,
    f: impl FnOnce(Option<u32>) -> VxResult<R>,
) -> VxResult<R> {
    if len == 0 {
        return f(None);
    }
    if len as u64 > ARGS_SLOT {
        let r = dev.alloc(len as u64)?;
        let out = f(Some(r.addr));
        dev.free(r)?;
        return out;
    }
    let slot = match dev.take_args_slot() {
        Some(r) => r,
        None => dev.alloc(ARGS_SLOT)?,
    };
    let out = f(Some(slot.addr));
    dev.give_args_slot(slot);
    out
}

/// Bytes of an argument slot (Vortex's `ARGS_SLOT_SIZE`).
const ARGS_SLOT: u64 = 4096;

/// `vx_enqueue_launch`.
pub fn launch(q: &Queue, waits: Vec<Arc<Event>>, mut l: Launch) -> VxResult<Arc<Event>> {
    l.check()?;
    let l = Arc::new(l);
    q.enqueue(Command::new(waits, move |dev| {
        with_args(dev, l.args.len(), |at| {
            let l = l.clone();
            dev.call(move |e| l.run(e, at))
        })
    }))
}

/// The classic `vx_start`: start-up code at the kernel image, the argument buffer, a grid of
/// one CTA per core of one warp's threads, no local memory. The kernel is the one the host
/// wrote to `KERNEL_ENTRY`; else the image's `main` (or only) footer entry; else whatever the
/// register holds.
pub fn start(q: &Queue, image: Arc<Buffer>, args: Arc<Buffer>) -> VxResult<Arc<Event>> {
    let entry = default_entry(&image.entries);
    q.enqueue(Command::new(Vec::new(), move |dev| {
        let (startup, argp) = (image.region.addr, args.region.addr);
        let r = dev.call(move |e| {
            let (cores, lanes) = (e.m.cfg.cores as u32, e.m.cfg.lanes as u32);
            let mut d = KmuDcrs::launch(startup, 0, argp, [cores, 1, 1], [lanes, 1, 1], 0, lanes);
            d.kernel_entry = match entry {
                Some(pc) if !e.host_entry => pc as u64,
                _ => e.dcrs.kernel_entry,
            };
            e.dcrs = d;
            e.launch()
        });
        drop((image, args));
        r
    }))
}

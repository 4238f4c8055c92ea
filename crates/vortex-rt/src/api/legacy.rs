//! The classic `vortex.h` API, layered as Vortex layers it over the asynchronous one: the
//! same device and buffer handles, and a default queue per device on which the copies, DCR
//! accesses and `vx_start` are ordered. Each function returns 0 on success and -1 on failure,
//! as Vortex's own do (the message on stderr says why).

use super::device::occupancy_grid;
use super::module::{read_file, text};
use super::{guard, put, write_stream};
use crate::buffer::Buffer;
use crate::commands::{self, HostPtr};
use crate::device::{caps, Device};
use crate::engine::{DCR_MPM_VALUE, MPM_BASE};
use crate::error::{code, VxError, VxResult};
use crate::handles;
use crate::module::load_image;
use std::ffi::{c_char, c_int, c_void};
use std::sync::Arc;

/// 0 or -1.
fn legacy(f: impl FnOnce() -> VxResult<()>) -> c_int {
    if guard(f) == code::SUCCESS {
        0
    } else {
        -1
    }
}

/// The classic API's state of one device, kept in the device's slot for it: its default
/// queue (made on first use) and the launch `vx_start` enqueued that `vx_ready_wait` has not
/// seen finish. Dropped with the device (`Device::detach`): the last launch first, then the
/// queue, whose worker ends once what it holds is done.
#[derive(Default)]
struct Legacy {
    last: Option<Arc<crate::event::Event>>,
    queue: Option<Arc<crate::queue::Queue>>,
}

/// Work on `dev`'s classic-API state.
fn with_state<R>(dev: &Device, f: impl FnOnce(&mut Legacy) -> R) -> R {
    let mut slot = dev.legacy_slot();
    let state = slot.get_or_insert_with(|| Box::new(Legacy::default()));
    match state.downcast_mut::<Legacy>() {
        Some(l) => f(l),
        None => unreachable!("only this module fills the slot, with a Legacy"),
    }
}

/// The classic API's queue of `dev` (made on first use).
fn legacy_queue(dev: &Arc<Device>) -> VxResult<Arc<crate::queue::Queue>> {
    with_state(dev, |l| {
        if let Some(q) = &l.queue {
            return Ok(q.clone());
        }
        let q = Arc::new(crate::queue::Queue::new(dev.clone(), false)?);
        l.queue = Some(q.clone());
        Ok(q)
    })
}

/// Remember the launch `vx_start` enqueued; the one remembered before.
fn set_last_launch(
    dev: &Device,
    ev: Option<Arc<crate::event::Event>>,
) -> Option<Arc<crate::event::Event>> {
    with_state(dev, |l| std::mem::replace(&mut l.last, ev))
}

/// Run a command on the device's default queue and wait for it.
fn sync(
    dev: &Arc<Device>,
    f: impl FnOnce(&crate::queue::Queue) -> VxResult<Arc<crate::event::Event>>,
) -> VxResult<()> {
    let q = legacy_queue(dev)?;
    f(&q)?.wait(1, None)
}

/// # Safety
/// `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_dev_open(out: *mut *mut c_void) -> c_int {
    legacy(|| put(out, handles::handle(Device::open()?)))
}

/// Close a device: a kernel still running (launched and never waited for) is stopped, so
/// that closing never hangs on a kernel that does not end (Vortex waits for it).
///
/// # Safety
/// `dev` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_dev_close(dev: *mut c_void) -> c_int {
    legacy(|| {
        handles::get::<Device>(dev)?.close();
        handles::release::<Device>(dev)
    })
}

/// # Safety
/// `dev` is a handle or null; `value` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_dev_caps(dev: *mut c_void, caps_id: u32, value: *mut u64) -> c_int {
    legacy(|| put(value, handles::get::<Device>(dev)?.caps(caps_id)?))
}

/// # Safety
/// `dev` is a handle or null; `out` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_mem_alloc(
    dev: *mut c_void,
    size: u64,
    flags: c_int,
    out: *mut *mut c_void,
) -> c_int {
    zero_or_minus_one(super::buffer::vx_buffer_create(
        dev,
        size,
        flags as u32,
        out,
    ))
}

/// # Safety
/// `dev` is a handle or null; `out` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_mem_reserve(
    dev: *mut c_void,
    address: u64,
    size: u64,
    flags: c_int,
    out: *mut *mut c_void,
) -> c_int {
    zero_or_minus_one(super::buffer::vx_buffer_reserve(
        dev,
        address,
        size,
        flags as u32,
        out,
    ))
}

/// # Safety
/// `buf` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_mem_free(buf: *mut c_void) -> c_int {
    if buf.is_null() {
        return 0;
    }
    legacy(|| handles::release::<Buffer>(buf))
}

/// # Safety
/// `buf` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_mem_access(
    buf: *mut c_void,
    offset: u64,
    size: u64,
    flags: c_int,
) -> c_int {
    zero_or_minus_one(super::buffer::vx_buffer_access(
        buf,
        offset,
        size,
        flags as u32,
    ))
}

/// # Safety
/// `buf` is a handle or null; `address` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_mem_address(buf: *mut c_void, address: *mut u64) -> c_int {
    zero_or_minus_one(super::buffer::vx_buffer_address(buf, address))
}

/// # Safety
/// `dev` is a handle or null; the outputs null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_mem_info(dev: *mut c_void, free: *mut u64, used: *mut u64) -> c_int {
    zero_or_minus_one(super::device::vx_device_memory_info(dev, free, used))
}

fn zero_or_minus_one(r: c_int) -> c_int {
    if r == code::SUCCESS {
        0
    } else {
        -1
    }
}

/// # Safety
/// `buf` is a handle or null; `host` holds `size` bytes.
#[no_mangle]
pub unsafe extern "C" fn vx_copy_to_dev(
    buf: *mut c_void,
    host: *const c_void,
    off: u64,
    size: u64,
) -> c_int {
    legacy(|| {
        let b = handles::get::<Buffer>(buf)?;
        let d = b.dev.clone();
        sync(&d, |q| {
            commands::write(q, Vec::new(), b, off, HostPtr(host as usize), size)
        })
    })
}

/// A copy from the device runs after what the default queue holds (a `vx_start`'s launch).
///
/// # Safety
/// `buf` is a handle or null; `host` holds `size` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn vx_copy_from_dev(
    host: *mut c_void,
    buf: *mut c_void,
    off: u64,
    size: u64,
) -> c_int {
    legacy(|| {
        let b = handles::get::<Buffer>(buf)?;
        let d = b.dev.clone();
        sync(&d, |q| {
            commands::read(q, Vec::new(), HostPtr(host as usize), b, off, size)
        })
    })
}

/// # Safety
/// Both are handles or null.
#[no_mangle]
pub unsafe extern "C" fn vx_copy_dev_to_dev(
    dst: *mut c_void,
    dst_off: u64,
    src: *mut c_void,
    src_off: u64,
    size: u64,
) -> c_int {
    legacy(|| {
        let (d, s) = (handles::get::<Buffer>(dst)?, handles::get::<Buffer>(src)?);
        let dev = d.dev.clone();
        sync(&dev, |q| {
            commands::copy(q, Vec::new(), d, dst_off, s, src_off, size)
        })
    })
}

/// Launch the image in `kernel` with the argument buffer `args`: one CTA per core of one
/// warp's threads (see [`commands::start`]). It runs while the host goes on;
/// `vx_ready_wait` waits for it.
///
/// # Safety
/// All three are handles or null.
#[no_mangle]
pub unsafe extern "C" fn vx_start(
    dev: *mut c_void,
    kernel: *mut c_void,
    args: *mut c_void,
) -> c_int {
    legacy(|| {
        let d = handles::get::<Device>(dev)?;
        let (k, a) = (
            handles::get::<Buffer>(kernel)?,
            handles::get::<Buffer>(args)?,
        );
        if let Some(prev) = set_last_launch(&d, None) {
            let _ = prev.wait(1, None);
        }
        let q = legacy_queue(&d)?;
        let ev = commands::start(&q, k, a)?;
        set_last_launch(&d, Some(ev));
        Ok(())
    })
}

/// Wait for the last `vx_start`, at most `timeout` ms (all ones: no limit). After a time-out
/// the launch stays pending and a later wait goes on with it.
///
/// # Safety
/// `dev` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_ready_wait(dev: *mut c_void, timeout: u64) -> c_int {
    legacy(|| {
        let d = handles::get::<Device>(dev)?;
        let Some(ev) = set_last_launch(&d, None) else {
            return Ok(());
        };
        let limit = (timeout != u64::MAX).then(|| std::time::Duration::from_millis(timeout));
        match ev.wait(1, limit) {
            Err(VxError::Timeout) => {
                set_last_launch(&d, Some(ev));
                Err(VxError::Timeout)
            }
            r => r,
        }
    })
}

/// # Safety
/// `dev` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_dcr_write(dev: *mut c_void, addr: u32, value: u32) -> c_int {
    legacy(|| {
        let d = handles::get::<Device>(dev)?;
        sync(&d, |q| commands::dcr_write(q, Vec::new(), addr, value))
    })
}

/// # Safety
/// `dev` is a handle or null; `value` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_dcr_read(
    dev: *mut c_void,
    addr: u32,
    tag: u32,
    value: *mut u32,
) -> c_int {
    legacy(|| {
        let d = handles::get::<Device>(dev)?;
        if value.is_null() {
            return Err(VxError::Invalid("a null output pointer".into()));
        }
        sync(&d, |q| {
            commands::dcr_read(q, Vec::new(), addr, tag, HostPtr(value as usize))
        })
    })
}

/// A core's counter 0xB00–0xB1F (`core_id` all ones: the sum over cores), read as Vortex
/// reads it: two DCR reads of the counter port, low and high half.
///
/// # Safety
/// `dev` is a handle or null; `value` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_mpm_query(
    dev: *mut c_void,
    mpm_class: u32,
    addr: u32,
    core_id: u32,
    value: *mut u64,
) -> c_int {
    legacy(|| {
        if !(MPM_BASE..MPM_BASE + 32).contains(&addr) {
            return Err(VxError::Invalid(format!("MPM CSR address {addr:#x}")));
        }
        let d = handles::get::<Device>(dev)?;
        let cores: Vec<u32> = if core_id == u32::MAX {
            (0..d.caps(caps::NUM_CORES)? as u32).collect()
        } else {
            vec![core_id]
        };
        let id = addr - MPM_BASE;
        let mut sum = 0u64;
        for c in cores {
            let tag = |i: u32| (mpm_class << 22) | (i << 16) | c;
            let (mut lo, mut hi) = (0u32, 0u32);
            sync(&d, |q| {
                commands::dcr_read(
                    q,
                    Vec::new(),
                    DCR_MPM_VALUE,
                    tag(id),
                    HostPtr(&mut lo as *mut u32 as usize),
                )
            })?;
            sync(&d, |q| {
                commands::dcr_read(
                    q,
                    Vec::new(),
                    DCR_MPM_VALUE,
                    tag(id + 32),
                    HostPtr(&mut hi as *mut u32 as usize),
                )
            })?;
            sum += (hi as u64) << 32 | lo as u64;
        }
        put(value, sum)
    })
}

/// Upload a `.vxbin` kernel image at its own addresses (BSS zeroed). Its footer's entries
/// are kept with the buffer for `vx_start`.
///
/// # Safety
/// `dev` is a handle or null; `content` holds `size` bytes; `out` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_upload_kernel_bytes(
    dev: *mut c_void,
    content: *const c_void,
    size: u64,
    out: *mut *mut c_void,
) -> c_int {
    legacy(|| {
        if content.is_null() {
            return Err(VxError::Invalid("a null image".into()));
        }
        upload_kernel(
            dev,
            std::slice::from_raw_parts(content as *const u8, size as usize),
            out,
        )
    })
}

fn upload_kernel(dev: *mut c_void, bytes: &[u8], out: *mut *mut c_void) -> VxResult<()> {
    let d = handles::get::<Device>(dev)?;
    if out.is_null() {
        return Err(VxError::Invalid("a null output pointer".into()));
    }
    let img = load_image(&d, bytes)?;
    let mut b = img.buffer;
    b.entries = img.entries;
    // SAFETY: checked non-null; the caller passes writable storage.
    unsafe { put(out, handles::handle(Arc::new(b))) }
}

/// # Safety
/// `dev` is a handle or null; `filename` null or NUL-terminated; `out` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_upload_kernel_file(
    dev: *mut c_void,
    filename: *const c_char,
    out: *mut *mut c_void,
) -> c_int {
    legacy(|| upload_kernel(dev, &read_file(&text(filename)?)?, out))
}

/// A heap buffer holding `size` bytes.
///
/// # Safety
/// `dev` is a handle or null; `content` holds `size` bytes; `out` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_upload_bytes(
    dev: *mut c_void,
    content: *const c_void,
    size: u64,
    out: *mut *mut c_void,
) -> c_int {
    legacy(|| {
        if content.is_null() || size == 0 {
            return Err(VxError::Invalid("no bytes to upload".into()));
        }
        upload(
            dev,
            std::slice::from_raw_parts(content as *const u8, size as usize),
            out,
        )
    })
}

fn upload(dev: *mut c_void, bytes: &[u8], out: *mut *mut c_void) -> VxResult<()> {
    let d = handles::get::<Device>(dev)?;
    if out.is_null() {
        return Err(VxError::Invalid("a null output pointer".into()));
    }
    let r = d.alloc(bytes.len() as u64)?;
    let b = Arc::new(Buffer::new(d.clone(), r));
    d.write(r.addr, bytes.to_vec())?;
    // SAFETY: checked non-null; the caller passes writable storage.
    unsafe { put(out, handles::handle(b)) }
}

/// # Safety
/// `dev` is a handle or null; `filename` null or NUL-terminated; `out` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_upload_file(
    dev: *mut c_void,
    filename: *const c_char,
    out: *mut *mut c_void,
) -> c_int {
    legacy(|| upload(dev, &read_file(&text(filename)?)?, out))
}

/// 0 when a CTA of `block_size` threads fits a core and, if `max_localmem` is not 0, that
/// much local memory fits a core's share per resident CTA (Vortex's rule); -1 otherwise.
///
/// # Safety
/// `dev` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_check_occupancy(
    dev: *mut c_void,
    block_size: u32,
    max_localmem: u32,
) -> c_int {
    legacy(|| {
        let d = handles::get::<Device>(dev)?;
        let (warps, lanes) = (d.caps(caps::NUM_WARPS)?, d.caps(caps::NUM_THREADS)?);
        let bs = block_size as u64;
        if bs == 0 || bs > warps * lanes {
            return Err(VxError::Invalid(format!(
                "a block of {block_size} threads on cores of {} threads",
                warps * lanes
            )));
        }
        let per_core = warps / bs.div_ceil(lanes);
        if max_localmem != 0 && max_localmem as u64 > d.caps(caps::LOCAL_MEM_SIZE)? / per_core {
            return Err(VxError::Invalid(format!(
                "{max_localmem} bytes of local memory for each of {per_core} blocks per core"
            )));
        }
        Ok(())
    })
}

/// # Safety
/// `dev` is a handle or null; the arrays hold `ndim` elements.
#[no_mangle]
pub unsafe extern "C" fn vx_max_occupancy_grid(
    dev: *mut c_void,
    ndim: u32,
    global_dim: *const u32,
    grid_dim: *mut u32,
    block_dim: *mut u32,
) -> c_int {
    legacy(|| {
        let d = handles::get::<Device>(dev)?;
        occupancy_grid(&d, ndim, global_dim, grid_dim, block_dim)
    })
}

/// Vortex's `PERF: instrs=…, cycles=…, IPC=…` summary (per core too on several cores).
///
/// # Safety
/// `dev` is a handle or null; `stream` null or an open `FILE *`.
#[no_mangle]
pub unsafe extern "C" fn vx_dump_perf(dev: *mut c_void, stream: *mut c_void) -> c_int {
    legacy(|| write_stream(stream, &handles::get::<Device>(dev)?.perf_text()?))
}

//! Queues and the asynchronous commands: `vx_queue_create/retain/release/flush/finish` and
//! every `vx_enqueue_*`. Each command takes a wait list and returns an event through
//! `out_event` (which may be null).

use super::{guard, out_event, put, wait_list};
use crate::buffer::Buffer;
use crate::commands::{self, HostPtr, Launch};
use crate::device::Device;
use crate::error::{VxError, VxResult};
use crate::event::{timeout_ns, Event};
use crate::handles;
use crate::module::Kernel;
use crate::queue::Queue;
use crate::rect::RectInfo;
use std::ffi::{c_int, c_void};
use std::sync::Arc;

/// `vx_queue_info_t`.
#[repr(C)]
pub struct QueueInfo {
    pub struct_size: usize,
    pub next: *const c_void,
    pub priority: c_int,
    pub flags: u32,
}

/// `VX_QUEUE_PROFILING_ENABLE`.
pub const QUEUE_PROFILING: u32 = 1;

/// `vx_launch_info_t`.
#[repr(C)]
pub struct LaunchInfo {
    pub struct_size: usize,
    pub next: *const c_void,
    pub kernel: *mut c_void,
    pub args_host: *const c_void,
    pub args_size: usize,
    pub ndim: u32,
    pub grid_dim: [u32; 3],
    pub block_dim: [u32; 3],
    pub lmem_size: u32,
    pub cluster_dim: [u32; 3],
}

/// A queue on `dev`; `info` null: normal priority, no profiling (priorities are accepted
/// and have no effect: one device thread serves every queue in arrival order).
///
/// # Safety
/// `dev` is a handle or null; `info` null or a `vx_queue_info_t`; `out` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_queue_create(
    dev: *mut c_void,
    info: *const QueueInfo,
    out: *mut *mut c_void,
) -> c_int {
    guard(|| {
        let d = handles::get::<Device>(dev)?;
        if out.is_null() {
            return Err(VxError::Invalid("a null output pointer".into()));
        }
        let mut profiling = false;
        if let Some(i) = info.as_ref() {
            if i.struct_size < std::mem::size_of::<QueueInfo>() {
                return Err(VxError::InvalidInfo("vx_queue_info_t".into()));
            }
            profiling = i.flags & QUEUE_PROFILING != 0;
        }
        put(out, handles::handle(Arc::new(Queue::new(d, profiling)?)))
    })
}

/// # Safety
/// `q` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_queue_retain(q: *mut c_void) -> c_int {
    guard(|| handles::retain::<Queue>(q))
}

/// The last release waits for the queue's commands to finish.
///
/// # Safety
/// `q` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_queue_release(q: *mut c_void) -> c_int {
    guard(|| handles::release::<Queue>(q))
}

/// Commands start as soon as they are enqueued; nothing to flush.
///
/// # Safety
/// `q` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_queue_flush(q: *mut c_void) -> c_int {
    guard(|| handles::get::<Queue>(q).map(|_| ()))
}

/// Wait until every command enqueued so far is done (`timeout_ns` all ones: no limit).
///
/// # Safety
/// `q` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_queue_finish(q: *mut c_void, timeout: u64) -> c_int {
    guard(|| handles::get::<Queue>(q)?.finish(timeout_ns(timeout)))
}

/// The shared shape of an enqueue: the queue, the wait list, the command, the event out.
unsafe fn enqueue(
    q: *mut c_void,
    nw: u32,
    w: *const *mut c_void,
    out: *mut *mut c_void,
    f: impl FnOnce(&Queue, Vec<Arc<Event>>) -> VxResult<Arc<Event>>,
) -> c_int {
    guard(|| {
        let q = handles::get::<Queue>(q)?;
        let waits = wait_list(nw, w)?;
        let ev = f(&q, waits)?;
        out_event(out, ev);
        Ok(())
    })
}

/// # Safety
/// Handles are handles or null; `info` null or a `vx_launch_info_t` whose `args_host`
/// holds `args_size` bytes; the wait list holds `nw` handles; `out` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_enqueue_launch(
    q: *mut c_void,
    info: *const LaunchInfo,
    nw: u32,
    w: *const *mut c_void,
    out: *mut *mut c_void,
) -> c_int {
    enqueue(q, nw, w, out, |q, waits| {
        let i = info
            .as_ref()
            .ok_or_else(|| VxError::Invalid("a null launch info".into()))?;
        if i.struct_size < std::mem::size_of::<LaunchInfo>() {
            return Err(VxError::InvalidInfo("vx_launch_info_t".into()));
        }
        if i.args_size != 0 && i.args_host.is_null() {
            return Err(VxError::Invalid("arguments without a pointer".into()));
        }
        let kernel = if i.kernel.is_null() {
            None
        } else {
            Some(handles::get::<Kernel>(i.kernel)?)
        };
        let args = if i.args_host.is_null() {
            Vec::new()
        } else {
            std::slice::from_raw_parts(i.args_host as *const u8, i.args_size).to_vec()
        };
        let l = Launch {
            kernel,
            args,
            ndim: i.ndim,
            grid: i.grid_dim,
            block: i.block_dim,
            lmem: i.lmem_size,
            cluster: i.cluster_dim,
        };
        commands::launch(q, waits, l)
    })
}

/// # Safety
/// As [`vx_enqueue_launch`]; the buffers are handles.
#[no_mangle]
pub unsafe extern "C" fn vx_enqueue_copy(
    q: *mut c_void,
    dst: *mut c_void,
    dst_off: u64,
    src: *mut c_void,
    src_off: u64,
    size: u64,
    nw: u32,
    w: *const *mut c_void,
    out: *mut *mut c_void,
) -> c_int {
    enqueue(q, nw, w, out, |q, waits| {
        let (d, s) = (handles::get::<Buffer>(dst)?, handles::get::<Buffer>(src)?);
        commands::copy(q, waits, d, dst_off, s, src_off, size)
    })
}

/// # Safety
/// As [`vx_enqueue_launch`]; `host_dst` holds `size` bytes until the event.
#[no_mangle]
pub unsafe extern "C" fn vx_enqueue_read(
    q: *mut c_void,
    host_dst: *mut c_void,
    src: *mut c_void,
    src_off: u64,
    size: u64,
    nw: u32,
    w: *const *mut c_void,
    out: *mut *mut c_void,
) -> c_int {
    enqueue(q, nw, w, out, |q, waits| {
        let s = handles::get::<Buffer>(src)?;
        commands::read(q, waits, HostPtr(host_dst as usize), s, src_off, size)
    })
}

/// # Safety
/// As [`vx_enqueue_launch`]; `host_src` holds `size` bytes until the event.
#[no_mangle]
pub unsafe extern "C" fn vx_enqueue_write(
    q: *mut c_void,
    dst: *mut c_void,
    dst_off: u64,
    host_src: *const c_void,
    size: u64,
    nw: u32,
    w: *const *mut c_void,
    out: *mut *mut c_void,
) -> c_int {
    enqueue(q, nw, w, out, |q, waits| {
        let d = handles::get::<Buffer>(dst)?;
        commands::write(q, waits, d, dst_off, HostPtr(host_src as usize), size)
    })
}

/// # Safety
/// As [`vx_enqueue_launch`]; `info` a `vx_rect_info_t`; the host rectangle stays valid.
#[no_mangle]
pub unsafe extern "C" fn vx_enqueue_read_rect(
    q: *mut c_void,
    host_dst: *mut c_void,
    src: *mut c_void,
    info: *const RectInfo,
    nw: u32,
    w: *const *mut c_void,
    out: *mut *mut c_void,
) -> c_int {
    enqueue(q, nw, w, out, |q, waits| {
        let s = handles::get::<Buffer>(src)?;
        let i = info
            .as_ref()
            .ok_or_else(|| VxError::Invalid("a null rect".into()))?;
        commands::read_rect(q, waits, HostPtr(host_dst as usize), s, i)
    })
}

/// # Safety
/// As [`vx_enqueue_read_rect`].
#[no_mangle]
pub unsafe extern "C" fn vx_enqueue_write_rect(
    q: *mut c_void,
    dst: *mut c_void,
    host_src: *const c_void,
    info: *const RectInfo,
    nw: u32,
    w: *const *mut c_void,
    out: *mut *mut c_void,
) -> c_int {
    enqueue(q, nw, w, out, |q, waits| {
        let d = handles::get::<Buffer>(dst)?;
        let i = info
            .as_ref()
            .ok_or_else(|| VxError::Invalid("a null rect".into()))?;
        commands::write_rect(q, waits, d, HostPtr(host_src as usize), i)
    })
}

/// # Safety
/// As [`vx_enqueue_read_rect`]; `host_*` fields describe `src`.
#[no_mangle]
pub unsafe extern "C" fn vx_enqueue_copy_rect(
    q: *mut c_void,
    dst: *mut c_void,
    src: *mut c_void,
    info: *const RectInfo,
    nw: u32,
    w: *const *mut c_void,
    out: *mut *mut c_void,
) -> c_int {
    enqueue(q, nw, w, out, |q, waits| {
        let (d, s) = (handles::get::<Buffer>(dst)?, handles::get::<Buffer>(src)?);
        let i = info
            .as_ref()
            .ok_or_else(|| VxError::Invalid("a null rect".into()))?;
        commands::copy_rect(q, waits, d, s, i)
    })
}

/// # Safety
/// As [`vx_enqueue_launch`]; `pattern` holds `pattern_size` bytes (copied at once).
#[no_mangle]
pub unsafe extern "C" fn vx_enqueue_fill_buffer(
    q: *mut c_void,
    dst: *mut c_void,
    offset: u64,
    size: u64,
    pattern: *const c_void,
    pattern_size: usize,
    nw: u32,
    w: *const *mut c_void,
    out: *mut *mut c_void,
) -> c_int {
    enqueue(q, nw, w, out, |q, waits| {
        let d = handles::get::<Buffer>(dst)?;
        if pattern.is_null() {
            return Err(VxError::Invalid("a null pattern".into()));
        }
        let p = std::slice::from_raw_parts(pattern as *const u8, pattern_size).to_vec();
        commands::fill(q, waits, d, offset, size, p)
    })
}

/// A mapping whose host block is returned now and filled when the command runs.
///
/// # Safety
/// As [`vx_enqueue_launch`]; `out_host_ptr` writable.
#[no_mangle]
pub unsafe extern "C" fn vx_enqueue_map(
    q: *mut c_void,
    buf: *mut c_void,
    offset: u64,
    size: u64,
    flags: u32,
    nw: u32,
    w: *const *mut c_void,
    out: *mut *mut c_void,
    out_host_ptr: *mut *mut c_void,
) -> c_int {
    enqueue(q, nw, w, out, |q, waits| {
        let b = handles::get::<Buffer>(buf)?;
        if out_host_ptr.is_null() {
            return Err(VxError::Invalid("a null output pointer".into()));
        }
        let (ev, p) = commands::map(q, waits, b, offset, size, flags)?;
        put(out_host_ptr, p as *mut c_void)?;
        Ok(ev)
    })
}

/// # Safety
/// As [`vx_enqueue_launch`]; `host_ptr` what the buffer's map returned.
#[no_mangle]
pub unsafe extern "C" fn vx_enqueue_unmap(
    q: *mut c_void,
    buf: *mut c_void,
    host_ptr: *mut c_void,
    nw: u32,
    w: *const *mut c_void,
    out: *mut *mut c_void,
) -> c_int {
    enqueue(q, nw, w, out, |q, waits| {
        let b = handles::get::<Buffer>(buf)?;
        commands::unmap(q, waits, b, HostPtr(host_ptr as usize))
    })
}

/// # Safety
/// As [`vx_enqueue_launch`].
#[no_mangle]
pub unsafe extern "C" fn vx_enqueue_barrier(
    q: *mut c_void,
    nw: u32,
    w: *const *mut c_void,
    out: *mut *mut c_void,
) -> c_int {
    enqueue(q, nw, w, out, commands::barrier)
}

/// # Safety
/// As [`vx_enqueue_launch`].
#[no_mangle]
pub unsafe extern "C" fn vx_enqueue_dcr_write(
    q: *mut c_void,
    addr: u32,
    value: u32,
    nw: u32,
    w: *const *mut c_void,
    out: *mut *mut c_void,
) -> c_int {
    enqueue(q, nw, w, out, |q, waits| {
        commands::dcr_write(q, waits, addr, value)
    })
}

/// # Safety
/// As [`vx_enqueue_launch`]; `host_dst` stays writable until the event.
#[no_mangle]
pub unsafe extern "C" fn vx_enqueue_dcr_read(
    q: *mut c_void,
    addr: u32,
    host_dst: *mut u32,
    nw: u32,
    w: *const *mut c_void,
    out: *mut *mut c_void,
) -> c_int {
    enqueue(q, nw, w, out, |q, waits| {
        commands::dcr_read(q, waits, addr, 0, HostPtr(host_dst as usize))
    })
}

/// # Safety
/// As [`vx_enqueue_launch`]; `ev` a handle.
#[no_mangle]
pub unsafe extern "C" fn vx_enqueue_signal(
    q: *mut c_void,
    ev: *mut c_void,
    value: u64,
    nw: u32,
    w: *const *mut c_void,
    out: *mut *mut c_void,
) -> c_int {
    enqueue(q, nw, w, out, |q, waits| {
        commands::signal(q, waits, handles::get::<Event>(ev)?, value)
    })
}

/// # Safety
/// As [`vx_enqueue_launch`]; `ev` a handle.
#[no_mangle]
pub unsafe extern "C" fn vx_enqueue_wait_value(
    q: *mut c_void,
    ev: *mut c_void,
    value: u64,
    nw: u32,
    w: *const *mut c_void,
    out: *mut *mut c_void,
) -> c_int {
    enqueue(q, nw, w, out, |q, waits| {
        commands::wait_value(q, waits, handles::get::<Event>(ev)?, value)
    })
}

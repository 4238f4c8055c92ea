//! The `clEnqueue*` entry points (OpenCL 1.2, 5.2.2–5.2.3, 5.4.2–5.4.3, 5.8).

use super::queue::finish_blocking;
use super::{give_event, guard, guard_obj, slice, wait_list};
use crate::cl::{command, err};
use crate::enqueue::{self, HostPtr, NdRange, Rect};
use crate::error::{ClError, ClResult};
use crate::event::Event;
use crate::handle::{self, ClObj};
use crate::kernel::Kernel;
use crate::memory::Mem;
use crate::queue::Queue;
use std::ffi::c_void;
use std::sync::Arc;

/// Hand the event over and, for a blocking call, wait for the command.
unsafe fn finish(ev: Arc<ClObj<Event>>, blocking: u32, out: *mut *mut c_void) -> ClResult<()> {
    give_event(ev.clone(), out);
    if blocking != 0 {
        finish_blocking(&ev)?;
    }
    Ok(())
}

fn host(p: *const c_void, what: &str) -> ClResult<HostPtr> {
    if p.is_null() {
        return Err(ClError::value(format!("{what} is NULL")));
    }
    Ok(HostPtr(p as usize))
}

/// `clEnqueueReadBuffer` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueReadBuffer(
    q: *mut c_void,
    m: *mut c_void,
    blocking: u32,
    offset: usize,
    size: usize,
    ptr: *mut c_void,
    n: u32,
    list: *const *mut c_void,
    out: *mut *mut c_void,
) -> i32 {
    guard("clEnqueueReadBuffer", || {
        let (queue, mem) = (handle::get::<Queue>(q)?, handle::get::<Mem>(m)?);
        let p = host(ptr, "ptr")?;
        let w = wait_list(n, list)?;
        finish(
            enqueue::read(&queue, mem, offset, size, p, w)?,
            blocking,
            out,
        )
    })
}

/// `clEnqueueWriteBuffer` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueWriteBuffer(
    q: *mut c_void,
    m: *mut c_void,
    blocking: u32,
    offset: usize,
    size: usize,
    ptr: *const c_void,
    n: u32,
    list: *const *mut c_void,
    out: *mut *mut c_void,
) -> i32 {
    guard("clEnqueueWriteBuffer", || {
        let (queue, mem) = (handle::get::<Queue>(q)?, handle::get::<Mem>(m)?);
        host(ptr, "ptr")?;
        let w = wait_list(n, list)?;
        mem.check(offset, size)?;
        let data = std::slice::from_raw_parts(ptr as *const u8, size).to_vec();
        finish(enqueue::write(&queue, mem, offset, data, w)?, blocking, out)
    })
}

/// `clEnqueueCopyBuffer` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueCopyBuffer(
    q: *mut c_void,
    src: *mut c_void,
    dst: *mut c_void,
    so: usize,
    d_o: usize,
    size: usize,
    n: u32,
    list: *const *mut c_void,
    out: *mut *mut c_void,
) -> i32 {
    guard("clEnqueueCopyBuffer", || {
        let queue = handle::get::<Queue>(q)?;
        let (s, d) = (handle::get::<Mem>(src)?, handle::get::<Mem>(dst)?);
        let w = wait_list(n, list)?;
        give_event(enqueue::copy(&queue, s, d, so, d_o, size, w)?, out);
        Ok(())
    })
}

/// `clEnqueueFillBuffer` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueFillBuffer(
    q: *mut c_void,
    m: *mut c_void,
    pattern: *const c_void,
    psize: usize,
    offset: usize,
    size: usize,
    n: u32,
    list: *const *mut c_void,
    out: *mut *mut c_void,
) -> i32 {
    guard("clEnqueueFillBuffer", || {
        let (queue, mem) = (handle::get::<Queue>(q)?, handle::get::<Mem>(m)?);
        let pat = slice(pattern as *const u8, psize, "pattern")?.to_vec();
        if pat.is_empty() {
            return Err(ClError::value("an empty pattern"));
        }
        let w = wait_list(n, list)?;
        give_event(enqueue::fill(&queue, mem, pat, offset, size, w)?, out);
        Ok(())
    })
}

unsafe fn triple(p: *const usize, what: &str) -> ClResult<[usize; 3]> {
    let s = slice(p, 3, what)?;
    Ok([s[0], s[1], s[2]])
}

#[allow(clippy::too_many_arguments)]
unsafe fn rect_rw(
    func: &str,
    to_host: bool,
    q: *mut c_void,
    m: *mut c_void,
    blocking: u32,
    bo: *const usize,
    ho: *const usize,
    region: *const usize,
    brp: usize,
    bsp: usize,
    hrp: usize,
    hsp: usize,
    ptr: *const c_void,
    n: u32,
    list: *const *mut c_void,
    out: *mut *mut c_void,
) -> i32 {
    guard(func, || {
        let (queue, mem) = (handle::get::<Queue>(q)?, handle::get::<Mem>(m)?);
        let region = triple(region, "region")?;
        let buf = Rect::new(triple(bo, "buffer_origin")?, brp, bsp, region)?;
        let hst = Rect::new(triple(ho, "host_origin")?, hrp, hsp, region)?;
        let p = host(ptr, "ptr")?;
        let w = wait_list(n, list)?;
        let r = enqueue::RectRw {
            buf,
            host: hst,
            region,
            ptr: p,
            to_host,
        };
        let ev = enqueue::rect_rw(&queue, mem, r, w)?;
        finish(ev, blocking, out)
    })
}

/// `clEnqueueReadBufferRect` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueReadBufferRect(
    q: *mut c_void,
    m: *mut c_void,
    blocking: u32,
    bo: *const usize,
    ho: *const usize,
    region: *const usize,
    brp: usize,
    bsp: usize,
    hrp: usize,
    hsp: usize,
    ptr: *mut c_void,
    n: u32,
    list: *const *mut c_void,
    out: *mut *mut c_void,
) -> i32 {
    rect_rw(
        "clEnqueueReadBufferRect",
        true,
        q,
        m,
        blocking,
        bo,
        ho,
        region,
        brp,
        bsp,
        hrp,
        hsp,
        ptr,
        n,
        list,
        out,
    )
}

/// `clEnqueueWriteBufferRect` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueWriteBufferRect(
    q: *mut c_void,
    m: *mut c_void,
    blocking: u32,
    bo: *const usize,
    ho: *const usize,
    region: *const usize,
    brp: usize,
    bsp: usize,
    hrp: usize,
    hsp: usize,
    ptr: *const c_void,
    n: u32,
    list: *const *mut c_void,
    out: *mut *mut c_void,
) -> i32 {
    rect_rw(
        "clEnqueueWriteBufferRect",
        false,
        q,
        m,
        blocking,
        bo,
        ho,
        region,
        brp,
        bsp,
        hrp,
        hsp,
        ptr,
        n,
        list,
        out,
    )
}

/// `clEnqueueCopyBufferRect` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueCopyBufferRect(
    q: *mut c_void,
    src: *mut c_void,
    dst: *mut c_void,
    so: *const usize,
    d_o: *const usize,
    region: *const usize,
    srp: usize,
    ssp: usize,
    drp: usize,
    dsp: usize,
    n: u32,
    list: *const *mut c_void,
    out: *mut *mut c_void,
) -> i32 {
    guard("clEnqueueCopyBufferRect", || {
        let queue = handle::get::<Queue>(q)?;
        let (s, d) = (handle::get::<Mem>(src)?, handle::get::<Mem>(dst)?);
        let region = triple(region, "region")?;
        let sr = Rect::new(triple(so, "src_origin")?, srp, ssp, region)?;
        let dr = Rect::new(triple(d_o, "dst_origin")?, drp, dsp, region)?;
        let w = wait_list(n, list)?;
        give_event(enqueue::rect_copy(&queue, s, d, sr, dr, region, w)?, out);
        Ok(())
    })
}

/// `clEnqueueMapBuffer` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueMapBuffer(
    q: *mut c_void,
    m: *mut c_void,
    blocking: u32,
    flags: u64,
    offset: usize,
    size: usize,
    n: u32,
    list: *const *mut c_void,
    out: *mut *mut c_void,
    errcode_ret: *mut i32,
) -> *mut c_void {
    guard_obj("clEnqueueMapBuffer", errcode_ret, || {
        let (queue, mem) = (handle::get::<Queue>(q)?, handle::get::<Mem>(m)?);
        let known = crate::cl::mem::MAP_READ
            | crate::cl::mem::MAP_WRITE
            | crate::cl::mem::MAP_WRITE_INVALIDATE_REGION;
        if flags & !known != 0 {
            return Err(ClError::value(format!("map flags {flags:#x}")));
        }
        let w = wait_list(n, list)?;
        let (ptr, ev) = enqueue::map(&queue, mem, flags, offset, size, w)?;
        finish(ev, blocking, out)?;
        Ok(ptr as *mut c_void)
    })
}

/// `clEnqueueUnmapMemObject` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueUnmapMemObject(
    q: *mut c_void,
    m: *mut c_void,
    ptr: *mut c_void,
    n: u32,
    list: *const *mut c_void,
    out: *mut *mut c_void,
) -> i32 {
    guard("clEnqueueUnmapMemObject", || {
        let (queue, mem) = (handle::get::<Queue>(q)?, handle::get::<Mem>(m)?);
        let w = wait_list(n, list)?;
        give_event(enqueue::unmap(&queue, mem, ptr as usize, w)?, out);
        Ok(())
    })
}

/// `clEnqueueMigrateMemObjects` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueMigrateMemObjects(
    q: *mut c_void,
    num: u32,
    mems: *const *mut c_void,
    _flags: u64,
    n: u32,
    list: *const *mut c_void,
    out: *mut *mut c_void,
) -> i32 {
    guard("clEnqueueMigrateMemObjects", || {
        let queue = handle::get::<Queue>(q)?;
        if num == 0 {
            return Err(ClError::value("no memory objects"));
        }
        for m in slice(mems, num as usize, "mem_objects")? {
            handle::get::<Mem>(*m)?;
        }
        let w = wait_list(n, list)?;
        give_event(
            enqueue::marker(&queue, command::MIGRATE_MEM_OBJECTS, w)?,
            out,
        );
        Ok(())
    })
}

/// `clEnqueueNDRangeKernel` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueNDRangeKernel(
    q: *mut c_void,
    k: *mut c_void,
    dims: u32,
    offset: *const usize,
    global: *const usize,
    local: *const usize,
    n: u32,
    list: *const *mut c_void,
    out: *mut *mut c_void,
) -> i32 {
    guard("clEnqueueNDRangeKernel", || {
        let (queue, kernel) = (handle::get::<Queue>(q)?, handle::get::<Kernel>(k)?);
        if !(1..=3).contains(&dims) {
            return Err(ClError::new(
                err::INVALID_WORK_DIMENSION,
                format!("work_dim {dims} (1, 2 or 3)"),
            ));
        }
        let d = dims as usize;
        if global.is_null() {
            return Err(ClError::new(
                err::INVALID_GLOBAL_WORK_SIZE,
                "global_work_size is NULL",
            ));
        }
        let mut nd = NdRange {
            dims,
            offset: [0; 3],
            global: [1; 3],
            local: None,
        };
        nd.global[..d].copy_from_slice(std::slice::from_raw_parts(global, d));
        if !offset.is_null() {
            nd.offset[..d].copy_from_slice(std::slice::from_raw_parts(offset, d));
        }
        if !local.is_null() {
            let mut l = [1usize; 3];
            l[..d].copy_from_slice(std::slice::from_raw_parts(local, d));
            nd.local = Some(l);
        }
        let w = wait_list(n, list)?;
        give_event(enqueue::ndrange(&queue, &kernel, nd, w)?, out);
        Ok(())
    })
}

/// `clEnqueueTask` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueTask(
    q: *mut c_void,
    k: *mut c_void,
    n: u32,
    list: *const *mut c_void,
    out: *mut *mut c_void,
) -> i32 {
    let one = [1usize];
    clEnqueueNDRangeKernel(
        q,
        k,
        1,
        std::ptr::null(),
        one.as_ptr(),
        one.as_ptr(),
        n,
        list,
        out,
    )
}

/// `clEnqueueNativeKernel` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueNativeKernel(
    q: *mut c_void,
    _f: *const c_void,
    _args: *mut c_void,
    _cb: usize,
    _num: u32,
    _mems: *const *mut c_void,
    _locs: *const *const c_void,
    _n: u32,
    _list: *const *mut c_void,
    _out: *mut *mut c_void,
) -> i32 {
    guard("clEnqueueNativeKernel", || {
        handle::get::<Queue>(q)?;
        Err(ClError::new(
            err::INVALID_OPERATION,
            "the weft device cannot run native (host) kernels",
        ))
    })
}

/// The image commands: the device has no images.
macro_rules! no_image_enqueue {
    ($($name:ident($($a:ident : $t:ty),*);)*) => {$(
        /// An image command: `CL_INVALID_MEM_OBJECT` (OpenCL 1.2).
        ///
        /// # Safety
        /// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
        #[no_mangle]
        pub unsafe extern "C" fn $name(q: *mut c_void, $($a: $t),*) -> i32 {
            $(let _ = $a;)*
            guard(stringify!($name), || {
                handle::get::<Queue>(q)?;
                Err(ClError::new(err::INVALID_MEM_OBJECT, "the weft device has no images"))
            })
        }
    )*};
}

no_image_enqueue! {
    clEnqueueReadImage(i: *mut c_void, b: u32, o: *const usize, r: *const usize, rp: usize,
        sp: usize, p: *mut c_void, n: u32, l: *const *mut c_void, e: *mut *mut c_void);
    clEnqueueWriteImage(i: *mut c_void, b: u32, o: *const usize, r: *const usize, rp: usize,
        sp: usize, p: *const c_void, n: u32, l: *const *mut c_void, e: *mut *mut c_void);
    clEnqueueCopyImage(s: *mut c_void, d: *mut c_void, so: *const usize, dor: *const usize,
        r: *const usize, n: u32, l: *const *mut c_void, e: *mut *mut c_void);
    clEnqueueCopyImageToBuffer(s: *mut c_void, d: *mut c_void, so: *const usize,
        r: *const usize, off: usize, n: u32, l: *const *mut c_void, e: *mut *mut c_void);
    clEnqueueCopyBufferToImage(s: *mut c_void, d: *mut c_void, off: usize,
        dor: *const usize, r: *const usize, n: u32, l: *const *mut c_void, e: *mut *mut c_void);
    clEnqueueFillImage(i: *mut c_void, c: *const c_void, o: *const usize, r: *const usize,
        n: u32, l: *const *mut c_void, e: *mut *mut c_void);
}

/// `clEnqueueMapImage` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueMapImage(
    q: *mut c_void,
    _i: *mut c_void,
    _b: u32,
    _f: u64,
    _o: *const usize,
    _r: *const usize,
    _rp: *mut usize,
    _sp: *mut usize,
    _n: u32,
    _l: *const *mut c_void,
    _e: *mut *mut c_void,
    errcode_ret: *mut i32,
) -> *mut c_void {
    guard_obj("clEnqueueMapImage", errcode_ret, || {
        handle::get::<Queue>(q)?;
        Err::<*mut c_void, _>(ClError::new(
            err::INVALID_MEM_OBJECT,
            "the weft device has no images",
        ))
    })
}

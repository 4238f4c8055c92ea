//! Buffers and sub-buffers (OpenCL 1.2, 5.2, 5.4); images and samplers are not supported
//! (the device has none: `CL_DEVICE_IMAGE_SUPPORT` is false).

use super::{answer, guard, guard_obj, put, unknown_param, val};
use crate::cl::{err, mem as mq};
use crate::context::Context;
use crate::error::{ClError, ClResult};
use crate::handle::{self, ClObj};
use crate::memory::{Mem, MemCallback};
use std::ffi::c_void;
use std::sync::Arc;

/// Check the access and host-pointer flags of a new memory object.
fn check_flags(flags: u64, host_ptr: bool) -> ClResult<()> {
    let known = mq::READ_WRITE
        | mq::WRITE_ONLY
        | mq::READ_ONLY
        | mq::USE_HOST_PTR
        | mq::ALLOC_HOST_PTR
        | mq::COPY_HOST_PTR
        | mq::HOST_WRITE_ONLY
        | mq::HOST_READ_ONLY
        | mq::HOST_NO_ACCESS;
    let access = (flags & (mq::READ_WRITE | mq::WRITE_ONLY | mq::READ_ONLY)).count_ones();
    let host =
        (flags & (mq::HOST_WRITE_ONLY | mq::HOST_READ_ONLY | mq::HOST_NO_ACCESS)).count_ones();
    if flags & !known != 0
        || access > 1
        || host > 1
        || (flags & mq::USE_HOST_PTR != 0 && flags & (mq::ALLOC_HOST_PTR | mq::COPY_HOST_PTR) != 0)
    {
        return Err(ClError::value(format!("memory flags {flags:#x}")));
    }
    let needs = flags & (mq::USE_HOST_PTR | mq::COPY_HOST_PTR) != 0;
    if needs != host_ptr {
        return Err(ClError::new(
            err::INVALID_HOST_PTR,
            if needs {
                "CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR without a host_ptr"
            } else {
                "a host_ptr without CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR"
            },
        ));
    }
    Ok(())
}

fn publish_mem(m: Mem) -> *mut c_void {
    let obj = ClObj::new(m);
    let h = handle::publish(obj.clone());
    obj.set_handle(h);
    h
}

/// `clCreateBuffer` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clCreateBuffer(
    c: *mut c_void,
    flags: u64,
    size: usize,
    host_ptr: *mut c_void,
    errcode_ret: *mut i32,
) -> *mut c_void {
    guard_obj("clCreateBuffer", errcode_ret, || {
        let ctx = handle::get::<Context>(c)?;
        let flags = if flags == 0 { mq::READ_WRITE } else { flags };
        check_flags(flags, !host_ptr.is_null())?;
        if size == 0 || size as u64 > ctx.global_mem() {
            return Err(ClError::new(
                err::INVALID_BUFFER_SIZE,
                format!("a buffer of {size} bytes (1 to {})", ctx.global_mem()),
            ));
        }
        let m = Mem::buffer(ctx.clone(), flags, size, host_ptr as usize)?;
        if flags & (mq::USE_HOST_PTR | mq::COPY_HOST_PTR) != 0 {
            // SAFETY: the program gives `size` bytes at host_ptr.
            let data = std::slice::from_raw_parts(host_ptr as *const u8, size).to_vec();
            let addr = m.addr;
            ctx.engine.call(move |e| e.write(addr, &data))?;
        }
        Ok(publish_mem(m))
    })
}

#[repr(C)]
struct Region {
    origin: usize,
    size: usize,
}

/// `clCreateSubBuffer` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clCreateSubBuffer(
    b: *mut c_void,
    flags: u64,
    ty: u32,
    info: *const c_void,
    errcode_ret: *mut i32,
) -> *mut c_void {
    guard_obj("clCreateSubBuffer", errcode_ret, || {
        let parent = handle::get::<Mem>(b)?;
        if parent.parent.is_some() {
            return Err(ClError::new(
                err::INVALID_MEM_OBJECT,
                "a sub-buffer of a sub-buffer",
            ));
        }
        if ty != mq::BUFFER_CREATE_TYPE_REGION || info.is_null() {
            return Err(ClError::value(
                "buffer_create_type must be CL_BUFFER_CREATE_TYPE_REGION",
            ));
        }
        let r = &*(info as *const Region);
        if r.size == 0 {
            return Err(ClError::new(
                err::INVALID_BUFFER_SIZE,
                "a region of 0 bytes",
            ));
        }
        parent.check(r.origin, r.size)?;
        if !r.origin.is_multiple_of(64) {
            return Err(ClError::new(
                err::MISALIGNED_SUB_BUFFER_OFFSET,
                format!("origin {} is not a multiple of 64 bytes", r.origin),
            ));
        }
        if flags & (mq::USE_HOST_PTR | mq::ALLOC_HOST_PTR | mq::COPY_HOST_PTR) != 0 {
            return Err(ClError::value("host pointer flags on a sub-buffer"));
        }
        let inherit = mq::USE_HOST_PTR | mq::ALLOC_HOST_PTR | mq::COPY_HOST_PTR;
        let access = mq::READ_WRITE | mq::WRITE_ONLY | mq::READ_ONLY;
        let host = mq::HOST_WRITE_ONLY | mq::HOST_READ_ONLY | mq::HOST_NO_ACCESS;
        let mut f = (parent.flags & inherit) | (flags & (access | host));
        if flags & access == 0 {
            f |= parent.flags & access;
        }
        if flags & host == 0 {
            f |= parent.flags & host;
        }
        check_flags(f & !inherit, false)?;
        let pa = parent.flags & access;
        if (pa == mq::READ_ONLY && f & (mq::WRITE_ONLY | mq::READ_WRITE) != 0)
            || (pa == mq::WRITE_ONLY && f & (mq::READ_ONLY | mq::READ_WRITE) != 0)
        {
            return Err(ClError::value(
                "the sub-buffer's access is wider than its buffer's",
            ));
        }
        Ok(publish_mem(Mem::sub(parent.clone(), f, r.origin, r.size)))
    })
}

/// `clRetainMemObject` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clRetainMemObject(m: *mut c_void) -> i32 {
    guard("clRetainMemObject", || handle::retain::<Mem>(m))
}

/// `clReleaseMemObject` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clReleaseMemObject(m: *mut c_void) -> i32 {
    guard("clReleaseMemObject", || handle::release::<Mem>(m))
}

/// `clGetMemObjectInfo` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clGetMemObjectInfo(
    m: *mut c_void,
    param: u32,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> i32 {
    guard("clGetMemObjectInfo", || {
        let mem = handle::get::<Mem>(m)?;
        let v = match param {
            mq::TYPE => val::u32(mq::OBJECT_BUFFER),
            mq::FLAGS => val::u64(mem.flags),
            mq::SIZE => val::size(mem.size),
            mq::HOST_PTR => val::size(mem.host_ptr),
            mq::MAP_COUNT => val::u32(handle::lock(&mem.maps).len() as u32),
            mq::REFERENCE_COUNT => val::u32(mem.ref_count()),
            mq::CONTEXT => val::ptr(handle::handle(&mem.context)),
            mq::ASSOCIATED_MEMOBJECT => val::ptr(
                mem.parent
                    .as_ref()
                    .map_or(std::ptr::null_mut(), |(p, _)| handle::handle(p)),
            ),
            mq::OFFSET => val::size(mem.parent.as_ref().map_or(0, |(_, o)| *o)),
            _ => return Err(unknown_param(param)),
        };
        answer(&v, size, value, size_ret)
    })
}

/// `clSetMemObjectDestructorCallback` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clSetMemObjectDestructorCallback(
    m: *mut c_void,
    f: Option<MemCallback>,
    data: *mut c_void,
) -> i32 {
    guard("clSetMemObjectDestructorCallback", || {
        let mem = handle::get::<Mem>(m)?;
        let Some(f) = f else {
            return Err(ClError::value("pfn_notify is NULL"));
        };
        mem.on_destroy(f, data);
        Ok(())
    })
}

fn no_images() -> ClError {
    ClError::new(
        err::INVALID_OPERATION,
        "the weft device has no images (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE)",
    )
}

/// `clCreateImage` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clCreateImage(
    c: *mut c_void,
    _flags: u64,
    _format: *const c_void,
    _desc: *const c_void,
    _host: *mut c_void,
    errcode_ret: *mut i32,
) -> *mut c_void {
    guard_obj("clCreateImage", errcode_ret, || {
        handle::get::<Context>(c)?;
        Err::<*mut c_void, _>(no_images())
    })
}

/// `clCreateImage2D` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clCreateImage2D(
    c: *mut c_void,
    _flags: u64,
    _format: *const c_void,
    _w: usize,
    _h: usize,
    _pitch: usize,
    _host: *mut c_void,
    errcode_ret: *mut i32,
) -> *mut c_void {
    guard_obj("clCreateImage2D", errcode_ret, || {
        handle::get::<Context>(c)?;
        Err::<*mut c_void, _>(no_images())
    })
}

/// `clCreateImage3D` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clCreateImage3D(
    c: *mut c_void,
    _flags: u64,
    _format: *const c_void,
    _w: usize,
    _h: usize,
    _d: usize,
    _rp: usize,
    _sp: usize,
    _host: *mut c_void,
    errcode_ret: *mut i32,
) -> *mut c_void {
    guard_obj("clCreateImage3D", errcode_ret, || {
        handle::get::<Context>(c)?;
        Err::<*mut c_void, _>(no_images())
    })
}

/// `clGetSupportedImageFormats` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clGetSupportedImageFormats(
    c: *mut c_void,
    _flags: u64,
    _ty: u32,
    _n: u32,
    _formats: *mut c_void,
    num: *mut u32,
) -> i32 {
    guard("clGetSupportedImageFormats", || {
        handle::get::<Context>(c)?;
        put(num, 0);
        Ok(())
    })
}

/// `clGetImageInfo` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clGetImageInfo(
    m: *mut c_void,
    _param: u32,
    _size: usize,
    _value: *mut c_void,
    _size_ret: *mut usize,
) -> i32 {
    guard("clGetImageInfo", || {
        handle::get::<Mem>(m)?;
        Err(ClError::new(err::INVALID_MEM_OBJECT, "not an image"))
    })
}

/// `clCreateSampler` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clCreateSampler(
    c: *mut c_void,
    _norm: u32,
    _addr: u32,
    _filter: u32,
    errcode_ret: *mut i32,
) -> *mut c_void {
    guard_obj("clCreateSampler", errcode_ret, || {
        handle::get::<Context>(c)?;
        Err::<*mut c_void, _>(no_images())
    })
}

/// `clRetainSampler` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clRetainSampler(_s: *mut c_void) -> i32 {
    guard("clRetainSampler", || {
        Err(ClError::new(err::INVALID_SAMPLER, "no samplers"))
    })
}

/// `clReleaseSampler` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clReleaseSampler(_s: *mut c_void) -> i32 {
    guard("clReleaseSampler", || {
        Err(ClError::new(err::INVALID_SAMPLER, "no samplers"))
    })
}

/// `clGetSamplerInfo` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clGetSamplerInfo(
    _s: *mut c_void,
    _param: u32,
    _size: usize,
    _value: *mut c_void,
    _size_ret: *mut usize,
) -> i32 {
    guard("clGetSamplerInfo", || {
        Err(ClError::new(err::INVALID_SAMPLER, "no samplers"))
    })
}

/// A buffer handle of the program's (for kernel arguments).
pub(crate) fn mem_of(h: usize) -> ClResult<Option<Arc<ClObj<Mem>>>> {
    handle::get::<Mem>(h as *const c_void).map(Some)
}

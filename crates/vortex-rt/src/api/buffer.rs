//! Buffers: `vx_buffer_create/reserve/retain/release/address/access/map/unmap`.

use super::{guard, put};
use crate::buffer::Buffer;
use crate::device::Device;
use crate::handles;
use std::ffi::{c_int, c_void};
use std::sync::Arc;

/// `size` bytes of device memory (`flags`, Vortex's access flags, are not enforced).
///
/// # Safety
/// `dev` is a handle or null; `out` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_buffer_create(
    dev: *mut c_void,
    size: u64,
    _flags: u32,
    out: *mut *mut c_void,
) -> c_int {
    guard(|| {
        let d = handles::get::<Device>(dev)?;
        let r = d.alloc(size)?;
        put(out, handles::handle(Arc::new(Buffer::new(d, r))))
    })
}

/// Device memory at a fixed address outside the heap (an image in DRAM, the I/O area).
///
/// # Safety
/// `dev` is a handle or null; `out` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_buffer_reserve(
    dev: *mut c_void,
    address: u64,
    size: u64,
    _flags: u32,
    out: *mut *mut c_void,
) -> c_int {
    guard(|| {
        let d = handles::get::<Device>(dev)?;
        let r = d.reserve(address, size)?;
        put(out, handles::handle(Arc::new(Buffer::new(d, r))))
    })
}

/// # Safety
/// `buf` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_buffer_retain(buf: *mut c_void) -> c_int {
    guard(|| handles::retain::<Buffer>(buf))
}

/// # Safety
/// `buf` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_buffer_release(buf: *mut c_void) -> c_int {
    guard(|| handles::release::<Buffer>(buf))
}

/// # Safety
/// `buf` is a handle or null; `out` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_buffer_address(buf: *mut c_void, out: *mut u64) -> c_int {
    guard(|| put(out, handles::get::<Buffer>(buf)?.region.addr as u64))
}

/// # Safety
/// `buf` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_buffer_access(
    buf: *mut c_void,
    offset: u64,
    size: u64,
    _flags: u32,
) -> c_int {
    guard(|| handles::get::<Buffer>(buf)?.access(offset, size))
}

/// Map `[offset, offset + size)` now: a host block holding the device's bytes if `flags`
/// has `VX_MEM_READ`; written back at unmap if it has `VX_MEM_WRITE`. The map is ordered
/// with nothing: a queue's pending commands are not waited for.
///
/// # Safety
/// `buf` is a handle or null; `out` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_buffer_map(
    buf: *mut c_void,
    offset: u64,
    size: u64,
    flags: u32,
    out: *mut *mut c_void,
) -> c_int {
    guard(|| {
        let b = handles::get::<Buffer>(buf)?;
        if out.is_null() {
            return Err(crate::error::VxError::Invalid(
                "a null output pointer".into(),
            ));
        }
        put(out, b.map(offset, size, flags)? as *mut c_void)
    })
}

/// # Safety
/// `buf` is a handle or null; `host_ptr` the pointer its map returned.
#[no_mangle]
pub unsafe extern "C" fn vx_buffer_unmap(buf: *mut c_void, host_ptr: *mut c_void) -> c_int {
    guard(|| handles::get::<Buffer>(buf)?.unmap(host_ptr as usize))
}

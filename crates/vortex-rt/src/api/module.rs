//! Modules and kernels: `vx_module_load_file/load_bytes/retain/release/get_kernel`,
//! `vx_kernel_retain/release/get_max_block_size`.

use super::{guard, put};
use crate::device::{caps, Device};
use crate::error::{VxError, VxResult};
use crate::handles;
use crate::module::{Kernel, Module};
use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::Arc;

/// A NUL-terminated string from C.
///
/// # Safety
/// `s` is null or NUL-terminated.
pub(crate) unsafe fn text(s: *const c_char) -> VxResult<String> {
    if s.is_null() {
        return Err(VxError::Invalid("a null string".into()));
    }
    Ok(CStr::from_ptr(s).to_string_lossy().into_owned())
}

/// Read a file the host names.
pub(crate) fn read_file(path: &str) -> VxResult<Vec<u8>> {
    std::fs::read(path).map_err(|e| VxError::Invalid(format!("{path}: {e}")))
}

fn load(dev: *mut c_void, bytes: &[u8], out: *mut *mut c_void) -> VxResult<()> {
    let d = handles::get::<Device>(dev)?;
    if out.is_null() {
        return Err(VxError::Invalid("a null output pointer".into()));
    }
    let m = Arc::new(Module::load(&d, bytes)?);
    // SAFETY: checked non-null; the caller passes writable storage.
    unsafe { put(out, handles::handle(m)) }
}

/// Load a `.vxbin` file at its own addresses.
///
/// # Safety
/// `dev` is a handle or null; `path` null or NUL-terminated; `out` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_module_load_file(
    dev: *mut c_void,
    path: *const c_char,
    out: *mut *mut c_void,
) -> c_int {
    guard(|| load(dev, &read_file(&text(path)?)?, out))
}

/// # Safety
/// `dev` is a handle or null; `bytes` points to `size` bytes; `out` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_module_load_bytes(
    dev: *mut c_void,
    bytes: *const c_void,
    size: usize,
    out: *mut *mut c_void,
) -> c_int {
    guard(|| {
        if bytes.is_null() {
            return Err(VxError::Invalid("a null image".into()));
        }
        load(
            dev,
            std::slice::from_raw_parts(bytes as *const u8, size),
            out,
        )
    })
}

/// # Safety
/// `m` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_module_retain(m: *mut c_void) -> c_int {
    guard(|| handles::retain::<Module>(m))
}

/// # Safety
/// `m` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_module_release(m: *mut c_void) -> c_int {
    guard(|| handles::release::<Module>(m))
}

/// The kernel called `name` (from the image's footer; `main` in an image without one).
///
/// # Safety
/// `m` is a handle or null; `name` null or NUL-terminated; `out` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_module_get_kernel(
    m: *mut c_void,
    name: *const c_char,
    out: *mut *mut c_void,
) -> c_int {
    guard(|| {
        let m = handles::get::<Module>(m)?;
        let k = m.kernel(&text(name)?)?;
        put(out, handles::handle(Arc::new(k)))
    })
}

/// # Safety
/// `k` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_kernel_retain(k: *mut c_void) -> c_int {
    guard(|| handles::retain::<Kernel>(k))
}

/// # Safety
/// `k` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_kernel_release(k: *mut c_void) -> c_int {
    guard(|| handles::release::<Kernel>(k))
}

/// The device's natural block: (threads, warps, 1).
///
/// # Safety
/// `k` is a handle or null; the outputs null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_kernel_get_max_block_size(
    k: *mut c_void,
    x: *mut u32,
    y: *mut u32,
    z: *mut u32,
) -> c_int {
    guard(|| {
        let k = handles::get::<Kernel>(k)?;
        let d = &k.module.image.dev;
        if x.is_null() || y.is_null() || z.is_null() {
            return Err(VxError::Invalid("a null output pointer".into()));
        }
        put(x, d.caps(caps::NUM_THREADS)? as u32)?;
        put(y, d.caps(caps::NUM_WARPS)? as u32)?;
        put(z, 1)
    })
}

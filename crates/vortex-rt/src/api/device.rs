//! Devices: `vx_device_count/open/retain/release/query/memory_info/dump_perf`,
//! `vx_device_max_occupancy_grid`, and `vx_result_string`.

use super::{guard, put, write_stream};
use crate::device::{caps, Device};
use crate::error::{code, VxError, VxResult};
use crate::handles;
use std::ffi::{c_char, c_int, c_void};

/// `vx_result_string`: Vortex's name of a result code.
#[no_mangle]
pub extern "C" fn vx_result_string(r: c_int) -> *const c_char {
    code::cname(r).as_ptr()
}

/// # Safety
/// `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_device_count(out: *mut u32) -> c_int {
    guard(|| put(out, 1))
}

/// Open device `index` (0: weft has one), configured from the environment.
///
/// # Safety
/// `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_device_open(index: u32, out: *mut *mut c_void) -> c_int {
    guard(|| {
        if out.is_null() || index != 0 {
            return Err(VxError::Invalid(format!("device {index}")));
        }
        let d = Device::open()?;
        put(out, handles::handle(d))
    })
}

/// # Safety
/// `dev` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_device_retain(dev: *mut c_void) -> c_int {
    guard(|| handles::retain::<Device>(dev))
}

/// # Safety
/// `dev` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_device_release(dev: *mut c_void) -> c_int {
    guard(|| handles::release::<Device>(dev))
}

/// # Safety
/// `dev` is a handle or null; `out` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_device_query(dev: *mut c_void, caps_id: u32, out: *mut u64) -> c_int {
    guard(|| {
        let d = handles::get::<Device>(dev)?;
        put(out, d.caps(caps_id)?)
    })
}

/// # Safety
/// `dev` is a handle or null; the outputs null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_device_memory_info(
    dev: *mut c_void,
    free: *mut u64,
    used: *mut u64,
) -> c_int {
    guard(|| {
        let (f, u) = handles::get::<Device>(dev)?.mem_info();
        if !free.is_null() {
            free.write(f);
        }
        if !used.is_null() {
            used.write(u);
        }
        Ok(())
    })
}

/// # Safety
/// `dev` is a handle or null; `stream` null or an open `FILE *`.
#[no_mangle]
pub unsafe extern "C" fn vx_device_dump_perf(dev: *mut c_void, stream: *mut c_void) -> c_int {
    guard(|| {
        let text = handles::get::<Device>(dev)?.perf_text()?;
        write_stream(stream, &text)
    })
}

/// The block (threads, warps, 1 per dimension) and grid (`⌈global / block⌉`) Vortex picks.
///
/// # Safety
/// The arrays hold `ndim` elements.
pub(crate) unsafe fn occupancy_grid(
    d: &Device,
    ndim: u32,
    global: *const u32,
    grid: *mut u32,
    block: *mut u32,
) -> VxResult<()> {
    if !(1..=3).contains(&ndim) || global.is_null() || grid.is_null() || block.is_null() {
        return Err(VxError::Invalid("occupancy grid arguments".into()));
    }
    let natural = [d.caps(caps::NUM_THREADS)?, d.caps(caps::NUM_WARPS)?, 1];
    for (i, &b) in natural.iter().enumerate().take(ndim as usize) {
        let b = b as u32;
        block.add(i).write(b);
        grid.add(i).write(global.add(i).read().div_ceil(b));
    }
    Ok(())
}

/// # Safety
/// `dev` is a handle or null; the arrays hold `ndim` elements.
#[no_mangle]
pub unsafe extern "C" fn vx_device_max_occupancy_grid(
    dev: *mut c_void,
    ndim: u32,
    global_dim: *const u32,
    grid_out: *mut u32,
    block_out: *mut u32,
) -> c_int {
    guard(|| {
        let d = handles::get::<Device>(dev)?;
        occupancy_grid(&d, ndim, global_dim, grid_out, block_out)
    })
}

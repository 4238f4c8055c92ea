//! Events: `vx_event_create/signal/get_value/wait_value/wait_values/retain/release/
//! get_profiling`.

use super::{guard, put};
use crate::device::Device;
use crate::error::VxError;
use crate::event::{timeout_ns, Event, ProfileInfo};
use crate::handles;
use std::ffi::{c_int, c_void};
use std::sync::Arc;
use std::time::Instant;

/// A host event: a timeline at 0.
///
/// # Safety
/// `dev` is a handle or null; `out` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_event_create(dev: *mut c_void, out: *mut *mut c_void) -> c_int {
    guard(|| {
        handles::get::<Device>(dev)?;
        if out.is_null() {
            return Err(VxError::Invalid("a null output pointer".into()));
        }
        put(out, handles::handle(Arc::new(Event::default())))
    })
}

/// # Safety
/// `ev` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_event_signal(ev: *mut c_void, value: u64) -> c_int {
    guard(|| {
        handles::get::<Event>(ev)?.signal(value);
        Ok(())
    })
}

/// # Safety
/// `ev` is a handle or null; `out` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_event_get_value(ev: *mut c_void, out: *mut u64) -> c_int {
    guard(|| put(out, handles::get::<Event>(ev)?.value()))
}

/// Wait until the event reaches `value` (`VX_ERR_TIMEOUT` after `timeout_ns`; all ones: no
/// limit); a failed event returns its failure's code.
///
/// # Safety
/// `ev` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_event_wait_value(ev: *mut c_void, value: u64, timeout: u64) -> c_int {
    guard(|| handles::get::<Event>(ev)?.wait(value, timeout_ns(timeout)))
}

/// Wait for every event to reach its value, within one time limit in all.
///
/// # Safety
/// `evs` and `values` are null or hold `n` elements.
#[no_mangle]
pub unsafe extern "C" fn vx_event_wait_values(
    n: u32,
    evs: *const *mut c_void,
    values: *const u64,
    timeout: u64,
) -> c_int {
    guard(|| {
        if n != 0 && (evs.is_null() || values.is_null()) {
            return Err(VxError::Invalid("a null event list".into()));
        }
        let deadline = timeout_ns(timeout).map(|t| Instant::now() + t);
        for i in 0..n as usize {
            let ev = handles::get::<Event>(*evs.add(i))?;
            let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            ev.wait(*values.add(i), left)?;
        }
        Ok(())
    })
}

/// # Safety
/// `ev` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_event_retain(ev: *mut c_void) -> c_int {
    guard(|| handles::retain::<Event>(ev))
}

/// # Safety
/// `ev` is a handle or null.
#[no_mangle]
pub unsafe extern "C" fn vx_event_release(ev: *mut c_void) -> c_int {
    guard(|| handles::release::<Event>(ev))
}

/// The command's timestamps (`VX_ERR_NOT_SUPPORTED` unless its queue profiles).
///
/// # Safety
/// `ev` is a handle or null; `out` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_event_get_profiling(ev: *mut c_void, out: *mut ProfileInfo) -> c_int {
    guard(|| {
        let e = handles::get::<Event>(ev)?;
        if out.is_null() {
            return Err(VxError::Invalid("a null output pointer".into()));
        }
        put(out, e.profile()?)
    })
}

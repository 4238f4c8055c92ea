//! The C entry points, grouped as `vortex2.h` groups them, and the classic `vortex.h` API
//! layered over the same objects (as Vortex layers it). Every entry point checks its handles
//! and pointers, runs its body under a guard that turns an error into Vortex's code (a
//! message on stderr says what went wrong) and a panic into `VX_ERR_INTERNAL`, and never
//! unwinds into C.

pub mod buffer;
pub mod device;
pub mod event;
pub mod legacy;
pub mod module;
pub mod queue;

use crate::error::{code, VxError, VxResult};
use crate::event::Event;
use crate::handles;
use std::ffi::c_void;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

/// Say what went wrong, except for what a caller expects to happen (a wait's time limit, a
/// failure already reported by the command that failed).
pub(crate) fn report(e: &VxError) {
    if !matches!(e, VxError::Timeout | VxError::Dependency(_)) {
        eprintln!("libvortex (weft): {e}");
    }
}

/// Run an entry point's body: `VX_SUCCESS` or the error's `vx_result_t` code.
pub(crate) fn guard(f: impl FnOnce() -> VxResult<()>) -> i32 {
    match std::panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => code::SUCCESS,
        Ok(Err(e)) => {
            report(&e);
            e.code()
        }
        Err(_) => {
            eprintln!("libvortex (weft): internal error");
            code::INTERNAL
        }
    }
}

/// Store `v` through an out-pointer the caller passed (null: `VX_ERR_INVALID_VALUE`).
///
/// # Safety
/// `p` is null or valid for a write of `T`.
pub(crate) unsafe fn put<T>(p: *mut T, v: T) -> VxResult<()> {
    if p.is_null() {
        return Err(VxError::Invalid("a null output pointer".into()));
    }
    p.write(v);
    Ok(())
}

/// The events of a wait list.
///
/// # Safety
/// `list` is null or points to `n` handles.
pub(crate) unsafe fn wait_list(n: u32, list: *const *mut c_void) -> VxResult<Vec<Arc<Event>>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    if list.is_null() {
        return Err(VxError::Invalid("a null wait list".into()));
    }
    std::slice::from_raw_parts(list, n as usize)
        .iter()
        .map(|&h| handles::get::<Event>(h))
        .collect()
}

/// Hand the caller a command's event if it asked for one.
///
/// # Safety
/// `out` is null or valid for a write of a handle.
pub(crate) unsafe fn out_event(out: *mut *mut c_void, ev: Arc<Event>) {
    if !out.is_null() {
        out.write(handles::handle(ev));
    }
}

extern "C" {
    fn fflush(stream: *mut c_void) -> std::ffi::c_int;
    fn fputs(s: *const std::ffi::c_char, stream: *mut c_void) -> std::ffi::c_int;
}

/// Write text to a C `FILE *` (null: the process's stdout, after C's buffered output).
///
/// # Safety
/// `stream` is null or an open `FILE *`.
pub(crate) unsafe fn write_stream(stream: *mut c_void, text: &str) -> VxResult<()> {
    if stream.is_null() {
        use std::io::Write;
        fflush(std::ptr::null_mut());
        let mut out = std::io::stdout().lock();
        return out
            .write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| VxError::Internal(e.to_string()));
    }
    let c = std::ffi::CString::new(text).map_err(|e| VxError::Internal(e.to_string()))?;
    if fputs(c.as_ptr(), stream) < 0 {
        return Err(VxError::Internal("cannot write the stream".into()));
    }
    Ok(())
}

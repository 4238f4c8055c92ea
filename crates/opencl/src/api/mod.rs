//! The C entry points, grouped as OpenCL 1.2's chapters group them. Every one checks its
//! handles and pointers, runs its body under a guard that turns an error into its OpenCL code
//! (with a line on stderr saying what was wrong, unless `WEFT_OPENCL_QUIET` is set) and a
//! panic into `CL_OUT_OF_HOST_MEMORY`, and never unwinds into C.

pub mod enqueue;
pub mod mem;
pub mod platform;
pub mod program;
pub mod queue;

use crate::cl::err;
use crate::error::{ClError, ClResult};
use crate::event::Event;
use crate::handle::{self, ClObj};
use std::ffi::c_void;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, LazyLock};

static QUIET: LazyLock<bool> = LazyLock::new(|| std::env::var_os("WEFT_OPENCL_QUIET").is_some());

fn report(func: &str, e: &ClError) {
    if !*QUIET {
        eprintln!("weft OpenCL: {func}: {e}");
    }
}

/// Run an entry point's body: `CL_SUCCESS` or the error's code.
pub(crate) fn guard(func: &str, f: impl FnOnce() -> ClResult<()>) -> i32 {
    match std::panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => err::SUCCESS,
        Ok(Err(e)) => {
            report(func, &e);
            e.code
        }
        Err(_) => {
            eprintln!("weft OpenCL: {func}: internal error");
            err::OUT_OF_HOST_MEMORY
        }
    }
}

/// Run the body of an entry point that returns an object (or a pointer) and an error code
/// through `errcode_ret`: the object, or null and the code.
///
/// # Safety
/// `errcode_ret` is null or valid for a write.
pub(crate) unsafe fn guard_obj<T>(
    func: &str,
    errcode_ret: *mut i32,
    f: impl FnOnce() -> ClResult<*mut T>,
) -> *mut T {
    let mut out = std::ptr::null_mut();
    let code = guard(func, || {
        out = f()?;
        Ok(())
    });
    if !errcode_ret.is_null() {
        errcode_ret.write(code);
    }
    out
}

/// An information query's answer: OpenCL's rules for `param_value_size`, `param_value` and
/// `param_value_size_ret`.
///
/// # Safety
/// `value` is null or valid for `size` bytes; `size_ret` null or valid for a write.
pub(crate) unsafe fn answer(
    bytes: &[u8],
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> ClResult<()> {
    if !value.is_null() {
        if size < bytes.len() {
            return Err(ClError::value(format!(
                "param_value_size {size} is less than the {} bytes of the answer",
                bytes.len()
            )));
        }
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), value as *mut u8, bytes.len());
    }
    if !size_ret.is_null() {
        size_ret.write(bytes.len());
    }
    Ok(())
}

/// Answers, as bytes.
pub(crate) mod val {
    pub fn u32(v: u32) -> Vec<u8> {
        v.to_ne_bytes().to_vec()
    }
    pub fn i32(v: i32) -> Vec<u8> {
        v.to_ne_bytes().to_vec()
    }
    pub fn u64(v: u64) -> Vec<u8> {
        v.to_ne_bytes().to_vec()
    }
    pub fn size(v: usize) -> Vec<u8> {
        v.to_ne_bytes().to_vec()
    }
    pub fn sizes(v: &[usize]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_ne_bytes()).collect()
    }
    pub fn ptr(p: *mut std::ffi::c_void) -> Vec<u8> {
        (p as usize).to_ne_bytes().to_vec()
    }
    pub fn bool(b: bool) -> Vec<u8> {
        u32(b as u32)
    }
    pub fn str(s: &str) -> Vec<u8> {
        let mut v = s.as_bytes().to_vec();
        v.push(0);
        v
    }
}

/// `CL_INVALID_VALUE` for an unknown `param_name`.
pub(crate) fn unknown_param(p: u32) -> ClError {
    ClError::value(format!("unknown param_name {p:#06x}"))
}

/// Store `v` through an out-pointer that may be null.
///
/// # Safety
/// `p` is null or valid for a write of `T`.
pub(crate) unsafe fn put<T>(p: *mut T, v: T) {
    if !p.is_null() {
        p.write(v);
    }
}

/// The events of a wait list.
///
/// # Safety
/// `list` is null or points to `n` handles.
pub(crate) unsafe fn wait_list(
    n: u32,
    list: *const *mut c_void,
) -> ClResult<Vec<Arc<ClObj<Event>>>> {
    if (n == 0) != list.is_null() {
        return Err(ClError::new(
            err::INVALID_EVENT_WAIT_LIST,
            "num_events_in_wait_list and event_wait_list disagree",
        ));
    }
    (0..n as usize)
        .map(|i| {
            handle::get::<Event>(*list.add(i)).map_err(|_| {
                ClError::new(
                    err::INVALID_EVENT_WAIT_LIST,
                    format!("event {i} of the wait list is not a valid event"),
                )
            })
        })
        .collect()
}

/// Give the program a new event's handle if it asked for one.
///
/// # Safety
/// `out` is null or valid for a write.
pub(crate) unsafe fn give_event(ev: Arc<ClObj<Event>>, out: *mut *mut c_void) {
    if !out.is_null() {
        let h = handle::publish(ev.clone());
        ev.set_handle(h);
        out.write(h);
    }
}

/// Read `n` elements at `p` (null: `CL_INVALID_VALUE` naming `what`).
///
/// # Safety
/// `p` is null or valid for `n` reads.
pub(crate) unsafe fn slice<'a, T>(p: *const T, n: usize, what: &str) -> ClResult<&'a [T]> {
    if p.is_null() {
        if n == 0 {
            return Ok(&[]);
        }
        return Err(ClError::value(format!("{what} is NULL")));
    }
    Ok(std::slice::from_raw_parts(p, n))
}

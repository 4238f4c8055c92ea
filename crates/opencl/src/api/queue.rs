//! Command queues, events, flush and finish (OpenCL 1.2, 5.1, 5.9, 5.12, 5.13).

use super::platform::check_device;
use super::{answer, give_event, guard, guard_obj, unknown_param, val, wait_list};
use crate::cl::{self, err, event as eq, queue as qq};
use crate::context::Context;
use crate::error::{ClError, ClResult};
use crate::event::{user_status_ok, Event, EventCallback};
use crate::handle::{self, ClObj};
use crate::object::device_handle;
use crate::queue::Queue;
use std::ffi::c_void;

/// `clCreateCommandQueue` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clCreateCommandQueue(
    c: *mut c_void,
    d: *mut c_void,
    props: u64,
    errcode_ret: *mut i32,
) -> *mut c_void {
    guard_obj("clCreateCommandQueue", errcode_ret, || {
        let ctx = handle::get::<Context>(c)?;
        check_device(d)?;
        let known = qq::PROFILING_ENABLE | qq::OUT_OF_ORDER_EXEC_MODE_ENABLE;
        if props & !known != 0 {
            return Err(ClError::value(format!("queue properties {props:#x}")));
        }
        if props & qq::OUT_OF_ORDER_EXEC_MODE_ENABLE != 0 {
            return Err(ClError::new(
                err::INVALID_QUEUE_PROPERTIES,
                "the weft device runs commands in order",
            ));
        }
        Ok(handle::publish(ClObj::new(Queue::new(ctx, props)?)))
    })
}

/// `clRetainCommandQueue` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clRetainCommandQueue(q: *mut c_void) -> i32 {
    guard("clRetainCommandQueue", || handle::retain::<Queue>(q))
}

/// `clReleaseCommandQueue` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clReleaseCommandQueue(q: *mut c_void) -> i32 {
    guard("clReleaseCommandQueue", || {
        let queue = handle::get::<Queue>(q)?;
        if queue.ref_count() == 1 {
            queue.finish();
        }
        handle::release::<Queue>(q)
    })
}

/// `clGetCommandQueueInfo` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clGetCommandQueueInfo(
    q: *mut c_void,
    param: u32,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> i32 {
    guard("clGetCommandQueueInfo", || {
        let queue = handle::get::<Queue>(q)?;
        let v = match param {
            qq::CONTEXT => val::ptr(handle::handle(&queue.context)),
            qq::DEVICE => val::ptr(device_handle()),
            qq::REFERENCE_COUNT => val::u32(queue.ref_count()),
            qq::PROPERTIES => val::u64(queue.props),
            _ => return Err(unknown_param(param)),
        };
        answer(&v, size, value, size_ret)
    })
}

/// `clSetCommandQueueProperty` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clSetCommandQueueProperty(
    q: *mut c_void,
    _props: u64,
    _enable: u32,
    _old: *mut u64,
) -> i32 {
    guard("clSetCommandQueueProperty", || {
        handle::get::<Queue>(q)?;
        Err(ClError::new(
            err::INVALID_OPERATION,
            "clSetCommandQueueProperty is not in OpenCL 1.2",
        ))
    })
}

/// `clFlush` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clFlush(q: *mut c_void) -> i32 {
    // Commands go to the queue's worker as they are enqueued.
    guard("clFlush", || handle::get::<Queue>(q).map(|_| ()))
}

/// `clFinish` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clFinish(q: *mut c_void) -> i32 {
    guard("clFinish", || {
        handle::get::<Queue>(q)?.finish();
        Ok(())
    })
}

/// `clWaitForEvents` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clWaitForEvents(n: u32, list: *const *mut c_void) -> i32 {
    guard("clWaitForEvents", || {
        if n == 0 || list.is_null() {
            return Err(ClError::value("no events to wait for"));
        }
        let evs = wait_list(n, list).map_err(|e| ClError::new(err::INVALID_EVENT, e.msg))?;
        if evs
            .windows(2)
            .any(|w| !std::sync::Arc::ptr_eq(&w[0].context, &w[1].context))
        {
            return Err(ClError::new(
                err::INVALID_CONTEXT,
                "events of different contexts",
            ));
        }
        let mut failed = false;
        for e in &evs {
            failed |= e.wait() < 0;
        }
        if failed {
            return Err(ClError::new(
                err::EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                "a command of the list failed",
            ));
        }
        Ok(())
    })
}

/// `clGetEventInfo` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clGetEventInfo(
    e: *mut c_void,
    param: u32,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> i32 {
    guard("clGetEventInfo", || {
        let ev = handle::get::<Event>(e)?;
        let v = match param {
            eq::COMMAND_QUEUE => val::size(ev.queue),
            eq::CONTEXT => val::ptr(handle::handle(&ev.context)),
            eq::COMMAND_TYPE => val::u32(ev.command),
            eq::COMMAND_EXECUTION_STATUS => val::i32(ev.status()),
            eq::REFERENCE_COUNT => val::u32(ev.ref_count()),
            _ => return Err(unknown_param(param)),
        };
        answer(&v, size, value, size_ret)
    })
}

/// `clGetEventProfilingInfo` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clGetEventProfilingInfo(
    e: *mut c_void,
    param: u32,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> i32 {
    guard("clGetEventProfilingInfo", || {
        let ev = handle::get::<Event>(e)?;
        if !ev.profiling || ev.status() != eq::COMPLETE {
            return Err(ClError::new(
                err::PROFILING_INFO_NOT_AVAILABLE,
                "profiling is off for the event's queue, or the command has not completed",
            ));
        }
        let t = ev.times();
        let ns = |c: u64| c * 1000 / super::platform::CLOCK_MHZ as u64;
        let v = match param {
            eq::PROFILING_COMMAND_QUEUED => ns(t[0]),
            eq::PROFILING_COMMAND_SUBMIT => ns(t[1]),
            eq::PROFILING_COMMAND_START => ns(t[2]),
            eq::PROFILING_COMMAND_END => ns(t[3]),
            _ => return Err(unknown_param(param)),
        };
        answer(&val::u64(v), size, value, size_ret)
    })
}

/// `clRetainEvent` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clRetainEvent(e: *mut c_void) -> i32 {
    guard("clRetainEvent", || handle::retain::<Event>(e))
}

/// `clReleaseEvent` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clReleaseEvent(e: *mut c_void) -> i32 {
    guard("clReleaseEvent", || handle::release::<Event>(e))
}

/// `clCreateUserEvent` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clCreateUserEvent(c: *mut c_void, errcode_ret: *mut i32) -> *mut c_void {
    guard_obj("clCreateUserEvent", errcode_ret, || {
        let ctx = handle::get::<Context>(c)?;
        let ev = ClObj::new(Event::new(ctx, 0, cl::command::USER, false, eq::SUBMITTED));
        let h = handle::publish(ev.clone());
        ev.set_handle(h);
        Ok(h)
    })
}

/// `clSetUserEventStatus` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clSetUserEventStatus(e: *mut c_void, status: i32) -> i32 {
    guard("clSetUserEventStatus", || {
        let ev = handle::get::<Event>(e)?;
        if ev.command != cl::command::USER {
            return Err(ClError::new(err::INVALID_EVENT, "not a user event"));
        }
        if !user_status_ok(status) {
            return Err(ClError::value(format!(
                "execution status {status} (CL_COMPLETE or a negative error code)"
            )));
        }
        if ev.status() <= eq::COMPLETE {
            return Err(ClError::new(
                err::INVALID_OPERATION,
                "the user event's status was set already",
            ));
        }
        ev.set_status(status, ev.context.now());
        Ok(())
    })
}

/// `clSetEventCallback` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clSetEventCallback(
    e: *mut c_void,
    when: i32,
    f: Option<EventCallback>,
    data: *mut c_void,
) -> i32 {
    guard("clSetEventCallback", || {
        let ev = handle::get::<Event>(e)?;
        let Some(f) = f else {
            return Err(ClError::value("pfn_notify is NULL"));
        };
        if !matches!(when, eq::COMPLETE | eq::SUBMITTED | eq::RUNNING) {
            return Err(ClError::value(format!("command_exec_callback_type {when}")));
        }
        ev.on_status(when, f, data);
        Ok(())
    })
}

/// `clEnqueueWaitForEvents` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueWaitForEvents(
    q: *mut c_void,
    n: u32,
    list: *const *mut c_void,
) -> i32 {
    guard("clEnqueueWaitForEvents", || {
        let queue = handle::get::<Queue>(q)?;
        if n == 0 {
            return Err(ClError::value("no events"));
        }
        let w = wait_list(n, list).map_err(|e| ClError::new(err::INVALID_EVENT, e.msg))?;
        crate::enqueue::marker(&queue, cl::command::BARRIER, w)?;
        Ok(())
    })
}

/// `clEnqueueMarker`, `clEnqueueBarrier` and their 1.2 forms with a wait list.
unsafe fn marker(
    func: &str,
    q: *mut c_void,
    cmd: u32,
    n: u32,
    list: *const *mut c_void,
    out: *mut *mut c_void,
) -> i32 {
    guard(func, || {
        let queue = handle::get::<Queue>(q)?;
        let w = wait_list(n, list)?;
        give_event(crate::enqueue::marker(&queue, cmd, w)?, out);
        Ok(())
    })
}

/// `clEnqueueMarker` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueMarker(q: *mut c_void, out: *mut *mut c_void) -> i32 {
    if out.is_null() {
        return guard("clEnqueueMarker", || {
            handle::get::<Queue>(q)?;
            Err(ClError::value("event is NULL"))
        });
    }
    marker(
        "clEnqueueMarker",
        q,
        cl::command::MARKER,
        0,
        std::ptr::null(),
        out,
    )
}

/// `clEnqueueBarrier` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueBarrier(q: *mut c_void) -> i32 {
    marker(
        "clEnqueueBarrier",
        q,
        cl::command::BARRIER,
        0,
        std::ptr::null(),
        std::ptr::null_mut(),
    )
}

/// `clEnqueueMarkerWithWaitList` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueMarkerWithWaitList(
    q: *mut c_void,
    n: u32,
    list: *const *mut c_void,
    out: *mut *mut c_void,
) -> i32 {
    marker(
        "clEnqueueMarkerWithWaitList",
        q,
        cl::command::MARKER,
        n,
        list,
        out,
    )
}

/// `clEnqueueBarrierWithWaitList` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueBarrierWithWaitList(
    q: *mut c_void,
    n: u32,
    list: *const *mut c_void,
    out: *mut *mut c_void,
) -> i32 {
    marker(
        "clEnqueueBarrierWithWaitList",
        q,
        cl::command::BARRIER,
        n,
        list,
        out,
    )
}

/// Wait for a blocking command: its error, or the wait list's.
pub(crate) fn finish_blocking(ev: &ClObj<Event>) -> ClResult<()> {
    match ev.wait() {
        s if s >= 0 => Ok(()),
        err::EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST => Err(ClError::new(
            err::EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
            "a command it waited for failed",
        )),
        s => Err(ClError::new(s, "the command failed")),
    }
}

//! Events: a command's execution status (queued, submitted, running, complete, or a negative
//! error code), its profiling times, the callbacks waiting for a status, and user events the
//! host completes itself.
//!
//! Profiling times are device time: the device's cycle count (the functional model's or the
//! timing model's) at the command's queueing, submission, start and end, in nanoseconds at the
//! device's nominal 1 GHz clock (one cycle, one nanosecond), so they are the same on every run.

use crate::cl::event::{COMPLETE, QUEUED, RUNNING, SUBMITTED};
use crate::context::Context;
use crate::object::{lock, ClObj};
use std::ffi::c_void;
use std::sync::{Arc, Condvar, Mutex};

/// `void (CL_CALLBACK *)(cl_event, cl_int, void *)`.
pub type EventCallback = extern "C" fn(*mut c_void, i32, *mut c_void);

struct State {
    status: i32,
    /// The command has ended and its callbacks have run: waiters may go on.
    settled: bool,
    /// Device cycles at queued, submit, start, end.
    times: [u64; 4],
    /// Callbacks not yet called: (the status they wait for, function, user data).
    callbacks: Vec<(i32, EventCallback, usize)>,
}

/// An event.
pub struct Event {
    pub context: Arc<ClObj<Context>>,
    /// The queue's handle (0 for a user event).
    pub queue: usize,
    /// Its `cl_command_type`.
    pub command: u32,
    /// Whether its queue records profiling times.
    pub profiling: bool,
    /// Its own handle, for callbacks.
    handle: Mutex<usize>,
    state: Mutex<State>,
    done: Condvar,
}

impl Event {
    /// A new event in status `status` (CL_QUEUED for commands, CL_SUBMITTED for user events).
    pub fn new(
        context: Arc<ClObj<Context>>,
        queue: usize,
        command: u32,
        profiling: bool,
        status: i32,
    ) -> Event {
        let now = context.now();
        Event {
            context,
            queue,
            command,
            profiling,
            handle: Mutex::new(0),
            state: Mutex::new(State {
                status,
                settled: false,
                times: [now; 4],
                callbacks: Vec::new(),
            }),
            done: Condvar::new(),
        }
    }

    /// Remember the handle the program holds (callbacks are given it).
    pub fn set_handle(&self, h: *mut c_void) {
        *lock(&self.handle) = h as usize;
    }

    /// The current status.
    pub fn status(&self) -> i32 {
        lock(&self.state).status
    }

    /// The profiling times in nanoseconds: queued, submit, start, end.
    pub fn times(&self) -> [u64; 4] {
        lock(&self.state).times
    }

    /// Move to `status` at device cycle `cycle` (statuses only go down: queued 3, submitted
    /// 2, running 1, complete 0, errors below); callbacks waiting for it are called, and
    /// waiters woken when the command ends.
    pub fn set_status(&self, status: i32, cycle: u64) {
        let due = {
            let mut s = lock(&self.state);
            if status >= s.status || s.status <= COMPLETE {
                return;
            }
            match status {
                SUBMITTED => s.times[1] = cycle,
                RUNNING => s.times[2] = cycle,
                _ => {
                    if s.status > RUNNING {
                        s.times[2] = cycle;
                    }
                    if s.status > SUBMITTED {
                        s.times[1] = s.times[1].min(cycle);
                    }
                    s.times[3] = cycle;
                }
            }
            s.status = status;
            let reached = |want: i32| status <= want;
            let (due, keep): (Vec<_>, Vec<_>) = s.callbacks.drain(..).partition(|c| reached(c.0));
            s.callbacks = keep;
            due
        };
        let h = *lock(&self.handle) as *mut c_void;
        for (_, f, data) in due {
            // An error status is passed on as it is; the others as the status reached.
            f(h, status, data as *mut c_void);
        }
        if status <= COMPLETE {
            // Waiters go on once the callbacks of the end have run.
            lock(&self.state).settled = true;
            self.done.notify_all();
        }
    }

    /// Set the times of a command that ran from device cycle `start` to `end`.
    pub fn set_run(&self, start: u64, end: u64) {
        let mut s = lock(&self.state);
        s.times[2] = start;
        s.times[3] = end;
    }

    /// Wait until the command ends; its final status (CL_COMPLETE or an error code).
    pub fn wait(&self) -> i32 {
        let mut s = lock(&self.state);
        while !s.settled {
            s = self.done.wait(s).unwrap_or_else(|p| p.into_inner());
        }
        s.status
    }

    /// Call `f` when the event reaches `want` (now, if it has).
    pub fn on_status(&self, want: i32, f: EventCallback, data: *mut c_void) {
        let now = {
            let mut s = lock(&self.state);
            if s.status <= want {
                Some(s.status)
            } else {
                s.callbacks.push((want, f, data as usize));
                None
            }
        };
        if let Some(st) = now {
            f(*lock(&self.handle) as *mut c_void, st, data);
        }
    }
}

/// A status the host may give a user event.
pub fn user_status_ok(s: i32) -> bool {
    s == COMPLETE || s < 0
}

/// Whether a status is one of the four execution statuses or an error.
pub fn is_status(s: i32) -> bool {
    s <= QUEUED
}

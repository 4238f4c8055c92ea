//! Timeline events (`vx_event_h`): a counter that only grows, an error status, and the
//! profiling timestamps of the command that completed it. Every enqueued command returns a
//! fresh event its queue advances to 1 when the command is done (or fails); the host may
//! create its own and signal any value. A wait ends when the counter reaches the value asked
//! for, or at once when the event has failed (with the failure's code).

use crate::error::{VxError, VxResult};
use crate::sync::lock;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// `vx_profile_info_t`: nanoseconds on the host's monotonic clock.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProfileInfo {
    pub queued_ns: u64,
    pub submit_ns: u64,
    pub start_ns: u64,
    pub end_ns: u64,
}

#[derive(Default)]
struct State {
    value: u64,
    /// The first failure's code (0: none).
    error: i32,
    profile: Option<ProfileInfo>,
}

/// A timeline event.
#[derive(Default)]
pub struct Event {
    st: Mutex<State>,
    cv: Condvar,
}

/// Now, in nanoseconds since the first call (a monotonic clock).
pub fn now_ns() -> u64 {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    let t0 = *EPOCH.get_or_init(Instant::now);
    t0.elapsed().as_nanos() as u64 + 1
}

impl Event {
    /// Advance the counter to `value` (never back).
    pub fn signal(&self, value: u64) {
        let mut s = lock(&self.st);
        if value > s.value {
            s.value = value;
            self.cv.notify_all();
        }
    }

    /// A command finished: the counter reaches 1; a failure is kept (the first one).
    pub fn complete(&self, r: &VxResult<()>) {
        let mut s = lock(&self.st);
        if let Err(e) = r {
            if s.error == 0 {
                s.error = e.code();
            }
        }
        s.value = s.value.max(1);
        self.cv.notify_all();
    }

    /// Record the command's timestamps.
    pub fn set_profile(&self, p: ProfileInfo) {
        lock(&self.st).profile = Some(p);
    }

    /// The timestamps, if the event came from a queue with profiling on.
    pub fn profile(&self) -> VxResult<ProfileInfo> {
        lock(&self.st)
            .profile
            .ok_or_else(|| VxError::NotSupported("the queue does not profile".into()))
    }

    pub fn value(&self) -> u64 {
        lock(&self.st).value
    }

    /// Wait until the counter reaches `value` or the event fails; `None`: no time limit.
    pub fn wait(&self, value: u64, timeout: Option<Duration>) -> VxResult<()> {
        let deadline = timeout.map(|t| Instant::now() + t);
        let mut s = lock(&self.st);
        loop {
            if s.error != 0 {
                return Err(VxError::Dependency(s.error));
            }
            if s.value >= value {
                return Ok(());
            }
            s = match deadline {
                None => self.cv.wait(s).unwrap_or_else(|p| p.into_inner()),
                Some(d) => {
                    let now = Instant::now();
                    if now >= d {
                        return Err(VxError::Timeout);
                    }
                    self.cv
                        .wait_timeout(s, d - now)
                        .unwrap_or_else(|p| p.into_inner())
                        .0
                }
            };
        }
    }
}

/// A timeout in nanoseconds as Vortex passes it: all ones means no limit.
pub fn timeout_ns(t: u64) -> Option<Duration> {
    (t != u64::MAX).then(|| Duration::from_nanos(t))
}

/// The code a failed wait reports: the failure's own code (Vortex's events carry the
/// command's result), or the wait's (a timeout).
pub fn wait_code(e: &VxError) -> i32 {
    match e {
        VxError::Dependency(c) => *c,
        e => e.code(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::code;
    use std::sync::Arc;

    #[test]
    fn a_timeline_only_grows_and_wakes_its_waiters() {
        let e = Arc::new(Event::default());
        assert_eq!(e.value(), 0);
        let w = {
            let e = e.clone();
            std::thread::spawn(move || e.wait(5, None))
        };
        e.signal(3);
        e.signal(2);
        assert_eq!(e.value(), 3);
        e.signal(5);
        assert!(w.join().unwrap().is_ok());
        assert!(matches!(
            e.wait(6, Some(Duration::from_millis(5))),
            Err(VxError::Timeout)
        ));
    }

    #[test]
    fn a_failed_command_fails_every_wait_with_its_code() {
        let e = Event::default();
        e.complete(&Err(VxError::Run("fault".into())));
        assert_eq!(e.value(), 1);
        let err = e.wait(1, None).unwrap_err();
        assert_eq!(wait_code(&err), code::DEVICE_LOST);
        assert!(e.profile().is_err());
    }
}

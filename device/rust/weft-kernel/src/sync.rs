//! Atomic read-modify-write on device memory (the A extension's AMOs): every lane's
//! operation is performed, in lane order within a warp.

pub use core::sync::atomic::{AtomicI32, AtomicU32, Ordering};

/// Add `v` to `a` and return the old value.
pub fn add(a: &AtomicU32, v: u32) -> u32 {
    a.fetch_add(v, Ordering::SeqCst)
}

/// The minimum of `a` and `v` into `a`; the old value.
pub fn min(a: &AtomicI32, v: i32) -> i32 {
    a.fetch_min(v, Ordering::SeqCst)
}

/// The maximum of `a` and `v` into `a`; the old value.
pub fn max(a: &AtomicI32, v: i32) -> i32 {
    a.fetch_max(v, Ordering::SeqCst)
}

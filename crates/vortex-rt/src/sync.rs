//! Locking the runtime's shared state: a poisoned mutex (a thread panicked while holding it)
//! is taken as it is — the data here stays consistent between statements.

use std::sync::{Mutex, MutexGuard};

/// Lock `m`, going on with the data if a thread panicked while holding it.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

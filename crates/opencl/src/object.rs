//! The objects behind the C handles, as the ICD loader (ocl-icd) sees them: each starts with
//! the address of the ICD dispatch table, then the program's reference count (`clRetain*` /
//! `clRelease*`), then the object; the platform's and device's handles are the table's address
//! alone. This module sits below the objects (context, queue, memory…) and the entry points;
//! the table itself, which names every entry point, is built above them in [`crate::icd`],
//! which installs its address here when a loader first asks for this driver's platforms
//! (`clIcdGetPlatformIDsKHR` or `clGetExtensionFunctionAddress`, the loader's only ways in).
//! A program that links this library directly calls the entry points by name and never reads
//! an object's first word.

use std::ffi::c_void;
use std::ops::Deref;
use std::sync::atomic::{AtomicPtr, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// The dispatch table's address: null until [`install_dispatch`].
static DISPATCH: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());

/// The platform and device objects: the dispatch table's address, as every object starts.
#[repr(C)]
pub struct Static(AtomicPtr<c_void>);

static PLATFORM: Static = Static(AtomicPtr::new(std::ptr::null_mut()));
static DEVICE: Static = Static(AtomicPtr::new(std::ptr::null_mut()));

/// Make `table` the first word of the platform, the device and every object made from now
/// on (objects made before keep theirs: a loader cannot have seen them).
pub fn install_dispatch(table: *const c_void) {
    let t = table as *mut c_void;
    DISPATCH.store(t, Ordering::Release);
    PLATFORM.0.store(t, Ordering::Release);
    DEVICE.0.store(t, Ordering::Release);
}

/// The platform's handle.
pub fn platform_handle() -> *mut c_void {
    &PLATFORM as *const Static as *mut c_void
}

/// The device's handle.
pub fn device_handle() -> *mut c_void {
    &DEVICE as *const Static as *mut c_void
}

/// An object behind a handle: the dispatch table first, as the ICD loader reads it.
#[repr(C)]
pub struct ClObj<T> {
    dispatch: *const c_void,
    refs: AtomicU32,
    inner: T,
}

// SAFETY: the dispatch pointer names a static table that is never written.
unsafe impl<T: Send> Send for ClObj<T> {}
// SAFETY: as above; the rest is T's own.
unsafe impl<T: Sync> Sync for ClObj<T> {}

impl<T> Deref for ClObj<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner
    }
}

impl<T> ClObj<T> {
    /// A new object with one reference held by the program.
    pub fn new(inner: T) -> Arc<ClObj<T>> {
        Arc::new(ClObj {
            dispatch: DISPATCH.load(Ordering::Acquire),
            refs: AtomicU32::new(1),
            inner,
        })
    }

    /// The program's reference count.
    pub fn ref_count(&self) -> u32 {
        self.refs.load(Ordering::SeqCst)
    }

    /// `clRetain*`: one more reference held by the program.
    pub fn add_ref(&self) {
        self.refs.fetch_add(1, Ordering::SeqCst);
    }

    /// `clRelease*`: one reference fewer; true when it was the program's last.
    pub fn drop_ref(&self) -> bool {
        self.refs.fetch_sub(1, Ordering::SeqCst) == 1
    }
}

/// Lock a mutex, going on with the data if a thread panicked while holding it.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The handle of an object (registered while the program holds a reference).
pub fn handle<T>(a: &Arc<ClObj<T>>) -> *mut c_void {
    Arc::as_ptr(a) as *mut c_void
}

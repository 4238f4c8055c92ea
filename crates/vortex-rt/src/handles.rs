//! The handles a C program holds: each is the address of a live object in a registry that
//! also counts the program's references (`vx_*_retain` / `vx_*_release`). The library's own
//! references (a queued command holding a buffer, a kernel holding its module) are `Arc`s, so
//! an object lives until both the program and the library are done with it. A handle that is
//! null, released, or of another kind is `VX_ERR_INVALID_HANDLE`, never undefined behaviour.

use crate::buffer::Buffer;
use crate::device::Device;
use crate::error::{VxError, VxResult};
use crate::event::Event;
use crate::module::{Kernel, Module};
use crate::queue::Queue;
use crate::sync::lock;
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, LazyLock, Mutex};

/// An object behind a handle.
pub enum Obj {
    Device(Arc<Device>),
    Buffer(Arc<Buffer>),
    Queue(Arc<Queue>),
    Event(Arc<Event>),
    Module(Arc<Module>),
    Kernel(Arc<Kernel>),
}

/// A kind of object a handle can name.
pub trait Kind: Sized {
    fn wrap(a: Arc<Self>) -> Obj;
    fn get(o: &Obj) -> Option<&Arc<Self>>;
}

macro_rules! kind {
    ($t:ident) => {
        impl Kind for $t {
            fn wrap(a: Arc<Self>) -> Obj {
                Obj::$t(a)
            }
            fn get(o: &Obj) -> Option<&Arc<Self>> {
                match o {
                    Obj::$t(a) => Some(a),
                    _ => None,
                }
            }
        }
    };
}

kind!(Device);
kind!(Buffer);
kind!(Queue);
kind!(Event);
kind!(Module);
kind!(Kernel);

struct Entry {
    obj: Obj,
    refs: u64,
}

static REGISTRY: LazyLock<Mutex<HashMap<usize, Entry>>> = LazyLock::new(Default::default);

/// A new handle (one reference) for `a`.
pub fn handle<T: Kind>(a: Arc<T>) -> *mut c_void {
    let key = Arc::as_ptr(&a) as usize;
    lock(&REGISTRY).insert(
        key,
        Entry {
            obj: T::wrap(a),
            refs: 1,
        },
    );
    key as *mut c_void
}

/// The object a handle names.
pub fn get<T: Kind>(h: *const c_void) -> VxResult<Arc<T>> {
    lock(&REGISTRY)
        .get(&(h as usize))
        .and_then(|e| T::get(&e.obj).cloned())
        .ok_or(VxError::Handle)
}

/// `vx_*_retain`.
pub fn retain<T: Kind>(h: *const c_void) -> VxResult<()> {
    let mut r = lock(&REGISTRY);
    match r.get_mut(&(h as usize)) {
        Some(e) if T::get(&e.obj).is_some() => {
            e.refs += 1;
            Ok(())
        }
        _ => Err(VxError::Handle),
    }
}

/// `vx_*_release`: the program's last reference also ends the handle. What the library
/// still holds lives on; what nobody holds is dropped here, outside the registry's lock (a
/// queue's drop waits for its worker).
pub fn release<T: Kind>(h: *const c_void) -> VxResult<()> {
    let gone = {
        let mut r = lock(&REGISTRY);
        match r.get_mut(&(h as usize)) {
            Some(e) if T::get(&e.obj).is_some() => {
                e.refs -= 1;
                if e.refs == 0 {
                    r.remove(&(h as usize))
                } else {
                    None
                }
            }
            _ => return Err(VxError::Handle),
        }
    };
    if let Some(Entry {
        obj: Obj::Device(d),
        ..
    }) = &gone
    {
        d.detach();
    }
    drop(gone);
    Ok(())
}

//! The handles a C program holds: each is the address of an object ([`crate::object`]). A registry
//! maps every live handle to its object and kind: a handle that is null, released or of
//! another kind is the `CL_INVALID_*` code of the expected kind, never undefined behaviour.
//! The library's own references (a kernel holding its program, a queued command holding a
//! buffer) are `Arc`s, so an object lives until both the program and the library are done.

use crate::context::Context;
use crate::error::{ClError, ClResult};
use crate::event::Event;
use crate::kernel::Kernel;
use crate::memory::Mem;
pub use crate::object::{handle, lock, ClObj};
use crate::program::Program;
use crate::queue::Queue;
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, LazyLock, Mutex};

/// An object of the platform's kinds.
pub enum Obj {
    Context(Arc<ClObj<Context>>),
    Queue(Arc<ClObj<Queue>>),
    Mem(Arc<ClObj<Mem>>),
    Program(Arc<ClObj<Program>>),
    Kernel(Arc<ClObj<Kernel>>),
    Event(Arc<ClObj<Event>>),
}

/// A kind of object a handle can name, and the error a bad handle of that kind is.
pub trait Kind: Sized {
    const INVALID: i32;
    const WHAT: &'static str;
    fn wrap(a: Arc<ClObj<Self>>) -> Obj;
    fn get(o: &Obj) -> Option<&Arc<ClObj<Self>>>;
}

macro_rules! kind {
    ($t:ident, $code:ident, $what:literal) => {
        impl Kind for $t {
            const INVALID: i32 = crate::cl::err::$code;
            const WHAT: &'static str = $what;
            fn wrap(a: Arc<ClObj<Self>>) -> Obj {
                Obj::$t(a)
            }
            fn get(o: &Obj) -> Option<&Arc<ClObj<Self>>> {
                match o {
                    Obj::$t(a) => Some(a),
                    _ => None,
                }
            }
        }
    };
}

kind!(Context, INVALID_CONTEXT, "context");
kind!(Queue, INVALID_COMMAND_QUEUE, "command queue");
kind!(Mem, INVALID_MEM_OBJECT, "memory object");
kind!(Program, INVALID_PROGRAM, "program");
kind!(Kernel, INVALID_KERNEL, "kernel");
kind!(Event, INVALID_EVENT, "event");

static REGISTRY: LazyLock<Mutex<HashMap<usize, Obj>>> = LazyLock::new(Default::default);

/// Register a new object (its one reference is the program's) and return its handle.
pub fn publish<T: Kind>(a: Arc<ClObj<T>>) -> *mut c_void {
    let h = handle(&a);
    lock(&REGISTRY).insert(h as usize, T::wrap(a));
    h
}

/// The object a handle names.
pub fn get<T: Kind>(h: *const c_void) -> ClResult<Arc<ClObj<T>>> {
    lock(&REGISTRY)
        .get(&(h as usize))
        .and_then(|o| T::get(o).cloned())
        .ok_or_else(|| ClError::new(T::INVALID, format!("not a valid {} handle", T::WHAT)))
}

/// `clRetain*`.
pub fn retain<T: Kind>(h: *const c_void) -> ClResult<()> {
    get::<T>(h)?.add_ref();
    Ok(())
}

/// `clRelease*`: the last release unregisters the handle (the object itself goes when the
/// library's references are gone too).
pub fn release<T: Kind>(h: *const c_void) -> ClResult<()> {
    let a = get::<T>(h)?;
    if a.drop_ref() {
        let gone = lock(&REGISTRY).remove(&(h as usize));
        drop(gone);
    }
    Ok(())
}

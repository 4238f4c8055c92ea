//! `libvortex.so`: Vortex v3.0's host APIs over weft's model under the Vortex profile, so a
//! Vortex host program compiled against Vortex's own `vortex.h`/`vortex2.h` and linked with
//! this library instead of Vortex's runs its kernels on weft (docs/vortex.md, "libvortex.so").
//!
//! Both APIs are here: the asynchronous `vortex2.h` (devices, buffers with map/unmap, modules
//! and kernels by name, in-order queues with launch, read/write/copy, rect, fill, map, barrier,
//! DCR and timeline commands, events with values, waits and profiling) and the classic
//! `vortex.h`, layered over the same objects as Vortex layers it.
//!
//! How it is built:
//! - [`config`]: the device's shape from `WEFT_*` environment variables or a weft TOML file.
//! - [`engine`]: one thread per device owns the machine and does the device work in order.
//! - [`device`], [`memory`], [`buffer`], [`module`], [`event`], [`queue`], [`commands`],
//!   [`rect`]: the objects behind the handles and what the commands do.
//! - [`handles`]: the registry that turns C handles into objects, with the program's
//!   reference counts.
//! - [`api`]: the C entry points; errors come back as Vortex's codes, never as panics.

pub mod api;
pub mod buffer;
pub mod commands;
pub mod config;
pub mod device;
pub mod engine;
pub mod error;
pub mod event;
pub mod handles;
pub mod memory;
pub mod module;
pub mod perf_mem;
pub mod queue;
pub mod rect;
mod sync;

pub use error::{code, VxError, VxResult};

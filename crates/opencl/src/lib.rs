#![allow(non_snake_case)]
//! `libOpenCL.so`: an OpenCL 1.2 platform, "weft", whose one device is a weft machine — the
//! functional model or the cycle-level timing model, shaped by the environment as
//! `libvortex.so` is (`WEFT_CONFIG`, `WEFT_CORES`, `WEFT_WARPS`, `WEFT_THREADS`,
//! `WEFT_TIMING`). Programs link it directly (`-lOpenCL`) or reach it through an ICD loader
//! (ocl-icd) with `/etc/OpenCL/vendors/weft.icd` naming it. See docs/opencl.md.
//!
//! How it is built:
//! - [`config`]: the device's configuration; [`engine`]: a context's device thread, which owns
//!   the machine and does the device work (memory, launches) in order;
//! - [`context`], [`memory`], [`program`], [`kernel`], [`event`], [`queue`], [`enqueue`]: the
//!   objects and what the commands do; programs build with `weft cc` (crates/cc), work-groups
//!   run as weft blocks, work-items as their threads;
//! - [`object`]: the objects behind the C handles (the dispatch word, the program's reference
//!   count) and the platform's and device's handles; [`handle`]: the registry of live handles;
//!   [`icd`]: the ICD dispatch table, installed when a loader comes in;
//! - [`api`]: the C entry points; errors come back as OpenCL's codes, never as panics.

pub mod api;
pub mod cl;
pub mod config;
pub mod context;
pub mod engine;
pub mod enqueue;
pub mod error;
pub mod event;
pub mod handle;
pub mod icd;
pub mod kernel;
pub mod memory;
pub mod object;
pub mod program;
pub mod queue;

pub use error::{ClError, ClResult};

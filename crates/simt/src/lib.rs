//! weft-simt: the functional model of the weft GPU — the golden reference for what every
//! instruction and CSR does. A [`Machine`] holds cores × warps × lanes over one memory;
//! [`Machine::run`] issues one warp-instruction per core per cycle, round-robin over the
//! running warps, until the program exits, every warp halts, a warp faults, or a bound is hit.
//!
//! Modules: [`engine`] (the interface of a block engine), [`accel`] (its super-steps), [`config`] (machine configuration), [`divergence`] (the divergence stack and call
//! stack), `control` (branches, jumps and reconvergence), [`ipdom`] (Vortex's IPDOM stack),
//! [`warp`] (architectural state), `exec` (issue and the SIMT instructions), `fast` (the
//! per-lane-count handlers the decoded cache holds), `exec_mem` (loads, stores, atomics),
//! `exec_fp` (floating point), `csr` (CSR behaviour), [`bus`] (the I/O page: the devices of
//! weft-devices on the machine's bus), `race` (the DMA race checker), [`machine`] (the machine, issue, scheduling), `reset` (building and restarting), `barriers`, `counters`,
//! [`stats`] (the report), [`launch`] (each kernel launch's counters), [`profile`] (every difference between the profiles, in one place), [`vortex`] (the Vortex
//! compatibility profile: memory map, KMU, `.vxbin`).

pub mod accel;
mod barriers;
pub mod bus;
mod code;
pub mod config;
mod control;
mod counters;
mod csr;
mod device;
pub mod divergence;
mod dxa;
pub mod engine;
pub mod exec;
mod exec_fp;
mod exec_mem;
mod fast;
pub mod ipdom;
pub mod lane;
pub mod launch;
pub mod load;
pub mod machine;
mod mem_port;
pub mod profile;
pub mod program;
mod race;
pub mod record;
mod reset;
pub mod stats;
mod step_mem;
mod tcu;
mod trace;
mod trap;
pub mod vortex;
pub mod warp;

pub use config::{Config, ConfigError, DisplayConfig, DmaConfig, DxaConfig, Profile, ReconvMode};
pub use divergence::Reconv;
pub use engine::{
    call_effect, is_block_float, is_block_memory, is_private, is_scalar_csr, is_scalar_csr_read,
    is_scalar_csr_set, is_scalar_jump, is_scalar_memory, BlockEngine, CallEffect, CallStack,
    EngineCounts, LaneClass, MemPort, Offer, PrivateRun, Stops, DIRECT_PAGE_BYTES, SCALAR_CSRS,
};
pub use launch::LaunchReport;
pub use machine::{FaultInfo, Machine, Observer, RunEnd};
pub use program::{LoadError, Program, Segment};
pub use race::{Race, RaceChecker, RaceLog};
pub use record::StepRecord;
pub use stats::Report;
pub use trace::TextTrace;
pub use weft_device::{Device, MemError, Stop};
pub use weft_devices::{display, dma, DmaSlot, Frame, FrameSink};
pub use weft_devices::{Dxa, DxaStats};

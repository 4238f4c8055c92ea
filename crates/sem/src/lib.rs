//! weft-sem: per-lane instruction semantics for weft's RV32IMAF lanes.
//!
//! Small, pure, total functions — one per operation, `#[inline]`, no allocation and no opcode
//! dispatch — that the SIMT simulator calls inside its lane loop:
//! * [`alu`]: RV32I/M integer operations, branch conditions, AMO combine steps, load extension;
//! * [`fpu`]: RV32F single precision on bit patterns with a resolved rounding mode [`Rm`],
//!   returning the accrued exception [`Flags`];
//! * [`tcu`]: Vortex's tensor core unit — the warp-level matrix multiply-accumulate of
//!   `wmma`/`wmma.sp`/`wgmma` on fragments in the lanes' float registers and shared memory.

pub mod alu;
pub mod fpu;
pub mod tcu;

pub use fpu::{Flags, Rm};

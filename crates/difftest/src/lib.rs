//! weft-difftest: reliability tooling for weft.
//!
//! - [`gen`] and [`runner`]: random RV32IMAF(C) programs run on weft (one lane) and on QEMU's
//!   spike machine, compared register by register; [`minimize`] shrinks a failing program.
//! - [`kernel`]: random lane-dependent SIMT kernels for the L-lanes-versus-1-lane property.
//! - [`compiled`] and [`csmith`]: the real-compiler campaign — C kernels and csmith programs
//!   built by clang and gcc at every optimisation level, every lane compared with the host.
//! - [`engines`]: every campaign's weft runs go through both functional engines, which must agree.
//! - [`fuzz`]: coverage-less mutation fuzzing on stable Rust of every input-facing entry point.
//!
//! See `docs/reliability.md` for how to run the campaigns and the figures.

pub mod compiled;
pub mod csmith;
pub mod engines;
pub mod fuzz;
pub mod gen;
mod gen_c;
pub mod kernel;
pub mod layout;
pub mod minimize;
pub mod rng;
pub mod runner;

pub use gen::{GenConfig, TestProgram};
pub use runner::{check, Verdict};

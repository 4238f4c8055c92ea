//! weft-sp2a: the Shader Processor v2a (seed 004) — a small scalar core with its own ISA,
//! a local data memory with a local-bus window, and a 4-slot DMA unit to a far framebuffer,
//! tiled many times over one framebuffer.
//!
//! Modules: [`isa`] (the instruction table: decode, encode, text), [`bus`] (the local-bus
//! map), [`asm`] (assembler and macros), [`disasm`], [`program`] (assembled images),
//! [`core`] (one processor), [`array`] (N processors over one framebuffer, statistics); the
//! array is a [`weft_device::Device`], the face it shares with the SIMT machine.

pub mod array;
pub mod asm;
pub mod bus;
pub mod core;
mod device;
pub mod disasm;
pub mod isa;
pub mod program;

pub use array::{Array, ArrayConfig, Stats, Stop, TraceRecord};
pub use asm::{assemble, assemble_file, load_file, AsmError, AsmErrors, ProgramFileError};
pub use core::{Core, CoreConfig, Fault};
pub use isa::{Instr, InstrDecodeError, Op, Reg};
pub use program::{ImageError, Program, Section, Symbol};
pub use weft_fb::{DmaTiming, Framebuffer};

//! What a program is once loaded from any file format — its segments, entry, symbols, HTIF
//! words and reconvergence table — and why one cannot be loaded. Below the machine: the
//! loaders (ELF, vxbin) make a [`Program`], the machine takes it.

use crate::config::ConfigError;
use crate::divergence::Reconv;
use std::collections::HashMap;

/// A loadable program, independent of the file format it came from.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Entry point.
    pub entry: u32,
    /// Segments: (address, bytes, memory size ≥ bytes (zero-filled), executable).
    pub segments: Vec<Segment>,
    /// Symbols (for traces and fault messages).
    pub symbols: Vec<(String, u32)>,
    /// Address of the HTIF `tohost` word, if the program has one.
    pub tohost: Option<u32>,
    /// Address of the HTIF `fromhost` word: with it, `tohost` speaks the 64-bit HTIF
    /// protocol (console output as well as exit), as Spike and QEMU do.
    pub fromhost: Option<u32>,
    /// Reconvergence table: conditional branch pc → reconvergence point.
    pub reconv: HashMap<u32, Reconv>,
}

/// One loadable segment.
#[derive(Clone, Debug, Default)]
pub struct Segment {
    pub addr: u32,
    pub data: Vec<u8>,
    pub mem_size: u32,
    pub exec: bool,
}

/// Why a program cannot be loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("segment at {addr:#010x} ({len} bytes) is outside mapped memory: {why}")]
    Segment { addr: u32, len: u32, why: String },
    #[error("entry point {0:#010x} is not in DRAM or not 2-byte aligned")]
    Entry(u32),
    #[error("{0}")]
    Config(#[from] ConfigError),
}

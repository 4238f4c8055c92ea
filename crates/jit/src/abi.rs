//! The translated function's interface: its type ([`BlockFn`]), the memory helpers it calls
//! ([`MemHelper`], [`Helpers`]), the layout of its `out` words ([`ADDRS_AT`], [`OUT_WORDS`]),
//! the float environment's bits ([`ENV_FS_DIRTY`], [`ENV_DYN_RNE`]) and the word it returns
//! ([`exit_parts`]). Shared by the emitter (`emit.rs` and the modules that extend it) and the
//! block engine (`lib.rs`) that calls the code.

use crate::plan::MAX_REGION_BLOCKS;

/// Float environment bit: `mstatus.FS` is Dirty (float instructions may run).
pub const ENV_FS_DIRTY: u32 = 1;
/// Float environment bit: every active lane's `frm` is 0 (dynamic rounding is RNE).
pub const ENV_DYN_RNE: u32 = 2;

/// next pc (bits 0–31), whether to hand over to the interpreter (bit 32), the block an
/// incomplete execution was in, plus one (bits 33–39; 0: none), and the instructions of it
/// that ran (bits 40–47).
pub(crate) fn exit_word(pc: u32, stop: bool, part: usize, k: u32) -> u64 {
    u64::from(pc) | u64::from(stop) << 32 | (part as u64 & 0x7f) << 33 | u64::from(k & 0xff) << 40
}

/// The parts of an [`exit_word`]: (next pc, stop, block of an incomplete execution plus one
/// or 0, its instructions that ran).
pub fn exit_parts(w: u64) -> (u32, bool, usize, usize) {
    (
        w as u32,
        w >> 32 & 1 != 0,
        (w >> 33 & 0x7f) as usize,
        (w >> 40 & 0xff) as usize,
    )
}

/// The translated function's type: (integer registers, float registers, lane masks, budget,
/// out, memory port, float environment, entry block) → [`exit_word`]. The code starts at
/// the entry block (an index into the region's blocks: a region translated for one block
/// start serves every block start in it). `out` holds one counter per block (all zero on
/// entry), 64 bits each, then room for a memory access's addresses ([`ADDRS_AT`]). The
/// float environment is 33 words: each lane's `fflags`, then [`ENV_FS_DIRTY`] |
/// [`ENV_DYN_RNE`].
pub type BlockFn = unsafe extern "C" fn(
    *mut u32,
    *mut u32,
    *const u32,
    i64,
    *mut u64,
    *mut std::ffi::c_void,
    *const u32,
    i64,
) -> i64;

/// A memory helper the translated code calls: (memory port, the 32 lanes' addresses,
/// integer registers, float registers, the data register's id: integer 0–31, float 32–63)
/// → nonzero if done, 0 if the interpreter must execute the instruction (then no register
/// has changed). The helper reads a store's data from the register file and writes a load's
/// words to the destination's active lanes itself.
pub type MemHelper =
    unsafe extern "C" fn(*mut std::ffi::c_void, *const u32, *mut u32, *mut u32, u64) -> u32;

/// Where in `out` a memory access's 32 lane addresses go (bytes): after the block counters.
pub const ADDRS_AT: i32 = 8 * MAX_REGION_BLOCKS as i32;

/// Words (64-bit) of a translated function's `out`: the block counters, the addresses of a
/// memory access.
pub const OUT_WORDS: usize = MAX_REGION_BLOCKS + 16;

/// The helpers for `lw` and `sw`.
#[derive(Clone, Copy)]
pub struct Helpers {
    pub load: MemHelper,
    pub store: MemHelper,
}

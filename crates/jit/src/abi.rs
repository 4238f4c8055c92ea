//! The translated function's interface: its type ([`BlockFn`]), the memory helpers it calls
//! ([`MemHelper`], [`Helpers`]) and the memory context it hands them ([`MemCtx`], with the
//! page windows of the direct path, the address and data words of an access: [`ADDRS_AT`],
//! [`DATA_AT`]),
//! the float environment's bits ([`ENV_FS_DIRTY`], [`ENV_DYN_RNE`]) and the word it returns
//! ([`exit_parts`]). Shared by the emitter (`emit.rs` and the modules that extend it) and the
//! block engine (`lib.rs`) that calls the code.

use weft_simt::LaneClass;

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
/// memory context ([`MemCtx`]), float environment, entry block) → [`exit_word`]. In a scalar
/// translation ([`Kind::Lane`]) the register pointers are to the lane's word of register 0
/// in each file (every register is one word from there). The code
/// starts at the entry block (an index into the region's blocks: a region translated for one
/// block start serves every block start in it). The code adds each execution of a block it
/// begins to the block's counter at the context's `counts` (the translation's own, summed
/// over the engine run), writes a memory access's lane addresses to the context's `addrs`
/// ([`ADDRS_AT`]) and, at every exit, the budget left to `left`; it reaches them, as
/// everything else of the context, from the context's pointer, so that no other pointer
/// stays in a host register. The float
/// environment is 33 words: each lane's `fflags`, then [`ENV_FS_DIRTY`] | [`ENV_DYN_RNE`].
pub type BlockFn = unsafe extern "C" fn(
    *mut u32,
    *mut u32,
    *const u32,
    i64,
    *mut std::ffi::c_void,
    *const u32,
    i64,
) -> i64;

/// A memory helper the translated code calls: (memory context ([`MemCtx`]), the 32 lanes'
/// addresses, the data register's id: integer 0–31, float 32–63) → nonzero if done, 0 if
/// the interpreter must execute the instruction (then no register has changed). The helper
/// reads a store's data from the register file ([`MemCtx::x`], [`MemCtx::f`]) and writes a
/// load's words to the destination's active lanes itself.
pub type MemHelper = unsafe extern "C" fn(*mut std::ffi::c_void, *const u32, u64) -> u32;

/// The helper for a scalar translation's byte or halfword access that found no page
/// window: (memory context, address, the access ([`SUB_STORE`] | bytes), a store's value) →
/// [`SUB_DONE`] | the loaded bytes zero-extended if the port did it, 0 if the interpreter
/// must. It also opens the page's window where the port allows, for the next access.
pub type SubHelper = unsafe extern "C" fn(*mut std::ffi::c_void, u64, u64, u64) -> u64;

/// [`SubHelper`]'s access bit for a store (the low bits: 1 or 2 bytes).
pub const SUB_STORE: u64 = 4;

/// [`SubHelper`]'s result bit: the port did the access.
pub const SUB_DONE: u64 = 1 << 32;

/// The helper for a translation's call or return (`weft_simt::is_scalar_jump`): (memory
/// context, the jump's [`weft_simt::CallEffect`] as a number) → nonzero if it applied the
/// effect to the warp's call stack ([`MemCtx::calls`]), 0 if the interpreter must execute
/// the jump (the context holds no call stack; nothing changed).
pub type JumpHelper = unsafe extern "C" fn(*mut std::ffi::c_void, u64) -> u32;

/// The helpers for `lw` and `sw`, for byte and halfword accesses, and for calls and returns.
#[derive(Clone, Copy)]
pub struct Helpers {
    pub load: MemHelper,
    pub store: MemHelper,
    pub sub: SubHelper,
    pub jump: JumpHelper,
}

/// Page windows per kind of access in a [`MemCtx`] (a power of two; direct-mapped by page).
/// 64 pages of 64 KiB: 4 MiB of data without two pages in one window. (With 8, matrix.c's
/// check, walking a column of one matrix and a row of another 11 pages apart, took a helper
/// call for most accesses: `weft run` 0.52 s; with 32, 0.42 s.)
pub const WINDOWS: usize = 64;

/// No page (a window's key): no run's tag has all of the high half's bits set.
pub const NO_PAGE: u64 = u64::MAX;

/// The last run tag ([`MemCtx::next_run`]) before the windows are cleared and tags begin
/// again at 1.
const LAST_TAG: u64 = 0xffff_fffe;

/// A page window, as the translated code checks it (a small TLB): `key` is the guest address
/// of a DRAM page (a multiple of `weft_mem::DRAM_PAGE_BYTES`) in the low half and the tag of
/// the engine run that opened it ([`MemCtx::tag`]) in the high half; a guest address `a` on
/// that page is at host address `bias + a`. One compare of `key` with `a`'s page bits and
/// low bits, or-ed with the run's tag, checks the page, the run and the alignment at once.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Window {
    pub key: u64,
    pub bias: usize,
}

/// How a translation treats the warp's lanes (part of its index key: one translation per
/// pc and kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Every lane of every vector active: whole vectors are written.
    Full = 0,
    /// Some lanes inactive: each result blends with the lane mask.
    Masked = 1,
    /// Exactly one lane active (`main`'s code, code after `tmc` down to one lane): the
    /// region specialised to that lane (a *scalar translation*): a register is one `i32`,
    /// that lane's value, read and written at that lane's word of the register files; no
    /// mask, plain branches (one lane cannot disagree with itself).
    /// The lane is the memory context's [`MemCtx::lane`], so one translation serves every
    /// lane.
    Lane = 2,
}

impl Kind {
    /// The kind of translation for a warp of `lanes` lanes with `mask` active (its
    /// [`LaneClass`]): all lanes active is a full translation only where the warp fills its
    /// last vector (an unmasked one writes every lane of every vector).
    pub fn of(lanes: usize, mask: u32) -> Kind {
        match LaneClass::of(lanes, mask) {
            LaneClass::One => Kind::Lane,
            LaneClass::All if lanes.is_multiple_of(4) => Kind::Full,
            LaneClass::All | LaneClass::Some => Kind::Masked,
        }
    }
}

/// What the translated code and its helpers share during one engine run (the
/// function's memory-context argument): the memory port, the warp's call stack while it runs
/// alone (null otherwise), the DRAM base, the active lane of a
/// scalar translation ([`Kind::Lane`]; 0 otherwise) and the float CSRs it reads, how many
/// memory instructions the helpers did (the engine counts the rest, from the blocks that ran,
/// as the direct path's), the block counters, address and data words, and the windows of
/// the pages the code may use itself — direct-mapped by page number, loads' then stores',
/// filled by the helpers with pages the port allows ([`weft_simt::MemPort::direct_page`]).
/// The engine keeps one context; a window counts only in the run whose tag it holds, so
/// every run starts with none (the port decides anew) without clearing them.
#[repr(C)]
pub struct MemCtx {
    pub port: *mut std::ffi::c_void,
    /// The warp's `weft_simt::CallStack` (null: calls and returns go to the interpreter).
    pub calls: *mut std::ffi::c_void,
    /// The warp's integer and float register files (32 registers of 32 lanes each), for the
    /// helpers.
    pub x: *mut u32,
    pub f: *mut u32,
    pub base: u32,
    pub lane: u32,
    /// In a scalar translation: nonzero if `csrs` holds what `fflags`, `frm` and `fcsr` read
    /// for the lane (`weft_simt::PrivateRun::float_csrs`; 0: such reads go to the
    /// interpreter).
    pub csrs_ok: u32,
    pub csrs: [u32; 3],
    /// Blocks of the region (bit `k`: block `k`) the code must not run: it exits before
    /// each of them to the interpreter (a diverged warp's reconvergence points lie in them).
    pub stop_blocks: u32,
    /// Loads and stores (warp-instructions) the helpers did in this call.
    pub helper_loads: u64,
    pub helper_stores: u64,
    /// This run's tag in the high half: a window is this run's if its key is the page's
    /// address | `tag`.
    pub tag: u64,
    /// The running translation's block counters (one `u64` per block of its region).
    pub counts: *mut u64,
    /// The budget the code had left when it returned.
    pub left: i64,
    /// The lanes' addresses of a memory access ([`ADDRS_AT`]).
    pub addrs: [u32; 32],
    /// The lanes' words of an access the code does lane by lane ([`DATA_AT`]).
    pub data: [u32; 32],
    pub windows: [[Window; WINDOWS]; 2],
}

impl MemCtx {
    /// Begin an engine run: a new tag (no window is the run's), the other fields cleared.
    pub fn next_run(&mut self) {
        let tag = match self.tag >> 32 {
            LAST_TAG => {
                for w in self.windows.iter_mut().flatten() {
                    w.key = NO_PAGE;
                }
                1
            }
            t => t + 1,
        };
        self.tag = tag << 32;
        self.port = std::ptr::null_mut();
        self.calls = std::ptr::null_mut();
        self.x = std::ptr::null_mut();
        self.f = std::ptr::null_mut();
        self.lane = 0;
        self.csrs_ok = 0;
        self.csrs = [0; 3];
        self.stop_blocks = 0;
        self.helper_loads = 0;
        self.helper_stores = 0;
    }
}

impl Default for MemCtx {
    fn default() -> MemCtx {
        MemCtx {
            port: std::ptr::null_mut(),
            calls: std::ptr::null_mut(),
            x: std::ptr::null_mut(),
            f: std::ptr::null_mut(),
            base: 0,
            lane: 0,
            csrs_ok: 0,
            csrs: [0; 3],
            stop_blocks: 0,
            helper_loads: 0,
            helper_stores: 0,
            tag: 0,
            counts: std::ptr::null_mut(),
            left: 0,
            addrs: [0; 32],
            data: [0; 32],
            windows: [[Window {
                key: NO_PAGE,
                bias: 0,
            }; WINDOWS]; 2],
        }
    }
}

/// Byte offsets of [`MemCtx`]'s fields, for the emitter.
pub const CTX_LANE: i32 = std::mem::offset_of!(MemCtx, lane) as i32;
pub const CTX_CSRS_OK: i32 = std::mem::offset_of!(MemCtx, csrs_ok) as i32;
pub const CTX_CSRS: i32 = std::mem::offset_of!(MemCtx, csrs) as i32;
pub const CTX_STOP_BLOCKS: i32 = std::mem::offset_of!(MemCtx, stop_blocks) as i32;
pub const CTX_TAG: i32 = std::mem::offset_of!(MemCtx, tag) as i32;
pub const CTX_WINDOWS: i32 = std::mem::offset_of!(MemCtx, windows) as i32;
pub const WINDOW_BYTES: i32 = std::mem::size_of::<Window>() as i32;
pub const WINDOW_BIAS: i32 = std::mem::offset_of!(Window, bias) as i32;
// The code finds a window by shifting the slot (`memory.rs`).
const _: () = assert!(WINDOW_BYTES.count_ones() == 1);
pub const CTX_COUNTS: i32 = std::mem::offset_of!(MemCtx, counts) as i32;
pub const CTX_LEFT: i32 = std::mem::offset_of!(MemCtx, left) as i32;
/// Where in the context a memory access's 32 lane addresses go (bytes).
pub const ADDRS_AT: i32 = std::mem::offset_of!(MemCtx, addrs) as i32;
/// Where in the context the lanes' words of an access done lane by lane go (bytes).
pub const DATA_AT: i32 = std::mem::offset_of!(MemCtx, data) as i32;

#[cfg(test)]
mod tests {
    use super::*;

    /// A window opened in one run is never the next run's, across the tags' wrap too.
    #[test]
    fn a_window_belongs_to_the_run_that_opened_it() {
        let mut ctx = MemCtx::default();
        let page = |n: u32| n << 16;
        let open = |ctx: &mut MemCtx, p: u32| {
            ctx.windows[0][(p >> 16) as usize % WINDOWS] = Window {
                key: u64::from(p) | ctx.tag,
                bias: 0,
            };
        };
        let held = |ctx: &MemCtx, p: u32| {
            ctx.windows[0][(p >> 16) as usize % WINDOWS].key == u64::from(p) | ctx.tag
        };
        // Every run of the first ones, and every run around the wrap.
        ctx.tag = (LAST_TAG - 3) << 32;
        for run in 0..10 {
            ctx.next_run();
            assert_ne!(ctx.tag, 0, "run {run}");
            for p in [page(5), page(0xffff)] {
                assert!(!held(&ctx, p), "run {run}: a window of an earlier run");
            }
            open(&mut ctx, page(5));
            open(&mut ctx, page(0xffff));
            assert!(held(&ctx, page(5)) && held(&ctx, page(0xffff)));
        }
        // No address is held by a cleared window, whatever the run.
        for tag in [1, LAST_TAG] {
            ctx.tag = tag << 32;
            for a in [0, page(0xffff) | 3, u32::MAX] {
                assert_ne!(u64::from(a) | ctx.tag, NO_PAGE);
            }
        }
    }
}

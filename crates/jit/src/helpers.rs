//! The functions translated code calls (`abi.rs`: [`abi::MemHelper`], [`abi::SubHelper`],
//! [`abi::JumpHelper`]): word, byte and halfword accesses through the memory port, with the
//! page windows they open for the code's direct path (`memory.rs`), and calls and returns on
//! the warp's call stack. Each counts the memory instructions it did in the context, for the
//! engine to tell them from the direct path's.

use crate::abi::{self, Helpers, MemCtx};
use weft_simt::{CallEffect, CallStack, MemPort};

/// The lanes of register id `r` (integer 0–31, float 32–63) of the files `x` and `f`.
///
/// # Safety
/// `x` and `f` are a warp's register files (32 registers of 32 lanes each).
unsafe fn lanes_of<'a>(x: *mut u32, f: *mut u32, r: usize) -> &'a mut [u32; 32] {
    let file = if r >= 32 { f } else { x };
    // SAFETY: as the function's contract says; `r % 32` is a register of the file.
    unsafe { &mut *file.add((r % 32) * 32).cast::<[u32; 32]>() }
}

/// `lw`/`flw` for translated code: the memory port loads each active lane's word straight
/// into the destination register, or refuses (0; no register changed). After a load it did,
/// the pages of the active lanes' addresses go to the loads' windows if the port allows.
///
/// # Safety
/// `ctx` is the [`MemCtx`] the engine passed to the translated function, its port the
/// engine's `MemPort`, its `x` and `f` the warp's register files; `addrs` points to 32 words.
unsafe extern "C" fn load_helper(ctx: *mut std::ffi::c_void, addrs: *const u32, reg: u64) -> u32 {
    // SAFETY: as the function's contract says.
    let (ctx, addrs) = unsafe { (&mut *ctx.cast::<MemCtx>(), &*addrs.cast::<[u32; 32]>()) };
    // SAFETY: as above.
    let port = unsafe { &mut *ctx.port.cast::<MemPort<'_>>() };
    let mut scratch = [0u32; 32];
    // The port writes the active lanes only, and nothing if it refuses (`x0`'s words go to
    // scratch).
    let out = if reg == 0 {
        &mut scratch
    } else {
        // SAFETY: as above.
        unsafe { lanes_of(ctx.x, ctx.f, reg as usize) }
    };
    let done = port.load_words(addrs, out);
    if done {
        ctx.helper_loads += 1;
        open_windows(ctx, port, addrs, false);
    }
    done as u32
}

/// `sw`/`fsw` for translated code: the memory port stores each active lane's word, or
/// refuses (0). After a store it did, the pages of the active lanes' addresses go to the
/// stores' windows if the port allows.
///
/// # Safety
/// As [`load_helper`].
unsafe extern "C" fn store_helper(ctx: *mut std::ffi::c_void, addrs: *const u32, reg: u64) -> u32 {
    // SAFETY: as the function's contract says.
    let (ctx, addrs) = unsafe { (&mut *ctx.cast::<MemCtx>(), &*addrs.cast::<[u32; 32]>()) };
    // SAFETY: as above.
    let vals = unsafe { &*lanes_of(ctx.x, ctx.f, reg as usize) };
    // SAFETY: as above.
    let port = unsafe { &mut *ctx.port.cast::<MemPort<'_>>() };
    let done = port.store_words(addrs, vals);
    if done {
        ctx.helper_stores += 1;
        open_windows(ctx, port, addrs, true);
    }
    done as u32
}

/// Open the windows of the pages of every active lane's address (`addrs`) for loads (or
/// stores), as [`open_window`] does, each page once for a run of lanes on it.
fn open_windows(ctx: &mut MemCtx, port: &mut MemPort<'_>, addrs: &[u32; 32], store: bool) {
    let page = |a: u32| a / weft_simt::DIRECT_PAGE_BYTES;
    let mut last = None;
    for l in weft_simt::lane::lanes(port.mask()) {
        let a = addrs[l];
        if last != Some(page(a)) {
            last = Some(page(a));
            open_window(ctx, port, a, store);
        }
    }
}

/// Put the DRAM page holding `addr` in its window for loads (or stores) if it is not there
/// and the port allows the direct path on it (`memory.rs`). Windows are keyed by the guest
/// address of the page ([`abi::Window`]), so where the DRAM base is not on a page boundary
/// none opens (every access takes the helper).
fn open_window(ctx: &mut MemCtx, port: &mut MemPort<'_>, addr: u32, store: bool) {
    let size = weft_simt::DIRECT_PAGE_BYTES;
    if !ctx.base.is_multiple_of(size) {
        return;
    }
    let page = addr & !(size - 1);
    let key = u64::from(page) | ctx.tag;
    let w = &mut ctx.windows[usize::from(store)][(addr / size) as usize % abi::WINDOWS];
    if w.key != key {
        if let Some(host) = port.direct_page(addr, store) {
            *w = abi::Window {
                key,
                bias: (host as usize).wrapping_sub(page as usize),
            };
        }
    }
}

/// A scalar translation's byte or halfword access (`what`: [`abi::SUB_STORE`] | bytes) at
/// `addr` that found no page window: the port does it or refuses (0); after an access it
/// did, the page goes to its window if the port allows ([`abi::SubHelper`]).
///
/// # Safety
/// As [`load_helper`] (`ctx` only).
unsafe extern "C" fn sub_helper(ctx: *mut std::ffi::c_void, addr: u64, what: u64, val: u64) -> u64 {
    // SAFETY: as the function's contract says.
    let ctx = unsafe { &mut *ctx.cast::<MemCtx>() };
    // SAFETY: as above.
    let port = unsafe { &mut *ctx.port.cast::<MemPort<'_>>() };
    let (addr, size, store) = (addr as u32, (what & 3) as u32, what & abi::SUB_STORE != 0);
    let got = if store {
        port.store_sub(addr, size, val as u32).then_some(0)
    } else {
        port.load_sub(addr, size)
    };
    match got {
        Some(v) => {
            if store {
                ctx.helper_stores += 1;
            } else {
                ctx.helper_loads += 1;
            }
            open_window(ctx, port, addr, store);
            abi::SUB_DONE | u64::from(v)
        }
        None => 0,
    }
}

/// A translation's call or return ([`abi::JumpHelper`]): the effect on the warp's call
/// stack, or a refusal (0) when the context holds none.
///
/// # Safety
/// As [`load_helper`] (`ctx` only); `ctx.calls` is null or the running warp's call stack.
unsafe extern "C" fn jump_helper(ctx: *mut std::ffi::c_void, effect: u64) -> u32 {
    // SAFETY: as the function's contract says.
    let ctx = unsafe { &mut *ctx.cast::<MemCtx>() };
    if ctx.calls.is_null() {
        return 0;
    }
    // SAFETY: as above.
    let calls = unsafe { &mut *ctx.calls.cast::<CallStack>() };
    calls.apply(if effect == CallEffect::Call as u64 {
        CallEffect::Call
    } else {
        CallEffect::Return
    });
    1
}

/// The helpers, as the translations get them.
pub(crate) const HELPERS: Helpers = Helpers {
    load: load_helper,
    store: store_helper,
    sub: sub_helper,
    jump: jump_helper,
};

//! The one rounding step shared by every `f32`-producing operation: an `f64` value plus the
//! sign of its residual, rounded to an `f32` bit pattern under a [`Rm`], with NX/OF/UF decided.
//!
//! The work happens in *bit-pattern space*: for positive finite `f32`s the bit patterns are
//! ordered like the values, so the predecessor of a pattern is `bits - 1` (across binade and
//! subnormal boundaries) and rounding up is `+ 1`, with a carry into the exponent field for
//! free. Patterns at or above `0x7f80_0000` mean "beyond the largest finite value" (overflow
//! with an unbounded exponent).

use super::{Flags, Rm, CANONICAL_NAN, INF, SIGN};

/// Largest finite `f32` magnitude.
const MAX: u32 = 0x7f7f_ffff;
/// Smallest normal `f32` magnitude.
const MIN_NORMAL: u32 = 0x0080_0000;

/// Where the true magnitude lies relative to the `f32` grid point below it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pos {
    /// On the grid point.
    Exact,
    /// Strictly between the grid point and the midpoint.
    Below,
    /// Exactly on the midpoint.
    Half,
    /// Strictly between the midpoint and the next grid point.
    Above,
}

/// Whether a magnitude at `pos` above the grid point `lower` rounds to the next grid point.
#[inline]
fn rounds_up(pos: Pos, lower_odd: bool, neg: bool, rm: Rm) -> bool {
    if pos == Pos::Exact {
        return false;
    }
    match rm {
        Rm::Rne => pos == Pos::Above || (pos == Pos::Half && lower_odd),
        Rm::Rmm => pos == Pos::Above || pos == Pos::Half,
        Rm::Rtz => false,
        Rm::Rup => !neg,
        Rm::Rdn => neg,
    }
}

/// Truncate `sig` by `shift` bits (`1 <= shift <= 54`) and locate the true magnitude.
///
/// `d` is the direction of the true magnitude relative to the value `sig` stands for
/// (+1 larger, −1 smaller, 0 equal); it is only consulted when `sig`'s dropped bits are zero or
/// exactly half. Returns (grid point below the true magnitude relative to the truncation, as
/// an offset of 0 or −1, and the position).
#[inline]
fn locate(sig: u64, shift: u32, d: &mut impl FnMut() -> i32) -> (u64, i64, Pos) {
    let kept = sig >> shift;
    let rem = sig & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    if rem == 0 {
        match d() {
            0 => (kept, 0, Pos::Exact),
            x if x > 0 => (kept, 0, Pos::Below),
            _ => (kept, -1, Pos::Above),
        }
    } else if rem == half {
        match d() {
            0 => (kept, 0, Pos::Half),
            x if x > 0 => (kept, 0, Pos::Above),
            _ => (kept, 0, Pos::Below),
        }
    } else if rem < half {
        (kept, 0, Pos::Below)
    } else {
        (kept, 0, Pos::Above)
    }
}

/// Round `x + r` to `f32`, where `resid()` returns `r` (only its sign matters; `r` must be
/// smaller than half an `f64` ulp of `x`, as the error of a correctly rounded `f64` operation
/// is). `x` NaN gives the canonical NaN with NV (an invalid operation the caller let through);
/// `x` infinite gives that infinity with no flags (an exact infinite operand); `x` zero gives
/// that zero (the caller has fixed its sign).
#[inline]
pub(crate) fn round_f64(x: f64, rm: Rm, resid: impl FnOnce() -> f64) -> (u32, Flags) {
    let bits = x.to_bits();
    let neg = bits >> 63 != 0;
    let sign = if neg { SIGN } else { 0 };
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    if biased == 0x7ff {
        return if frac != 0 {
            (CANONICAL_NAN, Flags::NV)
        } else {
            (sign | INF, Flags::NONE)
        };
    }
    if bits << 1 == 0 {
        return (sign, Flags::NONE);
    }
    let (sig, e) = if biased == 0 {
        (frac, -1022)
    } else {
        (frac | (1u64 << 52), biased - 1023)
    };

    // The residual, evaluated at most once and only when the f64 bits cannot decide.
    let mut resid = Some(resid);
    let mut dir_cache: Option<i32> = None;
    let mut dir = || -> i32 {
        if let Some(v) = dir_cache {
            return v;
        }
        let r = resid.take().map_or(0.0, |f| f());
        let v = if r == 0.0 || r.is_nan() {
            0
        } else if (r > 0.0) != neg {
            1
        } else {
            -1
        };
        dir_cache = Some(v);
        v
    };

    // Bits dropped from the 53-bit significand: 29 for a normal f32, more below 2^-126.
    let shift = if e >= -126 {
        29
    } else {
        (29 + (-126 - e)).min(54) as u32
    };
    let (kept, off, pos) = locate(sig, shift, &mut dir);
    // Bit pattern of the truncation: exponent field plus significand (its implicit bit carries
    // into the exponent field, hence `e + 126`).
    let trunc = if e >= -126 {
        (((e + 126) as u64) << 23) + kept
    } else {
        kept
    };
    let lower = (trunc as i64 + off) as u64;
    let up = rounds_up(pos, lower & 1 != 0, neg, rm);
    let mag = lower + up as u64;
    let inexact = pos != Pos::Exact;

    if mag >= INF as u64 {
        let m = match rm {
            Rm::Rne | Rm::Rmm => INF,
            Rm::Rtz => MAX,
            Rm::Rup => {
                if neg {
                    MAX
                } else {
                    INF
                }
            }
            Rm::Rdn => {
                if neg {
                    INF
                } else {
                    MAX
                }
            }
        };
        return (sign | m, Flags::OF | Flags::NX);
    }
    let mag = mag as u32;
    let mut flags = if inexact { Flags::NX } else { Flags::NONE };
    if inexact && mag <= MIN_NORMAL && tiny(sig, e, mag, neg, rm, &mut dir) {
        flags |= Flags::UF;
    }
    (sign | mag, flags)
}

/// Tininess after rounding for an inexact result whose final magnitude `mag` is at most
/// `2^-126`: would rounding to 24 bits with an unbounded exponent give less than `2^-126`?
#[cold]
fn tiny(sig: u64, e: i32, mag: u32, neg: bool, rm: Rm, dir: &mut impl FnMut() -> i32) -> bool {
    if mag < MIN_NORMAL {
        // Rounding to the coarser subnormal grid stayed below 2^-126, so the finer one does.
        return true;
    }
    match e {
        // 2^-127 <= x < 2^-126: round the 24-bit significand and see whether it carries.
        -127 => {
            let (kept, off, pos) = locate(sig, 29, dir);
            let lower = (kept as i64 + off) as u64;
            let up = rounds_up(pos, lower & 1 != 0, neg, rm);
            lower + (up as u64) < 1u64 << 24
        }
        // x >= 2^-126 is never tiny. That includes x == 2^-126 with the true value just below
        // it: the residual is far below both grids, so if the subnormal rounding went up to
        // 2^-126, the 24-bit rounding does too.
        _ => e < -126,
    }
}

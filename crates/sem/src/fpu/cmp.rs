//! RV32F sign injection, min/max, comparisons and classification.
//!
//! `fmin.s`/`fmax.s` are IEEE 754-2019 minimumNumber/maximumNumber as RISC-V specifies them:
//! −0 < +0, a single NaN operand yields the other operand, two NaNs yield the canonical NaN,
//! and NV is raised only for a signalling NaN. `feq.s` is a quiet comparison (NV only for
//! sNaN); `flt.s`/`fle.s` are signalling (NV for any NaN). Comparisons return 0 or 1.

use super::{is_nan, is_snan, Flags, ABS, CANONICAL_NAN, INF, SIGN};

/// `fsgnj.s`: magnitude of `a`, sign of `b`.
#[inline]
pub fn fsgnj(a: u32, b: u32) -> u32 {
    (a & ABS) | (b & SIGN)
}

/// `fsgnjn.s`: magnitude of `a`, opposite of `b`'s sign.
#[inline]
pub fn fsgnjn(a: u32, b: u32) -> u32 {
    (a & ABS) | (!b & SIGN)
}

/// `fsgnjx.s`: `a` with its sign XORed with `b`'s.
#[inline]
pub fn fsgnjx(a: u32, b: u32) -> u32 {
    a ^ (b & SIGN)
}

/// NV if either operand is a signalling NaN.
#[inline]
fn snan_flag(a: u32, b: u32) -> Flags {
    if is_snan(a) || is_snan(b) {
        Flags::NV
    } else {
        Flags::NONE
    }
}

/// Total-order key for non-NaN patterns: −0 sorts just below +0.
#[inline]
fn key(a: u32) -> i64 {
    if a & SIGN != 0 {
        -((a & ABS) as i64) - 1
    } else {
        a as i64
    }
}

/// `fmin.s`: minimumNumber (−0 < +0; one NaN → the other operand; two → canonical NaN).
#[inline]
pub fn fmin(a: u32, b: u32) -> (u32, Flags) {
    let flags = snan_flag(a, b);
    let r = match (is_nan(a), is_nan(b)) {
        (true, true) => CANONICAL_NAN,
        (true, false) => b,
        (false, true) => a,
        (false, false) => {
            if key(a) <= key(b) {
                a
            } else {
                b
            }
        }
    };
    (r, flags)
}

/// `fmax.s`: maximumNumber (−0 < +0; one NaN → the other operand; two → canonical NaN).
#[inline]
pub fn fmax(a: u32, b: u32) -> (u32, Flags) {
    let flags = snan_flag(a, b);
    let r = match (is_nan(a), is_nan(b)) {
        (true, true) => CANONICAL_NAN,
        (true, false) => b,
        (false, true) => a,
        (false, false) => {
            if key(a) >= key(b) {
                a
            } else {
                b
            }
        }
    };
    (r, flags)
}

/// `feq.s`: 1 if `a == b` (+0 == −0), 0 otherwise; NV only for a signalling NaN.
#[inline]
pub fn feq(a: u32, b: u32) -> (u32, Flags) {
    if is_nan(a) || is_nan(b) {
        return (0, snan_flag(a, b));
    }
    let eq = a == b || (a | b) & ABS == 0;
    (eq as u32, Flags::NONE)
}

/// `flt.s`: 1 if `a < b`, 0 otherwise; NV for any NaN operand.
#[inline]
pub fn flt(a: u32, b: u32) -> (u32, Flags) {
    if is_nan(a) || is_nan(b) {
        return (0, Flags::NV);
    }
    let lt = f32::from_bits(a) < f32::from_bits(b);
    (lt as u32, Flags::NONE)
}

/// `fle.s`: 1 if `a <= b`, 0 otherwise; NV for any NaN operand.
#[inline]
pub fn fle(a: u32, b: u32) -> (u32, Flags) {
    if is_nan(a) || is_nan(b) {
        return (0, Flags::NV);
    }
    let le = f32::from_bits(a) <= f32::from_bits(b);
    (le as u32, Flags::NONE)
}

/// `fclass.s`: the 10-bit class mask (bit 0 −∞, 1 negative normal, 2 negative subnormal,
/// 3 −0, 4 +0, 5 positive subnormal, 6 positive normal, 7 +∞, 8 sNaN, 9 qNaN).
#[inline]
pub fn fclass(a: u32) -> u32 {
    let neg = a & SIGN != 0;
    let mag = a & ABS;
    let bit = if mag > INF {
        if is_snan(a) {
            8
        } else {
            9
        }
    } else if mag == INF {
        if neg {
            0
        } else {
            7
        }
    } else if mag >= 0x0080_0000 {
        if neg {
            1
        } else {
            6
        }
    } else if mag != 0 {
        if neg {
            2
        } else {
            5
        }
    } else if neg {
        3
    } else {
        4
    };
    1 << bit
}

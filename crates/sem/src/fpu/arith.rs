//! RV32F arithmetic: `fadd.s fsub.s fmul.s fdiv.s fsqrt.s` and the four fused multiply-adds.
//!
//! Each function settles NaN operands and invalid/divide-by-zero cases on the bit patterns,
//! computes the result in `f64` and hands it to [`round_f64`] with a closure that recovers the
//! exact residual (see the `fpu` module header for why this is exact).

use super::round::round_f64;
use super::{is_inf, is_nan, is_snan, is_zero, Flags, Rm, CANONICAL_NAN, INF, SIGN};

/// The rounding error of `s = fl(a + b)` (Knuth's TwoSum): `a + b - s` exactly.
#[inline]
fn two_sum_err(a: f64, b: f64, s: f64) -> f64 {
    let bb = s - a;
    (a - (s - bb)) + (b - bb)
}

/// NaN result for NaN operands: canonical NaN, NV if any operand is signalling.
#[inline]
fn nan2(a: u32, b: u32) -> (u32, Flags) {
    let nv = is_snan(a) || is_snan(b);
    (CANONICAL_NAN, if nv { Flags::NV } else { Flags::NONE })
}

#[inline]
fn f(a: u32) -> f64 {
    f32::from_bits(a) as f64
}

/// Sign of an exact zero sum `p + q` whose operands' sign bits are `sp`, `sq`: the host's
/// round-to-nearest answer, except that RDN gives −0 unless both operands are +0.
#[inline]
fn zero_sum(host: f64, sp: bool, sq: bool, rm: Rm) -> u32 {
    let neg = if rm == Rm::Rdn {
        sp || sq
    } else {
        host.is_sign_negative()
    };
    if neg {
        SIGN
    } else {
        0
    }
}

/// `fadd.s`: `a + b`, one rounding.
#[inline]
pub fn fadd(a: u32, b: u32, rm: Rm) -> (u32, Flags) {
    if is_nan(a) || is_nan(b) {
        return nan2(a, b);
    }
    let (x, y) = (f(a), f(b));
    let s = x + y;
    if s == 0.0 {
        return (zero_sum(s, a & SIGN != 0, b & SIGN != 0, rm), Flags::NONE);
    }
    round_f64(s, rm, || two_sum_err(x, y, s))
}

/// `fsub.s`: `a - b`, one rounding.
#[inline]
pub fn fsub(a: u32, b: u32, rm: Rm) -> (u32, Flags) {
    fadd(a, b ^ SIGN, rm)
}

/// `fmul.s`: `a × b`, one rounding (the `f64` product is exact).
#[inline]
pub fn fmul(a: u32, b: u32, rm: Rm) -> (u32, Flags) {
    if is_nan(a) || is_nan(b) {
        return nan2(a, b);
    }
    round_f64(f(a) * f(b), rm, || 0.0)
}

/// `fdiv.s`: `a ÷ b`, one rounding; finite nonzero ÷ 0 is ±∞ with DZ, 0/0 and ∞/∞ are NV.
#[inline]
pub fn fdiv(a: u32, b: u32, rm: Rm) -> (u32, Flags) {
    if is_nan(a) || is_nan(b) {
        return nan2(a, b);
    }
    if is_zero(b) && !is_zero(a) && !is_inf(a) {
        return (((a ^ b) & SIGN) | INF, Flags::DZ);
    }
    let (x, y) = (f(a), f(b));
    let q = x / y;
    round_f64(q, rm, || {
        let r = (-q).mul_add(y, x);
        if y < 0.0 {
            -r
        } else {
            r
        }
    })
}

/// `fsqrt.s`: `√a`, one rounding; √−0 = −0, negative nonzero operands are NV.
#[inline]
pub fn fsqrt(a: u32, rm: Rm) -> (u32, Flags) {
    if is_nan(a) {
        return nan2(a, a);
    }
    if is_zero(a) {
        return (a, Flags::NONE);
    }
    if a & SIGN != 0 {
        return (CANONICAL_NAN, Flags::NV);
    }
    let x = f(a);
    let s = x.sqrt();
    round_f64(s, rm, || (-s).mul_add(s, x))
}

/// The fused multiply-add core: `a × b + c` with one rounding.
#[inline]
fn fma(a: u32, b: u32, c: u32, rm: Rm) -> (u32, Flags) {
    let inf_times_zero = (is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b));
    if is_nan(a) || is_nan(b) || is_nan(c) {
        // RISC-V: ∞ × 0 + qNaN still raises NV.
        let nv = is_snan(a) || is_snan(b) || is_snan(c) || inf_times_zero;
        return (CANONICAL_NAN, if nv { Flags::NV } else { Flags::NONE });
    }
    let p = f(a) * f(b); // exact (NaN for ∞ × 0, which round_f64 reports as NV)
    let z = f(c);
    let s = p + z;
    if s == 0.0 {
        let sp = (a ^ b) & SIGN != 0;
        return (zero_sum(s, sp, c & SIGN != 0, rm), Flags::NONE);
    }
    round_f64(s, rm, || two_sum_err(p, z, s))
}

/// `fmadd.s`: `a × b + c`, one rounding.
#[inline]
pub fn fmadd(a: u32, b: u32, c: u32, rm: Rm) -> (u32, Flags) {
    fma(a, b, c, rm)
}

/// `fmsub.s`: `a × b − c`, one rounding.
#[inline]
pub fn fmsub(a: u32, b: u32, c: u32, rm: Rm) -> (u32, Flags) {
    fma(a, b, c ^ SIGN, rm)
}

/// `fnmsub.s`: `−(a × b) + c`, one rounding.
#[inline]
pub fn fnmsub(a: u32, b: u32, c: u32, rm: Rm) -> (u32, Flags) {
    fma(a ^ SIGN, b, c, rm)
}

/// `fnmadd.s`: `−(a × b) − c`, one rounding.
#[inline]
pub fn fnmadd(a: u32, b: u32, c: u32, rm: Rm) -> (u32, Flags) {
    fma(a ^ SIGN, b, c ^ SIGN, rm)
}

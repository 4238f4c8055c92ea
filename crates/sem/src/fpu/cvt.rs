//! RV32F integer conversions: `fcvt.w.s fcvt.wu.s fcvt.s.w fcvt.s.wu`.
//!
//! Float → integer rounds per `rm`; NaN gives the largest value (`0x7fff_ffff` /
//! `0xffff_ffff`) with NV; out-of-range values saturate with NV (and no NX); an in-range
//! inexact result sets NX. For `fcvt.wu.s` a negative value that rounds to 0 gives 0 with NX
//! only, one that rounds below 0 gives 0 with NV. Integer → float is one rounding of an exact
//! `f64`.

use super::round::round_f64;
use super::{is_nan, Flags, Rm};

/// Round an `f64` holding an `f32` value to an integral `f64` under `rm`.
#[inline]
fn round_int(x: f64, rm: Rm) -> f64 {
    match rm {
        Rm::Rne => x.round_ties_even(),
        Rm::Rtz => x.trunc(),
        Rm::Rdn => x.floor(),
        Rm::Rup => x.ceil(),
        Rm::Rmm => x.round(),
    }
}

/// `fcvt.w.s`: to signed 32-bit integer.
#[inline]
pub fn fcvt_w_s(a: u32, rm: Rm) -> (u32, Flags) {
    if is_nan(a) {
        return (0x7fff_ffff, Flags::NV);
    }
    let x = f32::from_bits(a) as f64;
    let r = round_int(x, rm);
    if r > i32::MAX as f64 {
        (0x7fff_ffff, Flags::NV)
    } else if r < i32::MIN as f64 {
        (0x8000_0000, Flags::NV)
    } else {
        let flags = if r != x { Flags::NX } else { Flags::NONE };
        (r as i32 as u32, flags)
    }
}

/// `fcvt.wu.s`: to unsigned 32-bit integer.
#[inline]
pub fn fcvt_wu_s(a: u32, rm: Rm) -> (u32, Flags) {
    if is_nan(a) {
        return (0xffff_ffff, Flags::NV);
    }
    let x = f32::from_bits(a) as f64;
    let r = round_int(x, rm);
    if r > u32::MAX as f64 {
        (0xffff_ffff, Flags::NV)
    } else if r < 0.0 {
        (0, Flags::NV)
    } else {
        let flags = if r != x { Flags::NX } else { Flags::NONE };
        (r as u32, flags)
    }
}

/// `fcvt.s.w`: from signed 32-bit integer, rounded per `rm`.
#[inline]
pub fn fcvt_s_w(a: u32, rm: Rm) -> (u32, Flags) {
    round_f64(a as i32 as f64, rm, || 0.0)
}

/// `fcvt.s.wu`: from unsigned 32-bit integer, rounded per `rm`.
#[inline]
pub fn fcvt_s_wu(a: u32, rm: Rm) -> (u32, Flags) {
    round_f64(a as f64, rm, || 0.0)
}

//! The TCU's element formats as numbers: each packed input or accumulator element widened to an
//! `f32` bit pattern, and an `f32` result narrowed back — bit-exact to the conversions SimX's
//! tensor unit uses (Vortex v3.0, `rvfloats`/`softfloat_ext`), all under round-to-nearest-even.
//!
//! * fp16 and bf16 convert as IEEE does (Berkeley SoftFloat's `f16`/`bf16` conversions): exact
//!   widening; narrowing rounds once, overflows to infinity and gives the RISC-V canonical NaN
//!   (`0x7e00`, `0x7fc0`).
//! * fp8 (E4M3), bf8 (E5M2) and tf32 use Vortex's own custom-format converter, which is *not*
//!   IEEE in three places this module reproduces: a NaN keeps its sign and becomes the pattern
//!   with the top mantissa bit set (`0x7c` for E4M3, which E4M3 reads as 384, not NaN); a
//!   value whose exponent overflows becomes the all-ones exponent with a zero mantissa (E4M3
//!   `0x78` = 256, E5M2 infinity), so E4M3 never produces 448; and a result below the normal
//!   range is rounded twice — first to the format's precision as if normal, then to the
//!   subnormal grid.
//! * Widening E4M3 reads only `S.1111.111` as NaN (OCP FP8); E5M2 and tf32 read an all-ones
//!   exponent as IEEE does. tf32 is 19 bits (sign bit 18, exponent 17:10, mantissa 9:0) in the
//!   low bits of a word.

use super::{BF16, BF8, FP16, FP8, TF32};

const CANONICAL_NAN: u32 = crate::fpu::CANONICAL_NAN;

/// Exponent and mantissa widths of the custom formats Vortex converts with its own code.
fn custom_shape(fmt: u8) -> (u32, u32) {
    match fmt {
        FP8 => (4, 3),
        BF8 => (5, 2),
        _ => (8, 10), // TF32
    }
}

/// Widen the element `v` (in the low bits) of format `fmt` to an `f32` bit pattern. Every
/// TCU input format converts exactly; NaNs become a quiet NaN.
pub fn to_f32(fmt: u8, v: u32) -> u32 {
    match fmt {
        FP16 => f16_to_f32(v as u16),
        BF16 => {
            let v = v & 0xffff;
            if v & 0x7f80 == 0x7f80 && v & 0x7f != 0 {
                CANONICAL_NAN
            } else {
                v << 16
            }
        }
        FP8 | BF8 | TF32 => {
            let (e, m) = custom_shape(fmt);
            custom_to_f32(v, e, m)
        }
        _ => v,
    }
}

/// Narrow the `f32` bit pattern `x` to format `fmt` (round to nearest, ties to even, with
/// Vortex's conventions — see the module documentation). The result is in the low bits.
pub fn from_f32(fmt: u8, x: u32) -> u32 {
    match fmt {
        FP16 => f32_to_f16(x) as u32,
        BF16 => f32_to_bf16(x) as u32,
        FP8 | BF8 | TF32 => {
            let (e, m) = custom_shape(fmt);
            f32_to_custom(x, e, m)
        }
        _ => x,
    }
}

fn f16_to_f32(h: u16) -> u32 {
    let sign = ((h >> 15) as u32) << 31;
    let exp = ((h >> 10) & 0x1f) as u32;
    let man = (h & 0x3ff) as u32;
    match (exp, man) {
        (0x1f, 0) => sign | 0x7f80_0000,
        (0x1f, _) => CANONICAL_NAN,
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: normalise so the leading one becomes the hidden bit.
            let shift = m.leading_zeros() - 21; // bring bit 10 to the top
            let m = (m << shift) & 0x3ff;
            sign | ((127 - 15 + 1 - shift) << 23) | (m << 13)
        }
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    }
}

/// Round the magnitude `sig · 2^(exp − top)` (`sig` has its leading one at bit `top`, so the
/// value is `1.f × 2^exp`) once, to nearest-even, into an IEEE-style format with `man_bits`
/// mantissa bits, normal exponents `emin..=emax` and bias `emax`. Returns the encoded magnitude
/// (the infinity pattern on overflow).
fn round_ieee(sig: u64, top: u32, exp: i32, man_bits: u32, emin: i32, emax: i32) -> u32 {
    let drop = top as i32 - man_bits as i32 + (emin - exp).max(0);
    let kept = if drop <= 0 {
        sig << (-drop) as u32
    } else if drop >= 64 {
        0
    } else {
        let kept = sig >> drop as u32;
        kept + rne_up(kept, sig, drop as u32) as u64
    };
    if exp < emin {
        // The subnormal grid: `kept` is the encoding (a carry into bit man_bits is exactly the
        // smallest normal's encoding).
        return kept as u32;
    }
    let (kept, exp) = if kept >> (man_bits + 1) != 0 {
        (kept >> 1, exp + 1)
    } else {
        (kept, exp)
    };
    if exp > emax {
        return ((2 * emax + 1) as u32) << man_bits;
    }
    (((exp + emax) as u32) << man_bits) | (kept as u32 & ((1 << man_bits) - 1))
}

/// An `f32`'s sign, significand (hidden bit included) with its top bit index, and exponent;
/// `None` for zero, infinity and NaN.
fn f32_parts(x: u32) -> Option<(u64, u32, i32)> {
    let exp = ((x >> 23) & 0xff) as i32;
    let man = (x & 0x7f_ffff) as u64;
    match exp {
        0xff => None,
        0 if man == 0 => None,
        0 => {
            let top = 63 - man.leading_zeros();
            Some((man, top, -126 - (23 - top as i32)))
        }
        e => Some((man | 1 << 23, 23, e - 127)),
    }
}

fn f32_to_ieee(x: u32, exp_bits: u32, man_bits: u32, nan: u32) -> u32 {
    let sign = (x >> 31) << (exp_bits + man_bits);
    let emax = (1i32 << (exp_bits - 1)) - 1;
    let inf = ((1u32 << exp_bits) - 1) << man_bits;
    if x & 0x7fff_ffff > 0x7f80_0000 {
        return nan;
    }
    if x & 0x7fff_ffff == 0x7f80_0000 {
        return sign | inf;
    }
    match f32_parts(x) {
        None => sign,
        Some((sig, top, exp)) => sign | round_ieee(sig, top, exp, man_bits, 1 - emax, emax),
    }
}

fn f32_to_f16(x: u32) -> u16 {
    f32_to_ieee(x, 5, 10, 0x7e00) as u16
}

fn f32_to_bf16(x: u32) -> u16 {
    f32_to_ieee(x, 8, 7, 0x7fc0) as u16
}

/// Widen a custom-format value (Vortex's converter; exact for these formats).
fn custom_to_f32(v: u32, exp_bits: u32, man_bits: u32) -> u32 {
    let sign = ((v >> (exp_bits + man_bits)) & 1) << 31;
    let e = (v >> man_bits) & ((1 << exp_bits) - 1);
    let m = v & ((1 << man_bits) - 1);
    let e_max = (1 << exp_bits) - 1;
    let bias = (1i32 << (exp_bits - 1)) - 1;
    let e4m3 = exp_bits == 4 && man_bits == 3;
    if e4m3 && e == 0xf && m == 7 {
        return sign | 0x7fc0_0000;
    }
    if !e4m3 && e == e_max {
        return if m != 0 {
            sign | 0x7fc0_0000
        } else {
            sign | 0x7f80_0000
        };
    }
    if e == 0 && m == 0 {
        return sign;
    }
    let (exp, sig) = if e == 0 {
        let shift = m.leading_zeros() - (31 - man_bits);
        (1 - bias - shift as i32, m << shift)
    } else {
        (e as i32 - bias, (1 << man_bits) | m)
    };
    // Every custom format here has at most 10 mantissa bits and no exponent beyond f32's
    // range: the widening is exact (tf32's subnormals are f32 subnormals).
    if exp + 127 <= 0 {
        return sign | sig << (exp - man_bits as i32 + 149) as u32;
    }
    sign | (((exp + 127) as u32) << 23) | ((sig << (23 - man_bits)) & 0x7f_ffff)
}

/// Round-to-nearest-even increment from the kept value's last bit and the dropped bits.
fn rne_up(kept: u64, main: u64, drop: u32) -> bool {
    if drop == 0 {
        return false;
    }
    let guard = (main >> (drop - 1)) & 1 == 1;
    let rest = drop >= 2 && main & ((1u64 << (drop - 1)) - 1) != 0;
    guard && (rest || kept & 1 == 1)
}

/// Narrow to a custom format the way Vortex's `cvt_f32_to_custom` does (see the module
/// documentation for where that differs from IEEE).
fn f32_to_custom(x: u32, exp_bits: u32, man_bits: u32) -> u32 {
    let sign = x >> 31;
    let exp_max = (1u32 << exp_bits) - 1;
    let mant_mask = (1u32 << man_bits) - 1;
    let bias = (1i32 << (exp_bits - 1)) - 1;
    let (emax, emin) = (bias, 1 - bias);
    let pack = |e: u32, m: u32| (sign << (exp_bits + man_bits)) | (e << man_bits) | (m & mant_mask);
    let e_ieee = (x >> 23) & 0xff;
    let m_ieee = x & 0x7f_ffff;
    if e_ieee == 0xff {
        return if m_ieee != 0 {
            pack(exp_max, 1 << (man_bits - 1))
        } else {
            pack(exp_max, 0)
        };
    }
    if e_ieee == 0 && m_ieee == 0 {
        return pack(0, 0);
    }
    let (mut main, mut exponent) = if e_ieee != 0 {
        ((1u64 << 23) | m_ieee as u64, e_ieee as i32 - 127)
    } else {
        let sh = m_ieee.leading_zeros() - 8;
        ((m_ieee << sh) as u64, -126 - sh as i32)
    };
    // First rounding: to the format's precision, as if the result were normal.
    let sh = 23 - man_bits;
    let kept = main >> sh;
    let kept = kept + rne_up(kept, main, sh) as u64;
    main = if kept == 1u64 << (man_bits + 1) {
        exponent += 1;
        kept >> 1
    } else {
        kept
    };
    if exponent > emax {
        return pack(exp_max, 0);
    }
    if exponent >= emin {
        return pack((exponent + bias) as u32, main as u32 & mant_mask);
    }
    // Second rounding: onto the subnormal grid, from the already-rounded significand.
    let t = (emin - exponent) as u32;
    let (keep, up) = if t < 64 {
        let keep = main >> t;
        (keep, rne_up(keep, main, t))
    } else {
        (0, false)
    };
    let m = keep + up as u64;
    if m == 1u64 << man_bits {
        return pack(1, 0);
    }
    pack(0, m as u32)
}

//! Single-precision (RV32F) per-lane semantics on raw bit patterns.
//!
//! Every operation takes `u32` bit patterns and a resolved rounding mode [`Rm`] and returns
//! the result bits with the accrued exception [`Flags`] (the `fflags` layout), bit-exact to the
//! RISC-V unprivileged spec: every NaN result is the canonical NaN `0x7fc0_0000`, tininess is
//! detected after rounding, subnormals are neither flushed nor treated as zero.
//!
//! # Method
//! The host's `f64` arithmetic does the heavy lifting:
//! * the sum, product, quotient and square root of `f32` operands are computed in `f64`
//!   (correctly rounded to nearest by the host), and the exact residual `true - computed` is
//!   recovered when needed — TwoSum for add/sub/fma, an `f64::mul_add` remainder for div and
//!   sqrt; the product of two `f32`s is exact in `f64`, so fma is TwoSum of that product and `c`.
//!   Over `f32` operand ranges nothing overflows or underflows in `f64`, so the residual is
//!   exact and only its sign is needed.
//! * one shared function, [`round::round_f64`], rounds `(x, sign of residual)` to `f32` under
//!   any [`Rm`] with pure integer arithmetic and decides NX/OF/UF. Because every `f32` grid
//!   point and every midpoint between two is an `f64`, the `f64` value alone decides the
//!   rounding unless it lies exactly on one of them; only then is the residual evaluated (it is
//!   passed as a closure, so the common case never computes it). For div and sqrt that only
//!   happens when the result is exact (a 24-bit quotient or root cannot come within 2^-53
//!   relative of a 25-bit value without equalling it), so the `mul_add` runs rarely.
//! * UF uses tininess after rounding: a result is tiny if rounding it to 24 bits with an
//!   unbounded exponent gives a magnitude below `2^-126`; UF is raised only when it is also
//!   inexact.
//!
//! Special operands (NaN, infinity, invalid combinations, division by zero) are decided before
//! the `f64` computation, in the operation's own function.

mod arith;
mod cmp;
mod cvt;
pub(crate) mod round;

pub use arith::{fadd, fdiv, fmadd, fmsub, fmul, fnmadd, fnmsub, fsqrt, fsub};
pub use cmp::{fclass, feq, fle, flt, fmax, fmin, fsgnj, fsgnjn, fsgnjx};
pub use cvt::{fcvt_s_w, fcvt_s_wu, fcvt_w_s, fcvt_wu_s};

/// The canonical quiet NaN RISC-V produces for every NaN result.
pub const CANONICAL_NAN: u32 = 0x7fc0_0000;

/// A resolved rounding mode (the `frm`/`rm` field encodings 0–4; the caller resolves `DYN`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Rm {
    /// Round to nearest, ties to even (000).
    Rne = 0,
    /// Round toward zero (001).
    Rtz = 1,
    /// Round down, toward −∞ (010).
    Rdn = 2,
    /// Round up, toward +∞ (011).
    Rup = 3,
    /// Round to nearest, ties to max magnitude (100).
    Rmm = 4,
}

impl Rm {
    /// All five modes, in encoding order.
    pub const ALL: [Rm; 5] = [Rm::Rne, Rm::Rtz, Rm::Rdn, Rm::Rup, Rm::Rmm];

    /// Decode a 3-bit `rm`/`frm` value; `None` for the reserved 5, 6 and for `DYN` (7).
    #[inline]
    pub fn from_bits(bits: u32) -> Option<Rm> {
        match bits {
            0 => Some(Rm::Rne),
            1 => Some(Rm::Rtz),
            2 => Some(Rm::Rdn),
            3 => Some(Rm::Rup),
            4 => Some(Rm::Rmm),
            _ => None,
        }
    }

    /// The 3-bit encoding.
    #[inline]
    pub fn bits(self) -> u32 {
        self as u32
    }
}

/// Accrued floating-point exception flags, in the `fflags` bit layout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags(pub u8);

impl Flags {
    /// Invalid operation.
    pub const NV: Flags = Flags(0x10);
    /// Divide by zero.
    pub const DZ: Flags = Flags(0x08);
    /// Overflow.
    pub const OF: Flags = Flags(0x04);
    /// Underflow.
    pub const UF: Flags = Flags(0x02);
    /// Inexact.
    pub const NX: Flags = Flags(0x01);
    /// No flags.
    pub const NONE: Flags = Flags(0);

    /// The raw `fflags` bits.
    #[inline]
    pub fn bits(self) -> u8 {
        self.0
    }

    /// True if no flag is set.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True if every flag of `other` is set in `self`.
    #[inline]
    pub fn contains(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }
}

impl core::ops::BitOr for Flags {
    type Output = Flags;
    #[inline]
    fn bitor(self, rhs: Flags) -> Flags {
        Flags(self.0 | rhs.0)
    }
}

impl core::ops::BitOrAssign for Flags {
    #[inline]
    fn bitor_assign(&mut self, rhs: Flags) {
        self.0 |= rhs.0;
    }
}

// ---- bit-pattern helpers shared by the submodules ----

const SIGN: u32 = 0x8000_0000;
const ABS: u32 = 0x7fff_ffff;
const INF: u32 = 0x7f80_0000;
const QUIET: u32 = 0x0040_0000;

/// True for any NaN.
#[inline]
pub(crate) fn is_nan(a: u32) -> bool {
    a & ABS > INF
}

/// True for a signalling NaN.
#[inline]
pub(crate) fn is_snan(a: u32) -> bool {
    is_nan(a) && a & QUIET == 0
}

/// True for ±infinity.
#[inline]
pub(crate) fn is_inf(a: u32) -> bool {
    a & ABS == INF
}

/// True for ±0.
#[inline]
pub(crate) fn is_zero(a: u32) -> bool {
    a & ABS == 0
}

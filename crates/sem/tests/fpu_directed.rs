//! Directed FPU tests with hand-worked expected values (bits and flags).

use weft_sem::fpu::*;
use weft_sem::{Flags, Rm};

const NV: u8 = 0x10;
const DZ: u8 = 0x08;
const OF: u8 = 0x04;
const UF: u8 = 0x02;
const NX: u8 = 0x01;

const ONE: u32 = 0x3f80_0000;
const TWO: u32 = 0x4000_0000;
const TWO_M24: u32 = 0x3380_0000; // 2^-24, half an ulp of 1.0
const MAX: u32 = 0x7f7f_ffff;
const INF: u32 = 0x7f80_0000;
const NINF: u32 = 0xff80_0000;
const QNAN: u32 = 0x7fc0_0000;
const SNAN: u32 = 0x7f80_0001;
const MIN_NORMAL: u32 = 0x0080_0000;
const NZERO: u32 = 0x8000_0000;

fn chk(got: (u32, Flags), bits: u32, flags: u8, what: &str) {
    assert_eq!(
        (got.0, got.1.bits()),
        (bits, flags),
        "{what}: got {:#010x} flags {:#04x}, want {bits:#010x} flags {flags:#04x}",
        got.0,
        got.1.bits()
    );
}

#[test]
fn one_plus_half_ulp_each_mode() {
    // 1 + 2^-24 is exactly halfway between 1 and 1 + 2^-23.
    chk(fadd(ONE, TWO_M24, Rm::Rne), ONE, NX, "rne ties to even");
    chk(fadd(ONE, TWO_M24, Rm::Rtz), ONE, NX, "rtz");
    chk(fadd(ONE, TWO_M24, Rm::Rdn), ONE, NX, "rdn");
    chk(fadd(ONE, TWO_M24, Rm::Rup), ONE + 1, NX, "rup");
    chk(fadd(ONE, TWO_M24, Rm::Rmm), ONE + 1, NX, "rmm ties away");
    // Negative: −1 − 2^-24.
    let n1 = ONE | NZERO;
    let nh = TWO_M24 | NZERO;
    chk(fadd(n1, nh, Rm::Rdn), n1 + 1, NX, "neg rdn");
    chk(fadd(n1, nh, Rm::Rup), n1, NX, "neg rup");
    chk(fadd(n1, nh, Rm::Rmm), n1 + 1, NX, "neg rmm");
    // (1 + 2^-23) + 2^-24: tie, lower is odd → rounds up under RNE.
    chk(
        fadd(ONE + 1, TWO_M24, Rm::Rne),
        ONE + 2,
        NX,
        "tie to even up",
    );
    // 1 + 2^-100: only the residual knows it is inexact.
    let tiny = 0x0d80_0000; // 2^-100
    chk(fadd(ONE, tiny, Rm::Rne), ONE, NX, "sticky rne");
    chk(fadd(ONE, tiny, Rm::Rup), ONE + 1, NX, "sticky rup");
    chk(
        fsub(ONE, tiny, Rm::Rtz),
        0x3f7f_ffff,
        NX,
        "sticky rtz below 1",
    );
    chk(fsub(ONE, tiny, Rm::Rne), ONE, NX, "sticky rne below 1");
}

#[test]
fn zero_signs() {
    chk(fsub(ONE, ONE, Rm::Rne), 0, 0, "x-x rne");
    chk(fsub(ONE, ONE, Rm::Rdn), NZERO, 0, "x-x rdn");
    chk(fadd(NZERO, NZERO, Rm::Rne), NZERO, 0, "-0+-0");
    chk(fadd(0, NZERO, Rm::Rne), 0, 0, "+0+-0");
    chk(fadd(0, NZERO, Rm::Rdn), NZERO, 0, "+0+-0 rdn");
    chk(fadd(0, 0, Rm::Rdn), 0, 0, "+0++0 rdn");
    chk(fmul(NZERO, ONE, Rm::Rne), NZERO, 0, "-0*1");
    chk(
        fmadd(ONE, ONE, ONE | NZERO, Rm::Rdn),
        NZERO,
        0,
        "fma cancel rdn",
    );
    chk(
        fmadd(ONE, ONE, ONE | NZERO, Rm::Rup),
        0,
        0,
        "fma cancel rup",
    );
    chk(fmadd(NZERO, ONE, NZERO, Rm::Rne), NZERO, 0, "fma -0*1 + -0");
    chk(fsqrt(NZERO, Rm::Rne), NZERO, 0, "sqrt -0");
}

#[test]
fn invalid_and_div_by_zero() {
    chk(fdiv(0, 0, Rm::Rne), QNAN, NV, "0/0");
    chk(fdiv(ONE, 0, Rm::Rne), INF, DZ, "1/0");
    chk(fdiv(ONE, NZERO, Rm::Rne), NINF, DZ, "1/-0");
    chk(fdiv(INF, 0, Rm::Rne), INF, 0, "inf/0");
    chk(fdiv(INF, INF, Rm::Rne), QNAN, NV, "inf/inf");
    chk(fsqrt(ONE | NZERO, Rm::Rne), QNAN, NV, "sqrt(-1)");
    chk(fsqrt(NINF, Rm::Rne), QNAN, NV, "sqrt(-inf)");
    chk(fsqrt(INF, Rm::Rne), INF, 0, "sqrt(inf)");
    chk(fadd(INF, NINF, Rm::Rne), QNAN, NV, "inf-inf");
    chk(fmul(INF, 0, Rm::Rne), QNAN, NV, "inf*0");
    chk(fadd(QNAN, ONE, Rm::Rne), QNAN, 0, "qnan+1");
    chk(fadd(SNAN, ONE, Rm::Rne), QNAN, NV, "snan+1");
    chk(fadd(0xffc1_2345, ONE, Rm::Rne), QNAN, 0, "payload dropped");
    chk(fmadd(INF, 0, QNAN, Rm::Rne), QNAN, NV, "inf*0+qnan is NV");
    chk(fmadd(ONE, ONE, QNAN, Rm::Rne), QNAN, 0, "1*1+qnan");
    chk(fmadd(INF, ONE, NINF, Rm::Rne), QNAN, NV, "inf-inf in fma");
}

#[test]
fn overflow_per_mode() {
    chk(fmul(MAX, TWO, Rm::Rtz), MAX, OF | NX, "max*2 rtz");
    chk(fmul(MAX, TWO, Rm::Rne), INF, OF | NX, "max*2 rne");
    chk(fmul(MAX, TWO, Rm::Rdn), MAX, OF | NX, "max*2 rdn");
    chk(fmul(MAX, TWO, Rm::Rup), INF, OF | NX, "max*2 rup");
    chk(
        fmul(MAX | NZERO, TWO, Rm::Rup),
        MAX | NZERO,
        OF | NX,
        "-max*2 rup",
    );
    chk(fmul(MAX | NZERO, TWO, Rm::Rdn), NINF, OF | NX, "-max*2 rdn");
    // MAX + half an ulp of MAX (2^103): tie → rounds to even = 2^128 → overflow.
    chk(
        fadd(MAX, 0x7300_0000, Rm::Rne),
        INF,
        OF | NX,
        "max + half ulp",
    );
    // 2^128 - 2^70 (product 2^128 exact, minus a tiny c): RTZ gives MAX without OF.
    chk(
        fmadd(0x7f00_0000, TWO, 0xe280_0000, Rm::Rtz),
        MAX,
        NX,
        "just below 2^128 rtz",
    );
    chk(
        fmadd(0x7f00_0000, TWO, 0xe280_0000, Rm::Rne),
        INF,
        OF | NX,
        "just below 2^128 rne",
    );
}

#[test]
fn underflow_after_rounding() {
    // Exact subnormal result: no UF, no NX.
    chk(
        fmul(MIN_NORMAL, 0x3f00_0000, Rm::Rne),
        0x0040_0000,
        0,
        "exact subnormal",
    );
    chk(
        fsub(0x0080_0001, MIN_NORMAL, Rm::Rne),
        1,
        0,
        "exact tiny difference",
    );
    // 2^-149 * 0.5 = 2^-150: tie between 0 and min subnormal → 0 (even), UF|NX.
    chk(
        fmul(1, 0x3f00_0000, Rm::Rne),
        0,
        UF | NX,
        "half min subnormal",
    );
    chk(
        fmul(1, 0x3f00_0000, Rm::Rup),
        1,
        UF | NX,
        "half min subnormal rup",
    );
    // (2^-126 - 2^-150): tie between largest subnormal and 2^-126, RNE → 2^-126 (even).
    // With 24 bits and unbounded exponent it is exact, so it is tiny: UF.
    // Built as MIN_NORMAL * (1 - 2^-24).
    chk(
        fmul(MIN_NORMAL, 0x3f7f_ffff, Rm::Rne),
        MIN_NORMAL,
        UF | NX,
        "tiny rounds to min normal",
    );
    // (1 + 2^-23) * (2^-126 - 2^-149) = 2^-126 - 2^-172: rounds to 2^-126 at 24 bits with an
    // unbounded exponent too, so it is not tiny under RNE (NX only); under RTZ it is.
    chk(
        fmul(0x3f80_0001, 0x007f_ffff, Rm::Rne),
        MIN_NORMAL,
        NX,
        "not tiny after rounding",
    );
    chk(
        fmul(0x3f80_0001, 0x007f_ffff, Rm::Rtz),
        0x007f_ffff,
        UF | NX,
        "tiny under rtz",
    );
}

#[test]
fn conversions() {
    chk(fcvt_w_s(QNAN, Rm::Rne), 0x7fff_ffff, NV, "nan");
    chk(fcvt_wu_s(QNAN, Rm::Rne), 0xffff_ffff, NV, "nan u");
    chk(fcvt_w_s(NINF, Rm::Rne), 0x8000_0000, NV, "-inf");
    chk(fcvt_w_s(0x4f00_0000, Rm::Rne), 0x7fff_ffff, NV, "2^31");
    chk(fcvt_w_s(0xcf00_0000, Rm::Rne), 0x8000_0000, 0, "-2^31");
    chk(fcvt_wu_s(0x4f80_0000, Rm::Rne), 0xffff_ffff, NV, "2^32");
    chk(
        fcvt_wu_s(0x4f7f_ffff, Rm::Rne),
        0xffff_ff00,
        0,
        "just below 2^32",
    );
    chk(fcvt_wu_s(0xbecc_cccd, Rm::Rne), 0, NX, "-0.4 rounds to 0");
    chk(fcvt_wu_s(0xbecc_cccd, Rm::Rdn), 0, NV, "-0.4 rounds to -1");
    chk(fcvt_wu_s(0xbf80_0000, Rm::Rtz), 0, NV, "-1");
    chk(fcvt_w_s(0x3fc0_0000, Rm::Rne), 2, NX, "1.5 rne");
    chk(fcvt_w_s(0x4020_0000, Rm::Rne), 2, NX, "2.5 rne");
    chk(fcvt_w_s(0x4020_0000, Rm::Rmm), 3, NX, "2.5 rmm");
    chk(
        fcvt_w_s(0xc020_0000, Rm::Rdn),
        (-3i32) as u32,
        NX,
        "-2.5 rdn",
    );
    chk(fcvt_s_w(0x7fff_ffff, Rm::Rne), 0x4f00_0000, NX, "i32 max");
    chk(
        fcvt_s_w(0x7fff_ffff, Rm::Rtz),
        0x4eff_ffff,
        NX,
        "i32 max rtz",
    );
    chk(fcvt_s_w(0x8000_0000, Rm::Rne), 0xcf00_0000, 0, "i32 min");
    chk(fcvt_s_wu(0xffff_ffff, Rm::Rne), 0x4f80_0000, NX, "u32 max");
    chk(fcvt_s_wu(0, Rm::Rdn), 0, 0, "zero stays +0");
    chk(fcvt_s_w(3, Rm::Rne), 0x4040_0000, 0, "3");
}

#[test]
fn min_max_cmp_class() {
    chk(fmin(0, NZERO), NZERO, 0, "min +0 -0");
    chk(fmax(NZERO, 0), 0, 0, "max -0 +0");
    chk(fmin(QNAN, ONE), ONE, 0, "min qnan 1");
    chk(fmax(ONE, SNAN), ONE, NV, "max 1 snan");
    chk(fmin(QNAN, SNAN), QNAN, NV, "min two nans");
    chk(feq(QNAN, ONE), 0, 0, "feq qnan quiet");
    chk(feq(SNAN, ONE), 0, NV, "feq snan");
    chk(feq(0, NZERO), 1, 0, "feq zeros");
    chk(flt(QNAN, ONE), 0, NV, "flt qnan");
    chk(fle(ONE, ONE), 1, 0, "fle equal");
    chk(flt(NZERO, 0), 0, 0, "flt -0 +0");
    assert_eq!(fclass(NINF), 1 << 0);
    assert_eq!(fclass(ONE | NZERO), 1 << 1);
    assert_eq!(fclass(0x8000_0001), 1 << 2);
    assert_eq!(fclass(NZERO), 1 << 3);
    assert_eq!(fclass(0), 1 << 4);
    assert_eq!(fclass(1), 1 << 5);
    assert_eq!(fclass(ONE), 1 << 6);
    assert_eq!(fclass(INF), 1 << 7);
    assert_eq!(fclass(SNAN), 1 << 8);
    assert_eq!(fclass(QNAN), 1 << 9);
    assert_eq!(fsgnj(ONE, NZERO), ONE | NZERO);
    assert_eq!(fsgnjn(ONE, NZERO), ONE);
    assert_eq!(fsgnjx(ONE | NZERO, NZERO), ONE);
    assert_eq!(fsgnjx(SNAN, 0), SNAN, "sign injection keeps NaN payloads");
}

#[test]
fn div_sqrt_directed() {
    chk(fdiv(ONE, 0x4040_0000, Rm::Rne), 0x3eaa_aaab, NX, "1/3 rne");
    chk(fdiv(ONE, 0x4040_0000, Rm::Rtz), 0x3eaa_aaaa, NX, "1/3 rtz");
    chk(fdiv(0x40c0_0000, 0x4040_0000, Rm::Rne), TWO, 0, "6/3 exact");
    chk(fsqrt(0x4080_0000, Rm::Rne), TWO, 0, "sqrt 4");
    chk(fsqrt(TWO, Rm::Rne), 0x3fb5_04f3, NX, "sqrt 2");
    chk(fsqrt(TWO, Rm::Rdn), 0x3fb5_04f3, NX, "sqrt 2 rdn");
    chk(fsqrt(1, Rm::Rne), 0x1a35_04f3, NX, "sqrt min subnormal");
}

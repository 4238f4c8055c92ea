//! The RTL's floating-point unit (`rtl/weft_fpu.sv`, `rtl/weft_fdiv.sv`) alone under
//! Verilator, against weft-sem's RV32F semantics (`crates/sem/src/fpu`), bit for bit: every
//! operation of the unit, in all five rounding modes, with its exception flags, on operands
//! drawn to hit what goes wrong in floating point — NaNs (quiet and signalling), infinities,
//! zeros of both signs, subnormals, the largest finite values (overflow), results near the
//! smallest normal (tininess after rounding), sums that cancel, fused multiply-adds whose
//! addend nearly cancels the product, ties, integers that do not fit. Fixed seeds: the same
//! vectors every run (`WEFT_FPU_SCALE=N` multiplies the random vectors by N and
//! `WEFT_FPU_SEED` changes the seed, for a longer run by hand). Verilator missing is a
//! failure with a message, never a skip.

use std::io::Write;
use std::process::{Command, Stdio};
use weft_rtl_lockstep::build_unit;
use weft_sem::fpu::{self, Flags, Rm};

/// The FPU's operation codes (weft_fpu.sv's FADD…FCVTSWU).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum F {
    Add = 0,
    Sub,
    Mul,
    Div,
    Sqrt,
    Madd,
    Msub,
    Nmsub,
    Nmadd,
    Sgnj,
    Sgnjn,
    Sgnjx,
    Min,
    Max,
    Eq,
    Lt,
    Le,
    Class,
    Mv,
    CvtWS,
    CvtWuS,
    CvtSW,
    CvtSWu,
}

/// weft-sem's answer for `op` on `a`, `b`, `c` in mode `rm`.
fn reference(op: F, rm: Rm, a: u32, b: u32, c: u32) -> (u32, Flags) {
    let none = |v: u32| (v, Flags::NONE);
    match op {
        F::Add => fpu::fadd(a, b, rm),
        F::Sub => fpu::fsub(a, b, rm),
        F::Mul => fpu::fmul(a, b, rm),
        F::Div => fpu::fdiv(a, b, rm),
        F::Sqrt => fpu::fsqrt(a, rm),
        F::Madd => fpu::fmadd(a, b, c, rm),
        F::Msub => fpu::fmsub(a, b, c, rm),
        F::Nmsub => fpu::fnmsub(a, b, c, rm),
        F::Nmadd => fpu::fnmadd(a, b, c, rm),
        F::Sgnj => none(fpu::fsgnj(a, b)),
        F::Sgnjn => none(fpu::fsgnjn(a, b)),
        F::Sgnjx => none(fpu::fsgnjx(a, b)),
        F::Min => fpu::fmin(a, b),
        F::Max => fpu::fmax(a, b),
        F::Eq => fpu::feq(a, b),
        F::Lt => fpu::flt(a, b),
        F::Le => fpu::fle(a, b),
        F::Class => none(fpu::fclass(a)),
        F::Mv => none(a),
        F::CvtWS => fpu::fcvt_w_s(a, rm),
        F::CvtWuS => fpu::fcvt_wu_s(a, rm),
        F::CvtSW => fpu::fcvt_s_w(a, rm),
        F::CvtSWu => fpu::fcvt_s_wu(a, rm),
    }
}

/// xorshift64*: a small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn u32(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }
    fn below(&mut self, n: u32) -> u32 {
        (self.next() % n as u64) as u32
    }
}

/// Values that matter on their own: zeros, infinities, NaNs (quiet, signalling, with
/// payloads), the smallest and largest subnormals and normals, one, powers of two, integer
/// limits.
const SPECIAL: &[u32] = &[
    0x0000_0000,
    0x8000_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0xffc0_0000,
    0x7f80_0001,
    0xff80_0001,
    0x7fa0_0000,
    0x7fff_ffff,
    0x0000_0001,
    0x8000_0001,
    0x007f_ffff,
    0x807f_ffff,
    0x0080_0000,
    0x8080_0000,
    0x0080_0001,
    0x7f7f_ffff,
    0xff7f_ffff,
    0x7f7f_fffe,
    0x3f80_0000,
    0xbf80_0000,
    0x3f00_0000,
    0xbf00_0000,
    0x4000_0000,
    0x3fc0_0000,
    0xbfc0_0000,
    0x4020_0000,
    0x4f00_0000,
    0xcf00_0000,
    0x4eff_ffff,
    0x4f80_0000,
    0x4f7f_ffff,
    0xcf00_0001,
    0x0040_0000,
    0x3400_0000,
    0x3380_0000,
    0x4b80_0000,
    0x4b00_0001,
    0x3effffff,
];

/// A float operand: raw bits, a special value, any exponent with a random or short
/// significand, or an exponent at the subnormal or overflow ends.
fn float(r: &mut Rng) -> u32 {
    let sign = r.u32() & 0x8000_0000;
    let frac = match r.below(4) {
        0 => r.u32() & 0x7f_ffff,
        1 => r.u32() & 0x7f_ffff & !((1 << r.below(24)) - 1), // trailing zeros
        2 => (r.u32() & 0x7f_ffff) | 0x7f_ff00,               // trailing ones
        _ => r.u32() & 0x7f_ffff & (0x7f_ffff << r.below(23)),
    };
    let exp = match r.below(10) {
        0..=3 => r.below(256),
        4 | 5 => r.below(4),    // subnormal and the smallest normals
        6 => 250 + r.below(5),  // near overflow
        7 => 100 + r.below(55), // moderate
        _ => 120 + r.below(16), // near one
    };
    match r.below(10) {
        0 | 1 => r.u32(),
        2 => SPECIAL[r.below(SPECIAL.len() as u32) as usize],
        _ => sign | exp << 23 | frac,
    }
}

/// A second operand near the first (for cancellation and close compares), or independent.
fn near(r: &mut Rng, a: u32) -> u32 {
    match r.below(6) {
        0 => a ^ (r.u32() & 0xff),                      // low bits
        1 => (a ^ 0x8000_0000) ^ (r.u32() & 0x3),       // opposite sign: cancels
        2 => (a & 0xff80_0000) | (r.u32() & 0x7f_ffff), // same exponent
        3 => a.wrapping_add(0x0080_0000 * (r.below(5) - 2)) ^ (r.u32() & 0x8000_0000),
        _ => float(r),
    }
}

/// An integer operand for the int -> float conversions: random, short, near powers of two
/// (ties), the limits.
fn int(r: &mut Rng) -> u32 {
    match r.below(6) {
        0 => r.u32(),
        1 => r.u32() >> r.below(32),
        2 => (1u32 << r.below(32))
            .wrapping_add(r.below(5))
            .wrapping_sub(2),
        3 => (r.u32() | 1) & (0xffff_ffff >> r.below(8)), // 25+ significant bits, odd
        4 => [
            0,
            1,
            0xffff_ffff,
            0x8000_0000,
            0x7fff_ffff,
            0x0100_0001,
            0xfeff_ffff,
        ][r.below(7) as usize],
        _ => r.u32().wrapping_neg() >> r.below(8),
    }
}

/// A float near an integer (for float -> int): k, k ± 0.5, k + small fractions, around 2^31
/// and 2^32.
fn near_int(r: &mut Rng) -> u32 {
    let sign = r.u32() & 0x8000_0000;
    let exp = 120 + r.below(40); // 2^-7 .. 2^32
    match r.below(3) {
        0 => sign | exp << 23 | (r.u32() & 0x7f_ffff),
        1 => sign | exp << 23 | (r.u32() & 0x7f_ffff & (0x7f_ffff << r.below(23))),
        _ => float(r),
    }
}

/// `n` vectors of `op`: (op, rm, a, b, c).
fn vectors(op: F, n: usize, r: &mut Rng) -> Vec<(F, Rm, u32, u32, u32)> {
    (0..n)
        .map(|_| {
            let rm = Rm::ALL[r.below(5) as usize];
            let (a, b, c) = match op {
                F::CvtSW | F::CvtSWu => (int(r), 0, 0),
                F::CvtWS | F::CvtWuS => (near_int(r), 0, 0),
                F::Madd | F::Msub | F::Nmsub | F::Nmadd => {
                    let a = float(r);
                    let f = float(r);
                    let b = near(r, f);
                    // an addend that nearly cancels the product, or any
                    let c = if r.below(2) == 0 {
                        let (p, _) = fpu::fmul(a, b, Rm::Rne);
                        near(
                            r,
                            p ^ if op == F::Madd || op == F::Nmadd {
                                0x8000_0000
                            } else {
                                0
                            },
                        )
                    } else {
                        float(r)
                    };
                    (a, b, c)
                }
                _ => {
                    let a = float(r);
                    (a, near(r, a), 0)
                }
            };
            (op, rm, a, b, c)
        })
        .collect()
}

#[test]
fn fpu_matches_weft_sem_bit_for_bit() {
    let bin = build_unit("weft_fpu", &["weft_fpu", "weft_fdiv"], "tb_fpu")
        .unwrap_or_else(|e| panic!("{e}"));
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let scale = env("WEFT_FPU_SCALE", 1) as usize;
    let mut r = Rng(env("WEFT_FPU_SEED", 0x4650_5520_7765_6674));
    let mut v = Vec::new();
    use F::*;
    for (op, n) in [
        (Add, 40_000),
        (Sub, 20_000),
        (Mul, 40_000),
        (Madd, 40_000),
        (Msub, 15_000),
        (Nmsub, 15_000),
        (Nmadd, 15_000),
        (Div, 12_000),
        (Sqrt, 12_000),
        (Sgnj, 2_000),
        (Sgnjn, 2_000),
        (Sgnjx, 2_000),
        (Min, 6_000),
        (Max, 6_000),
        (Eq, 6_000),
        (Lt, 6_000),
        (Le, 6_000),
        (Class, 4_000),
        (Mv, 1_000),
        (CvtWS, 20_000),
        (CvtWuS, 20_000),
        (CvtSW, 20_000),
        (CvtSWu, 20_000),
    ] {
        v.extend(vectors(op, n * scale, &mut r));
    }
    // every special value against every other, for the binary operations, in every mode
    for op in [Add, Sub, Mul, Div, Min, Max, Eq, Lt, Le] {
        for &a in SPECIAL {
            for &b in SPECIAL {
                v.push((op, Rm::ALL[(a ^ b) as usize % 5], a, b, 0));
            }
        }
    }
    for op in [Sqrt, Class, CvtWS, CvtWuS] {
        for &a in SPECIAL {
            for rm in Rm::ALL {
                v.push((op, rm, a, 0, 0));
            }
        }
    }
    let mut input = String::new();
    for &(op, rm, a, b, c) in &v {
        input += &format!("{:x} {:x} {a:x} {b:x} {c:x}\n", op as u32, rm.bits());
    }
    let mut child = Command::new(&bin)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tb_fpu");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("tb_fpu output");
    writer.join().unwrap().expect("feed tb_fpu");
    assert!(
        out.status.success(),
        "tb_fpu: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), v.len(), "one result per operation");
    let mut wrong = Vec::new();
    for (&(op, rm, a, b, c), l) in v.iter().zip(&lines) {
        let (y, fl) = reference(op, rm, a, b, c);
        let want = format!("{y:08x} {:02x}", fl.bits());
        if *l != want {
            wrong.push(format!(
                "{op:?} {rm:?} a={a:08x} b={b:08x} c={c:08x}: rtl {l}, weft-sem {want}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} operations differ, the first:\n{}",
        wrong.len(),
        v.len(),
        wrong[..wrong.len().min(25)].join("\n")
    );
    eprintln!("{} operations agree bit for bit", v.len());
}

//! Translating RV32F instructions: host IEEE single-precision operations on `f32x4` vectors,
//! under guards that make the host's result provably the interpreter's (`weft-sem`'s
//! soft-float, docs/engine.md § Float operations in blocks).
//!
//! Every active lane is checked before the instruction; if one fails, the block exits before
//! it with its count exact and the interpreter executes it (as for a memory access the port
//! refuses). The guards:
//!
//! - the float state is Dirty (so the instruction changes no `mstatus` bit);
//! - a rounding operation rounds to nearest, ties to even: a static `rm` of 0, or `rm` = 7
//!   with every active lane's `frm` = 0 (checked at entry; `frm` can only change through a
//!   CSR instruction, which ends blocks);
//! - no input and no result is a NaN (RISC-V's canonical NaN and its invalid-operation rules
//!   are the interpreter's business);
//! - every flag the instruction *could* raise on a lane, judged from the operands and the
//!   host's correctly rounded result, is already set in the lane's `fflags` — so `fflags`
//!   does not change. NX counts as possible unless the result is proven exact (adds,
//!   subtracts, multiplies and the fused four: `Emit::exact`);
//!   otherwise whether an inexact result really was inexact never matters.
//!
//! Which flags a result could raise: a normal result of exponent field 2–254 only NX (it was
//! not tiny before rounding either); a result below 2⁻¹²⁵ (subnormal, the smallest normal
//! binade, or zero) UF and NX unless it is an exact zero (a sum that is zero is exact; a
//! product or quotient is zero exactly when a factor is zero or the divisor infinite); an
//! infinite result none if an operand is infinite, DZ for a finite non-zero dividend over
//! zero, else OF and NX (an overflow, which rounds to infinity under RNE). Under RNE, without
//! NaNs, the host's IEEE operations (SSE/AVX, `fmaf` where the host has no FMA; Rust leaves
//! FTZ/DAZ off, so subnormals are exact) return the correctly rounded value RISC-V specifies,
//! signs of zero included.

use crate::abi::{ENV_DYN_RNE, ENV_FS_DIRTY};
use crate::emit::Emit;
use crate::shape::operands;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{
    types, ConstantData, Endianness, InstBuilder, MemFlags, StackSlotData, StackSlotKind, Value,
};
use weft_isa::{Inst, Op};
use weft_sem::fpu::Flags;

// The `fflags` bits, from weft-sem (the one definition of the flags).
const NX: u32 = Flags::NX.0 as u32;
const UF: u32 = Flags::UF.0 as u32;
const OF: u32 = Flags::OF.0 as u32;
const DZ: u32 = Flags::DZ.0 as u32;

const SIGN: u32 = 0x8000_0000;
const ABS: u32 = 0x7fff_ffff;
const INF: u32 = 0x7f80_0000;
/// The smallest magnitude with exponent field 2 (2⁻¹²⁵).
const SAFE_MIN: u32 = 0x0100_0000;

/// Does `op` round (use `rm`)?
fn rounds(op: Op) -> bool {
    use Op::*;
    matches!(
        op,
        FaddS
            | FsubS
            | FmulS
            | FdivS
            | FsqrtS
            | FmaddS
            | FmsubS
            | FnmsubS
            | FnmaddS
            | FcvtSW
            | FcvtSWu
            | FcvtWS
            | FcvtWuS
    )
}

impl Emit<'_, '_> {
    /// Read the float environment at entry (`env`: 32 lanes' `fflags`, then the bits).
    pub(crate) fn float_env(&mut self, env: Value) {
        let fl = MemFlags::new().with_notrap();
        let bits = self.b.ins().load(types::I32, fl, env, 128);
        let fs = self.b.ins().band_imm(bits, ENV_FS_DIRTY as i64);
        self.fs_off = Some(self.b.ins().icmp_imm(IntCC::Equal, fs, 0));
        let rne = self.b.ins().band_imm(bits, ENV_DYN_RNE as i64);
        self.dyn_not_rne = Some(self.b.ins().icmp_imm(IntCC::Equal, rne, 0));
        self.float_env_missing(env);
    }

    /// The float instruction `i`, the `k`-th of the body, at `pc`: every vector computed and
    /// checked, then (all guards passed) written.
    pub(crate) fn float(&mut self, k: usize, pc: u32, i: &Inst) {
        if self.in_memory && self.nvec > 1 {
            return self.float_loop(k, pc, i);
        }
        let (dst, srcs) = operands(i);
        let d = dst.expect("a float operation writes a register");
        let mut results = Vec::with_capacity(self.nvec);
        let mut bad: Option<Value> = None;
        for v in 0..self.nvec {
            // (A scalar translation's values computed in lane 0 of vectors.)
            let ins: Vec<Value> = srcs
                .iter()
                .flatten()
                .map(|&s| {
                    let x = self.get(s, v);
                    if self.one_lane {
                        self.b.ins().splat(types::I32X4, x)
                    } else {
                        x
                    }
                })
                .collect();
            let (r, b) = self.float_vec(i, &ins, v);
            let r = if self.one_lane {
                self.b.ins().extractlane(r, 0)
            } else {
                r
            };
            results.push(r);
            if let Some(b) = b {
                let b = if self.masked {
                    let m = self.mask(v);
                    self.b.ins().band(b, m)
                } else {
                    b
                };
                bad = Some(match bad {
                    Some(p) => self.b.ins().bor(p, b),
                    None => b,
                });
            }
        }
        let mut cond = self.fs_off.expect("float environment");
        if let Some(b) = bad {
            let any = self.b.ins().vany_true(b);
            cond = self.b.ins().bor(cond, any);
        }
        if rounds(i.op) && i.rm == 7 {
            let dynamic = self.dyn_not_rne.expect("float environment");
            cond = self.b.ins().bor(cond, dynamic);
        }
        self.bail_if(cond, k, pc);
        for (v, r) in results.into_iter().enumerate() {
            self.set(d, v, r);
        }
    }

    /// [`Emit::float`] on registers in memory: one [`Emit::vector_loop`] computes each
    /// vector's result into a stack slot and gathers the lanes that fail a guard, a second
    /// (once every guard has passed) writes the results.
    fn float_loop(&mut self, k: usize, pc: u32, i: &Inst) {
        let (dst, srcs) = operands(i);
        let d = dst.expect("a float operation writes a register");
        let data = StackSlotData::new(StackSlotKind::ExplicitSlot, 128, 4);
        let slot = self.b.create_sized_stack_slot(data);
        let ptr = self.ptr;
        let none = self.splat(0);
        let bad = self.vector_loop(&[none], |e, c| {
            let ins: Vec<Value> = srcs.iter().flatten().map(|&s| e.get(s, 0)).collect();
            let (r, b) = e.float_vec(i, &ins, 0);
            let at = e.b.ins().stack_addr(ptr, slot, 0);
            let off = e.vector_offset().expect("in a vector loop");
            let at = e.b.ins().iadd(at, off);
            e.b.ins().store(Self::flags_notrap(), r, at, 0);
            let bad = match b {
                Some(b) if e.masked => {
                    let m = e.mask(0);
                    let b = e.b.ins().band(b, m);
                    e.b.ins().bor(c[0], b)
                }
                Some(b) => e.b.ins().bor(c[0], b),
                None => c[0],
            };
            vec![bad]
        });
        let any = self.b.ins().vany_true(bad[0]);
        let fs_off = self.fs_off.expect("float environment");
        let mut cond = self.b.ins().bor(fs_off, any);
        if rounds(i.op) && i.rm == 7 {
            let dynamic = self.dyn_not_rne.expect("float environment");
            cond = self.b.ins().bor(cond, dynamic);
        }
        self.bail_if(cond, k, pc);
        self.vector_loop(&[], |e, _| {
            let at = e.b.ins().stack_addr(ptr, slot, 0);
            let off = e.vector_offset().expect("in a vector loop");
            let at = e.b.ins().iadd(at, off);
            let r = e.b.ins().load(types::I32X4, Self::flags_notrap(), at, 0);
            e.set(d, 0, r);
            Vec::new()
        });
    }

    fn flags_notrap() -> MemFlags {
        MemFlags::new().with_notrap()
    }

    fn fv(&mut self, x: Value) -> Value {
        let fl = MemFlags::new().with_endianness(Endianness::Little);
        self.b.ins().bitcast(types::F32X4, fl, x)
    }

    fn iv(&mut self, x: Value) -> Value {
        let fl = MemFlags::new().with_endianness(Endianness::Little);
        self.b.ins().bitcast(types::I32X4, fl, x)
    }

    /// Lanes where `x cc k` (unsigned or signed per `cc`), as an all-ones mask.
    fn cmp(&mut self, cc: IntCC, x: Value, k: u32) -> Value {
        let k = self.splat(k);
        self.b.ins().icmp(cc, x, k)
    }

    fn abs(&mut self, x: Value) -> Value {
        let m = self.splat(ABS);
        self.b.ins().band(x, m)
    }

    fn is_nan(&mut self, x: Value) -> Value {
        let a = self.abs(x);
        self.cmp(IntCC::UnsignedGreaterThan, a, INF)
    }

    /// `flags` on the lanes of `m`, 0 elsewhere.
    fn flags_where(&mut self, m: Value, flags: u32) -> Value {
        let f = self.splat(flags);
        self.b.ins().band(m, f)
    }

    fn or_all(&mut self, vals: &[Value]) -> Value {
        let mut acc = vals[0];
        for &v in &vals[1..] {
            acc = self.b.ins().bor(acc, v);
        }
        acc
    }

    /// Lanes where flags in `possible` are missing from the lane's `fflags`.
    fn new_flags(&mut self, possible: Value, v: usize) -> Value {
        let missing = self.missing(v);
        let m = self.b.ins().band(possible, missing);
        self.cmp(IntCC::NotEqual, m, 0)
    }

    /// One vector of `i` on its inputs (`ins`, as the lanes' bits): the result's bits, and
    /// the lanes on which a guard fails (`None`: none can).
    fn float_vec(&mut self, i: &Inst, ins: &[Value], v: usize) -> (Value, Option<Value>) {
        use Op::*;
        match i.op {
            FmvXW | FmvWX => (ins[0], None),
            FsgnjS | FsgnjnS | FsgnjxS => {
                let (a, b) = (ins[0], ins[1]);
                let sign = self.splat(SIGN);
                let r = match i.op {
                    FsgnjS => {
                        let mag = self.abs(a);
                        let s = self.b.ins().band(b, sign);
                        self.b.ins().bor(mag, s)
                    }
                    FsgnjnS => {
                        let mag = self.abs(a);
                        let s = self.b.ins().band_not(sign, b);
                        self.b.ins().bor(mag, s)
                    }
                    _ => {
                        let s = self.b.ins().band(b, sign);
                        self.b.ins().bxor(a, s)
                    }
                };
                (r, None)
            }
            FminS | FmaxS | FeqS | FltS | FleS => {
                let (a, b) = (ins[0], ins[1]);
                let na = self.is_nan(a);
                let nb = self.is_nan(b);
                let nan = self.b.ins().bor(na, nb);
                let (fa, fb) = (self.fv(a), self.fv(b));
                let r = match i.op {
                    FminS | FmaxS => {
                        let lt = self.b.ins().fcmp(FloatCC::LessThan, fa, fb);
                        let gt = self.b.ins().fcmp(FloatCC::LessThan, fb, fa);
                        // Equal values are the same bits but for ±0: the minimum of −0 and +0
                        // is −0 (the bits or-ed), the maximum +0 (and-ed).
                        if i.op == FminS {
                            let eq = self.b.ins().bor(a, b);
                            let r = self.b.ins().bitselect(gt, b, eq);
                            self.b.ins().bitselect(lt, a, r)
                        } else {
                            let eq = self.b.ins().band(a, b);
                            let r = self.b.ins().bitselect(lt, b, eq);
                            self.b.ins().bitselect(gt, a, r)
                        }
                    }
                    _ => {
                        let cc = match i.op {
                            FeqS => FloatCC::Equal,
                            FltS => FloatCC::LessThan,
                            _ => FloatCC::LessThanOrEqual,
                        };
                        let m = self.b.ins().fcmp(cc, fa, fb);
                        let one = self.splat(1);
                        self.b.ins().band(m, one)
                    }
                };
                (r, Some(nan))
            }
            FcvtWS | FcvtWuS => {
                let a = ins[0];
                let fa = self.fv(a);
                let rr = match i.rm {
                    1 => self.b.ins().trunc(fa),
                    2 => self.b.ins().floor(fa),
                    3 => self.b.ins().ceil(fa),
                    _ => self.b.ins().nearest(fa),
                };
                // The integral value must convert without clamping: [−2³¹, 2³¹) or [0, 2³²)
                // (−0 included: fcvt.wu.s of −0.5 towards zero is 0 with NX only).
                let (lo, hi) = if i.op == FcvtWS {
                    (0xcf00_0000, 0x4f00_0000)
                } else {
                    (0, 0x4f80_0000)
                };
                let lo = self.splat(lo);
                let lo = self.fv(lo);
                let hi = self.splat(hi);
                let hi = self.fv(hi);
                let ge = self.b.ins().fcmp(FloatCC::GreaterThanOrEqual, rr, lo);
                let lt = self.b.ins().fcmp(FloatCC::LessThan, rr, hi);
                let ok = self.b.ins().band(ge, lt);
                let inexact = self.b.ins().fcmp(FloatCC::NotEqual, rr, fa);
                let p = self.flags_where(inexact, NX);
                let new = self.new_flags(p, v);
                let r = if i.op == FcvtWS {
                    self.b.ins().fcvt_to_sint_sat(types::I32X4, rr)
                } else {
                    self.b.ins().fcvt_to_uint_sat(types::I32X4, rr)
                };
                let not_ok = self.b.ins().bnot(ok);
                let bad = self.b.ins().bor(new, not_ok);
                (r, Some(bad))
            }
            FcvtSW | FcvtSWu => {
                let a = ins[0];
                // Exact when converting back gives the integer again (2³¹ and 2³² are no
                // i32/u32: rounding up to them is inexact).
                let (r, back, top) = if i.op == FcvtSW {
                    let r = self.b.ins().fcvt_from_sint(types::F32X4, a);
                    let back = self.b.ins().fcvt_to_sint_sat(types::I32X4, r);
                    (r, back, 0x4f00_0000)
                } else {
                    let r = self.b.ins().fcvt_from_uint(types::F32X4, a);
                    let back = self.b.ins().fcvt_to_uint_sat(types::I32X4, r);
                    (r, back, 0x4f80_0000)
                };
                let ri = self.iv(r);
                let same = self.b.ins().icmp(IntCC::Equal, back, a);
                let not_top = self.cmp(IntCC::NotEqual, ri, top);
                let exact = self.b.ins().band(same, not_top);
                let nx = self.splat(NX);
                let p = self.b.ins().band_not(nx, exact);
                let bad = self.new_flags(p, v);
                (ri, Some(bad))
            }
            _ => self.arith(i.op, ins, v),
        }
    }

    /// The lanes (an all-ones mask) on which `op`'s host result `r` (of the inputs `f`, as
    /// `f32x4`; `ar` its bits' magnitude) is provably exact, for a result that is finite and
    /// not tiny, or `None` where that is not worked out (NX is then possible): for an add or
    /// subtract, the rounding error by Knuth's TwoSum (exact under round-to-nearest where
    /// nothing overflows; an overflow gives no zero) is zero; for a multiply, the error
    /// `fma(a, b, −r)` is zero where it cannot underflow (|r| ≥ 2⁻¹⁰⁰: the exact product's
    /// bits end above 2⁻¹⁴⁹); for the fused four, the product in `f64` (exact: 48 bits) plus
    /// the addend by TwoSum in `f64` has no error and equals `r` (one `f64` in a scalar
    /// translation, `f64x2` halves of each vector otherwise). Lets exact results — programs whose values have few bits, kept so that a
    /// reference compares exactly — run where the lane's `fflags` lacks NX.
    fn exact(&mut self, op: Op, f: &[Value], r: Value, ar: Value) -> Option<Value> {
        use Op::*;
        match op {
            FaddS | FsubS => {
                let a = f[0];
                let b = if op == FsubS {
                    self.b.ins().fneg(f[1])
                } else {
                    f[1]
                };
                let (_, err) = self.two_sum(a, b, r);
                let zero = self.splat(0);
                let zero = self.fv(zero);
                Some(self.b.ins().fcmp(FloatCC::Equal, err, zero))
            }
            FmulS => {
                let nr = self.b.ins().fneg(r);
                let err = self.b.ins().fma(f[0], f[1], nr);
                let zero = self.splat(0);
                let zero = self.fv(zero);
                let none = self.b.ins().fcmp(FloatCC::Equal, err, zero);
                let big = self.cmp(IntCC::UnsignedGreaterThanOrEqual, ar, 0x0d80_0000);
                Some(self.b.ins().band(none, big))
            }
            FmaddS | FmsubS | FnmsubS | FnmaddS => {
                let a = if matches!(op, FnmsubS | FnmaddS) {
                    self.b.ins().fneg(f[0])
                } else {
                    f[0]
                };
                let c = if matches!(op, FmsubS | FnmaddS) {
                    self.b.ins().fneg(f[2])
                } else {
                    f[2]
                };
                let ins = [a, f[1], c, r];
                if self.one_lane {
                    let w = ins.map(|x| {
                        let x = self.b.ins().extractlane(x, 0);
                        self.b.ins().fpromote(types::F64, x)
                    });
                    let exact = self.fused_exact(w);
                    let ones = self.b.ins().iconst(types::I32, -1);
                    let no = self.b.ins().iconst(types::I32, 0);
                    let m = self.b.ins().select(exact, ones, no);
                    Some(self.b.ins().splat(types::I32X4, m))
                } else {
                    // Lanes 0–1 and 2–3 in `f64x2` halves, their masks joined again.
                    let lo = ins.map(|x| self.b.ins().fvpromote_low(x));
                    let hi = ins.map(|x| {
                        let x = self.bytes_shuffled(x, x, |k| (k + 8) % 16);
                        let x = self.fv(x);
                        self.b.ins().fvpromote_low(x)
                    });
                    let lo = self.fused_exact(lo);
                    let hi = self.fused_exact(hi);
                    let m = self.bytes_shuffled(lo, hi, |k| k / 4 * 8 + k % 4);
                    Some(self.iv(m))
                }
            }
            _ => None,
        }
    }

    /// Whether `a·b + c` rounds to `r` exactly (inputs and result widened to `f64`, scalars or
    /// `f64x2`): the product in `f64` is exact (48 bits), and the sum with the addend, by
    /// TwoSum in `f64`, has no error and equals `r`. An all-ones mask (or a true `i8`).
    fn fused_exact(&mut self, [a, b, c, r]: [Value; 4]) -> Value {
        let p = self.b.ins().fmul(a, b);
        let sum = self.b.ins().fadd(p, c);
        let (_, err) = self.two_sum(p, c, sum);
        let zero = self.b.ins().f64const(0.0);
        let ty = self.b.func.dfg.value_type(a);
        let zero = if ty.is_vector() {
            self.b.ins().splat(ty, zero)
        } else {
            zero
        };
        let none = self.b.ins().fcmp(FloatCC::Equal, err, zero);
        let same = self.b.ins().fcmp(FloatCC::Equal, sum, r);
        self.b.ins().band(none, same)
    }

    /// The 16 bytes `k` of `x` then `y` picked by `pick(k)` for each byte `k` of the result
    /// (0–15 from `x`, 16–31 from `y`), as `i8x16`.
    fn bytes_shuffled(&mut self, x: Value, y: Value, pick: impl Fn(u8) -> u8) -> Value {
        let fl = MemFlags::new().with_endianness(Endianness::Little);
        let x = self.b.ins().bitcast(types::I8X16, fl, x);
        let y = self.b.ins().bitcast(types::I8X16, fl, y);
        let bytes: Vec<u8> = (0..16).map(pick).collect();
        let imm = self.b.func.dfg.immediates.push(ConstantData::from(bytes));
        self.b.ins().shuffle(x, y, imm)
    }

    /// Knuth's TwoSum of `a + b` given its rounded sum `s`: (`s`, the rounding error).
    fn two_sum(&mut self, a: Value, b: Value, s: Value) -> (Value, Value) {
        let bb = self.b.ins().fsub(s, a);
        let ab = self.b.ins().fsub(s, bb);
        let da = self.b.ins().fsub(a, ab);
        let db = self.b.ins().fsub(b, bb);
        (s, self.b.ins().fadd(da, db))
    }

    /// The rounding arithmetic operations (add, sub, mul, div, sqrt, the fused four).
    fn arith(&mut self, op: Op, ins: &[Value], v: usize) -> (Value, Option<Value>) {
        use Op::*;
        let f: Vec<Value> = ins.iter().map(|&x| self.fv(x)).collect();
        let r = match op {
            FaddS => self.b.ins().fadd(f[0], f[1]),
            FsubS => self.b.ins().fsub(f[0], f[1]),
            FmulS => self.b.ins().fmul(f[0], f[1]),
            FdivS => self.b.ins().fdiv(f[0], f[1]),
            FsqrtS => self.b.ins().sqrt(f[0]),
            FmaddS => self.b.ins().fma(f[0], f[1], f[2]),
            FmsubS => {
                let c = self.b.ins().fneg(f[2]);
                self.b.ins().fma(f[0], f[1], c)
            }
            FnmsubS => {
                let a = self.b.ins().fneg(f[0]);
                self.b.ins().fma(a, f[1], f[2])
            }
            _ => {
                let a = self.b.ins().fneg(f[0]);
                let c = self.b.ins().fneg(f[2]);
                self.b.ins().fma(a, f[1], c)
            }
        };
        let ri = self.iv(r);
        // A NaN operand makes a NaN result: the result's test covers the operands'.
        let ar = self.abs(ri);
        let nan = self.cmp(IntCC::UnsignedGreaterThan, ar, INF);
        let abs_in: Vec<Value> = ins.iter().map(|&x| self.abs(x)).collect();
        let infs: Vec<Value> = abs_in
            .iter()
            .map(|&x| self.cmp(IntCC::Equal, x, INF))
            .collect();
        let inf_in = self.or_all(&infs);
        // Lanes where a zero result is exact (no underflow).
        let exact_zero = match op {
            FaddS | FsubS | FsqrtS => None,
            FdivS => {
                let za = self.cmp(IntCC::Equal, abs_in[0], 0);
                Some(self.b.ins().bor(za, infs[1]))
            }
            _ => {
                let za = self.cmp(IntCC::Equal, abs_in[0], 0);
                let zb = self.cmp(IntCC::Equal, abs_in[1], 0);
                Some(self.b.ins().bor(za, zb))
            }
        };
        // Below 2^-125: UF and NX, unless an exact zero.
        let small = self.cmp(IntCC::UnsignedLessThan, ar, SAFE_MIN);
        let zero = self.cmp(IntCC::Equal, ar, 0);
        let under = match exact_zero {
            None => self.b.ins().band_not(small, zero),
            Some(e) => {
                let ez = self.b.ins().band(zero, e);
                self.b.ins().band_not(small, ez)
            }
        };
        let p_small = self.flags_where(under, UF | NX);
        // Infinite: nothing from an infinite operand, DZ for a finite dividend over zero,
        // else an overflow; otherwise (normal) NX.
        let over_flags = if op == FdivS {
            let zb = self.cmp(IntCC::Equal, abs_in[1], 0);
            let dz = self.splat(DZ);
            let of = self.splat(OF | NX);
            self.b.ins().bitselect(zb, dz, of)
        } else {
            self.splat(OF | NX)
        };
        let p_inf = self.b.ins().band_not(over_flags, inf_in);
        let inf_r = self.cmp(IntCC::Equal, ar, INF);
        let nx = self.splat(NX);
        // A finite, not tiny result raises NX unless it is exact.
        let nx = match self.exact(op, &f, r, ar) {
            Some(exact) => self.b.ins().band_not(nx, exact),
            None => nx,
        };
        let p_big = self.b.ins().bitselect(inf_r, p_inf, nx);
        let p = self.b.ins().bitselect(small, p_small, p_big);
        let new = self.new_flags(p, v);
        let bad = self.b.ins().bor(nan, new);
        (ri, Some(bad))
    }
}

//! Integer instructions on the emitter: the lane-wise ALU operations of a block body
//! (vector forms where the host has them, lane by lane on scalars otherwise — shifts by a
//! register, high multiplies, division with RISC-V's rules) and a conditional branch's
//! "all lanes"/"any lane" conditions.

use crate::emit::Emit;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, Value};
use weft_isa::{Inst, Op};

impl<'a, 'b> Emit<'a, 'b> {
    /// One private instruction at `pc`, on every vector.
    pub(crate) fn inst(&mut self, pc: u32, i: &Inst) {
        for v in 0..self.nvec {
            self.inst_on(pc, i, v);
        }
    }

    /// One private instruction at `pc`, on vector `v`.
    pub(crate) fn inst_on(&mut self, pc: u32, i: &Inst, v: usize) {
        use Op::*;
        let imm = i.imm as u32;
        {
            let a = if matches!(i.op, Lui | Auipc) {
                self.konst(0)
            } else {
                self.get(i.rs1, v)
            };
            let bv = match i.op {
                Addi | Slti | Sltiu | Xori | Ori | Andi | Lui => self.konst(imm),
                Slli | Srli | Srai | Auipc => a,
                _ => self.get(i.rs2, v),
            };
            let ins = self.b.ins();
            let r = match i.op {
                Lui => bv,
                Auipc => self.konst(pc.wrapping_add(imm)),
                Add | Addi => ins.iadd(a, bv),
                Sub => ins.isub(a, bv),
                Xor | Xori => ins.bxor(a, bv),
                Or | Ori => ins.bor(a, bv),
                And | Andi => ins.band(a, bv),
                Mul => ins.imul(a, bv),
                Slt | Slti | Sltu | Sltiu => {
                    let cc = if matches!(i.op, Slt | Slti) {
                        IntCC::SignedLessThan
                    } else {
                        IntCC::UnsignedLessThan
                    };
                    let m = ins.icmp(cc, a, bv);
                    if self.one_lane {
                        self.b.ins().uextend(types::I32, m)
                    } else {
                        let one = self.splat(1);
                        self.b.ins().band(m, one)
                    }
                }
                Slli | Srli | Srai => {
                    let sh = ins.iconst(types::I32, (imm & 31) as i64);
                    match i.op {
                        Slli => self.b.ins().ishl(a, sh),
                        Srli => self.b.ins().ushr(a, sh),
                        _ => self.b.ins().sshr(a, sh),
                    }
                }
                _ => self.lanewise(i.op, a, bv),
            };
            self.set(i.rd, v, r);
        }
    }

    /// An operation with no vector form, lane by lane on scalars (once in a scalar
    /// translation).
    pub(crate) fn lanewise(&mut self, op: Op, a: Value, bv: Value) -> Value {
        if self.one_lane {
            return self.scalar(op, a, bv);
        }
        let mut out = a;
        for l in 0..4u8 {
            let x = self.b.ins().extractlane(a, l);
            let y = self.b.ins().extractlane(bv, l);
            let r = self.scalar(op, x, y);
            out = self.b.ins().insertlane(out, r, l);
        }
        out
    }

    /// `op` on two i32 scalars, with RISC-V's rules (shift amounts mod 32, division by zero
    /// and overflow without traps).
    pub(crate) fn scalar(&mut self, op: Op, a: Value, b: Value) -> Value {
        use Op::*;
        let ins = self.b.ins();
        match op {
            Sll => ins.ishl(a, b),
            Srl => ins.ushr(a, b),
            Sra => ins.sshr(a, b),
            Mulh => ins.smulhi(a, b),
            Mulhu => ins.umulhi(a, b),
            Mulhsu => {
                let a64 = ins.sextend(types::I64, a);
                let b64 = self.b.ins().uextend(types::I64, b);
                let p = self.b.ins().imul(a64, b64);
                let h = self.b.ins().sshr_imm(p, 32);
                self.b.ins().ireduce(types::I32, h)
            }
            Div | Rem | Divu | Remu => {
                // RISC-V's rules where no quotient exists, as weft-sem defines them.
                use weft_sem::alu::division as rule;
                let zero = ins.icmp_imm(IntCC::Equal, b, 0);
                let signed = matches!(op, Div | Rem);
                // A safe divisor where the host would trap: by zero (its results are chosen
                // below), and the signed overflow, whose results are those of this divisor.
                let bad = if signed {
                    let min = (self.b.ins()).icmp_imm(
                        IntCC::Equal,
                        a,
                        rule::OVERFLOW_DIVIDEND as i32 as i64,
                    );
                    let m1 = (self.b.ins()).icmp_imm(
                        IntCC::Equal,
                        b,
                        rule::OVERFLOW_DIVISOR as i32 as i64,
                    );
                    let ov = self.b.ins().band(min, m1);
                    self.b.ins().bor(zero, ov)
                } else {
                    zero
                };
                let safe = (self.b.ins()).iconst(types::I32, rule::OVERFLOW_AS_DIVISOR as i64);
                let d = self.b.ins().select(bad, safe, b);
                let ins = self.b.ins();
                let (q, rem) = match op {
                    Div => (ins.sdiv(a, d), false),
                    Divu => (ins.udiv(a, d), false),
                    Rem => (ins.srem(a, d), true),
                    _ => (ins.urem(a, d), true),
                };
                // By zero: the quotient rule::QUOTIENT_BY_ZERO, the remainder the dividend
                // (checked against rule::remainder_by_zero when this crate compiles).
                const _: () = assert!(rule::remainder_by_zero(0x1234_5678) == 0x1234_5678);
                let z = if rem {
                    a
                } else {
                    (self.b.ins()).iconst(types::I32, rule::QUOTIENT_BY_ZERO as i32 as i64)
                };
                self.b.ins().select(zero, z, q)
            }
            _ => unreachable!("{op:?} is not a lane-wise private operation"),
        }
    }

    /// A conditional branch's (all active lanes take it, some active lane takes it).
    pub(crate) fn condition(&mut self, i: &Inst) -> (Value, Value) {
        use Op::*;
        let cc = match i.op {
            Beq => IntCC::Equal,
            Bne => IntCC::NotEqual,
            Blt => IntCC::SignedLessThan,
            Bge => IntCC::SignedGreaterThanOrEqual,
            Bltu => IntCC::UnsignedLessThan,
            _ => IntCC::UnsignedGreaterThanOrEqual,
        };
        if self.one_lane {
            // One lane: a plain branch on its values.
            let a = self.get(i.rs1, 0);
            let b = self.get(i.rs2, 0);
            let t = self.b.ins().icmp(cc, a, b);
            return (t, t);
        }
        // The vectors' lane conditions and-ed (for "all") and or-ed (for "any"), then one
        // reduction each.
        let mut all: Option<Value> = None;
        let mut any: Option<Value> = None;
        for v in 0..self.nvec {
            let a = self.get(i.rs1, v);
            let b = self.get(i.rs2, v);
            let t = self.b.ins().icmp(cc, a, b);
            let (t_all, t_any) = if self.masked {
                let m = self.mask(v);
                let or = self.b.ins().bor_not(t, m);
                let and = self.b.ins().band(t, m);
                (or, and)
            } else {
                (t, t)
            };
            all = Some(match all {
                Some(p) => self.b.ins().band(p, t_all),
                None => t_all,
            });
            any = Some(match any {
                Some(p) => self.b.ins().bor(p, t_any),
                None => t_any,
            });
        }
        let all = self.b.ins().vall_true(all.expect("at least one vector"));
        let any = self.b.ins().vany_true(any.expect("at least one vector"));
        (all, any)
    }
}

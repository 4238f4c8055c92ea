//! The compressed instructions' codec: decoding a halfword expands it, by its row of the
//! table (`ctable.rs`), into an ordinary [`Inst`] of the main table (so the simulator executes
//! `c.addi` as `addi`) that remembers its compressed form ([`Inst::compressed`]) and so its
//! length, 2 bytes; encoding and `compress` (the assembler's choice of the 16-bit form) go the
//! other way.

use crate::ctable::{imm_of, layout, reg_of};
use crate::inst::{EncodeError, Inst};
use crate::table::Op;

// The table's names, here too (`weft_isa::compressed::CTABLE`, …).
pub use crate::ctable::{need, CEntry, COp, Imm, Src, CTABLE};

impl CEntry {
    /// Fill the operands this row fixes or ties (x0, ra, sp, rs1 = rd) and its syntax does
    /// not name, so that an instruction parsed from text encodes; named operands are left as
    /// written (encoding rejects a wrong one).
    pub fn complete(&self, i: &mut Inst) {
        let named = |a: char, b: char| self.args.contains(a) || self.args.contains(b);
        let [rd, rs1, rs2] = self.regs;
        let fixed = |s: Src, v: &mut u8| match s {
            Src::Zero => *v = 0,
            Src::Ra => *v = 1,
            Src::Sp => *v = 2,
            _ => {}
        };
        if !named('d', 'D') {
            fixed(rd, &mut i.rd);
        }
        if !named('s', 'S') {
            fixed(rs1, &mut i.rs1);
            if rd == rs1 && matches!(rd, Src::Hi | Src::P97) {
                i.rs1 = i.rd;
            }
        }
        if !named('t', 'T') {
            fixed(rs2, &mut i.rs2);
        }
        i.op = self.op;
        i.compressed = Some(self.cop);
    }
}

/// Decode a 16-bit instruction (bits 1:0 ≠ 0b11) into its 32-bit expansion.
pub fn decode16(h: u16) -> Option<Inst> {
    let e = CTABLE.iter().find(|e| e.accepts(h))?;
    let w = h as u32;
    let mut i = Inst::new(e.op);
    i.rd = reg_of(w, e.regs[0]);
    i.rs1 = reg_of(w, e.regs[1]);
    i.rs2 = reg_of(w, e.regs[2]);
    i.imm = imm_of(w, e.imm);
    i.compressed = Some(e.cop);
    Some(i)
}

fn place_reg(s: Src, r: u8, what: &'static str) -> Result<u32, EncodeError> {
    let want = |v: u8| {
        if r == v {
            Ok(0)
        } else {
            Err(EncodeError::Compressed {
                what,
                why: "is fixed by the compressed form",
            })
        }
    };
    let popular = |at: u32| {
        if (8..16).contains(&r) {
            Ok(((r as u32) - 8) << at)
        } else {
            Err(EncodeError::Compressed {
                what,
                why: "must be one of x8-x15 (f8-f15)",
            })
        }
    };
    match s {
        Src::Zero => want(0),
        Src::Ra => want(1),
        Src::Sp => want(2),
        Src::Hi => Ok((r as u32 & 31) << 7),
        Src::Lo => Ok((r as u32 & 31) << 2),
        Src::P97 => popular(7),
        Src::P42 => popular(2),
    }
}

/// Encode a compressed instruction (one whose [`Inst::compressed`] is set) into its halfword.
pub fn encode16(i: &Inst, e: &CEntry) -> Result<u16, EncodeError> {
    if i.op != e.op {
        return Err(EncodeError::Compressed {
            what: "operation",
            why: "is not the one the compressed form expands to",
        });
    }
    let [rd, rs1, rs2] = e.regs;
    if rd == rs1 && i.rd != i.rs1 {
        return Err(EncodeError::Compressed {
            what: "rs1",
            why: "must equal rd",
        });
    }
    let mut h = e.matches as u32;
    h |= place_reg(rd, i.rd, "rd")?;
    let s1 = place_reg(rs1, i.rs1, "rs1")?;
    if rd != rs1 {
        h |= s1;
    }
    h |= place_reg(rs2, i.rs2, "rs2")?;
    let (pieces, signed, width) = layout(e.imm);
    if pieces.is_empty() {
        if i.imm != 0 {
            return Err(EncodeError::Compressed {
                what: "immediate",
                why: "must be 0",
            });
        }
    } else {
        let align = pieces.iter().map(|p| p.1).min().unwrap_or(0);
        let v = i.imm as i64;
        let (min, max) = if signed {
            (-(1i64 << (width - 1)), (1i64 << (width - 1)) - 1)
        } else {
            (0, (1i64 << width) - 1)
        };
        let max = max & !((1i64 << align) - 1);
        if v < min || v > max {
            return Err(EncodeError::ImmRange {
                what: "compressed immediate",
                value: v,
                min,
                max,
            });
        }
        if v & ((1i64 << align) - 1) != 0 {
            return Err(EncodeError::Misaligned {
                what: "compressed immediate",
                value: v,
            });
        }
        for &(hi, lo, at) in pieces {
            h |= (((v as u32) >> lo) & ((1 << (hi - lo + 1)) - 1)) << at;
        }
    }
    let h = h as u16;
    if !e.accepts(h) {
        return Err(EncodeError::Compressed {
            what: "operands",
            why: "give a reserved encoding (a zero immediate, x0 or sp where the form forbids it)",
        });
    }
    Ok(h)
}

/// The compressed form of a 32-bit instruction, if one expresses it exactly (the first row, in
/// table order, whose encoding holds every operand) — or, for `addi rd, rs, 0` (`mv`), the
/// `c.mv` that computes the same; `None` otherwise. The assembler uses it under
/// `.option rvc`.
pub fn compress(i: &Inst) -> Option<Inst> {
    if i.compressed.is_some() {
        return Some(*i);
    }
    // `mv rd, rs` is `addi rd, rs, 0`; `c.mv` holds it as `add rd, x0, rs` (as GNU as does).
    if i.op == Op::Addi && i.imm == 0 && i.rd != 0 && i.rs1 != 0 && i.rd != i.rs1 {
        let mut mv = Inst::new(Op::Add);
        (mv.rd, mv.rs2) = (i.rd, i.rs1);
        return compress(&mv);
    }
    CTABLE.iter().filter(|e| e.op == i.op).find_map(|e| {
        let mut c = *i;
        c.compressed = Some(e.cop);
        let h = encode16(&c, e).ok()?;
        (decode16(h) == Some(c)).then_some(c)
    })
}

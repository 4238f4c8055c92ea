//! Typed instructions: decoding a 32-bit word into an [`Inst`] and encoding it back.
//!
//! Both directions are driven by the operand syntax of the instruction's table row
//! (see [`crate::table`]), so there is exactly one description of every encoding.

use crate::ctable::COp;
use crate::table::{Entry, Op, OP_BRANCH, TABLE};
use std::sync::OnceLock;
use thiserror::Error;

/// A decoded instruction. Fields an instruction does not use are zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Inst {
    /// Which instruction.
    pub op: Op,
    /// Destination register (integer or float, per the operand syntax).
    pub rd: u8,
    /// First source register (or the 5-bit CSR immediate for `csrr*i`).
    pub rs1: u8,
    /// Second source register.
    pub rs2: u8,
    /// Third source register (fused multiply-add).
    pub rs3: u8,
    /// Rounding mode (F instructions with an `m` operand; 7 = dynamic).
    pub rm: u8,
    /// Acquire/release bits of an atomic (bit 1 = aq, bit 0 = rl).
    pub aqrl: u8,
    /// Immediate: sign-extended offset or value, shift amount, CSR number, U-type value
    /// (already shifted left by 12), or fence sets (pred << 4 | succ).
    pub imm: i32,
    /// For a 16-bit instruction, its compressed form (the fields above are its 32-bit
    /// expansion); `None` for a 32-bit instruction.
    pub compressed: Option<COp>,
}

/// Why a word does not decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// No table row matches the word.
    #[error("unknown instruction word {0:#010x}")]
    Unknown(u32),
    /// A 16-bit word that is no RV32C instruction (reserved, illegal, or of RV64/D).
    #[error("compressed instruction {0:#06x} is reserved or not in RV32FC")]
    Compressed(u16),
    /// A rounding-mode field holds a reserved value (5 or 6).
    #[error("reserved rounding mode {rm} in {word:#010x}")]
    ReservedRoundingMode {
        /// The word.
        word: u32,
        /// The reserved rm value.
        rm: u8,
    },
}

/// Why an instruction cannot be encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// An immediate does not fit its field.
    #[error("{what} {value} out of range ({min}..={max})")]
    ImmRange {
        /// The kind of immediate.
        what: &'static str,
        /// The value given.
        value: i64,
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// A branch or jump offset is odd.
    #[error("{what} offset {value} is not a multiple of 2")]
    Misaligned {
        /// The kind of offset.
        what: &'static str,
        /// The offset.
        value: i64,
    },
    /// A register number above 31.
    #[error("register number {0} out of range")]
    Register(u8),
    /// An operand that the compressed form cannot express.
    #[error("compressed form: {what} {why}")]
    Compressed {
        /// Which operand.
        what: &'static str,
        /// What is wrong with it.
        why: &'static str,
    },
}

const fn bits(w: u32, hi: u32, lo: u32) -> u32 {
    (w >> lo) & ((1 << (hi - lo + 1)) - 1)
}
const fn sext(v: u32, width: u32) -> i32 {
    ((v << (32 - width)) as i32) >> (32 - width)
}

/// Immediate extraction per encoding format.
pub(crate) fn imm_i(w: u32) -> i32 {
    (w as i32) >> 20
}
pub(crate) fn imm_s(w: u32) -> i32 {
    sext((bits(w, 31, 25) << 5) | bits(w, 11, 7), 12)
}
pub(crate) fn imm_b(w: u32) -> i32 {
    sext(
        (bits(w, 31, 31) << 12)
            | (bits(w, 7, 7) << 11)
            | (bits(w, 30, 25) << 5)
            | (bits(w, 11, 8) << 1),
        13,
    )
}
pub(crate) fn imm_j(w: u32) -> i32 {
    sext(
        (bits(w, 31, 31) << 20)
            | (bits(w, 19, 12) << 12)
            | (bits(w, 20, 20) << 11)
            | (bits(w, 30, 21) << 1),
        21,
    )
}

fn check(what: &'static str, v: i64, min: i64, max: i64) -> Result<u32, EncodeError> {
    if v < min || v > max {
        Err(EncodeError::ImmRange {
            what,
            value: v,
            min,
            max,
        })
    } else {
        Ok(v as u32)
    }
}

fn check_even(what: &'static str, v: i64) -> Result<(), EncodeError> {
    if v & 1 != 0 {
        Err(EncodeError::Misaligned { what, value: v })
    } else {
        Ok(())
    }
}

/// Per-major-opcode lists of table rows, for fast decoding.
fn buckets() -> &'static [Vec<&'static Entry>; 128] {
    static B: OnceLock<[Vec<&'static Entry>; 128]> = OnceLock::new();
    B.get_or_init(|| {
        let mut b: [Vec<&'static Entry>; 128] = std::array::from_fn(|_| Vec::new());
        for e in TABLE {
            b[(e.matches & 0x7f) as usize].push(e);
        }
        b
    })
}

impl Inst {
    /// An instruction with every operand zero.
    pub const fn new(op: Op) -> Inst {
        Inst {
            op,
            rd: 0,
            rs1: 0,
            rs2: 0,
            rs3: 0,
            rm: 0,
            aqrl: 0,
            imm: 0,
            compressed: None,
        }
    }

    /// The instruction's length in bytes: 2 for a compressed instruction, else 4.
    #[inline(always)]
    #[allow(clippy::len_without_is_empty)] // an instruction is never empty
    pub const fn len(&self) -> u32 {
        if self.compressed.is_some() {
            2
        } else {
            4
        }
    }

    /// The length in bytes of the instruction whose first halfword is `h` (by its low two
    /// bits, the RISC-V length rule for weft's 16- and 32-bit instructions).
    #[inline(always)]
    pub const fn len_of(h: u16) -> u32 {
        if h & 3 == 3 {
            4
        } else {
            2
        }
    }

    /// Decode a 32-bit instruction word (bits 1:0 = 0b11; [`Inst::decode`] takes both sizes):
    /// every field the table fixes must match.
    pub(crate) fn decode32(w: u32) -> Result<Inst, DecodeError> {
        let e = buckets()[(w & 0x7f) as usize]
            .iter()
            .find(|e| w & e.mask == e.matches)
            .ok_or(DecodeError::Unknown(w))?;
        let mut i = Inst::new(e.op);
        for c in e.args.chars() {
            match c {
                'd' | 'D' | 'F' | 'N' => i.rd = bits(w, 11, 7) as u8,
                's' | 'S' | 'Z' | 'G' => i.rs1 = bits(w, 19, 15) as u8,
                't' | 'T' | 'H' | 'W' => i.rs2 = bits(w, 24, 20) as u8,
                'R' | 'r' => i.rs3 = bits(w, 31, 27) as u8,
                'l' => i.imm = bits(w, 26, 25) as i32,
                'j' | 'o' => i.imm = imm_i(w),
                'q' => i.imm = imm_s(w),
                'p' => i.imm = imm_b(w),
                'a' => i.imm = imm_j(w),
                'u' => i.imm = (w & 0xffff_f000) as i32,
                '>' => i.imm = bits(w, 24, 20) as i32,
                'E' => i.imm = bits(w, 31, 20) as i32,
                'm' => {
                    let rm = bits(w, 14, 12) as u8;
                    if rm == 5 || rm == 6 {
                        return Err(DecodeError::ReservedRoundingMode { word: w, rm });
                    }
                    i.rm = rm;
                }
                'P' => i.imm = bits(w, 27, 20) as i32,
                _ => {}
            }
        }
        if e.args.contains("0(") && e.matches & 0x7f == crate::table::OP_AMO {
            i.aqrl = bits(w, 26, 25) as u8;
        }
        Ok(i)
    }

    /// Encode as its 32-bit word ([`Inst::encode`] takes both sizes). Fails if an operand
    /// does not fit its field.
    pub(crate) fn encode32(&self) -> Result<u32, EncodeError> {
        let e = self.op.entry();
        let mut w = e.matches;
        for r in [self.rd, self.rs1, self.rs2, self.rs3] {
            if r > 31 {
                return Err(EncodeError::Register(r));
            }
        }
        let imm = self.imm as i64;
        for c in e.args.chars() {
            match c {
                'd' | 'D' | 'F' | 'N' => w |= (self.rd as u32) << 7,
                's' | 'S' | 'G' => w |= (self.rs1 as u32) << 15,
                'Z' => w |= (check("CSR immediate", self.rs1 as i64, 0, 31)?) << 15,
                't' | 'T' | 'H' | 'W' => w |= (self.rs2 as u32) << 20,
                'R' | 'r' => w |= (self.rs3 as u32) << 27,
                'l' => w |= check("lane", imm, 0, 3)? << 25,
                'j' | 'o' => w |= check("immediate", imm, -2048, 2047)? << 20,
                'q' => {
                    let v = check("offset", imm, -2048, 2047)?;
                    w |= (bits(v, 11, 5) << 25) | (bits(v, 4, 0) << 7);
                }
                'p' => {
                    check_even("branch", imm)?;
                    let v = check("branch offset", imm, -4096, 4094)?;
                    w |= (bits(v, 12, 12) << 31)
                        | (bits(v, 10, 5) << 25)
                        | (bits(v, 4, 1) << 8)
                        | (bits(v, 11, 11) << 7);
                }
                'a' => {
                    check_even("jump", imm)?;
                    let v = check("jump offset", imm, -(1 << 20), (1 << 20) - 2)?;
                    w |= (bits(v, 20, 20) << 31)
                        | (bits(v, 10, 1) << 21)
                        | (bits(v, 11, 11) << 20)
                        | (bits(v, 19, 12) << 12);
                }
                'u' => {
                    if self.imm as u32 & 0xfff != 0 {
                        return Err(EncodeError::ImmRange {
                            what: "upper immediate (low 12 bits must be zero)",
                            value: imm,
                            min: 0,
                            max: 0xfffff,
                        });
                    }
                    w |= self.imm as u32;
                }
                '>' => w |= check("shift amount", imm, 0, 31)? << 20,
                'E' => w |= check("CSR number", imm, 0, 0xfff)? << 20,
                'm' => w |= (check("rounding mode", self.rm as i64, 0, 7)? & 7) << 12,
                'P' => w |= check("fence sets", imm, 0, 0xff)? << 20,
                _ => {}
            }
        }
        if e.matches & 0x7f == crate::table::OP_AMO {
            w |= (check("aq/rl", self.aqrl as i64, 0, 3)?) << 25;
        }
        Ok(w)
    }

    /// True for a conditional branch (the instructions that auto-diverge).
    pub fn is_cond_branch(&self) -> bool {
        self.op.entry().matches & 0x7f == OP_BRANCH
    }

    /// The pc-relative target of a branch, jal, converge or diverge at `pc`, if any.
    pub fn target(&self, pc: u32) -> Option<u32> {
        let a = self.op.entry().args;
        if a.contains('p') || a.contains('a') {
            Some(pc.wrapping_add(self.imm as u32))
        } else {
            None
        }
    }
}

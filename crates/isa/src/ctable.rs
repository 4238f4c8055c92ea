//! The table of compressed instructions (RV32C, and the single-precision loads and stores of
//! RV32FC): each 16-bit encoding, the 32-bit instruction of the main table it expands to and
//! where that instruction's operands come from, and the field conditions that make an encoding
//! reserved. Decoding, encoding, text and the listing in `docs/isa.md` all come from these rows
//! (`compressed.rs` is the codec over them).
//!
//! Reserved encodings are rejected as the specification says: the all-zero halfword,
//! `c.addi4spn` with a zero immediate, `c.lui` and `c.addi16sp` with a zero immediate,
//! `c.lwsp` with rd = x0, `c.jr` with rs1 = x0, shift amounts with bit 5 set (custom on
//! RV32), RV64/RV128 and D-extension encodings (`c.ld`, `c.fld`, `c.subw`, …). HINTs (a
//! compressed instruction whose destination is x0, or `c.addi` with a zero immediate, or a
//! zero shift amount) decode as the base instruction they expand to, which has no effect.

use crate::table::Op;

/// Where a register operand of the expanded instruction comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    /// x0 (or an unused operand).
    Zero,
    /// x1 (`ra`), the link register of `c.jal` and `c.jalr`.
    Ra,
    /// x2 (`sp`).
    Sp,
    /// A full register number in bits 11:7.
    Hi,
    /// A full register number in bits 6:2.
    Lo,
    /// A popular register x8–x15 (or f8–f15), number − 8 in bits 9:7.
    P97,
    /// A popular register x8–x15 (or f8–f15), number − 8 in bits 4:2.
    P42,
}

/// An immediate field: how its bits are scattered over the halfword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Imm {
    /// No immediate (the expansion's is 0).
    None,
    /// 6-bit signed: imm[5] at 12, imm[4:0] at 6:2 (`c.addi`, `c.li`, `c.andi`).
    Ci,
    /// `c.lui`: nzimm[17] at 12, nzimm[16:12] at 6:2, sign-extended from bit 17.
    Lui,
    /// `c.addi16sp`: nzimm[9|4|6|8:7|5], signed, a multiple of 16.
    Sp16,
    /// `c.addi4spn`: nzuimm[5:4|9:6|2|3] in 12:5, unsigned, a multiple of 4.
    Spn4,
    /// `c.lw`/`c.sw`/`c.flw`/`c.fsw`: uimm[5:3] at 12:10, uimm[2|6] at 6:5.
    Word,
    /// `c.lwsp`/`c.flwsp`: uimm[5] at 12, uimm[4:2|7:6] at 6:2.
    LoadSp,
    /// `c.swsp`/`c.fswsp`: uimm[5:2|7:6] at 12:7.
    StoreSp,
    /// 5-bit shift amount in 6:2 (bit 12, shamt[5], is fixed to 0 on RV32).
    Shamt,
    /// `c.j`/`c.jal`: offset[11|4|9:8|10|6|7|3:1|5] at 12:2, signed.
    Jump,
    /// `c.beqz`/`c.bnez`: offset[8|4:3] at 12:10, offset[7:6|2:1|5] at 6:2, signed.
    Branch,
}

/// (immediate bit hi, immediate bit lo, position of lo in the halfword) pieces, whether
/// the value is signed, and its width in bits.
pub(crate) fn layout(k: Imm) -> (&'static [(u32, u32, u32)], bool, u32) {
    match k {
        Imm::None => (&[], false, 0),
        Imm::Ci => (&[(5, 5, 12), (4, 0, 2)], true, 6),
        Imm::Lui => (&[(17, 17, 12), (16, 12, 2)], true, 18),
        Imm::Sp16 => (
            &[(9, 9, 12), (4, 4, 6), (6, 6, 5), (8, 7, 3), (5, 5, 2)],
            true,
            10,
        ),
        Imm::Spn4 => (&[(5, 4, 11), (9, 6, 7), (2, 2, 6), (3, 3, 5)], false, 10),
        Imm::Word => (&[(5, 3, 10), (2, 2, 6), (6, 6, 5)], false, 7),
        Imm::LoadSp => (&[(5, 5, 12), (4, 2, 4), (7, 6, 2)], false, 8),
        Imm::StoreSp => (&[(5, 2, 9), (7, 6, 7)], false, 8),
        Imm::Shamt => (&[(4, 0, 2)], false, 5),
        Imm::Jump => (
            &[
                (11, 11, 12),
                (4, 4, 11),
                (9, 8, 9),
                (10, 10, 8),
                (6, 6, 7),
                (7, 7, 6),
                (3, 1, 3),
                (5, 5, 2),
            ],
            true,
            12,
        ),
        Imm::Branch => (
            &[(8, 8, 12), (4, 3, 10), (7, 6, 5), (2, 1, 3), (5, 5, 2)],
            true,
            9,
        ),
    }
}

/// A field that must not be zero, or must avoid a value, for the row to match.
pub mod need {
    /// Bits 11:7 (rd/rs1) are not x0.
    pub const HI_NZ: u8 = 1;
    /// Bits 11:7 are not x2 (`c.lui`: rd = x2 is `c.addi16sp`).
    pub const HI_NOT_SP: u8 = 2;
    /// Bits 6:2 (rs2) are not x0.
    pub const LO_NZ: u8 = 4;
    /// The immediate is not zero.
    pub const IMM_NZ: u8 = 8;
    /// Some operand bit is set (`c.addi` leaves the all-zero operands to `c.nop`).
    pub const ANY: u8 = 16;
}

/// One row of the compressed table.
#[derive(Clone, Copy, Debug)]
pub struct CEntry {
    /// The typed compressed-instruction name.
    pub cop: COp,
    /// Assembly mnemonic (`c.addi`).
    pub name: &'static str,
    /// Which extension (for the listing).
    pub ext: &'static str,
    /// Value of the fixed bits.
    pub matches: u16,
    /// Which bits are fixed.
    pub mask: u16,
    /// Conditions on operand fields ([`need`] flags); an encoding that fails one is reserved.
    pub need: u8,
    /// The 32-bit instruction this expands to.
    pub op: Op,
    /// Where the expansion's rd, rs1 and rs2 come from.
    pub regs: [Src; 3],
    /// The immediate field.
    pub imm: Imm,
    /// Operand syntax, in the letters of the main table (over the expanded operands).
    pub args: &'static str,
}

macro_rules! c_table {
    ($( $variant:ident, $name:literal, $ext:literal, $m:literal, $k:literal, $need:expr,
        $op:ident, [$rd:ident, $rs1:ident, $rs2:ident], $imm:ident, $args:literal; )*) => {
        /// A typed compressed-instruction name, one per row of [`CTABLE`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        #[allow(missing_docs)]
        pub enum COp { $( $variant, )* }

        /// The compressed instruction table, in the order of [`COp`].
        pub static CTABLE: &[CEntry] = &[
            $( CEntry { cop: COp::$variant, name: $name, ext: $ext, matches: $m, mask: $k,
                        need: $need, op: Op::$op, regs: [Src::$rd, Src::$rs1, Src::$rs2],
                        imm: Imm::$imm, args: $args }, )*
        ];
    };
}

use need::{ANY, HI_NOT_SP, HI_NZ, IMM_NZ, LO_NZ};

c_table! {
    // ---- quadrant 0 ----
    CAddi4spn,"c.addi4spn","RV32C", 0x0000, 0xe003, IMM_NZ, Addi, [P42, Sp, Zero], Spn4, "d,s,j";
    CLw,     "c.lw",     "RV32C",  0x4000, 0xe003, 0, Lw,    [P42, P97, Zero], Word, "d,o(s)";
    CFlw,    "c.flw",    "RV32FC", 0x6000, 0xe003, 0, Flw,   [P42, P97, Zero], Word, "D,o(s)";
    CSw,     "c.sw",     "RV32C",  0xc000, 0xe003, 0, Sw,    [Zero, P97, P42], Word, "t,q(s)";
    CFsw,    "c.fsw",    "RV32FC", 0xe000, 0xe003, 0, Fsw,   [Zero, P97, P42], Word, "T,q(s)";
    // ---- quadrant 1 ----
    CNop,    "c.nop",    "RV32C",  0x0001, 0xffff, 0, Addi,  [Zero, Zero, Zero], None, "";
    CAddi,   "c.addi",   "RV32C",  0x0001, 0xe003, ANY, Addi, [Hi, Hi, Zero], Ci, "d,j";
    CJal,    "c.jal",    "RV32C",  0x2001, 0xe003, 0, Jal,   [Ra, Zero, Zero], Jump, "a";
    CLi,     "c.li",     "RV32C",  0x4001, 0xe003, 0, Addi,  [Hi, Zero, Zero], Ci, "d,j";
    CAddi16sp,"c.addi16sp","RV32C", 0x6101, 0xef83, IMM_NZ, Addi, [Sp, Sp, Zero], Sp16, "d,j";
    CLui,    "c.lui",    "RV32C",  0x6001, 0xe003, HI_NOT_SP | IMM_NZ, Lui, [Hi, Zero, Zero], Lui, "d,u";
    CSrli,   "c.srli",   "RV32C",  0x8001, 0xfc03, 0, Srli,  [P97, P97, Zero], Shamt, "d,>";
    CSrai,   "c.srai",   "RV32C",  0x8401, 0xfc03, 0, Srai,  [P97, P97, Zero], Shamt, "d,>";
    CAndi,   "c.andi",   "RV32C",  0x8801, 0xec03, 0, Andi,  [P97, P97, Zero], Ci, "d,j";
    CSub,    "c.sub",    "RV32C",  0x8c01, 0xfc63, 0, Sub,   [P97, P97, P42], None, "d,t";
    CXor,    "c.xor",    "RV32C",  0x8c21, 0xfc63, 0, Xor,   [P97, P97, P42], None, "d,t";
    COr,     "c.or",     "RV32C",  0x8c41, 0xfc63, 0, Or,    [P97, P97, P42], None, "d,t";
    CAnd,    "c.and",    "RV32C",  0x8c61, 0xfc63, 0, And,   [P97, P97, P42], None, "d,t";
    CJ,      "c.j",      "RV32C",  0xa001, 0xe003, 0, Jal,   [Zero, Zero, Zero], Jump, "a";
    CBeqz,   "c.beqz",   "RV32C",  0xc001, 0xe003, 0, Beq,   [Zero, P97, Zero], Branch, "s,p";
    CBnez,   "c.bnez",   "RV32C",  0xe001, 0xe003, 0, Bne,   [Zero, P97, Zero], Branch, "s,p";
    // ---- quadrant 2 ----
    CSlli,   "c.slli",   "RV32C",  0x0002, 0xf003, 0, Slli,  [Hi, Hi, Zero], Shamt, "d,>";
    CLwsp,   "c.lwsp",   "RV32C",  0x4002, 0xe003, HI_NZ, Lw, [Hi, Sp, Zero], LoadSp, "d,o(s)";
    CFlwsp,  "c.flwsp",  "RV32FC", 0x6002, 0xe003, 0, Flw,   [Hi, Sp, Zero], LoadSp, "D,o(s)";
    CJr,     "c.jr",     "RV32C",  0x8002, 0xf07f, HI_NZ, Jalr, [Zero, Hi, Zero], None, "s";
    CMv,     "c.mv",     "RV32C",  0x8002, 0xf003, LO_NZ, Add, [Hi, Zero, Lo], None, "d,t";
    CEbreak, "c.ebreak", "RV32C",  0x9002, 0xffff, 0, Ebreak, [Zero, Zero, Zero], None, "";
    CJalr,   "c.jalr",   "RV32C",  0x9002, 0xf07f, HI_NZ, Jalr, [Ra, Hi, Zero], None, "s";
    CAdd,    "c.add",    "RV32C",  0x9002, 0xf003, LO_NZ, Add, [Hi, Hi, Lo], None, "d,t";
    CSwsp,   "c.swsp",   "RV32C",  0xc002, 0xe003, 0, Sw,    [Zero, Sp, Lo], StoreSp, "t,q(s)";
    CFswsp,  "c.fswsp",  "RV32FC", 0xe002, 0xe003, 0, Fsw,   [Zero, Sp, Lo], StoreSp, "T,q(s)";
}

impl COp {
    /// This instruction's table row.
    pub fn entry(self) -> &'static CEntry {
        &CTABLE[self as usize]
    }
    /// Look a compressed instruction up by mnemonic (exact, lower case).
    pub fn from_name(name: &str) -> Option<COp> {
        CTABLE.iter().find(|e| e.name == name).map(|e| e.cop)
    }
}

pub(crate) fn reg_of(h: u32, s: Src) -> u8 {
    (match s {
        Src::Zero => 0,
        Src::Ra => 1,
        Src::Sp => 2,
        Src::Hi => (h >> 7) & 31,
        Src::Lo => (h >> 2) & 31,
        Src::P97 => 8 + ((h >> 7) & 7),
        Src::P42 => 8 + ((h >> 2) & 7),
    }) as u8
}

pub(crate) fn imm_of(h: u32, k: Imm) -> i32 {
    let (pieces, signed, width) = layout(k);
    let mut v = 0u32;
    for &(hi, lo, at) in pieces {
        v |= ((h >> at) & ((1 << (hi - lo + 1)) - 1)) << lo;
    }
    if signed {
        ((v << (32 - width)) as i32) >> (32 - width)
    } else {
        v as i32
    }
}

impl CEntry {
    /// Does halfword `h` encode this row (fixed bits and field conditions)?
    pub fn accepts(&self, h: u16) -> bool {
        let w = h as u32;
        h & self.mask == self.matches
            && (self.need & HI_NZ == 0 || (w >> 7) & 31 != 0)
            && (self.need & HI_NOT_SP == 0 || (w >> 7) & 31 != 2)
            && (self.need & LO_NZ == 0 || (w >> 2) & 31 != 0)
            && (self.need & IMM_NZ == 0 || imm_of(w, self.imm) != 0)
            && (self.need & ANY == 0 || h & !self.mask != 0)
    }
}

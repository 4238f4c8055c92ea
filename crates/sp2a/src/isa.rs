//! The SP v2a instruction table — the single source of truth for the ISA.
//!
//! One macro invocation lists every instruction (opcode, mnemonic, operand format, summary).
//! From it come the typed [`Op`] enum, decoding ([`Instr::decode`]), encoding
//! ([`Instr::encode`]), disassembly text (`Display` for [`Instr`]), the assembler's mnemonic
//! lookup and the opcode listing in `docs/sp2a.md` ([`opcode_listing`]).
//!
//! Word layout: bits 31–25 opcode, 24–22 A, 21–19 B, 18–16 D, 15–0 immediate.
//! Fields an instruction's format does not use are ignored by the hardware; the decoder
//! zeroes them, so `decode` then `encode` gives the canonical word.

use std::fmt;
use thiserror::Error;

/// A register number 0..=7 (`%A`..`%H`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Reg(u8);

impl Reg {
    /// Frame pointer `%F` (r5), by convention.
    pub const F: Reg = Reg(5);
    /// Assembler temporary and return address `%G` (r6).
    pub const G: Reg = Reg(6);
    /// Stack pointer `%H` (r7).
    pub const H: Reg = Reg(7);

    /// Register `n & 7`.
    pub const fn new(n: u8) -> Reg {
        Reg(n & 7)
    }

    /// Register number 0..=7.
    pub const fn num(self) -> u8 {
        self.0
    }

    /// Index into a register file.
    pub const fn idx(self) -> usize {
        self.0 as usize
    }

    /// The letter name, `'A'..='H'`.
    pub const fn letter(self) -> char {
        (b'A' + self.0) as char
    }
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.letter())
    }
}

/// What an immediate field means, for range checks and display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImmKind {
    /// 16-bit unsigned value or address, shown in hex.
    U16,
    /// 16-bit value sign-extended at run time, shown in signed decimal.
    S16,
    /// Bit number or shift amount 0..=31; the hardware uses the low 5 bits.
    Bit,
}

/// Operand format: which fields are used and how the text looks.
/// Text operands always appear in field order: A, B, D, then the immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// No operands.
    None,
    /// `%R imm` (A = D = R; hardware reads A, writes D), or `%A %D imm` when they differ.
    RegImm,
    /// `%A %B %D`.
    Abd,
    /// `%A %D simm`.
    AdS16,
    /// `%A %D`.
    Ad,
    /// `%A %D bit`.
    AdBit,
    /// `%A addr`.
    AU16,
    /// `%A %B simm`.
    AbS16,
    /// `%D addr`.
    DU16,
    /// `%B %D simm`.
    BdS16,
    /// `%A`.
    A,
    /// `%A bit`.
    ABit,
    /// `addr`.
    U16,
}

/// Which fields a format uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fields {
    /// Uses A.
    pub a: bool,
    /// Uses B.
    pub b: bool,
    /// Uses D.
    pub d: bool,
    /// Immediate kind, if any.
    pub imm: Option<ImmKind>,
}

impl Format {
    /// The fields this format uses.
    pub const fn fields(self) -> Fields {
        const fn f(a: bool, b: bool, d: bool, imm: Option<ImmKind>) -> Fields {
            Fields { a, b, d, imm }
        }
        use ImmKind::*;
        match self {
            Format::None => f(false, false, false, None),
            Format::RegImm => f(true, false, true, Some(U16)),
            Format::Abd => f(true, true, true, None),
            Format::AdS16 => f(true, false, true, Some(S16)),
            Format::Ad => f(true, false, true, None),
            Format::AdBit => f(true, false, true, Some(Bit)),
            Format::AU16 => f(true, false, false, Some(U16)),
            Format::AbS16 => f(true, true, false, Some(S16)),
            Format::DU16 => f(false, false, true, Some(U16)),
            Format::BdS16 => f(false, true, true, Some(S16)),
            Format::A => f(true, false, false, None),
            Format::ABit => f(true, false, false, Some(Bit)),
            Format::U16 => f(false, false, false, Some(U16)),
        }
    }

    /// The operand syntax, for documentation.
    pub const fn syntax(self) -> &'static str {
        match self {
            Format::None => "",
            Format::RegImm => "%R imm16",
            Format::Abd => "%A %B %D",
            Format::AdS16 => "%A %D simm16",
            Format::Ad => "%A %D",
            Format::AdBit => "%A %D bit",
            Format::AU16 => "%A addr",
            Format::AbS16 => "%A %B simm16",
            Format::DU16 => "%D addr",
            Format::BdS16 => "%B %D simm16",
            Format::A => "%A",
            Format::ABit => "%A bit",
            Format::U16 => "addr",
        }
    }
}

macro_rules! isa_table {
    ($( $variant:ident = $opcode:literal, $mnem:literal, $fmt:ident, $sem:literal; )*) => {
        /// An SP v2a operation (one row of the instruction table).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Op { $( #[doc = $sem] $variant ),* }

        impl Op {
            /// Every operation, in table order.
            pub const ALL: &'static [Op] = &[$(Op::$variant),*];

            /// The 7-bit opcode.
            pub const fn opcode(self) -> u8 {
                match self { $(Op::$variant => $opcode),* }
            }

            /// The assembler mnemonic (several operations may share one; the operand
            /// shapes tell them apart).
            pub const fn mnemonic(self) -> &'static str {
                match self { $(Op::$variant => $mnem),* }
            }

            /// The operand format.
            pub const fn format(self) -> Format {
                match self { $(Op::$variant => Format::$fmt),* }
            }

            /// One-line semantics, for documentation.
            pub const fn semantics(self) -> &'static str {
                match self { $(Op::$variant => $sem),* }
            }

            /// The operation with this opcode, if any.
            pub const fn from_opcode(opcode: u8) -> Option<Op> {
                match opcode {
                    $($opcode => Some(Op::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

isa_table! {
    Nop  = 0x00, "NOP",  None,   "no operation; all other bits ignored";
    Lui  = 0x01, "LUI",  RegImm, "D = (A & 0x0000FFFF) | IMM << 16 (upper half from IMM)";
    Lli  = 0x02, "LLI",  RegImm, "D = (A & 0xFFFF0000) | IMM (lower half from IMM)";
    Add  = 0x08, "ADD",  Abd,    "D = A + B (wrapping)";
    Sub  = 0x09, "SUB",  Abd,    "D = A - B (wrapping)";
    Addi = 0x0A, "ADDI", AdS16,  "D = A + sext(IMM) (wrapping)";
    Mul  = 0x0B, "MUL",  Abd,    "D = (A & 0xFFFF) * (B & 0xFFFF), unsigned 16x16 -> 32";
    Cmp  = 0x0C, "CMP",  Abd,    "D = flags: bit0 A==B, bit1 A>B unsigned, bit2 A>B signed, bit3 A<B unsigned, bit4 A<B signed";
    And  = 0x10, "AND",  Abd,    "D = A & B";
    Or   = 0x11, "OR",   Abd,    "D = A | B";
    Xor  = 0x12, "XOR",  Abd,    "D = A ^ B";
    Not  = 0x13, "NOT",  Ad,     "D = !A";
    Bset = 0x18, "BSET", AdBit,  "D = A | (1 << IMM[4:0])";
    Bclr = 0x19, "BCLR", AdBit,  "D = A & !(1 << IMM[4:0])";
    Shl  = 0x1A, "SHL",  AdBit,  "D = A << IMM[4:0] (logical)";
    Shr  = 0x1B, "SHR",  AdBit,  "D = A >> IMM[4:0] (logical)";
    St   = 0x20, "ST",   AU16,   "mem[IMM] = A";
    Str  = 0x21, "ST",   AbS16,  "mem[(B + sext(IMM)) & 0xFFFF] = A";
    Ld   = 0x22, "LD",   DU16,   "D = mem[IMM]";
    Ldr  = 0x23, "LD",   BdS16,  "D = mem[(B + sext(IMM)) & 0xFFFF]";
    Skz  = 0x28, "SKZ",  A,      "skip the next instruction if A == 0";
    Sknz = 0x29, "SKNZ", A,      "skip the next instruction if A != 0";
    Skbs = 0x2A, "SKBS", ABit,   "skip the next instruction if bit IMM[4:0] of A is set";
    Skbc = 0x2B, "SKBC", ABit,   "skip the next instruction if bit IMM[4:0] of A is clear";
    Jmp  = 0x30, "JMP",  U16,    "PC = IMM";
    Jmpr = 0x31, "JMP",  A,      "PC = A & 0xFFFF";
}

/// A decoded instruction: the operation and its fields (unused fields are zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Instr {
    /// The operation.
    pub op: Op,
    /// Field A (source register / register R for LUI, LLI).
    pub a: Reg,
    /// Field B (second source / address base).
    pub b: Reg,
    /// Field D (destination).
    pub d: Reg,
    /// The 16-bit immediate field.
    pub imm: u16,
}

/// A word that is not an instruction.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum InstrDecodeError {
    /// No instruction has this opcode.
    #[error("unknown opcode 0x{opcode:02X} in word 0x{word:08X}")]
    UnknownOpcode {
        /// The 7-bit opcode.
        opcode: u8,
        /// The whole word.
        word: u32,
    },
}

impl InstrDecodeError {
    /// Whether the opcode field is unassigned.
    pub fn is_unknown_opcode(&self) -> bool {
        matches!(self, InstrDecodeError::UnknownOpcode { .. })
    }
}

impl Instr {
    /// Build an instruction, zeroing the fields its format does not use.
    pub fn new(op: Op, a: Reg, b: Reg, d: Reg, imm: u16) -> Instr {
        let f = op.format().fields();
        let imm = match f.imm {
            None => 0,
            Some(ImmKind::Bit) => imm & 31,
            Some(_) => imm,
        };
        let zero = Reg::default();
        Instr {
            op,
            a: if f.a { a } else { zero },
            b: if f.b { b } else { zero },
            d: if f.d { d } else { zero },
            imm,
        }
    }

    /// Decode a word. Unused fields are ignored; bit-number immediates keep their low 5 bits
    /// (exactly what the hardware uses).
    pub fn decode(word: u32) -> Result<Instr, InstrDecodeError> {
        let opcode = (word >> 25) as u8;
        let op = Op::from_opcode(opcode).ok_or(InstrDecodeError::UnknownOpcode { opcode, word })?;
        Ok(Instr::new(
            op,
            Reg::new((word >> 22) as u8),
            Reg::new((word >> 19) as u8),
            Reg::new((word >> 16) as u8),
            word as u16,
        ))
    }

    /// Encode to a word.
    pub fn encode(self) -> u32 {
        (u32::from(self.op.opcode()) << 25)
            | (u32::from(self.a.num()) << 22)
            | (u32::from(self.b.num()) << 19)
            | (u32::from(self.d.num()) << 16)
            | u32::from(self.imm)
    }

    /// The immediate sign-extended to 32 bits.
    pub fn simm(self) -> u32 {
        self.imm as i16 as i32 as u32
    }
}

fn fmt_imm(f: &mut fmt::Formatter<'_>, kind: ImmKind, imm: u16) -> fmt::Result {
    match kind {
        ImmKind::U16 => write!(f, "0x{imm:04X}"),
        ImmKind::S16 => write!(f, "{}", imm as i16),
        ImmKind::Bit => write!(f, "{imm}"),
    }
}

impl fmt::Display for Instr {
    /// The disassembly text; the assembler parses it back to the same instruction.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fmt = self.op.format();
        write!(f, "{}", self.op.mnemonic())?;
        if fmt == Format::RegImm {
            if self.a == self.d {
                write!(f, " {}", self.a)?;
            } else {
                write!(f, " {} {}", self.a, self.d)?;
            }
            write!(f, " ")?;
            return fmt_imm(f, ImmKind::U16, self.imm);
        }
        let fields = fmt.fields();
        if fields.a {
            write!(f, " {}", self.a)?;
        }
        if fields.b {
            write!(f, " {}", self.b)?;
        }
        if fields.d {
            write!(f, " {}", self.d)?;
        }
        if let Some(kind) = fields.imm {
            write!(f, " ")?;
            fmt_imm(f, kind, self.imm)?;
        }
        Ok(())
    }
}

/// The opcode table as Markdown, for `docs/sp2a.md` (a test keeps the committed copy equal).
pub fn opcode_listing() -> String {
    let mut s = String::from("| opcode | mnemonic | operands | semantics |\n|---|---|---|---|\n");
    for op in Op::ALL {
        let syntax = match op.format().syntax() {
            "" => "—".to_string(),
            s => format!("`{s}`"),
        };
        s.push_str(&format!(
            "| 0x{:02X} | {} | {} | {} |\n",
            op.opcode(),
            op.mnemonic(),
            syntax,
            op.semantics().replace('|', "\\|")
        ));
    }
    s
}

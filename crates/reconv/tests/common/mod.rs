//! Test helper: a tiny two-pass program builder over `weft_isa::Inst::encode` (the assembler
//! crate is not a dependency), with labels for branch and jump targets, plus shorthands for
//! running the analysis.
#![allow(dead_code)]

use weft_isa::{Inst, Op};
use weft_reconv::{analyze, Analysis, CodeRegion, Reconv, Symbol};

pub const ZERO: u8 = 0;
pub const RA: u8 = 1;
pub const T0: u8 = 5;
pub const T1: u8 = 6;
pub const T2: u8 = 7;
pub const A0: u8 = 10;
pub const A1: u8 = 11;
pub const A2: u8 = 12;
pub const T3: u8 = 28;

enum Item {
    Word(u32),
    Fixed(Inst),
    /// An instruction whose `imm` is `label − pc`.
    ToLabel(Inst, &'static str),
    /// An instruction whose `imm` is `addr − pc` for an absolute address.
    ToAddr(Inst, u32),
}

/// A program under construction, at `base`.
pub struct Prog {
    base: u32,
    items: Vec<Item>,
    labels: Vec<(&'static str, usize)>,
}

impl Prog {
    pub fn new(base: u32) -> Prog {
        Prog {
            base,
            items: Vec::new(),
            labels: Vec::new(),
        }
    }
    /// Address of the next instruction.
    pub fn here(&self) -> u32 {
        self.base + 4 * self.items.len() as u32
    }
    pub fn label(&mut self, name: &'static str) -> &mut Self {
        self.labels.push((name, self.items.len()));
        self
    }
    pub fn inst(&mut self, i: Inst) -> &mut Self {
        self.items.push(Item::Fixed(i));
        self
    }
    pub fn word(&mut self, w: u32) -> &mut Self {
        self.items.push(Item::Word(w));
        self
    }
    pub fn addi(&mut self, rd: u8, rs1: u8, imm: i32) -> &mut Self {
        self.inst(Inst {
            rd,
            rs1,
            imm,
            ..Inst::new(Op::Addi)
        })
    }
    pub fn nop(&mut self) -> &mut Self {
        self.addi(ZERO, ZERO, 0)
    }
    pub fn lw(&mut self, rd: u8, rs1: u8, imm: i32) -> &mut Self {
        self.inst(Inst {
            rd,
            rs1,
            imm,
            ..Inst::new(Op::Lw)
        })
    }
    /// A conditional branch (`op` = Beq, Bne, Blt, …) to a label.
    pub fn br(&mut self, op: Op, rs1: u8, rs2: u8, to: &'static str) -> &mut Self {
        self.items.push(Item::ToLabel(
            Inst {
                rs1,
                rs2,
                ..Inst::new(op)
            },
            to,
        ));
        self
    }
    pub fn diverge(&mut self, rs1: u8, to: &'static str) -> &mut Self {
        self.items.push(Item::ToLabel(
            Inst {
                rs1,
                ..Inst::new(Op::Diverge)
            },
            to,
        ));
        self
    }
    pub fn converge(&mut self, to: &'static str) -> &mut Self {
        self.items.push(Item::ToLabel(Inst::new(Op::Converge), to));
        self
    }
    /// `jal x0, label`.
    pub fn j(&mut self, to: &'static str) -> &mut Self {
        self.items.push(Item::ToLabel(Inst::new(Op::Jal), to));
        self
    }
    /// `jal x0, addr` (absolute: a tail call when outside the function).
    pub fn j_abs(&mut self, addr: u32) -> &mut Self {
        self.items.push(Item::ToAddr(Inst::new(Op::Jal), addr));
        self
    }
    /// `jal ra, label`.
    pub fn call(&mut self, to: &'static str) -> &mut Self {
        self.items.push(Item::ToLabel(
            Inst {
                rd: RA,
                ..Inst::new(Op::Jal)
            },
            to,
        ));
        self
    }
    /// `jal ra, addr`.
    pub fn call_abs(&mut self, addr: u32) -> &mut Self {
        self.items.push(Item::ToAddr(
            Inst {
                rd: RA,
                ..Inst::new(Op::Jal)
            },
            addr,
        ));
        self
    }
    /// `jalr rd, 0(rs1)`.
    pub fn jalr(&mut self, rd: u8, rs1: u8) -> &mut Self {
        self.inst(Inst {
            rd,
            rs1,
            ..Inst::new(Op::Jalr)
        })
    }
    /// `ret` = `jalr x0, 0(ra)`.
    pub fn ret(&mut self) -> &mut Self {
        self.jalr(ZERO, RA)
    }
    pub fn op(&mut self, op: Op) -> &mut Self {
        self.inst(Inst::new(op))
    }

    /// Address of a label.
    pub fn addr(&self, name: &str) -> u32 {
        let idx = self
            .labels
            .iter()
            .find(|l| l.0 == name)
            .unwrap_or_else(|| panic!("no label {name}"))
            .1;
        self.base + 4 * idx as u32
    }

    /// The encoded words.
    pub fn words(&self) -> Vec<u32> {
        self.items
            .iter()
            .enumerate()
            .map(|(k, it)| {
                let pc = self.base + 4 * k as u32;
                let enc = |i: Inst, to: u32| {
                    Inst {
                        imm: to.wrapping_sub(pc) as i32,
                        ..i
                    }
                    .encode()
                    .expect("encodable test instruction")
                };
                match *it {
                    Item::Word(w) => w,
                    Item::Fixed(i) => i.encode().expect("encodable test instruction"),
                    Item::ToLabel(i, l) => enc(i, self.addr(l)),
                    Item::ToAddr(i, a) => enc(i, a),
                }
            })
            .collect()
    }

    /// The little-endian bytes.
    pub fn bytes(&self) -> Vec<u8> {
        self.words().iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// Analyse this program as one region with the given symbols.
    pub fn analyze(&self, symbols: &[Symbol]) -> Analysis {
        let bytes = self.bytes();
        analyze(
            &[CodeRegion {
                base: self.base,
                bytes: &bytes,
            }],
            symbols,
        )
        .expect("analysis")
    }

    /// Analyse as one function `f` (symbol of unknown size at the base).
    pub fn analyze_fn(&self) -> Analysis {
        self.analyze(&[Symbol::new("f", self.base, 0)])
    }
}

/// The reconvergence point of the branch at label `branch`.
pub fn reconv_of(p: &Prog, a: &Analysis, branch: &str) -> Option<Reconv> {
    a.table.get(p.addr(branch))
}

/// Shorthand: `Reconv::At(p.addr(label))`.
pub fn at(p: &Prog, label: &str) -> Option<Reconv> {
    Some(Reconv::At(p.addr(label)))
}

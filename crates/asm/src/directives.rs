//! Assembler directives: sections (`.text .data .rodata .bss .section`, and weft's `.base`
//! and `.entry`), data (`.word .half .byte .ascii .asciz .float .zero .fill` …), alignment
//! (`.align .p2align .balign .org`), symbols (`.globl .local .type .size .equ .set`), raw
//! instructions (`.insn`) and the directives that are accepted and ignored.

use crate::assembler::{Asm, PassEnv};
use crate::error::{err, expected, AsmErrorKind, PResult, Span};
use crate::expr::Env;
use crate::lexer::{Tok, Token};
use crate::operands::{freg_op, mem_parts, Operand};
use weft_elf::{SectionFlags, SymbolKind};
use weft_isa::{freg, xreg};

const NOP: [u8; 4] = 0x0000_0013u32.to_le_bytes();

impl Asm {
    pub(crate) fn directive(
        &mut self,
        name: &str,
        span: Span,
        toks: &[Token],
        end: Span,
    ) -> PResult<()> {
        match name {
            ".text" | ".data" | ".rodata" | ".bss" => {
                self.no_operands(name, toks)?;
                self.switch_section(name, None, span);
                Ok(())
            }
            ".section" => self.section_directive(toks, end),
            ".base" => {
                let ops = self.need(name, toks, end, 1, 1)?;
                let v = self.eval_const(ops[0].toks, "the section base")?;
                if !(0..=u32::MAX as i64).contains(&v) {
                    return err(
                        ops[0].span(),
                        AsmErrorKind::Range(format!("section base {v:#x} is not a 32-bit address")),
                    );
                }
                self.sections[self.cur].base = Some(v as u32);
                Ok(())
            }
            ".entry" => {
                self.need(name, toks, end, 1, 1)?;
                self.entry = Some((toks.to_vec(), span));
                if self.pass == 2 {
                    let v = self.eval_const(toks, "the entry point")?;
                    self.entry_value = Some(v as u32);
                }
                Ok(())
            }
            ".word" | ".4byte" | ".long" | ".int" => self.data(name, toks, end, 4),
            ".half" | ".2byte" | ".short" => self.data(name, toks, end, 2),
            ".byte" => self.data(name, toks, end, 1),
            ".dword" | ".8byte" | ".quad" => self.data(name, toks, end, 8),
            ".float" | ".single" | ".double" => self.floats(name, toks, end),
            ".ascii" | ".asciz" | ".string" => {
                let ops = self.need(name, toks, end, 1, usize::MAX)?;
                for op in ops {
                    match op.toks {
                        [Token {
                            tok: Tok::Str(s), ..
                        }] => {
                            let mut b = s.clone();
                            if name != ".ascii" {
                                b.push(0);
                            }
                            self.emit(&b, op.span())?;
                        }
                        _ => return expected(op.span(), "a string", &describe(op.toks)),
                    }
                }
                Ok(())
            }
            ".zero" | ".space" | ".skip" => {
                let ops = self.need(name, toks, end, 1, 2)?;
                let n = self.eval_const(ops[0].toks, "the size")?;
                let fill = match ops.get(1) {
                    Some(op) => self.eval_const(op.toks, "the fill value")?,
                    None => 0,
                };
                if n < 0 {
                    return err(
                        ops[0].span(),
                        AsmErrorKind::Range(format!("negative size {n}")),
                    );
                }
                self.emit_fill(&[fill as u8], n as u64, span)
            }
            ".fill" => {
                let ops = self.need(name, toks, end, 1, 3)?;
                let n = self.eval_const(ops[0].toks, "the repeat count")?;
                let size = match ops.get(1) {
                    Some(op) => self.eval_const(op.toks, "the size")?,
                    None => 1,
                };
                let v = match ops.get(2) {
                    Some(op) => self.eval_const(op.toks, "the value")?,
                    None => 0,
                };
                if n < 0 || !(0..=8).contains(&size) {
                    return err(
                        ops[0].span(),
                        AsmErrorKind::Range("`.fill count, size (0..=8), value`".into()),
                    );
                }
                let bytes = &v.to_le_bytes()[..size as usize];
                self.emit_fill(bytes, n as u64, span)
            }
            ".align" | ".p2align" => {
                let ops = self.need(name, toks, end, 1, 3)?;
                let p = self.eval_const(ops[0].toks, "the alignment")?;
                if !(0..=16).contains(&p) {
                    return err(
                        ops[0].span(),
                        AsmErrorKind::Range(format!("alignment 2^{p} out of range (0..=16)")),
                    );
                }
                self.align(1u64 << p, &ops[1..], span)
            }
            ".balign" => {
                let ops = self.need(name, toks, end, 1, 3)?;
                let n = self.eval_const(ops[0].toks, "the alignment")?;
                if !(1..=65536).contains(&n) || n & (n - 1) != 0 {
                    return err(
                        ops[0].span(),
                        AsmErrorKind::Range(format!(
                            "alignment {n} must be a power of two up to 65536"
                        )),
                    );
                }
                self.align(n as u64, &ops[1..], span)
            }
            ".org" => {
                let ops = self.need(name, toks, end, 1, 2)?;
                let n = self.eval_offset(ops[0].toks)?;
                let cur = self.sections[self.cur].offset as i64;
                if n < cur {
                    return err(
                        ops[0].span(),
                        AsmErrorKind::Range(format!(
                            "`.org {n:#x}` would move the location backwards (now {cur:#x})"
                        )),
                    );
                }
                let fill = match ops.get(1) {
                    Some(op) => self.eval_const(op.toks, "the fill value")?,
                    None => 0,
                };
                self.emit_fill(&[fill as u8], (n - cur) as u64, span)
            }
            ".globl" | ".global" | ".weak" | ".local" => {
                let ops = self.need(name, toks, end, 1, usize::MAX)?;
                for op in ops {
                    let Some(sym) = op.ident() else {
                        return expected(op.span(), "a symbol name", &describe(op.toks));
                    };
                    let global = name != ".local";
                    self.symbol_mut(sym, op.span()).global = global;
                }
                Ok(())
            }
            ".type" => {
                let ops = self.need(name, toks, end, 2, 2)?;
                let Some(sym) = ops[0].ident() else {
                    return expected(ops[0].span(), "a symbol name", &describe(ops[0].toks));
                };
                let kind = match ops[1].toks {
                    [Token {
                        tok: Tok::Punct('@' | '%'),
                        ..
                    }, Token {
                        tok: Tok::Ident(k), ..
                    }]
                    | [Token {
                        tok: Tok::Ident(k), ..
                    }] => match k.as_str() {
                        "function" | "STT_FUNC" => Some(SymbolKind::Func),
                        "object" | "STT_OBJECT" => Some(SymbolKind::Object),
                        "notype" | "STT_NOTYPE" => Some(SymbolKind::NoType),
                        _ => None,
                    },
                    _ => None,
                };
                let Some(kind) = kind else {
                    return expected(
                        ops[1].span(),
                        "`@function`, `@object` or `@notype`",
                        &describe(ops[1].toks),
                    );
                };
                let sym = sym.to_string();
                self.symbol_mut(&sym, ops[0].span()).kind = kind;
                Ok(())
            }
            ".size" => {
                let ops = self.need(name, toks, end, 2, 2)?;
                let Some(sym) = ops[0].ident() else {
                    return expected(ops[0].span(), "a symbol name", &describe(ops[0].toks));
                };
                let sym = sym.to_string();
                if self.pass == 2 {
                    let e = self.parse_expr(ops[1].toks)?;
                    let v = self.eval(&e)?.unwrap_or(0);
                    if !(0..=u32::MAX as i64).contains(&v) {
                        return err(ops[1].span(), AsmErrorKind::Range(format!("size {v}")));
                    }
                    self.symbol_mut(&sym, ops[0].span()).size = Some(v as u32);
                } else {
                    self.parse_expr(ops[1].toks)?;
                }
                Ok(())
            }
            ".equ" | ".set" | ".equiv" => {
                let ops = self.need(name, toks, end, 2, 2)?;
                let Some(sym) = ops[0].ident() else {
                    return expected(ops[0].span(), "a symbol name", &describe(ops[0].toks));
                };
                let sym = sym.to_string();
                self.assign(&sym, ops[0].span(), ops[1].toks, end)
            }
            ".option" => {
                let ops = self.need(name, toks, end, 1, 2)?;
                match ops[0].ident() {
                    Some("rvc") => {
                        self.option_rvc = true;
                        Ok(())
                    }
                    Some("norvc") => {
                        self.option_rvc = false;
                        Ok(())
                    }
                    Some("push") => {
                        self.option_stack.push(self.option_rvc);
                        Ok(())
                    }
                    Some("pop") => {
                        self.option_rvc = self.option_stack.pop().unwrap_or(false);
                        Ok(())
                    }
                    Some("relax" | "norelax" | "pic" | "nopic" | "arch") => Ok(()),
                    _ => expected(
                        ops[0].span(),
                        "rvc, norvc, push, pop, relax, norelax, pic, nopic or arch",
                        &describe(ops[0].toks),
                    ),
                }
            }
            ".insn" => self.insn(toks, span, end),
            ".file" | ".ident" | ".attribute" | ".addrsig" | ".addrsig_sym" | ".loc"
            | ".previous" => Ok(()),
            n if n.starts_with(".cfi_") => Ok(()),
            _ => err(span, AsmErrorKind::UnknownDirective(name.into())),
        }
    }

    fn no_operands(&self, name: &str, toks: &[Token]) -> PResult<()> {
        match toks.first() {
            None => Ok(()),
            Some(t) => expected(
                t.span,
                &format!("no operands after `{name}`"),
                &t.tok.describe(),
            ),
        }
    }

    /// Split operands and check their number.
    fn need<'t>(
        &self,
        name: &str,
        toks: &'t [Token],
        end: Span,
        min: usize,
        max: usize,
    ) -> PResult<Vec<Operand<'t>>> {
        let ops = self.operands(toks, end)?;
        if ops.len() < min || ops.len() > max {
            let expected = if min == max {
                format!("{min} operand(s)")
            } else if max == usize::MAX {
                format!("at least {min} operand(s)")
            } else {
                format!("{min} to {max} operands")
            };
            return err(
                ops.get(max).map(|o| o.span()).unwrap_or(end),
                AsmErrorKind::OperandCount {
                    mnemonic: name.into(),
                    expected,
                    found: ops.len(),
                },
            );
        }
        Ok(ops)
    }

    fn align(&mut self, n: u64, rest: &[Operand], span: Span) -> PResult<()> {
        let s = &mut self.sections[self.cur];
        s.align = s.align.max(n as u32);
        let pad = (n - s.offset % n) % n;
        let fill = match rest.first() {
            Some(op) => Some(self.eval_const(op.toks, "the fill value")? as u8),
            None => None,
        };
        let max = match rest.get(1) {
            Some(op) => self.eval_const(op.toks, "the maximum padding")? as u64,
            None => u64::MAX,
        };
        if pad > max {
            return Ok(());
        }
        let s = &self.sections[self.cur];
        if fill.is_none() && s.flags.exec && !s.nobits {
            // Code is padded with zero bytes up to a word, then with nops.
            let lead = (4 - s.offset % 4) % 4;
            let lead = lead.min(pad);
            self.emit_fill(&[0], lead, span)?;
            self.emit_fill(&NOP, (pad - lead) / 4, span)?;
            self.emit_fill(&[0], (pad - lead) % 4, span)
        } else {
            self.emit_fill(&[fill.unwrap_or(0)], pad, span)
        }
    }

    fn data(&mut self, name: &str, toks: &[Token], end: Span, width: usize) -> PResult<()> {
        let ops = self.need(name, toks, end, 1, usize::MAX)?;
        for op in ops {
            let e = self.parse_expr(op.toks)?;
            let v = if self.pass == 2 {
                let v = self.eval(&e)?.unwrap_or(0);
                if width < 8 {
                    let bits = 8 * width as u32;
                    let (min, max) = (-(1i64 << (bits - 1)), (1i64 << bits) - 1);
                    if v < min || v > max {
                        return err(
                            op.span(),
                            AsmErrorKind::Range(format!(
                                "value {v} does not fit in {width} byte(s) ({min}..={max})"
                            )),
                        );
                    }
                }
                v
            } else {
                0
            };
            self.emit(&v.to_le_bytes()[..width], op.span())?;
        }
        Ok(())
    }

    fn floats(&mut self, name: &str, toks: &[Token], end: Span) -> PResult<()> {
        let ops = self.need(name, toks, end, 1, usize::MAX)?;
        for op in ops {
            let (neg, rest) = match op.toks {
                [Token {
                    tok: Tok::Punct('-'),
                    ..
                }, rest @ ..] => (true, rest),
                rest => (false, rest),
            };
            let v = match rest {
                [Token {
                    tok: Tok::Float(f), ..
                }] => *f,
                [Token {
                    tok: Tok::Num(n), ..
                }] => *n as f64,
                [Token {
                    tok: Tok::Ident(s), ..
                }] if matches!(s.as_str(), "inf" | "nan") => {
                    if s == "inf" {
                        f64::INFINITY
                    } else {
                        f64::NAN
                    }
                }
                _ => return expected(op.span(), "a floating-point number", &describe(op.toks)),
            };
            let v = if neg { -v } else { v };
            if name == ".double" {
                self.emit(&v.to_le_bytes(), op.span())?;
            } else {
                self.emit(&(v as f32).to_le_bytes(), op.span())?;
            }
        }
        Ok(())
    }

    fn section_directive(&mut self, toks: &[Token], end: Span) -> PResult<()> {
        let ops = self.need(".section", toks, end, 1, 4)?;
        let name = match ops[0].toks {
            [Token {
                tok: Tok::Ident(n), ..
            }] => n.clone(),
            [Token {
                tok: Tok::Str(s), ..
            }] => String::from_utf8_lossy(s).into_owned(),
            _ => return expected(ops[0].span(), "a section name", &describe(ops[0].toks)),
        };
        let mut flags = None;
        if let Some(op) = ops.get(1) {
            let [Token {
                tok: Tok::Str(f), ..
            }] = op.toks
            else {
                return expected(
                    op.span(),
                    "a flags string such as \"ax\"",
                    &describe(op.toks),
                );
            };
            let mut fl = SectionFlags::NONE;
            for c in f {
                match c {
                    b'a' => fl.alloc = true,
                    b'w' => fl.write = true,
                    b'x' => fl.exec = true,
                    b'M' | b'S' | b'G' | b'T' | b'o' | b'R' => {}
                    _ => {
                        return expected(op.span(), "section flags from `awx`", &describe(op.toks))
                    }
                }
            }
            let mut nobits = crate::assembler::section_defaults(&name).1;
            if let Some(t) = ops.get(2) {
                match t.toks {
                    [Token {
                        tok: Tok::Punct('@' | '%'),
                        ..
                    }, Token {
                        tok: Tok::Ident(k), ..
                    }] if k == "progbits" || k == "nobits" => nobits = k == "nobits",
                    _ => return expected(t.span(), "`@progbits` or `@nobits`", &describe(t.toks)),
                }
            }
            flags = Some((fl, nobits));
        }
        self.switch_section(&name, flags, ops[0].span());
        Ok(())
    }

    /// `.insn r|i|s|b|u|j|r4 …` and `.insn WORD`.
    fn insn(&mut self, toks: &[Token], span: Span, end: Span) -> PResult<()> {
        let (format, rest) = match toks {
            [Token {
                tok: Tok::Ident(f), ..
            }, rest @ ..]
                if matches!(
                    f.as_str(),
                    "r" | "i" | "s" | "b" | "u" | "j" | "r4" | "sb" | "uj"
                ) =>
            {
                (f.clone(), rest)
            }
            _ => {
                let v = self.eval_const(toks, "the instruction word").or_else(|e| {
                    if self.pass == 1 {
                        Ok(0)
                    } else {
                        Err(e)
                    }
                })?;
                if self.pass == 2 && !(0..=u32::MAX as i64).contains(&v) {
                    return err(
                        span,
                        AsmErrorKind::Range(format!("`.insn {v:#x}` is not a 32-bit word")),
                    );
                }
                return self.emit(&(v as u32).to_le_bytes(), span);
            }
        };
        let ops = self.operands(rest, end)?;
        let want = match format.as_str() {
            "r" => 6,
            "r4" => 7,
            "i" | "s" | "b" | "sb" => 5,
            _ => 3,
        };
        // i/s forms may use `imm(rs1)` for the last two operands.
        let mem_form = matches!(format.as_str(), "i" | "s") && ops.len() == 4;
        if ops.len() != want && !mem_form {
            return err(
                ops.get(want).map(|o| o.span()).unwrap_or(end),
                AsmErrorKind::OperandCount {
                    mnemonic: format!(".insn {format}"),
                    expected: format!("{want} operands"),
                    found: ops.len(),
                },
            );
        }
        let num = |asm: &Asm, op: &Operand, max: i64| -> PResult<i64> {
            if let Some(v) = op.ident().and_then(opcode_name) {
                return Ok(v);
            }
            let v = asm.eval_const(op.toks, "an `.insn` field")?;
            if !(0..=max).contains(&v) {
                return err(
                    op.span(),
                    AsmErrorKind::Range(format!("field value {v} out of range (0..={max})")),
                );
            }
            Ok(v)
        };
        let reg = |op: &Operand| -> PResult<u32> {
            match op.ident().and_then(|s| xreg(s).or_else(|| freg(s))) {
                Some(r) => Ok(r as u32),
                None => expected(op.span(), "a register", &describe(op.toks)),
            }
        };
        let pc = self.here() as i64;
        let final_pass = self.pass == 2;
        let imm = |asm: &Asm, op: &Operand| -> PResult<i64> {
            let e = asm.parse_expr(op.toks)?;
            Ok(asm.eval(&e)?.unwrap_or(0))
        };
        let opc = num(self, &ops[0], 127)? as u32;
        let range = |op: &Operand, v: i64, lo: i64, hi: i64| -> PResult<u32> {
            if final_pass && (v < lo || v > hi) {
                return err(
                    op.span(),
                    AsmErrorKind::Range(format!("immediate {v} out of range ({lo}..={hi})")),
                );
            }
            Ok(v as u32)
        };
        let w: u32 = match format.as_str() {
            "r" => {
                let f3 = num(self, &ops[1], 7)? as u32;
                let f7 = num(self, &ops[2], 127)? as u32;
                opc | reg(&ops[3])? << 7
                    | f3 << 12
                    | reg(&ops[4])? << 15
                    | reg(&ops[5])? << 20
                    | f7 << 25
            }
            "r4" => {
                let f3 = num(self, &ops[1], 7)? as u32;
                let f2 = num(self, &ops[2], 3)? as u32;
                opc | reg(&ops[3])? << 7
                    | f3 << 12
                    | reg(&ops[4])? << 15
                    | reg(&ops[5])? << 20
                    | f2 << 25
                    | reg(&ops[6])? << 27
            }
            "i" | "s" => {
                let f3 = num(self, &ops[1], 7)? as u32;
                let r = reg(&ops[2])?;
                let (rs1, v, vop) = if mem_form {
                    let (off, base) = mem_parts(&ops[3]);
                    let Some(base) = base else {
                        return expected(
                            ops[3].span(),
                            "`offset(register)`",
                            &describe(ops[3].toks),
                        );
                    };
                    let v = match off {
                        Some(t) => {
                            let e = self.parse_expr(t)?;
                            self.eval(&e)?.unwrap_or(0)
                        }
                        None => 0,
                    };
                    (base as u32, v, ops[3])
                } else {
                    (reg(&ops[3])?, imm(self, &ops[4])?, ops[4])
                };
                let v = range(&vop, v, -2048, 2047)?;
                if format == "i" {
                    opc | r << 7 | f3 << 12 | rs1 << 15 | (v & 0xfff) << 20
                } else {
                    opc | (v & 0x1f) << 7 | f3 << 12 | rs1 << 15 | r << 20 | (v >> 5 & 0x7f) << 25
                }
            }
            "b" | "sb" => {
                let f3 = num(self, &ops[1], 7)? as u32;
                let off = if final_pass {
                    imm(self, &ops[4])? - pc
                } else {
                    0
                };
                let v = range(&ops[4], off, -4096, 4094)?;
                opc | f3 << 12
                    | reg(&ops[2])? << 15
                    | reg(&ops[3])? << 20
                    | (v >> 12 & 1) << 31
                    | (v >> 5 & 0x3f) << 25
                    | (v >> 1 & 0xf) << 8
                    | (v >> 11 & 1) << 7
            }
            "u" => {
                let v = range(&ops[2], imm(self, &ops[2])?, 0, 0xfffff)?;
                opc | reg(&ops[1])? << 7 | v << 12
            }
            _ => {
                let off = if final_pass {
                    imm(self, &ops[2])? - pc
                } else {
                    0
                };
                let v = range(&ops[2], off, -(1 << 20), (1 << 20) - 2)?;
                opc | reg(&ops[1])? << 7
                    | (v >> 20 & 1) << 31
                    | (v >> 1 & 0x3ff) << 21
                    | (v >> 11 & 1) << 20
                    | (v >> 12 & 0xff) << 12
            }
        };
        let _ = freg_op;
        self.emit(&w.to_le_bytes(), span)
    }
}

/// Evaluates `.org` operands: `.` is the offset in the current section.
struct OrgEnv<'a>(PassEnv<'a>, i64);

impl Env for OrgEnv<'_> {
    fn symbol(&self, name: &str, span: Span) -> PResult<Option<i64>> {
        self.0.symbol(name, span)
    }
    fn dot(&self) -> Option<i64> {
        Some(self.1)
    }
    fn pcrel_hi_at(&self, at: i64, span: Span) -> PResult<Option<i64>> {
        self.0.pcrel_hi_at(at, span)
    }
}

impl Asm {
    /// A section offset (for `.org`): a constant, or an expression of `.`.
    fn eval_offset(&self, toks: &[Token]) -> PResult<i64> {
        let e = self.parse_expr(toks)?;
        let env = OrgEnv(
            PassEnv {
                asm: self,
                pc: self.here(),
            },
            self.sections[self.cur].offset as i64,
        );
        match e.eval(&env)? {
            Some(v) => Ok(v),
            None => err(
                toks.first().map(|t| t.span).unwrap_or_default(),
                AsmErrorKind::NotConstant("the `.org` offset".into()),
            ),
        }
    }
}

/// GNU's names for major opcodes in `.insn`.
fn opcode_name(s: &str) -> Option<i64> {
    Some(match s.to_ascii_uppercase().as_str() {
        "LOAD" => 0x03,
        "LOAD_FP" => 0x07,
        "CUSTOM_0" => 0x0b,
        "MISC_MEM" => 0x0f,
        "OP_IMM" => 0x13,
        "AUIPC" => 0x17,
        "STORE" => 0x23,
        "STORE_FP" => 0x27,
        "CUSTOM_1" => 0x2b,
        "AMO" => 0x2f,
        "OP" => 0x33,
        "LUI" => 0x37,
        "MADD" => 0x43,
        "MSUB" => 0x47,
        "NMSUB" => 0x4b,
        "NMADD" => 0x4f,
        "OP_FP" => 0x53,
        "CUSTOM_2" => 0x5b,
        "BRANCH" => 0x63,
        "JALR" => 0x67,
        "JAL" => 0x6f,
        "SYSTEM" => 0x73,
        "CUSTOM_3" => 0x7b,
        _ => return None,
    })
}

fn describe(toks: &[Token]) -> String {
    match toks {
        [t] => t.tok.describe(),
        [] => "nothing".into(),
        _ => "an expression".into(),
    }
}

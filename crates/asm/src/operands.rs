//! Operands: splitting an operand list, registers, memory operands `off(reg)`, immediates
//! with range checks, and the table-driven parser that turns a real instruction's operands
//! into an [`Inst`] following its row's syntax letters (see `weft_isa::table`).

use crate::error::{err, expected, AsmErrorKind, PResult, Span};
use crate::expr::{Expr, Parser, Reloc};
use crate::lexer::{Tok, Token};
use weft_isa::{csr, freg, rounding_mode, xreg, Entry, Inst, Op};

/// One comma-separated operand: its tokens and where it starts.
#[derive(Clone, Copy, Debug)]
pub struct Operand<'a> {
    /// Tokens (never empty).
    pub toks: &'a [Token],
}

impl Operand<'_> {
    /// Where the operand starts.
    pub fn span(&self) -> Span {
        self.toks.first().map(|t| t.span).unwrap_or_default()
    }
    /// The single identifier this operand is, if it is one.
    pub fn ident(&self) -> Option<&str> {
        match self.toks {
            [Token {
                tok: Tok::Ident(s), ..
            }] => Some(s),
            _ => None,
        }
    }
    fn describe(&self) -> String {
        match self.toks {
            [t] => t.tok.describe(),
            _ => "an expression".into(),
        }
    }
}

/// Split at top-level commas. An empty operand is an error at its position.
pub fn split_operands(toks: &[Token], end: Span) -> PResult<Vec<Operand<'_>>> {
    let mut out = Vec::new();
    if toks.is_empty() {
        return Ok(out);
    }
    let mut depth = 0i32;
    let mut start = 0;
    for (i, t) in toks.iter().enumerate() {
        match t.tok {
            Tok::Punct('(') => depth += 1,
            Tok::Punct(')') => depth -= 1,
            Tok::Punct(',') if depth <= 0 => {
                if i == start {
                    return expected(t.span, "an operand", "`,`");
                }
                out.push(Operand {
                    toks: &toks[start..i],
                });
                start = i + 1;
            }
            _ => {}
        }
    }
    if start == toks.len() {
        return expected(end, "an operand", "end of line");
    }
    out.push(Operand {
        toks: &toks[start..],
    });
    Ok(out)
}

/// What operand parsing needs from the assembler: expression evaluation in the current pass.
pub trait OpEnv {
    /// Parse an expression from tokens (numeric local labels renamed).
    fn parse_expr(&self, toks: &[Token]) -> PResult<Expr>;
    /// Evaluate; `None` = unknown in the first pass.
    fn eval(&self, e: &Expr) -> PResult<Option<i64>>;
    /// Address of the instruction being assembled.
    fn pc(&self) -> u32;
    /// True in the second (final) pass: values are known and ranges are checked.
    fn final_pass(&self) -> bool;
    /// Record a `%pcrel_hi` at the current pc (value = target − pc).
    fn note_pcrel_hi(&self, value: i64);
}

/// An integer register operand.
pub fn xreg_op(op: &Operand) -> PResult<u8> {
    match op.ident().and_then(xreg) {
        Some(r) => Ok(r),
        None => expected(op.span(), "an integer register", &op.describe()),
    }
}

/// A floating-point register operand.
pub fn freg_op(op: &Operand) -> PResult<u8> {
    match op.ident().and_then(freg) {
        Some(r) => Ok(r),
        None => expected(op.span(), "a floating-point register", &op.describe()),
    }
}

/// An expression operand's value (0 while unknown in the first pass) and whether it was known.
pub fn value(env: &dyn OpEnv, toks: &[Token]) -> PResult<(i64, bool)> {
    let e = env.parse_expr(toks)?;
    value_of(env, &e)
}

/// Evaluate a parsed expression (0 while unknown in the first pass).
pub fn value_of(env: &dyn OpEnv, e: &Expr) -> PResult<(i64, bool)> {
    if e.reloc() == Some(Reloc::PcrelHi) {
        if let Expr::Reloc(_, inner) = e {
            if let Some(x) = env.eval(inner)? {
                env.note_pcrel_hi(x.wrapping_sub(env.pc() as i64));
            }
        }
    }
    Ok(match env.eval(e)? {
        Some(v) => (v, true),
        None => (0, false),
    })
}

/// Check a value's range in the final pass.
pub fn fit(env: &dyn OpEnv, span: Span, what: &str, v: i64, min: i64, max: i64) -> PResult<i64> {
    if env.final_pass() && (v < min || v > max) {
        return err(
            span,
            AsmErrorKind::Range(format!("{what} {v} out of range ({min}..={max})")),
        );
    }
    Ok(v)
}

/// A pc-relative target: the operand is an address (label or number); the result is the
/// offset from the pc, checked for range and alignment.
pub fn target(env: &dyn OpEnv, op: &Operand, what: &str, bits: u32) -> PResult<i32> {
    let (v, _) = value(env, op.toks)?;
    if !env.final_pass() {
        return Ok(0);
    }
    let off = v.wrapping_sub(env.pc() as i64);
    // Targets are 32-bit addresses: wrap the difference into the 32-bit space.
    let off = off as i32 as i64;
    let lim = 1i64 << (bits - 1);
    if off & 1 != 0 {
        return err(
            op.span(),
            AsmErrorKind::Range(format!("{what} target {v:#x} is not 2-byte aligned")),
        );
    }
    fit(
        env,
        op.span(),
        &format!("{what} offset"),
        off,
        -lim,
        lim - 2,
    )?;
    Ok(off as i32)
}

/// A memory operand `[expr](reg)`: the offset expression (if any) and the base register.
/// Returns `None` for the base when there is no `(reg)` tail.
pub fn mem_parts<'a>(op: &Operand<'a>) -> (Option<&'a [Token]>, Option<u8>) {
    let t = op.toks;
    let n = t.len();
    if n >= 3 && t[n - 3].tok == Tok::Punct('(') && t[n - 1].tok == Tok::Punct(')') {
        if let Tok::Ident(r) = &t[n - 2].tok {
            if let Some(r) = xreg(r) {
                let off = if n == 3 { None } else { Some(&t[..n - 3]) };
                return (off, Some(r));
            }
        }
    }
    (Some(t), None)
}

/// A CSR operand: a name or a number.
pub fn csr_op(env: &dyn OpEnv, op: &Operand) -> PResult<i64> {
    if let Some(n) = op.ident().and_then(csr::csr_by_name) {
        return Ok(n as i64);
    }
    let (v, _) = value(env, op.toks)?;
    fit(env, op.span(), "CSR number", v, 0, 0xfff)
}

/// A TCU data format: its name (`fp16`, `i8`, …) or an expression for its Vortex id 0–31.
fn tcu_format(env: &dyn OpEnv, op: &Operand) -> PResult<u8> {
    if let Some(f) = op.ident().and_then(weft_isa::tcu::Format::from_name) {
        return Ok(f as u8);
    }
    let (v, _) = value(env, op.toks)?;
    Ok(fit(env, op.span(), "TCU format", v, 0, 31)? as u8)
}

/// A fence set (`iorw` letters, or `0`).
fn fence_set(op: &Operand) -> PResult<i32> {
    if let [Token {
        tok: Tok::Num(0), ..
    }] = op.toks
    {
        return Ok(0);
    }
    let bad = || expected(op.span(), "a fence set (letters of `iorw`)", &op.describe());
    let Some(s) = op.ident() else { return bad() };
    let mut v = 0;
    for c in s.chars() {
        let b = match c {
            'i' => 8,
            'o' => 4,
            'r' => 2,
            'w' => 1,
            _ => return bad(),
        };
        if v & b != 0 {
            return bad();
        }
        v |= b;
    }
    Ok(v)
}

/// Human names of a row's operands, for messages: `rd, rs1, imm`.
pub fn describe_syntax(args: &str) -> String {
    let words: Vec<&str> = args
        .split(',')
        .filter(|p| !p.is_empty())
        .map(|p| match p {
            "d" => "rd",
            "s" => "rs1",
            "t" => "rs2",
            "D" => "fd",
            "S" => "fs1",
            "T" => "fs2",
            "R" => "fs3",
            "r" => "rs3",
            "l" => "lane",
            "j" => "imm",
            "o(s)" | "q(s)" => "offset(rs1)",
            "0(s)" => "(rs1)",
            "p" | "a" => "label",
            "u" => "imm20",
            ">" => "shamt",
            "E" => "csr",
            "Z" | "N" | "W" => "uimm5",
            "F" => "output format",
            "G" | "H" => "input format",
            "m" => "[rounding mode]",
            "P" => "pred",
            "Q" => "succ",
            _ => "operand",
        })
        .collect();
    if words.is_empty() {
        "no operands".into()
    } else {
        words.join(", ")
    }
}

/// Parse the operands of a real instruction (a table row) into an [`Inst`].
pub fn parse_real(
    env: &dyn OpEnv,
    e: &Entry,
    aqrl: u8,
    name: &str,
    ops: &[Operand],
    end: Span,
) -> PResult<Inst> {
    let mut inst = Inst::new(e.op);
    inst.aqrl = aqrl;
    let pieces: Vec<&str> = e.args.split(',').filter(|p| !p.is_empty()).collect();
    let has_rm = pieces.last() == Some(&"m");
    let required = pieces.len() - has_rm as usize;
    if e.op == Op::Fence && ops.is_empty() {
        inst.imm = 0xff;
        return Ok(inst);
    }
    if has_rm {
        inst.rm = 7;
    }
    if ops.len() != required && !(has_rm && ops.len() == required + 1) {
        let span = ops.get(required).map(|o| o.span()).unwrap_or(end);
        return err(
            span,
            AsmErrorKind::OperandCount {
                mnemonic: name.to_string(),
                expected: describe_syntax(e.args),
                found: ops.len(),
            },
        );
    }
    for (piece, op) in pieces.iter().zip(ops) {
        let span = op.span();
        match *piece {
            "d" => inst.rd = xreg_op(op)?,
            "s" => inst.rs1 = xreg_op(op)?,
            "t" => inst.rs2 = xreg_op(op)?,
            "D" => inst.rd = freg_op(op)?,
            "S" => inst.rs1 = freg_op(op)?,
            "T" => inst.rs2 = freg_op(op)?,
            "R" => inst.rs3 = freg_op(op)?,
            "r" => inst.rs3 = xreg_op(op)?,
            "l" => {
                let (v, _) = value(env, op.toks)?;
                inst.imm = fit(env, span, "lane", v, 0, 3)? as i32;
            }
            "j" => {
                let (v, _) = value(env, op.toks)?;
                inst.imm = fit(env, span, "immediate", v, -2048, 2047)? as i32;
            }
            ">" => {
                let (v, _) = value(env, op.toks)?;
                inst.imm = fit(env, span, "shift amount", v, 0, 31)? as i32;
            }
            "Z" => {
                let (v, _) = value(env, op.toks)?;
                inst.rs1 = fit(env, span, "CSR immediate", v, 0, 31)? as u8;
            }
            "N" => {
                let (v, _) = value(env, op.toks)?;
                inst.rd = fit(env, span, "slot", v, 0, 31)? as u8;
            }
            "W" => {
                let (v, _) = value(env, op.toks)?;
                inst.rs2 = fit(env, span, "flags", v, 0, 31)? as u8;
            }
            "F" => inst.rd = tcu_format(env, op)?,
            "G" => inst.rs1 = tcu_format(env, op)?,
            "H" => inst.rs2 = tcu_format(env, op)?,
            "u" => {
                let (v, _) = value(env, op.toks)?;
                let v = fit(env, span, "upper immediate", v, -0x80000, 0xfffff)?;
                inst.imm = ((v as u32) << 12) as i32;
            }
            "E" => inst.imm = csr_op(env, op)? as i32,
            "p" => inst.imm = target(env, op, "branch", 13)?,
            "a" => inst.imm = target(env, op, "jump", 21)?,
            "m" => match op.ident().and_then(rounding_mode) {
                Some(rm) => inst.rm = rm,
                None => {
                    return expected(
                        span,
                        "a rounding mode (rne, rtz, rdn, rup, rmm, dyn)",
                        &op.describe(),
                    )
                }
            },
            "P" => inst.imm |= fence_set(op)? << 4,
            "Q" => inst.imm |= fence_set(op)?,
            "o(s)" | "q(s)" | "0(s)" => {
                let (off, base) = mem_parts(op);
                let Some(base) = base else {
                    return expected(span, "a memory operand `offset(register)`", &op.describe());
                };
                inst.rs1 = base;
                let v = match off {
                    Some(t) => value(env, t)?.0,
                    None => 0,
                };
                if *piece == "0(s)" {
                    if v != 0 && env.final_pass() {
                        return expected(span, "`(register)` with offset 0", &v.to_string());
                    }
                } else {
                    inst.imm = fit(env, span, "offset", v, -2048, 2047)? as i32;
                }
            }
            _ => {
                return err(
                    span,
                    AsmErrorKind::Other(format!("internal: unknown operand syntax `{piece}`")),
                )
            }
        }
    }
    Ok(inst)
}

/// True when an operand is made of registers, numbers and punctuation only (no symbol, label,
/// `.` or relocation): its value is known in the first pass already.
pub fn is_constant(op: &Operand) -> bool {
    op.toks.iter().all(|t| match &t.tok {
        Tok::Num(_) | Tok::Punct(_) => true,
        Tok::Ident(s) => xreg(s).is_some() || freg(s).is_some() || rounding_mode(s).is_some(),
        _ => false,
    })
}

/// Parse the operands of a compressed instruction (`c.addi a0, 1`) into its expansion,
/// marked compressed; the fields its form fixes or ties are filled in, and encoding checks
/// that the operands fit the form (x8–x15, the immediate's range and scale).
pub fn parse_compressed(env: &dyn OpEnv, name: &str, ops: &[Operand], end: Span) -> PResult<Inst> {
    let Some(c) = weft_isa::COp::from_name(name) else {
        return err(end, AsmErrorKind::Other(format!("internal: no row {name}")));
    };
    let c = c.entry();
    let e = Entry {
        op: c.op,
        name: c.name,
        matches: 0,
        mask: 0,
        args: c.args,
        class: c.op.class(),
        ext: c.ext,
    };
    let mut inst = parse_real(env, &e, 0, name, ops, end)?;
    c.complete(&mut inst);
    Ok(inst)
}

/// A parser over one operand's tokens, with local labels renamed by `local`.
pub fn parser<'a>(toks: &'a [Token], local: &'a dyn Fn(u32, bool) -> String) -> Parser<'a> {
    Parser {
        toks,
        pos: 0,
        local,
        depth: 0,
    }
}

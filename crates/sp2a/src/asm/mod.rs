//! The SP v2a assembler: text → [`Program`] in two passes.
//!
//! Pass 1 reads lines, records labels and constants, and sizes every statement (instructions
//! are one word, macros a fixed number of words). Pass 2 evaluates operands and encodes.
//! Errors carry file:line:column; all errors of a run are reported together.
//!
//! Syntax summary (details in `docs/sp2a.md`): `label:`; `MNEMONIC operands` with operands in
//! field order A, B, D, immediate, separated by spaces or commas; registers `%A`..`%H`,
//! `%R0`..`%R7`, `%FP`, `%AT`, `%SP`; directives `.text`, `.data`, `.org`, `.word`,
//! `.space`, `.equ NAME, value` (or `NAME = value`), `.fb W H`, `.include "file"`.

mod lex;
pub mod macros;

use crate::bus::{BUS_BASE, BUS_REGS};
use crate::isa::{Format, ImmKind, Instr, Op, Reg};
use crate::program::{Program, Section, Symbol};
use lex::{lex, Expr, Operand, Parser, Tok, Token};
use macros::{Macro, MacroArg};
use std::collections::HashMap;
use std::path::Path;
use std::rc::Rc;

/// Assembly errors are the RISC-V assembler's type (one diagnostic format for both
/// assemblers: `file:line:column: error: message`); SP v2a messages are
/// [`AsmErrorKind::Other`].
pub use weft_asm::{AsmError, AsmErrorKind, AsmErrors, Span};

/// Most errors reported in one run.
const MAX_ERRORS: usize = 100;
/// Deepest `.include` nesting.
const MAX_INCLUDE_DEPTH: usize = 16;

#[derive(Clone, Debug)]
struct Loc {
    file: Rc<str>,
    line: usize,
    /// Position in the expanded line list, to report errors in source order.
    seq: usize,
}

struct SrcLine {
    loc: Loc,
    text: String,
}

enum Kind {
    Instr {
        cands: Vec<Op>,
        operands: Vec<(Operand, usize)>,
        mcol: usize,
    },
    Macro {
        m: Macro,
        operands: Vec<(Operand, usize)>,
        mcol: usize,
    },
    Words(Vec<(Operand, usize)>),
}

struct Stmt {
    loc: Loc,
    section: Section,
    addr: u32,
    kind: Kind,
}

/// Assemble source text. `name` is used in error messages; `.include` is not available.
pub fn assemble(src: &str, name: &str) -> Result<Program, AsmErrors> {
    let mut asm = Assembler::default();
    let mut lines = Vec::new();
    asm.read_lines(src, Rc::from(name), None, 0, &mut lines);
    asm.run(lines)
}

/// Why a program file cannot be loaded (see [`load_file`]).
#[derive(Debug, thiserror::Error)]
pub enum ProgramFileError {
    /// The file cannot be read.
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// A bad binary image.
    #[error("{path}: {source}")]
    Image {
        path: String,
        source: crate::program::ImageError,
    },
    /// Assembly errors (each names file, line and column).
    #[error("{0}")]
    Asm(AsmErrors),
}

/// Load a program file: a binary image written by `sp2a-asm` (recognised by its magic), or
/// assembly source, assembled with its `.include`s.
pub fn load_file(path: &Path) -> Result<Program, ProgramFileError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| ProgramFileError::Io {
        path: name.clone(),
        source,
    })?;
    if Program::is_image(&bytes) {
        Program::from_bytes(&bytes).map_err(|source| ProgramFileError::Image { path: name, source })
    } else {
        assemble_file(path).map_err(ProgramFileError::Asm)
    }
}

/// Assemble a file; `.include "x"` reads `x` relative to the including file.
pub fn assemble_file(path: &Path) -> Result<Program, AsmErrors> {
    let mut asm = Assembler::default();
    let name: Rc<str> = Rc::from(path.display().to_string());
    let src = std::fs::read_to_string(path).map_err(|e| {
        AsmErrors(vec![AsmError {
            file: name.to_string(),
            span: Span { line: 0, col: 0 },
            kind: AsmErrorKind::Other(format!("cannot read: {e}")),
        }])
    })?;
    let mut lines = Vec::new();
    asm.read_lines(&src, name, path.parent(), 0, &mut lines);
    asm.run(lines)
}

#[derive(Default)]
struct Assembler {
    errors: Vec<(usize, AsmError)>,
    symbols: HashMap<String, (Section, i64)>,
    order: Vec<String>,
    fb_size: Option<(u32, u32)>,
}

fn is_directive(toks: &[Token], name: &str) -> bool {
    matches!(toks.first(), Some(Token { tok: Tok::Ident(d), .. }) if d.eq_ignore_ascii_case(name))
}

impl Assembler {
    fn err(&mut self, loc: &Loc, col: usize, msg: impl Into<String>) {
        if self.errors.len() < MAX_ERRORS {
            self.errors.push((
                loc.seq,
                AsmError {
                    file: loc.file.to_string(),
                    span: Span {
                        line: loc.line as u32,
                        col: col as u32,
                    },
                    kind: AsmErrorKind::Other(msg.into()),
                },
            ));
        }
    }

    /// Split into lines, expanding `.include` when a directory is known.
    fn read_lines(
        &mut self,
        src: &str,
        file: Rc<str>,
        dir: Option<&Path>,
        depth: usize,
        out: &mut Vec<SrcLine>,
    ) {
        for (i, text) in src.lines().enumerate() {
            let loc = Loc {
                file: file.clone(),
                line: i + 1,
                seq: out.len(),
            };
            let toks = lex(text).unwrap_or_default();
            if !is_directive(&toks, ".include") {
                out.push(SrcLine {
                    loc,
                    text: text.to_string(),
                });
                continue;
            }
            let col = toks.first().map_or(1, |t| t.col);
            let name = match toks.get(1..) {
                Some(
                    [Token {
                        tok: Tok::Str(s), ..
                    }],
                ) => s.clone(),
                _ => {
                    self.err(&loc, col, "expected `.include \"file\"`");
                    continue;
                }
            };
            let Some(dir) = dir else {
                self.err(
                    &loc,
                    col,
                    ".include needs a file on disk (use assemble_file)",
                );
                continue;
            };
            if depth >= MAX_INCLUDE_DEPTH {
                self.err(&loc, col, ".include nested too deeply");
                continue;
            }
            let path = dir.join(&name);
            match std::fs::read_to_string(&path) {
                Ok(s) => {
                    let inc: Rc<str> = Rc::from(path.display().to_string());
                    self.read_lines(&s, inc, path.parent(), depth + 1, out);
                }
                Err(e) => self.err(&loc, col, format!("cannot include `{name}`: {e}")),
            }
        }
    }

    fn lookup(&self, name: &str) -> Option<i64> {
        if let Some((_, v)) = self.symbols.get(name) {
            return Some(*v);
        }
        BUS_REGS
            .iter()
            .find(|r| r.name == name)
            .map(|r| i64::from(BUS_BASE) + i64::from(r.offset))
    }

    fn define(&mut self, loc: &Loc, col: usize, name: &str, section: Section, value: i64) {
        if self.symbols.contains_key(name) || BUS_REGS.iter().any(|r| r.name == name) {
            self.err(loc, col, format!("`{name}` is already defined"));
        } else {
            self.symbols.insert(name.to_string(), (section, value));
            self.order.push(name.to_string());
        }
    }

    fn run(mut self, lines: Vec<SrcLine>) -> Result<Program, AsmErrors> {
        let stmts = self.pass1(&lines);
        let program = self.pass2(stmts);
        if self.errors.is_empty() {
            Ok(program)
        } else {
            self.errors.sort_by_key(|(seq, e)| (*seq, e.span.col));
            Err(AsmErrors(self.errors.into_iter().map(|(_, e)| e).collect()))
        }
    }

    fn pass1(&mut self, lines: &[SrcLine]) -> Vec<Stmt> {
        let mut stmts = Vec::new();
        let mut section = Section::Text;
        let mut pc = [0u32; 2]; // text, data location counters
        for line in lines {
            let loc = &line.loc;
            let end_col = line.text.chars().count() + 1;
            let toks = match lex(&line.text) {
                Ok(t) => t,
                Err((col, msg)) => {
                    self.err(loc, col, msg);
                    continue;
                }
            };
            let si = usize::from(section == Section::Data);
            let mut rest: &[Token] = &toks;
            // Labels.
            while let [Token {
                tok: Tok::Ident(name),
                col,
            }, Token {
                tok: Tok::Punct(':'),
                ..
            }, tail @ ..] = rest
            {
                self.define(loc, *col, name, section, i64::from(pc[si]));
                rest = tail;
            }
            let Some(first) = rest.first() else { continue };
            let Tok::Ident(word) = &first.tok else {
                self.err(loc, first.col, "expected a label, instruction or directive");
                continue;
            };
            let mcol = first.col;
            // NAME = value
            if let Some(Token {
                tok: Tok::Punct('='),
                ..
            }) = rest.get(1)
            {
                let mut p = Parser::new(&rest[2..], end_col);
                match p.operands() {
                    Ok(ops) => self.constant(loc, mcol, word, &ops, end_col),
                    Err((c, m)) => self.err(loc, c, m),
                }
                continue;
            }
            let operands = match Parser::new(&rest[1..], end_col).operands() {
                Ok(o) => o,
                Err((c, m)) => {
                    self.err(loc, c, m);
                    continue;
                }
            };
            let here = pc[si];
            let (size, kind) = if word.starts_with('.') {
                match word.to_ascii_lowercase().as_str() {
                    ".text" | ".data" if !operands.is_empty() => {
                        self.err(
                            loc,
                            operands[0].1,
                            "expected nothing after the section name",
                        );
                        continue;
                    }
                    ".text" => {
                        section = Section::Text;
                        continue;
                    }
                    ".data" => {
                        section = Section::Data;
                        continue;
                    }
                    ".org" => {
                        if let Some(v) = self.const_operand(loc, mcol, &operands, 0..=0xFFFF) {
                            pc[si] = v as u32;
                        }
                        continue;
                    }
                    ".space" | ".zero" => {
                        if let Some(v) = self.const_operand(loc, mcol, &operands, 0..=0x10000) {
                            pc[si] += v as u32;
                            if pc[si] > 0x10000 {
                                self.err(loc, mcol, "location counter passes 0xFFFF");
                            }
                        }
                        continue;
                    }
                    ".equ" | ".set" => {
                        match operands.split_first() {
                            Some(((Operand::Expr(Expr::Sym(name, c)), _), tail)) => {
                                self.constant(loc, *c, name, tail, end_col)
                            }
                            _ => self.err(loc, mcol, "expected `.equ NAME, value`"),
                        }
                        continue;
                    }
                    ".fb" => {
                        self.fb_directive(loc, mcol, &operands);
                        continue;
                    }
                    ".word" | ".dword" => {
                        if operands.is_empty() {
                            self.err(loc, end_col, "expected at least one value after .word");
                            continue;
                        }
                        (operands.len() as u32, Kind::Words(operands))
                    }
                    ".include" => {
                        self.err(
                            loc,
                            mcol,
                            ".include needs a file on disk (use assemble_file)",
                        );
                        continue;
                    }
                    _ => {
                        self.err(
                            loc,
                            mcol,
                            format!("unknown directive `{word}` (expected .text, .data, .org, .word, .space, .equ, .fb or .include)"),
                        );
                        continue;
                    }
                }
            } else if let Some(m) = Macro::from_name(word) {
                match m.size(operands.len()) {
                    Some(n) => (u32::from(n), Kind::Macro { m, operands, mcol }),
                    None => {
                        self.err(loc, mcol, format!("expected `{}`", m.syntax()));
                        continue;
                    }
                }
            } else {
                let cands: Vec<Op> = Op::ALL
                    .iter()
                    .copied()
                    .filter(|o| o.mnemonic().eq_ignore_ascii_case(word))
                    .collect();
                if cands.is_empty() {
                    self.err(loc, mcol, format!("unknown instruction `{word}`"));
                    continue;
                }
                (
                    1,
                    Kind::Instr {
                        cands,
                        operands,
                        mcol,
                    },
                )
            };
            if section == Section::Data && !matches!(kind, Kind::Words(_)) {
                self.err(
                    loc,
                    mcol,
                    "instructions belong in .text (data memory holds only .word/.space)",
                );
                continue;
            }
            if here + size > 0x10000 {
                self.err(loc, mcol, "location counter passes 0xFFFF");
                continue;
            }
            pc[si] = here + size;
            stmts.push(Stmt {
                loc: loc.clone(),
                section,
                addr: here,
                kind,
            });
        }
        stmts
    }

    fn constant(
        &mut self,
        loc: &Loc,
        col: usize,
        name: &str,
        ops: &[(Operand, usize)],
        end_col: usize,
    ) {
        match ops {
            [(Operand::Expr(e), c)] => match e.eval(&|s| self.lookup(s)) {
                Ok(v) => self.define(loc, col, name, Section::Const, v),
                Err((_, m)) => self.err(
                    loc,
                    *c,
                    format!("{m} (a constant may use only symbols defined above it)"),
                ),
            },
            [] => self.err(loc, end_col, "expected a value"),
            [(_, c), ..] => self.err(loc, *c, "expected one value"),
        }
    }

    fn const_operand(
        &mut self,
        loc: &Loc,
        col: usize,
        ops: &[(Operand, usize)],
        range: std::ops::RangeInclusive<i64>,
    ) -> Option<i64> {
        match ops {
            [(Operand::Expr(e), c)] => match e.eval(&|s| self.lookup(s)) {
                Ok(v) if range.contains(&v) => Some(v),
                Ok(v) => {
                    self.err(
                        loc,
                        *c,
                        format!("value {v} is outside {}..={}", range.start(), range.end()),
                    );
                    None
                }
                Err((c, m)) => {
                    self.err(loc, c, format!("{m} (must be defined above)"));
                    None
                }
            },
            _ => {
                self.err(loc, col, "expected one value");
                None
            }
        }
    }

    fn fb_directive(&mut self, loc: &Loc, col: usize, ops: &[(Operand, usize)]) {
        let vals: Vec<Option<i64>> = ops
            .iter()
            .map(|(o, _)| match o {
                Operand::Expr(e) => e.eval(&|s| self.lookup(s)).ok(),
                _ => None,
            })
            .collect();
        match vals.as_slice() {
            [Some(w), Some(h)] if (1..=4096).contains(w) && (1..=4096).contains(h) => {
                self.fb_size = Some((*w as u32, *h as u32));
            }
            _ => self.err(loc, col, "expected `.fb WIDTH HEIGHT` with sides 1..=4096"),
        }
    }

    fn pass2(&mut self, stmts: Vec<Stmt>) -> Program {
        let mut mem: [Vec<Option<u32>>; 2] = [vec![None; 0x10000], vec![None; 0x10000]];
        for st in &stmts {
            let words = match &st.kind {
                Kind::Words(ops) => ops
                    .iter()
                    .map(|(o, c)| self.word_value(&st.loc, o, *c))
                    .collect::<Vec<_>>(),
                Kind::Instr {
                    cands,
                    operands,
                    mcol,
                } => vec![self
                    .instr(&st.loc, cands, operands, *mcol)
                    .map(Instr::encode)],
                Kind::Macro { m, operands, mcol } => {
                    self.macro_words(&st.loc, *m, operands, *mcol, st.addr as u16)
                }
            };
            let si = usize::from(st.section == Section::Data);
            for (k, w) in words.into_iter().enumerate() {
                let addr = st.addr as usize + k;
                let Some(slot) = mem[si].get_mut(addr) else {
                    break;
                };
                if slot.is_some() {
                    let col = match &st.kind {
                        Kind::Instr { mcol, .. } | Kind::Macro { mcol, .. } => *mcol,
                        Kind::Words(o) => o.first().map_or(1, |o| o.1),
                    };
                    self.err(
                        &st.loc,
                        col,
                        format!("{} address 0x{addr:04X} is already filled", st.section),
                    );
                    break;
                }
                *slot = Some(w.unwrap_or(0));
            }
        }
        let image = |m: &Vec<Option<u32>>| -> Vec<u32> {
            let end = m.iter().rposition(Option::is_some).map_or(0, |p| p + 1);
            m[..end].iter().map(|w| w.unwrap_or(0)).collect()
        };
        let symbols = self
            .order
            .iter()
            .filter_map(|n| {
                self.symbols.get(n).map(|&(section, v)| Symbol {
                    name: n.clone(),
                    section,
                    value: v as u32,
                })
            })
            .collect();
        Program {
            text: image(&mem[0]),
            data: image(&mem[1]),
            symbols,
            fb_size: self.fb_size,
        }
    }

    fn eval(&mut self, loc: &Loc, e: &Expr) -> Option<i64> {
        match e.eval(&|s| self.lookup(s)) {
            Ok(v) => Some(v),
            Err((c, m)) => {
                self.err(loc, c, m);
                None
            }
        }
    }

    fn word_value(&mut self, loc: &Loc, o: &Operand, col: usize) -> Option<u32> {
        match o {
            Operand::Expr(e) => {
                let v = self.eval(loc, e)?;
                if (-(1i64 << 31)..=0xFFFF_FFFF).contains(&v) {
                    Some(v as u32)
                } else {
                    self.err(loc, col, format!("value {v} does not fit in 32 bits"));
                    None
                }
            }
            _ => {
                self.err(loc, col, "expected a value, not a register or string");
                None
            }
        }
    }

    fn instr(
        &mut self,
        loc: &Loc,
        cands: &[Op],
        operands: &[(Operand, usize)],
        mcol: usize,
    ) -> Option<Instr> {
        let shape: Vec<bool> = operands
            .iter()
            .map(|(o, _)| matches!(o, Operand::Reg(_)))
            .collect();
        let Some(&op) = cands.iter().find(|op| shape_matches(op.format(), &shape)) else {
            let forms: Vec<String> = cands
                .iter()
                .map(|o| format!("`{} {}`", o.mnemonic(), o.format().syntax()).replace(" `", "`"))
                .collect();
            let col = operands.first().map_or(mcol, |o| o.1);
            self.err(loc, col, format!("expected {}", forms.join(" or ")));
            return None;
        };
        let regs: Vec<Reg> = operands
            .iter()
            .filter_map(|(o, _)| match o {
                Operand::Reg(r) => Some(*r),
                _ => None,
            })
            .collect();
        let imm = match operands.last() {
            Some((Operand::Expr(e), col)) => {
                let v = self.eval(loc, e)?;
                let kind = op.format().fields().imm.unwrap_or(ImmKind::U16);
                match check_imm(kind, v) {
                    Ok(i) => i,
                    Err(m) => {
                        self.err(loc, *col, m);
                        return None;
                    }
                }
            }
            _ => 0,
        };
        let f = op.format().fields();
        let r = |k: usize| regs.get(k).copied().unwrap_or_default();
        Some(match op.format() {
            Format::RegImm if regs.len() == 1 => Instr::new(op, r(0), r(0), r(0), imm),
            Format::RegImm => Instr::new(op, r(0), r(0), r(1), imm),
            _ => {
                let mut it = regs.into_iter();
                let a = if f.a { it.next() } else { None }.unwrap_or_default();
                let b = if f.b { it.next() } else { None }.unwrap_or_default();
                let d = if f.d { it.next() } else { None }.unwrap_or_default();
                Instr::new(op, a, b, d, imm)
            }
        })
    }

    fn macro_words(
        &mut self,
        loc: &Loc,
        m: Macro,
        operands: &[(Operand, usize)],
        mcol: usize,
        addr: u16,
    ) -> Vec<Option<u32>> {
        let n = usize::from(m.size(operands.len()).unwrap_or(0));
        let mut args = Vec::new();
        for (o, c) in operands {
            match o {
                Operand::Reg(r) => args.push(MacroArg::Reg(*r)),
                Operand::Expr(e) => match self.eval(loc, e) {
                    Some(v) => args.push(MacroArg::Value(v)),
                    None => return vec![None; n],
                },
                Operand::Str(_) => {
                    self.err(loc, *c, format!("expected `{}`", m.syntax()));
                    return vec![None; n];
                }
            }
        }
        match m.expand(&args, addr) {
            Ok(v) => v.into_iter().map(|i| Some(i.encode())).collect(),
            Err(msg) => {
                let col = operands.first().map_or(mcol, |o| o.1);
                self.err(loc, col, msg);
                vec![None; n]
            }
        }
    }
}

/// Whether operand shapes (true = register) fit a format.
fn shape_matches(f: Format, shape: &[bool]) -> bool {
    const R: bool = true;
    const E: bool = false;
    match f {
        Format::None => shape.is_empty(),
        Format::RegImm => shape == [R, E] || shape == [R, R, E],
        Format::Abd => shape == [R, R, R],
        Format::AdS16 | Format::AdBit | Format::AbS16 | Format::BdS16 => shape == [R, R, E],
        Format::Ad => shape == [R, R],
        Format::AU16 | Format::ABit | Format::DU16 => shape == [R, E],
        Format::A => shape == [R],
        Format::U16 => shape == [E],
    }
}

/// Range-check an immediate for its field.
fn check_imm(kind: ImmKind, v: i64) -> Result<u16, String> {
    match kind {
        ImmKind::Bit if (0..=31).contains(&v) => Ok(v as u16),
        ImmKind::Bit => Err(format!("bit number / shift amount {v} must be 0..=31")),
        ImmKind::U16 | ImmKind::S16 if (-0x8000..=0xFFFF).contains(&v) => Ok(v as u16),
        ImmKind::U16 => Err(format!(
            "value {v} does not fit the 16-bit immediate (0..=0xFFFF)"
        )),
        ImmKind::S16 => Err(format!(
            "offset {v} does not fit the 16-bit signed immediate (-32768..=32767)"
        )),
    }
}

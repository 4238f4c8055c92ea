//! The two-pass assembler core: statements (labels, instructions, directives), sections and
//! their location counters, the symbol table, and expression evaluation for each pass.
//! Pass 1 defines every label and fixes every statement's size; layout then gives each
//! section its address; pass 2 evaluates everything and emits the bytes.

use crate::error::{err, expected, AsmErrorKind, Located, PResult, Span};
use crate::expr::{Env, Expr};
use crate::lexer::{Tok, Token};
use crate::operands::{self, OpEnv, Operand};
use crate::pseudo;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use weft_elf::{SectionFlags, SymbolKind};
use weft_isa::{COp, Op, TABLE};

/// Largest section the assembler will build (bytes in the file).
pub(crate) const MAX_SECTION: u64 = 64 << 20;
/// Largest zero-filled (`.bss`) section.
pub(crate) const MAX_NOBITS: u64 = 1 << 30;

/// One output section during assembly.
#[derive(Clone, Debug)]
pub(crate) struct SectionState {
    pub name: String,
    pub flags: SectionFlags,
    pub nobits: bool,
    /// Location counter (bytes from the section start).
    pub offset: u64,
    pub align: u32,
    /// Address fixed by `.base`.
    pub base: Option<u32>,
    /// Contents (pass 2).
    pub data: Vec<u8>,
    /// Address after layout.
    pub addr: u32,
    /// Where the section was first named.
    pub span: Span,
}

/// How a symbol is defined.
#[derive(Clone, Debug)]
pub(crate) enum SymDef {
    /// A label: section and offset.
    Label { section: usize, offset: u64 },
    /// An absolute value (`.equ` of a constant).
    Value(i64),
    /// `.equ` of an expression that uses labels, with the location where it was written.
    Deferred { expr: Expr, dot: (usize, u64) },
}

/// A symbol table entry.
#[derive(Clone, Debug)]
pub(crate) struct SymInfo {
    pub def: Option<SymDef>,
    pub global: bool,
    pub kind: SymbolKind,
    pub size: Option<u32>,
    pub span: Span,
}

/// The assembler's state across both passes.
pub(crate) struct Asm {
    pub pass: u8,
    pub sections: Vec<SectionState>,
    pub cur: usize,
    pub symbols: HashMap<String, SymInfo>,
    /// Symbol names in order of first appearance.
    pub order: Vec<String>,
    pub local_counts: HashMap<u32, u32>,
    pub stmt_index: usize,
    /// Per-statement decision of pass 1 for `li` (long form or not).
    pub li_long: HashMap<usize, bool>,
    pub pcrel: RefCell<HashMap<u32, i64>>,
    pub errors: Vec<Located>,
    pub entry: Option<(Vec<Token>, Span)>,
    pub entry_value: Option<u32>,
    /// Statements that failed in pass 1 (skipped in pass 2, so each error is reported once).
    pub failed: std::collections::HashSet<usize>,
    /// A compressed instruction was assembled.
    pub rvc: bool,
    /// `.option rvc` is in effect: instructions whose operands are registers and numbers
    /// only are compressed when a compressed form holds them.
    pub option_rvc: bool,
    /// `.option push` saves `option_rvc` here; `.option pop` restores it.
    pub option_stack: Vec<bool>,
    depth: Cell<u32>,
}

/// Alternative spellings of table mnemonics.
fn alias(name: &str) -> &str {
    match name {
        "fmv.x.s" => "fmv.x.w",
        "fmv.s.x" => "fmv.w.x",
        "scall" => "ecall",
        "sbreak" => "ebreak",
        "vx_tmc" => "tmc",
        "vx_wspawn" => "wspawn",
        "vx_split" => "split",
        "vx_join" => "join",
        "vx_bar" => "bar",
        "vx_pred" => "pred",
        n => n,
    }
}

/// The table row of a mnemonic, with the aq/rl suffix of atomics split off.
fn lookup(name: &str) -> Option<(&'static weft_isa::Entry, u8)> {
    if let Some(op) = Op::from_name(name) {
        return Some((op.entry(), 0));
    }
    for (suffix, bits) in [(".aqrl", 3u8), (".aq", 2), (".rl", 1)] {
        if let Some(base) = name.strip_suffix(suffix) {
            if let Some(op) = Op::from_name(base) {
                if op.entry().matches & 0x7f == weft_isa::table::OP_AMO {
                    return Some((op.entry(), bits));
                }
            }
        }
    }
    None
}

/// Default flags of a section by name (GNU conventions).
pub(crate) fn section_defaults(name: &str) -> (SectionFlags, bool) {
    let starts = |p: &str| name == p || name.starts_with(&format!("{p}."));
    if starts(".text") || starts(".init") || starts(".fini") {
        (SectionFlags::TEXT, false)
    } else if starts(".rodata") || starts(".srodata") {
        (SectionFlags::RODATA, false)
    } else if starts(".bss") || starts(".sbss") || starts(".tbss") {
        (SectionFlags::DATA, true)
    } else if starts(".data") || starts(".sdata") || starts(".tdata") {
        (SectionFlags::DATA, false)
    } else {
        (SectionFlags::NONE, false)
    }
}

/// Evaluation environment of one statement.
pub(crate) struct PassEnv<'a> {
    pub asm: &'a Asm,
    pub pc: u32,
}

impl Asm {
    pub fn new() -> Asm {
        Asm {
            pass: 1,
            sections: Vec::new(),
            cur: 0,
            symbols: HashMap::new(),
            order: Vec::new(),
            local_counts: HashMap::new(),
            stmt_index: 0,
            li_long: HashMap::new(),
            pcrel: RefCell::new(HashMap::new()),
            errors: Vec::new(),
            entry: None,
            entry_value: None,
            failed: Default::default(),
            rvc: false,
            option_rvc: false,
            option_stack: Vec::new(),
            depth: Cell::new(0),
        }
    }

    /// Name of the `k`-th definition of numeric local label `n`.
    pub fn local_name(n: u32, k: u32) -> String {
        format!(".L{n}^{k}")
    }

    /// Renames a numeric local-label reference at the current point.
    pub fn local_ref(&self, n: u32, forward: bool) -> String {
        let c = self.local_counts.get(&n).copied().unwrap_or(0);
        if forward {
            Asm::local_name(n, c)
        } else if c == 0 {
            // No earlier definition: a name that is never defined, so it reports as undefined.
            format!("{n}b")
        } else {
            Asm::local_name(n, c - 1)
        }
    }

    /// Address of a (section, offset) after layout.
    pub fn address(&self, section: usize, offset: u64) -> i64 {
        self.sections
            .get(section)
            .map(|s| s.addr as i64 + offset as i64)
            .unwrap_or(0)
    }

    /// The current location as an address (pass 2).
    pub fn here(&self) -> u32 {
        let s = &self.sections[self.cur];
        s.addr.wrapping_add(s.offset as u32)
    }

    /// Switch to (creating if needed) a section.
    pub fn switch_section(&mut self, name: &str, flags: Option<(SectionFlags, bool)>, span: Span) {
        if let Some(i) = self.sections.iter().position(|s| s.name == name) {
            self.cur = i;
            if let (Some((f, nobits)), 1) = (flags, self.pass) {
                let s = &mut self.sections[i];
                if s.offset == 0 {
                    s.flags = f;
                    s.nobits = nobits;
                }
            }
            return;
        }
        let (f, nobits) = flags.unwrap_or_else(|| section_defaults(name));
        self.sections.push(SectionState {
            name: name.to_string(),
            flags: f,
            nobits,
            offset: 0,
            align: 4,
            base: None,
            data: Vec::new(),
            addr: 0,
            span,
        });
        self.cur = self.sections.len() - 1;
    }

    /// Append bytes at the current location (pass 1 only counts them).
    pub fn emit(&mut self, bytes: &[u8], span: Span) -> PResult<()> {
        self.emit_fill(bytes, 1, span)
    }

    /// Append `bytes` repeated `times` times.
    pub fn emit_fill(&mut self, bytes: &[u8], times: u64, span: Span) -> PResult<()> {
        let pass = self.pass;
        let s = &mut self.sections[self.cur];
        let len = bytes.len() as u64 * times;
        if s.nobits && bytes.iter().any(|&b| b != 0) {
            return err(
                span,
                AsmErrorKind::Other(format!(
                    "section `{}` holds no data: only zeros (.zero/.space/.skip) may go there",
                    s.name
                )),
            );
        }
        let limit = if s.nobits { MAX_NOBITS } else { MAX_SECTION };
        if s.offset + len > limit {
            return err(
                span,
                AsmErrorKind::Range(format!(
                    "section `{}` would exceed {} MiB",
                    s.name,
                    limit >> 20
                )),
            );
        }
        if pass == 2 && !s.nobits {
            for _ in 0..times {
                s.data.extend_from_slice(bytes);
            }
        }
        s.offset += len;
        Ok(())
    }

    /// Define a label at the current location (pass 1).
    pub fn define_label(&mut self, name: &str, span: Span) -> PResult<()> {
        if self.pass != 1 {
            return Ok(());
        }
        let def = SymDef::Label {
            section: self.cur,
            offset: self.sections[self.cur].offset,
        };
        match self.symbols.get_mut(name) {
            Some(info) if info.def.is_some() => err(span, AsmErrorKind::Duplicate(name.into())),
            Some(info) => {
                info.def = Some(def);
                info.span = span;
                Ok(())
            }
            None => {
                self.symbols.insert(
                    name.into(),
                    SymInfo {
                        def: Some(def),
                        global: false,
                        kind: SymbolKind::NoType,
                        size: None,
                        span,
                    },
                );
                self.order.push(name.into());
                Ok(())
            }
        }
    }

    /// The symbol entry, created (undefined) if needed.
    pub fn symbol_mut(&mut self, name: &str, span: Span) -> &mut SymInfo {
        if !self.symbols.contains_key(name) {
            self.order.push(name.into());
        }
        self.symbols.entry(name.into()).or_insert(SymInfo {
            def: None,
            global: false,
            kind: SymbolKind::NoType,
            size: None,
            span,
        })
    }

    /// Parse an expression from one operand's tokens (all tokens must be used).
    pub fn parse_expr(&self, toks: &[Token]) -> PResult<Expr> {
        let local = |n: u32, f: bool| self.local_ref(n, f);
        let mut p = operands::parser(toks, &local);
        let e = p.expr()?;
        if !p.at_end() {
            return expected(p.span(), "end of operand", &p.peek().describe());
        }
        Ok(e)
    }

    /// Evaluate an expression at the current location.
    pub fn eval(&self, e: &Expr) -> PResult<Option<i64>> {
        let env = PassEnv {
            asm: self,
            pc: self.here(),
        };
        e.eval(&env)
    }

    /// Evaluate an expression that must be known in pass 1 (sizes, alignment, .org, .base).
    pub fn eval_const(&self, toks: &[Token], what: &str) -> PResult<i64> {
        let e = self.parse_expr(toks)?;
        let span = toks.first().map(|t| t.span).unwrap_or_default();
        match self.eval(&e)? {
            Some(v) if self.pass == 1 || !e.uses_symbols() => Ok(v),
            Some(v) => Ok(v),
            None => err(span, AsmErrorKind::NotConstant(what.into())),
        }
    }

    /// Run one pass over the statements.
    pub fn run_pass(&mut self, pass: u8, toks: &[Token]) {
        self.pass = pass;
        self.local_counts.clear();
        self.stmt_index = 0;
        self.option_rvc = false;
        self.option_stack.clear();
        for s in &mut self.sections {
            s.offset = 0;
        }
        self.cur = 0;
        self.switch_section(".text", None, Span { line: 1, col: 1 });
        let mut start = 0;
        for (i, t) in toks.iter().enumerate() {
            if t.tok == Tok::End {
                let skip = pass == 2 && self.failed.contains(&self.stmt_index);
                if i > start && !skip {
                    if let Err(e) = self.statement(&toks[start..i], t.span) {
                        self.errors.push(e);
                        if pass == 1 {
                            self.failed.insert(self.stmt_index);
                        }
                    }
                }
                self.stmt_index += 1;
                start = i + 1;
            }
        }
    }

    fn statement(&mut self, mut toks: &[Token], end: Span) -> PResult<()> {
        // Labels.
        loop {
            match toks {
                [Token {
                    tok: Tok::Ident(name),
                    span,
                }, Token {
                    tok: Tok::Punct(':'),
                    ..
                }, rest @ ..] => {
                    let name = name.clone();
                    toks = rest;
                    self.define_label(&name, *span)?;
                }
                [Token {
                    tok: Tok::Num(n),
                    span,
                }, Token {
                    tok: Tok::Punct(':'),
                    ..
                }, rest @ ..] => {
                    let n = u32::try_from(*n).map_err(|_| Located {
                        span: *span,
                        kind: AsmErrorKind::Other("local label number too large".into()),
                    })?;
                    toks = rest;
                    let k = self.local_counts.get(&n).copied().unwrap_or(0);
                    self.local_counts.insert(n, k + 1);
                    self.define_label(&Asm::local_name(n, k), *span)?;
                }
                _ => break,
            }
        }
        let Some(head) = toks.first() else {
            return Ok(());
        };
        let name = match &head.tok {
            Tok::Ident(n) => n.clone(),
            other => {
                return expected(
                    head.span,
                    "an instruction, directive or label",
                    &other.describe(),
                )
            }
        };
        // `name = expr`
        if let Some(Token {
            tok: Tok::Punct('='),
            ..
        }) = toks.get(1)
        {
            return self.assign(&name, head.span, &toks[2..], end);
        }
        if name.starts_with('.') {
            return self.directive(&name.to_ascii_lowercase(), head.span, &toks[1..], end);
        }
        self.instruction(&name.to_ascii_lowercase(), head.span, &toks[1..], end)
    }

    /// `.equ name, expr` / `.set` / `name = expr`.
    pub fn assign(&mut self, name: &str, span: Span, toks: &[Token], end: Span) -> PResult<()> {
        if toks.is_empty() {
            return expected(end, "an expression", "end of line");
        }
        let e = self.parse_expr(toks)?;
        let value = self.eval(&e)?;
        let def = match value {
            Some(v) => SymDef::Value(v),
            None => SymDef::Deferred {
                expr: e,
                dot: (self.cur, self.sections[self.cur].offset),
            },
        };
        if let Some(SymInfo {
            def: Some(SymDef::Label { .. }),
            ..
        }) = self.symbols.get(name)
        {
            return err(span, AsmErrorKind::Duplicate(name.into()));
        }
        let info = self.symbol_mut(name, span);
        info.def = Some(def);
        Ok(())
    }

    fn instruction(&mut self, name: &str, span: Span, toks: &[Token], end: Span) -> PResult<()> {
        let name = alias(name);
        let ops = operands::split_operands(toks, end)?;
        if !self.sections[self.cur].offset.is_multiple_of(2) {
            return err(
                span,
                AsmErrorKind::Other("instruction at an odd address (add `.align 1`)".into()),
            );
        }
        let pc = self.here();
        let env = PassEnv { asm: self, pc };
        let long = if self.pass == 2 {
            self.li_long.get(&self.stmt_index).copied()
        } else {
            None
        };
        let insts = match pseudo::expand(&env, name, &ops, end, long) {
            Some(r) => {
                let (insts, long) = r?;
                if self.pass == 1 && name == "li" {
                    self.li_long.insert(self.stmt_index, long);
                }
                insts
            }
            None => match lookup(name) {
                Some((e, aqrl)) => vec![operands::parse_real(&env, e, aqrl, name, &ops, end)?],
                None if COp::from_name(name).is_some() => {
                    vec![operands::parse_compressed(&env, name, &ops, end)?]
                }
                None => {
                    let hint = if name.starts_with("c.") {
                        " (not an RV32C or RV32FC instruction)"
                    } else {
                        ""
                    };
                    return err(
                        span,
                        AsmErrorKind::UnknownMnemonic {
                            name: name.into(),
                            hint,
                        },
                    );
                }
            },
        };
        // Under `.option rvc`, compress what a compressed form holds, but only when no operand
        // names a symbol, so the choice (and the size) is the same in both passes.
        let insts = if self.option_rvc && ops.iter().all(|o| operands::is_constant(o)) {
            insts
                .into_iter()
                .map(|i| weft_isa::compressed::compress(&i).unwrap_or(i))
                .collect()
        } else {
            insts
        };
        let mut bytes = Vec::with_capacity(insts.len() * 4);
        for i in insts {
            self.rvc |= i.compressed.is_some();
            let w = if self.pass == 2 {
                i.encode().map_err(|e| Located {
                    span: ops.first().map(|o| o.span()).unwrap_or(span),
                    kind: AsmErrorKind::Range(e.to_string()),
                })?
            } else {
                0
            };
            bytes.extend_from_slice(&w.to_le_bytes()[..i.len() as usize]);
        }
        self.emit(&bytes, span)
    }

    /// Operands of a directive split at commas.
    pub fn operands<'t>(&self, toks: &'t [Token], end: Span) -> PResult<Vec<Operand<'t>>> {
        operands::split_operands(toks, end)
    }
}

impl Env for PassEnv<'_> {
    fn symbol(&self, name: &str, span: Span) -> PResult<Option<i64>> {
        let a = self.asm;
        let final_pass = a.pass == 2;
        match a.symbols.get(name).and_then(|s| s.def.as_ref()) {
            Some(SymDef::Value(v)) => Ok(Some(*v)),
            Some(SymDef::Label { section, offset }) => Ok(if final_pass {
                Some(a.address(*section, *offset))
            } else {
                None
            }),
            Some(SymDef::Deferred { expr, dot }) => {
                if !final_pass {
                    return Ok(None);
                }
                if a.depth.get() > 64 {
                    return err(
                        span,
                        AsmErrorKind::Other(format!(
                            "symbol `{name}` is defined in terms of itself"
                        )),
                    );
                }
                a.depth.set(a.depth.get() + 1);
                let env = PassEnv {
                    asm: a,
                    pc: a.address(dot.0, dot.1) as u32,
                };
                let r = expr.eval(&env);
                a.depth.set(a.depth.get() - 1);
                r
            }
            None if final_pass => err(span, AsmErrorKind::Undefined(name.into())),
            None => Ok(None),
        }
    }
    fn dot(&self) -> Option<i64> {
        (self.asm.pass == 2).then_some(self.pc as i64)
    }
    fn pcrel_hi_at(&self, at: i64, span: Span) -> PResult<Option<i64>> {
        if self.asm.pass != 2 {
            return Ok(None);
        }
        match self.asm.pcrel.borrow().get(&(at as u32)) {
            Some(v) => Ok(Some(*v)),
            None => err(
                span,
                AsmErrorKind::Other(format!(
                    "%pcrel_lo: no `auipc` with %pcrel_hi at {at:#x} (the label must mark the auipc)"
                )),
            ),
        }
    }
}

impl OpEnv for PassEnv<'_> {
    fn parse_expr(&self, toks: &[Token]) -> PResult<Expr> {
        self.asm.parse_expr(toks)
    }
    fn eval(&self, e: &Expr) -> PResult<Option<i64>> {
        e.eval(self)
    }
    fn pc(&self) -> u32 {
        self.pc
    }
    fn final_pass(&self) -> bool {
        self.asm.pass == 2
    }
    fn note_pcrel_hi(&self, value: i64) {
        if self.asm.pass == 2 {
            self.asm.pcrel.borrow_mut().insert(self.pc, value);
        }
    }
}

/// Every mnemonic the assembler knows: the table's and the pseudo-instructions'.
pub fn mnemonics() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = TABLE.iter().map(|e| e.name).collect();
    v.extend(weft_isa::CTABLE.iter().map(|e| e.name));
    v.extend(pseudo::PSEUDOS);
    v
}

//! Integer expressions: parsing (`+ - * / % << >> & | ^ ~`, parentheses, symbols, `.`,
//! numeric local-label references, `%hi %lo %pcrel_hi %pcrel_lo`) and evaluation against
//! the symbol table of a pass.

use crate::error::{err, expected, AsmErrorKind, PResult, Span};
use crate::lexer::{Tok, Token};

/// A relocation-style operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reloc {
    /// `%hi(x)`: upper 20 bits, rounded for a following signed `%lo`.
    Hi,
    /// `%lo(x)`: the signed low 12 bits.
    Lo,
    /// `%pcrel_hi(x)`: upper 20 bits of `x - pc`.
    PcrelHi,
    /// `%pcrel_lo(label)`: low 12 bits of the `%pcrel_hi` at `label`.
    PcrelLo,
}

/// An expression tree.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A literal.
    Num(i64),
    /// A symbol by name (numeric local labels are already renamed).
    Sym(String, Span),
    /// The current location `.`.
    Dot,
    /// Unary operator (`-`, `~`, `!`, `+`).
    Unary(char, Box<Expr>),
    /// Binary operator (`<` is `<<`, `>` is `>>`).
    Binary(char, Box<Expr>, Box<Expr>, Span),
    /// `%hi(..)` and friends.
    Reloc(Reloc, Box<Expr>),
}

/// What expression evaluation needs from the assembler.
pub trait Env {
    /// The value of a symbol; `Ok(None)` when it is not known yet (first pass).
    fn symbol(&self, name: &str, span: Span) -> PResult<Option<i64>>;
    /// The current location; `None` in the first pass.
    fn dot(&self) -> Option<i64>;
    /// The `x - pc` value recorded for the `%pcrel_hi` at address `at`.
    fn pcrel_hi_at(&self, at: i64, span: Span) -> PResult<Option<i64>>;
}

/// Parses expressions from a token slice.
pub struct Parser<'a> {
    /// The tokens of one operand.
    pub toks: &'a [Token],
    /// Position in `toks`.
    pub pos: usize,
    /// Renames numeric local-label references to their unique names.
    pub local: &'a dyn Fn(u32, bool) -> String,
    /// How deep the expression tree being parsed is at this point: unary operators and
    /// parentheses, and every binary operator of a chain (`a+b+c` nests to the left).
    pub depth: u32,
}

/// The deepest expression tree the assembler accepts. Parsing, evaluating and dropping a tree
/// recurse once per level, so without a bound a long enough chain or nesting overflows the
/// stack; real programs stay far below it.
pub const MAX_DEPTH: u32 = 1000;

impl<'a> Parser<'a> {
    /// The current token.
    pub fn peek(&self) -> &Tok {
        self.toks.get(self.pos).map(|t| &t.tok).unwrap_or(&Tok::End)
    }
    /// Where the current token starts (or the end of the last one).
    pub fn span(&self) -> Span {
        match self.toks.get(self.pos).or(self.toks.last()) {
            Some(t) => t.span,
            None => Span::default(),
        }
    }
    /// Consume and return the current token.
    pub fn next(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
        t
    }
    /// True at the end of the operand.
    pub fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }
    /// Consume punctuation `c` or fail.
    pub fn expect_punct(&mut self, c: char) -> PResult<()> {
        if *self.peek() == Tok::Punct(c) {
            self.next();
            Ok(())
        } else {
            expected(self.span(), &format!("`{c}`"), &self.peek().describe())
        }
    }

    /// Parse a whole expression.
    pub fn expr(&mut self) -> PResult<Expr> {
        self.binary(0)
    }

    fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        let outer = self.depth;
        let r = self.chain(&mut lhs, min_prec);
        self.depth = outer;
        r.map(|()| lhs)
    }

    /// The operators that follow `lhs` at precedence `min_prec` or above, each nesting the
    /// tree one level deeper.
    fn chain(&mut self, lhs: &mut Expr, min_prec: u8) -> PResult<()> {
        loop {
            let (op, prec) = match self.peek() {
                Tok::Punct(c @ '|') => (*c, 1),
                Tok::Punct(c @ '^') => (*c, 2),
                Tok::Punct(c @ '&') => (*c, 3),
                Tok::Punct(c @ ('<' | '>')) => (*c, 4),
                Tok::Punct(c @ ('+' | '-')) => (*c, 5),
                Tok::Punct(c @ ('*' | '/' | '%')) => (*c, 6),
                _ => return Ok(()),
            };
            if prec < min_prec {
                return Ok(());
            }
            let span = self.span();
            self.depth += 1;
            if self.depth >= MAX_DEPTH {
                return err(span, too_deep());
            }
            self.next();
            let rhs = self.binary(prec + 1)?;
            let l = std::mem::replace(lhs, Expr::Num(0));
            *lhs = Expr::Binary(op, Box::new(l), Box::new(rhs), span);
        }
    }

    fn unary(&mut self) -> PResult<Expr> {
        if self.depth >= MAX_DEPTH {
            return err(self.span(), too_deep());
        }
        self.depth += 1;
        let e = self.unary_inner();
        self.depth -= 1;
        e
    }

    fn unary_inner(&mut self) -> PResult<Expr> {
        let span = self.span();
        match self.next() {
            Tok::Punct(c @ ('-' | '~' | '!' | '+')) => Ok(Expr::Unary(c, Box::new(self.unary()?))),
            Tok::Punct('(') => {
                let e = self.expr()?;
                self.expect_punct(')')?;
                Ok(e)
            }
            Tok::Punct('%') => {
                let name = match self.next() {
                    Tok::Ident(n) => n,
                    other => {
                        return expected(
                            span,
                            "`%hi`, `%lo`, `%pcrel_hi` or `%pcrel_lo`",
                            &other.describe(),
                        )
                    }
                };
                let r = match name.as_str() {
                    "hi" => Reloc::Hi,
                    "lo" => Reloc::Lo,
                    "pcrel_hi" => Reloc::PcrelHi,
                    "pcrel_lo" => Reloc::PcrelLo,
                    _ => {
                        return expected(
                            span,
                            "`%hi`, `%lo`, `%pcrel_hi` or `%pcrel_lo`",
                            &format!("`%{name}`"),
                        )
                    }
                };
                self.expect_punct('(')?;
                let e = self.expr()?;
                self.expect_punct(')')?;
                Ok(Expr::Reloc(r, Box::new(e)))
            }
            Tok::Num(n) => Ok(Expr::Num(n)),
            Tok::Ident(s) if s == "." => Ok(Expr::Dot),
            Tok::Ident(s) => Ok(Expr::Sym(s, span)),
            Tok::LocalRef(n, fwd) => Ok(Expr::Sym((self.local)(n, fwd), span)),
            other => expected(span, "an expression", &other.describe()),
        }
    }
}

fn too_deep() -> AsmErrorKind {
    AsmErrorKind::Other(format!(
        "expression nested too deeply or too long (more than {MAX_DEPTH} levels)"
    ))
}

/// Sign-extend the low 12 bits.
pub fn lo12(v: i64) -> i64 {
    ((v as i32) << 20 >> 20) as i64
}

/// The `%hi` of a value: bits 31:12 after rounding for a signed low part.
pub fn hi20(v: i64) -> i64 {
    ((v as u32).wrapping_add(0x800) >> 12) as i64
}

impl Expr {
    /// True if the expression mentions a symbol or `.` (its value depends on layout).
    pub fn uses_symbols(&self) -> bool {
        match self {
            Expr::Num(_) => false,
            Expr::Sym(..) | Expr::Dot => true,
            Expr::Unary(_, e) | Expr::Reloc(_, e) => e.uses_symbols(),
            Expr::Binary(_, a, b, _) => a.uses_symbols() || b.uses_symbols(),
        }
    }

    /// The outermost relocation operator, if the expression is one.
    pub fn reloc(&self) -> Option<Reloc> {
        match self {
            Expr::Reloc(r, _) => Some(*r),
            _ => None,
        }
    }

    /// Evaluate. `Ok(None)` means "not known yet" (a forward symbol in the first pass).
    pub fn eval(&self, env: &dyn Env) -> PResult<Option<i64>> {
        Ok(match self {
            Expr::Num(n) => Some(*n),
            Expr::Sym(s, span) => env.symbol(s, *span)?,
            Expr::Dot => env.dot(),
            Expr::Unary(op, e) => e.eval(env)?.map(|v| match op {
                '-' => v.wrapping_neg(),
                '~' => !v,
                '!' => (v == 0) as i64,
                _ => v,
            }),
            Expr::Binary(op, a, b, span) => {
                let (a, b) = (a.eval(env)?, b.eval(env)?);
                let (Some(a), Some(b)) = (a, b) else {
                    return Ok(None);
                };
                Some(match op {
                    '+' => a.wrapping_add(b),
                    '-' => a.wrapping_sub(b),
                    '*' => a.wrapping_mul(b),
                    '/' | '%' if b == 0 => {
                        return err(*span, AsmErrorKind::Other("division by zero".into()))
                    }
                    '/' => a.wrapping_div(b),
                    '%' => a.wrapping_rem(b),
                    '<' | '>' if !(0..64).contains(&b) => {
                        return err(
                            *span,
                            AsmErrorKind::Range(format!(
                                "shift count out of range ({b} is not between 0 and 63)"
                            )),
                        )
                    }
                    '<' => a.wrapping_shl(b as u32),
                    '>' => a.wrapping_shr(b as u32),
                    '&' => a & b,
                    '|' => a | b,
                    _ => a ^ b,
                })
            }
            Expr::Reloc(r, e) => {
                let Some(v) = e.eval(env)? else {
                    return Ok(None);
                };
                match r {
                    Reloc::Hi => Some(hi20(v)),
                    Reloc::Lo => Some(lo12(v)),
                    Reloc::PcrelHi => env.dot().map(|pc| hi20(v.wrapping_sub(pc))),
                    Reloc::PcrelLo => {
                        let span = match &**e {
                            Expr::Sym(_, s) => *s,
                            _ => Span::default(),
                        };
                        env.pcrel_hi_at(v, span)?.map(lo12)
                    }
                }
            }
        })
    }
}

//! Lexer and operand/expression parser for one line of SP v2a assembly.
//!
//! Tokens: identifiers (`[A-Za-z_.][A-Za-z0-9_.$]*`), registers (`%` + name), numbers
//! (decimal, `0x` hex, `0b` binary, `'c'` characters), strings, and `: , + - ( ) =`.
//! Comments start with `;`, `#` or `//`. Columns are 1-based character positions.

use crate::isa::Reg;

/// A token kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// Identifier (mnemonic, directive, label, symbol).
    Ident(String),
    /// `%name` (the name without `%`).
    Reg(String),
    /// Number.
    Num(i64),
    /// `"..."`.
    Str(String),
    /// A punctuation character.
    Punct(char),
}

/// A token with its column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// 1-based column.
    pub col: usize,
}

/// A lexing or parsing problem: column and message.
pub type LineError = (usize, String);

/// Split a line into tokens.
pub fn lex(line: &str) -> Result<Vec<Token>, LineError> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        if c.is_whitespace() {
            i += 1;
        } else if c == ';' || c == '#' || (c == '/' && chars.get(i + 1) == Some(&'/')) {
            break;
        } else if c.is_ascii_alphabetic() || c == '_' || c == '.' {
            let s = take_while(&chars, &mut i, |c| {
                c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$'
            });
            out.push(Token {
                tok: Tok::Ident(s),
                col,
            });
        } else if c == '%' {
            i += 1;
            let s = take_while(&chars, &mut i, |c| c.is_ascii_alphanumeric());
            if s.is_empty() {
                return Err((col, "expected a register name after `%`".into()));
            }
            out.push(Token {
                tok: Tok::Reg(s),
                col,
            });
        } else if c.is_ascii_digit() {
            let s = take_while(&chars, &mut i, |c| c.is_ascii_alphanumeric() || c == '_');
            out.push(Token {
                tok: Tok::Num(parse_number(&s).ok_or((col, format!("bad number `{s}`")))?),
                col,
            });
        } else if c == '\'' {
            match (chars.get(i + 1), chars.get(i + 2)) {
                (Some(&ch), Some('\'')) if ch != '\\' => {
                    out.push(Token {
                        tok: Tok::Num(ch as i64),
                        col,
                    });
                    i += 3;
                }
                (Some('\\'), Some(&e)) if chars.get(i + 3) == Some(&'\'') => {
                    let v = match e {
                        'n' => '\n',
                        't' => '\t',
                        '0' => '\0',
                        '\\' => '\\',
                        '\'' => '\'',
                        _ => return Err((col, format!("unknown escape `\\{e}`"))),
                    };
                    out.push(Token {
                        tok: Tok::Num(v as i64),
                        col,
                    });
                    i += 4;
                }
                _ => return Err((col, "bad character literal".into())),
            }
        } else if c == '"' {
            i += 1;
            let start = i;
            while i < chars.len() && chars[i] != '"' {
                i += 1;
            }
            if i >= chars.len() {
                return Err((col, "unterminated string".into()));
            }
            out.push(Token {
                tok: Tok::Str(chars[start..i].iter().collect()),
                col,
            });
            i += 1;
        } else if ":,+-()=".contains(c) {
            out.push(Token {
                tok: Tok::Punct(c),
                col,
            });
            i += 1;
        } else {
            return Err((col, format!("unexpected character `{c}`")));
        }
    }
    Ok(out)
}

fn take_while(chars: &[char], i: &mut usize, f: impl Fn(char) -> bool) -> String {
    let start = *i;
    while *i < chars.len() && f(chars[*i]) {
        *i += 1;
    }
    chars[start..*i].iter().collect()
}

fn parse_number(s: &str) -> Option<i64> {
    let s = s.replace('_', "");
    let lower = s.to_ascii_lowercase();
    let (digits, radix) = if let Some(h) = lower.strip_prefix("0x") {
        (h.to_string(), 16)
    } else if let Some(b) = lower.strip_prefix("0b") {
        (b.to_string(), 2)
    } else {
        (lower, 10)
    };
    if digits.is_empty() {
        return None;
    }
    i64::from_str_radix(&digits, radix)
        .ok()
        .filter(|v| *v <= 0xFFFF_FFFF)
}

/// A register name to a register: `A`..`H`, `R0`..`R7`, `FP`, `AT`, `SP` (any case).
pub fn register(name: &str) -> Option<Reg> {
    let up = name.to_ascii_uppercase();
    match up.as_str() {
        "FP" => return Some(Reg::F),
        "AT" => return Some(Reg::G),
        "SP" => return Some(Reg::H),
        _ => {}
    }
    let b = up.as_bytes();
    match b {
        [c @ b'A'..=b'H'] => Some(Reg::new(c - b'A')),
        [b'R', n @ b'0'..=b'7'] => Some(Reg::new(n - b'0')),
        _ => None,
    }
}

/// An expression over numbers and symbols, evaluated after all labels are known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// A literal.
    Num(i64),
    /// A symbol and its column.
    Sym(String, usize),
    /// `-e`.
    Neg(Box<Expr>),
    /// `a + b`.
    Add(Box<Expr>, Box<Expr>),
    /// `a - b`.
    Sub(Box<Expr>, Box<Expr>),
    /// `hi(e)`: bits 31..16.
    Hi(Box<Expr>),
    /// `lo(e)`: bits 15..0.
    Lo(Box<Expr>),
}

impl Expr {
    /// Evaluate with `lookup` for symbols; errors carry the column of the bad symbol.
    pub fn eval(&self, lookup: &dyn Fn(&str) -> Option<i64>) -> Result<i64, LineError> {
        let r = match self {
            Expr::Num(n) => *n,
            Expr::Sym(s, col) => {
                lookup(s).ok_or_else(|| (*col, format!("undefined symbol `{s}`")))?
            }
            Expr::Neg(e) => e.eval(lookup)?.wrapping_neg(),
            Expr::Add(a, b) => a.eval(lookup)?.wrapping_add(b.eval(lookup)?),
            Expr::Sub(a, b) => a.eval(lookup)?.wrapping_sub(b.eval(lookup)?),
            Expr::Hi(e) => (e.eval(lookup)? >> 16) & 0xFFFF,
            Expr::Lo(e) => e.eval(lookup)? & 0xFFFF,
        };
        Ok(r)
    }
}

/// One operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A register.
    Reg(Reg),
    /// An expression.
    Expr(Expr),
    /// A string (for `.include`).
    Str(String),
}

/// Parses operands from a token slice.
pub struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    end_col: usize,
}

impl<'a> Parser<'a> {
    /// A parser over `toks`; `end_col` is reported for errors at end of line.
    pub fn new(toks: &'a [Token], end_col: usize) -> Self {
        Parser {
            toks,
            pos: 0,
            end_col,
        }
    }

    fn peek(&self) -> Option<&'a Token> {
        self.toks.get(self.pos)
    }

    fn col(&self) -> usize {
        self.peek().map_or(self.end_col, |t| t.col)
    }

    /// Parse comma- or space-separated operands to the end, with their columns.
    pub fn operands(&mut self) -> Result<Vec<(Operand, usize)>, LineError> {
        let mut out = Vec::new();
        while let Some(t) = self.peek() {
            if !out.is_empty() && t.tok == Tok::Punct(',') {
                self.pos += 1;
            }
            let col = self.col();
            let op = match self.peek().map(|t| &t.tok) {
                Some(Tok::Reg(name)) => {
                    self.pos += 1;
                    Operand::Reg(
                        register(name)
                            .ok_or_else(|| (col, format!("unknown register `%{name}`")))?,
                    )
                }
                Some(Tok::Str(s)) => {
                    self.pos += 1;
                    Operand::Str(s.clone())
                }
                None => return Err((col, "expected an operand after `,`".into())),
                _ => Operand::Expr(self.expr(0)?),
            };
            out.push((op, col));
        }
        Ok(out)
    }

    fn expr(&mut self, depth: usize) -> Result<Expr, LineError> {
        if depth > 64 {
            return Err((self.col(), "expression nested too deeply".into()));
        }
        let mut lhs = self.unary(depth)?;
        loop {
            match self.peek().map(|t| &t.tok) {
                Some(Tok::Punct('+')) => {
                    self.pos += 1;
                    lhs = Expr::Add(Box::new(lhs), Box::new(self.unary(depth)?));
                }
                Some(Tok::Punct('-')) => {
                    self.pos += 1;
                    lhs = Expr::Sub(Box::new(lhs), Box::new(self.unary(depth)?));
                }
                _ => return Ok(lhs),
            }
        }
    }

    fn unary(&mut self, depth: usize) -> Result<Expr, LineError> {
        if depth > 64 {
            return Err((self.col(), "expression nested too deeply".into()));
        }
        let col = self.col();
        let Some(t) = self.peek() else {
            return Err((col, "expected a number, symbol or register".into()));
        };
        self.pos += 1;
        match &t.tok {
            Tok::Punct('-') => Ok(Expr::Neg(Box::new(self.unary(depth + 1)?))),
            Tok::Punct('+') => self.unary(depth + 1),
            Tok::Num(n) => Ok(Expr::Num(*n)),
            Tok::Punct('(') => {
                let e = self.expr(depth + 1)?;
                self.close_paren(col)?;
                Ok(e)
            }
            Tok::Ident(name) => {
                let func = name.to_ascii_lowercase();
                if (func == "hi" || func == "lo")
                    && self.peek().map(|t| &t.tok) == Some(&Tok::Punct('('))
                {
                    self.pos += 1;
                    let e = Box::new(self.expr(depth + 1)?);
                    self.close_paren(col)?;
                    Ok(if func == "hi" {
                        Expr::Hi(e)
                    } else {
                        Expr::Lo(e)
                    })
                } else {
                    Ok(Expr::Sym(name.clone(), col))
                }
            }
            _ => Err((col, "expected a number, symbol or register".into())),
        }
    }

    fn close_paren(&mut self, open: usize) -> Result<(), LineError> {
        match self.peek() {
            Some(Token {
                tok: Tok::Punct(')'),
                ..
            }) => {
                self.pos += 1;
                Ok(())
            }
            _ => Err((
                self.col(),
                format!("expected `)` to close `(` at column {open}"),
            )),
        }
    }
}

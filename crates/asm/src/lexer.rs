//! The lexer: assembly source → tokens with line/column spans. Comments (`#`, `//`, `/* */`)
//! are dropped; line ends and `;` become statement separators. Numeric local-label
//! references (`1b`, `1f`) are tokens of their own.

use crate::error::{AsmErrorKind, Located, Span};

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// Identifier, mnemonic, directive, register or symbol (letters, digits, `_ . $`).
    Ident(String),
    /// Integer literal or character literal.
    Num(i64),
    /// A float literal (only `.float` uses it).
    Float(f64),
    /// String literal (escapes resolved).
    Str(Vec<u8>),
    /// Numeric local label reference: number and direction (true = forward `f`).
    LocalRef(u32, bool),
    /// Punctuation: `, ( ) : + - * / % & | ^ ~ ! = @`, and `<` for `<<`, `>` for `>>`.
    Punct(char),
    /// End of a statement (line end or `;`).
    End,
}

impl Tok {
    /// How the token reads in an error message.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Num(n) => format!("`{n}`"),
            Tok::Float(f) => format!("`{f}`"),
            Tok::Str(_) => "a string".into(),
            Tok::LocalRef(n, f) => format!("`{n}{}`", if *f { 'f' } else { 'b' }),
            Tok::Punct('<') => "`<<`".into(),
            Tok::Punct('>') => "`>>`".into(),
            Tok::Punct(c) => format!("`{c}`"),
            Tok::End => "end of line".into(),
        }
    }
}

/// A token and where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Where it starts.
    pub span: Span,
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '.' || c == '$'
}
fn is_ident(c: char) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

struct Lexer<'a> {
    chars: Vec<char>,
    pos: usize,
    line: u32,
    col: u32,
    out: Vec<Token>,
    errors: Vec<Located>,
    _src: &'a str,
}

impl Lexer<'_> {
    fn peek(&self, k: usize) -> Option<char> {
        self.chars.get(self.pos + k).copied()
    }
    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.pos += 1;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }
    fn here(&self) -> Span {
        Span {
            line: self.line,
            col: self.col,
        }
    }
    fn error(&mut self, span: Span, msg: String) {
        self.errors.push(Located {
            span,
            kind: AsmErrorKind::Lex(msg),
        });
    }
    fn skip_line(&mut self) {
        while let Some(c) = self.peek(0) {
            if c == '\n' {
                break;
            }
            self.bump();
        }
    }

    /// An escape after `\` in a string or character literal.
    fn escape(&mut self, span: Span) -> Option<u8> {
        let c = self.bump()?;
        Some(match c {
            'n' => b'\n',
            't' => b'\t',
            'r' => b'\r',
            '0'..='7' => {
                let mut v = c as u32 - '0' as u32;
                for _ in 0..2 {
                    match self.peek(0) {
                        Some(d @ '0'..='7') => {
                            self.bump();
                            v = v * 8 + (d as u32 - '0' as u32);
                        }
                        _ => break,
                    }
                }
                (v & 0xff) as u8
            }
            'x' => {
                let mut v = 0u32;
                let mut n = 0;
                while let Some(d) = self.peek(0).and_then(|d| d.to_digit(16)) {
                    self.bump();
                    v = (v * 16 + d) & 0xff;
                    n += 1;
                }
                if n == 0 {
                    self.error(span, "`\\x` escape needs hex digits".into());
                }
                v as u8
            }
            'a' => 7,
            'b' => 8,
            'f' => 12,
            'v' => 11,
            'e' => 27,
            '\\' | '\'' | '"' => c as u8,
            other => {
                self.error(span, format!("unknown escape `\\{other}`"));
                other as u8
            }
        })
    }

    fn string(&mut self, span: Span) {
        self.bump();
        let mut bytes = Vec::new();
        loop {
            match self.peek(0) {
                None | Some('\n') => {
                    self.error(span, "unterminated string".into());
                    break;
                }
                Some('"') => {
                    self.bump();
                    break;
                }
                Some('\\') => {
                    self.bump();
                    if let Some(b) = self.escape(span) {
                        bytes.push(b);
                    }
                }
                Some(c) => {
                    self.bump();
                    let mut buf = [0u8; 4];
                    bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
        self.push(Tok::Str(bytes), span);
    }

    fn char_lit(&mut self, span: Span) {
        self.bump();
        let v = match self.bump() {
            Some('\\') => self.escape(span).map(|b| b as i64),
            Some('\n') | None => None,
            Some(c) => Some(c as i64),
        };
        // A closing quote is optional (GNU accepts 'a without it).
        if self.peek(0) == Some('\'') {
            self.bump();
        }
        match v {
            Some(v) => self.push(Tok::Num(v), span),
            None => self.error(span, "unterminated character literal".into()),
        }
    }

    fn number(&mut self, span: Span) {
        let start = self.pos;
        while self
            .peek(0)
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.bump();
        }
        // A float: digits '.' digits (only meaningful to `.float`).
        if self.peek(0) == Some('.') && self.peek(1).is_some_and(|c| c.is_ascii_digit()) {
            let all_digits = self.chars[start..self.pos]
                .iter()
                .all(|c| c.is_ascii_digit());
            if all_digits {
                self.bump();
                while self
                    .peek(0)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '.')
                {
                    let c = self.peek(0);
                    self.bump();
                    if matches!(c, Some('e' | 'E')) && matches!(self.peek(0), Some('+' | '-')) {
                        self.bump();
                    }
                }
                let text: String = self.chars[start..self.pos].iter().collect();
                match text.parse::<f64>() {
                    Ok(f) => self.push(Tok::Float(f), span),
                    Err(_) => self.error(span, format!("bad number `{text}`")),
                }
                return;
            }
        }
        let text: String = self.chars[start..self.pos].iter().collect();
        let lower = text.to_ascii_lowercase();
        // Local label references: `1b`, `12f`.
        if let Some(d) = lower.strip_suffix(['b', 'f']) {
            if !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()) {
                if let Ok(n) = d.parse::<u32>() {
                    self.push(Tok::LocalRef(n, lower.ends_with('f')), span);
                    return;
                }
            }
        }
        let clean = lower.replace('_', "");
        let parsed = if let Some(h) = clean.strip_prefix("0x") {
            u64::from_str_radix(h, 16)
        } else if let Some(b) = clean.strip_prefix("0b") {
            u64::from_str_radix(b, 2)
        } else if let Some(o) = clean.strip_prefix("0o") {
            u64::from_str_radix(o, 8)
        } else if clean.len() > 1 && clean.starts_with('0') {
            u64::from_str_radix(&clean[1..], 8)
        } else {
            clean.parse::<u64>()
        };
        match parsed {
            Ok(v) => self.push(Tok::Num(v as i64), span),
            Err(_) => self.error(span, format!("bad number `{text}`")),
        }
    }

    fn push(&mut self, tok: Tok, span: Span) {
        self.out.push(Token { tok, span });
    }

    fn run(&mut self) {
        while let Some(c) = self.peek(0) {
            let span = self.here();
            match c {
                '\n' => {
                    self.bump();
                    self.push(Tok::End, span);
                }
                ';' => {
                    self.bump();
                    self.push(Tok::End, span);
                }
                c if c.is_whitespace() => {
                    self.bump();
                }
                '#' => self.skip_line(),
                '/' if self.peek(1) == Some('/') => self.skip_line(),
                '/' if self.peek(1) == Some('*') => {
                    self.bump();
                    self.bump();
                    loop {
                        match self.peek(0) {
                            None => {
                                self.error(span, "unterminated `/*` comment".into());
                                break;
                            }
                            Some('*') if self.peek(1) == Some('/') => {
                                self.bump();
                                self.bump();
                                break;
                            }
                            Some(_) => {
                                self.bump();
                            }
                        }
                    }
                }
                '"' => self.string(span),
                '\'' => self.char_lit(span),
                c if c.is_ascii_digit() => self.number(span),
                c if is_ident_start(c) => {
                    let start = self.pos;
                    while self.peek(0).is_some_and(is_ident) {
                        self.bump();
                    }
                    let s: String = self.chars[start..self.pos].iter().collect();
                    self.push(Tok::Ident(s), span);
                }
                '<' | '>' => {
                    self.bump();
                    if self.peek(0) == Some(c) {
                        self.bump();
                        self.push(Tok::Punct(c), span);
                    } else {
                        self.error(span, format!("unexpected `{c}` (did you mean `{c}{c}`?)"));
                    }
                }
                ',' | '(' | ')' | ':' | '+' | '-' | '*' | '/' | '%' | '&' | '|' | '^' | '~'
                | '!' | '=' | '@' => {
                    self.bump();
                    self.push(Tok::Punct(c), span);
                }
                other => {
                    self.bump();
                    self.error(
                        span,
                        format!("unexpected character `{}`", other.escape_default()),
                    );
                }
            }
        }
        let span = self.here();
        self.push(Tok::End, span);
    }
}

/// Split source text into tokens. Lexical errors are returned alongside the tokens (the
/// offending characters are skipped), so the assembler can keep going.
pub fn lex(src: &str) -> (Vec<Token>, Vec<Located>) {
    let mut l = Lexer {
        chars: src.chars().collect(),
        pos: 0,
        line: 1,
        col: 1,
        out: Vec::new(),
        errors: Vec::new(),
        _src: src,
    };
    l.run();
    (l.out, l.errors)
}

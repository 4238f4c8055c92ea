//! Assembler and disassembler errors. An [`AsmError`] carries the file, line and column of
//! the problem and prints as `file:line:column: error: message`; one run collects several
//! into [`AsmErrors`].

use std::fmt;
use thiserror::Error;

/// A source position (1-based line and column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, PartialOrd, Ord)]
pub struct Span {
    /// Line, from 1.
    pub line: u32,
    /// Column (in characters), from 1.
    pub col: u32,
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum AsmErrorKind {
    /// A lexical problem (bad character, unterminated string or comment, bad number).
    #[error("{0}")]
    Lex(String),
    /// Something other than what the grammar allows here.
    #[error("expected {expected}, found {found}")]
    Expected {
        /// What would have been accepted.
        expected: String,
        /// What was there.
        found: String,
    },
    /// An unknown instruction mnemonic.
    #[error("unknown instruction `{name}`{hint}")]
    UnknownMnemonic {
        /// The mnemonic.
        name: String,
        /// Extra advice (may be empty).
        hint: &'static str,
    },
    /// An unknown directive.
    #[error("unknown directive `{0}`")]
    UnknownDirective(String),
    /// Wrong number of operands.
    #[error("`{mnemonic}` takes {expected}, found {found} operand(s)")]
    OperandCount {
        /// The mnemonic.
        mnemonic: String,
        /// The accepted forms.
        expected: String,
        /// How many were given.
        found: usize,
    },
    /// A symbol used but never defined.
    #[error("undefined symbol `{0}`")]
    Undefined(String),
    /// A label defined twice.
    #[error("symbol `{0}` is already defined")]
    Duplicate(String),
    /// A value that does not fit.
    #[error("{0}")]
    Range(String),
    /// An expression that must be known in the first pass (sizes, alignment) is not.
    #[error("{0} must be a constant known at this point")]
    NotConstant(String),
    /// Anything else, with a message.
    #[error("{0}")]
    Other(String),
}

/// One assembler error with its location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    /// Source file name (as given to the assembler).
    pub file: String,
    /// Location.
    pub span: Span,
    /// What went wrong.
    pub kind: AsmErrorKind,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.span.line, self.span.col, self.kind
        )
    }
}

impl std::error::Error for AsmError {}

/// All the errors of one run, in source order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmErrors(pub Vec<AsmError>);

impl fmt::Display for AsmErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for AsmErrors {}

/// An error before its file name is attached (inside one pass).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Located {
    pub span: Span,
    pub kind: AsmErrorKind,
}

pub(crate) type PResult<T> = Result<T, Located>;

pub(crate) fn err<T>(span: Span, kind: AsmErrorKind) -> PResult<T> {
    Err(Located { span, kind })
}

pub(crate) fn expected<T>(span: Span, expected: &str, found: &str) -> PResult<T> {
    err(
        span,
        AsmErrorKind::Expected {
            expected: expected.to_string(),
            found: found.to_string(),
        },
    )
}

/// Why an ELF cannot be disassembled.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum DisasmError {
    /// The ELF itself is invalid.
    #[error(transparent)]
    Elf(#[from] weft_elf::ElfError),
}

//! weft-asm: the weft assembler and disassembler.
//!
//! [`assemble`] turns GNU-style RISC-V assembly (RV32IMAF + Zicsr + Zifencei, weft's
//! `converge`/`diverge`, the Vortex SIMT instructions, the standard pseudo-instructions and
//! directives) into an ELF32 executable linked at 0x8000_0000. [`disassemble`] turns an
//! executable back into text that `assemble` accepts and that reproduces the same loaded
//! bytes at the same addresses.
//!
//! ```
//! let elf = weft_asm::assemble("_start: li a0, 42\n  ret\n", "demo.s").unwrap();
//! let text = weft_asm::disassemble(&elf).unwrap();
//! assert!(text.contains("addi a0, zero, 42"));
//! let again = weft_asm::assemble(&text, "demo.dis.s").unwrap();
//! assert_eq!(weft_elf::read_elf(&again).unwrap().segments,
//!            weft_elf::read_elf(&elf).unwrap().segments);
//! ```

mod assembler;
mod directives;
mod disasm;
pub mod error;
mod expr;
mod layout;
mod lexer;
mod operands;
mod pseudo;

pub use assembler::mnemonics;
pub use disasm::disassemble;
pub use error::{AsmError, AsmErrorKind, AsmErrors, DisasmError, Span};
pub use layout::{ProgSection, ProgSymbol, Program, TEXT_BASE};
pub use pseudo::PSEUDOS;

/// Assemble source text into a [`Program`] (sections and symbols at their final addresses).
/// `file_name` is used in error messages.
pub fn assemble_program(source: &str, file_name: &str) -> Result<Program, AsmErrors> {
    let (toks, lex_errors) = lexer::lex(source);
    let mut asm = assembler::Asm::new();
    asm.errors = lex_errors;
    asm.run_pass(1, &toks);
    // Pass 2 runs even after errors (skipping the statements that failed), so one run
    // reports as many problems as it can.
    let before = asm.errors.len();
    asm.layout();
    if asm.errors.len() == before {
        asm.run_pass(2, &toks);
    }
    if !asm.errors.is_empty() {
        let mut errs = std::mem::take(&mut asm.errors);
        errs.sort_by_key(|e| e.span);
        errs.dedup();
        return Err(AsmErrors(
            errs.into_iter()
                .map(|e| AsmError {
                    file: file_name.to_string(),
                    span: e.span,
                    kind: e.kind,
                })
                .collect(),
        ));
    }
    let program = asm.program();
    let entry_ok = program.sections.iter().any(|s| {
        s.flags.exec
            && s.flags.alloc
            && program.entry >= s.addr
            && (program.entry as u64) < s.addr as u64 + s.size as u64
    });
    if !entry_ok {
        let (span, what) = match &asm.entry {
            Some((_, span)) => (
                *span,
                format!("entry point {:#x} is not inside the code", program.entry),
            ),
            None => (
                Span { line: 1, col: 1 },
                "no code: an executable needs at least one instruction in `.text`".to_string(),
            ),
        };
        return Err(AsmErrors(vec![AsmError {
            file: file_name.to_string(),
            span,
            kind: AsmErrorKind::Other(what),
        }]));
    }
    Ok(program)
}

/// Assemble source text into the bytes of an ELF32 RISC-V executable.
pub fn assemble(source: &str, file_name: &str) -> Result<Vec<u8>, AsmErrors> {
    let program = assemble_program(source, file_name)?;
    program.to_elf().map_err(|e| {
        AsmErrors(vec![AsmError {
            file: file_name.to_string(),
            span: Span { line: 1, col: 1 },
            kind: AsmErrorKind::Other(e.to_string()),
        }])
    })
}

//! `weft asm IN.s -o OUT.elf` and `weft disasm FILE.elf`: thin wrappers that read files,
//! call weft-asm, and turn every failure into the message to print on stderr.

use std::path::Path;

/// Assemble `input` into the ELF executable `output`. Returns the exit status (0); `Err` is
/// the whole message for stderr (assembler errors are `file:line:column: error: …` lines).
pub fn asm(input: &Path, output: &Path) -> Result<i32, String> {
    let source = std::fs::read(input).map_err(|e| format!("{}: {e}", input.display()))?;
    let source = String::from_utf8(source)
        .map_err(|e| format!("{}: not UTF-8 text ({e})", input.display()))?;
    let name = input.display().to_string();
    let elf = weft_asm::assemble(&source, &name).map_err(|e| {
        let n = e.0.len();
        format!("{e}\n{n} error{} in {name}", if n == 1 { "" } else { "s" })
    })?;
    std::fs::write(output, elf).map_err(|e| format!("{}: {e}", output.display()))?;
    Ok(0)
}

/// Print the disassembly of `input` on stdout.
pub fn disasm(input: &Path) -> Result<i32, String> {
    let bytes = std::fs::read(input).map_err(|e| format!("{}: {e}", input.display()))?;
    let text = weft_asm::disassemble(&bytes).map_err(|e| format!("{}: {e}", input.display()))?;
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    // A closed pipe (`weft disasm f | head`) is not an error worth reporting.
    let _ = out.write_all(text.as_bytes());
    Ok(0)
}

//! The disassembler (placeholder).
use crate::error::DisasmError;
/// Disassemble.
pub fn disassemble(elf: &[u8]) -> Result<String, DisasmError> {
    let _ = weft_elf::read_elf(elf)?;
    Ok(String::new())
}

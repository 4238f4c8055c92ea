//! The disassembler: a [`Program`] or raw words → text the assembler accepts again.
//!
//! Instruction text comes from `Display` on [`Instr`] (the instruction table); this module
//! adds addresses, labels and `.word` for words that are not instructions.

use crate::isa::Instr;
use crate::program::{Program, Section};
use std::fmt::Write;

/// One word as text: the instruction, or `.word 0x…` if the opcode is unassigned.
pub fn word_text(word: u32) -> String {
    match Instr::decode(word) {
        Ok(i) => i.to_string(),
        Err(_) => format!(".word 0x{word:08X}"),
    }
}

/// A full listing: text with addresses, raw words and labels, then the data section.
/// Lines other than labels and section markers are comments plus re-assemblable text.
pub fn disassemble(p: &Program) -> String {
    let mut out = String::new();
    if let Some((w, h)) = p.fb_size {
        let _ = writeln!(out, ".fb {w} {h}");
    }
    let _ = writeln!(out, ".text");
    let labels = p.labels(Section::Text);
    for (addr, &word) in p.text.iter().enumerate() {
        for l in labels.iter().filter(|l| l.value as usize == addr) {
            let _ = writeln!(out, "{}:", l.name);
        }
        let _ = writeln!(out, "    {:<28} ; {addr:04X}: {word:08X}", word_text(word));
    }
    if !p.data.is_empty() {
        let _ = writeln!(out, ".data");
        let labels = p.labels(Section::Data);
        for (addr, &word) in p.data.iter().enumerate() {
            for l in labels.iter().filter(|l| l.value as usize == addr) {
                let _ = writeln!(out, "{}:", l.name);
            }
            let _ = writeln!(out, "    .word 0x{word:08X}{:<13} ; {addr:04X}", "");
        }
    }
    out
}

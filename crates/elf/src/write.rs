//! Writing an ELF32 RISC-V executable: the assembler (and any tool that builds an image)
//! describes sections and symbols with [`ElfBuilder`]; this module lays them out with the
//! `object` crate's ELF writer — file header, one `PT_LOAD` per allocated section with
//! R/W/X flags, the section contents, `.symtab`/`.strtab`/`.shstrtab` and section headers.

use crate::image::{SectionFlags, SectionKind, SymbolKind};
use object::elf;
use object::write::elf::{FileHeader, ProgramHeader, SectionHeader, Sym, Writer};
use object::Endianness;
use thiserror::Error;

/// Why an image cannot be written.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum WriteError {
    /// A symbol refers to a section index the builder does not have.
    #[error("symbol {0} refers to a missing section")]
    BadSymbolSection(String),
    /// A section's kind cannot be written by the builder.
    #[error("section {0}: only PROGBITS and NOBITS sections can be added")]
    BadSectionKind(String),
    /// The `object` writer failed.
    #[error("ELF writer: {0}")]
    Object(String),
}

/// A section to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutSection {
    /// Name (`.text`, `.data`, `.weft.reconv` …).
    pub name: String,
    /// `Progbits` or `Nobits`.
    pub kind: SectionKind,
    /// Load address (ignored for non-allocated sections).
    pub addr: u32,
    /// Contents (for NOBITS: empty; `size` gives the size).
    pub data: Vec<u8>,
    /// Size in memory (for PROGBITS, `data.len()`).
    pub size: u32,
    /// Flags.
    pub flags: SectionFlags,
    /// Alignment (power of two, at least 1).
    pub align: u32,
}

impl OutSection {
    /// A section with file contents.
    pub fn progbits(name: &str, addr: u32, data: Vec<u8>, flags: SectionFlags) -> OutSection {
        OutSection {
            name: name.to_string(),
            kind: SectionKind::Progbits,
            addr,
            size: data.len() as u32,
            data,
            flags,
            align: 4,
        }
    }
    /// A zero-filled section (`.bss`).
    pub fn nobits(name: &str, addr: u32, size: u32, flags: SectionFlags) -> OutSection {
        OutSection {
            name: name.to_string(),
            kind: SectionKind::Nobits,
            addr,
            data: Vec::new(),
            size,
            flags,
            align: 4,
        }
    }
}

/// A symbol to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutSymbol {
    /// Name.
    pub name: String,
    /// Value (address).
    pub value: u32,
    /// Size in bytes.
    pub size: u32,
    /// Type.
    pub kind: SymbolKind,
    /// Global (else local).
    pub global: bool,
    /// Index into the builder's sections; `None` for an absolute symbol (`.equ`).
    pub section: Option<usize>,
}

/// Builds an ELF32 little-endian RISC-V executable.
#[derive(Clone, Debug, Default)]
pub struct ElfBuilder {
    /// Entry point.
    pub entry: u32,
    /// Sections in output order.
    pub sections: Vec<OutSection>,
    /// Symbols (any order; locals are written first).
    pub symbols: Vec<OutSymbol>,
    /// The code uses compressed instructions (sets `EF_RISCV_RVC`).
    pub rvc: bool,
}

/// RISC-V ELF flags: single-precision float ABI (the assembler's output uses F registers).
const EF_RISCV_FLOAT_ABI_SINGLE: u32 = 0x2;

impl ElfBuilder {
    /// An empty executable with this entry point.
    pub fn new(entry: u32) -> ElfBuilder {
        ElfBuilder {
            entry,
            ..Default::default()
        }
    }

    /// Add a section; returns its index for [`OutSymbol::section`].
    pub fn add_section(&mut self, s: OutSection) -> usize {
        self.sections.push(s);
        self.sections.len() - 1
    }

    /// Add a symbol.
    pub fn add_symbol(&mut self, s: OutSymbol) {
        self.symbols.push(s);
    }

    /// Lay out and write the file.
    pub fn write(&self) -> Result<Vec<u8>, WriteError> {
        for s in &self.sections {
            if !matches!(s.kind, SectionKind::Progbits | SectionKind::Nobits) {
                return Err(WriteError::BadSectionKind(s.name.clone()));
            }
        }
        for s in &self.symbols {
            if s.section.is_some_and(|i| i >= self.sections.len()) {
                return Err(WriteError::BadSymbolSection(s.name.clone()));
            }
        }
        let loaded: Vec<usize> = (0..self.sections.len())
            .filter(|&i| self.sections[i].flags.alloc && self.sections[i].size > 0)
            .collect();
        let mut symbols: Vec<&OutSymbol> = self.symbols.iter().filter(|s| !s.global).collect();
        let num_local = symbols.len() as u32 + 1;
        symbols.extend(self.symbols.iter().filter(|s| s.global));

        let mut buf = Vec::new();
        let mut w = Writer::new(Endianness::Little, false, &mut buf);

        // Reserve: header, program headers, section data, tables, section headers.
        w.reserve_file_header();
        w.reserve_program_headers(loaded.len() as u32);
        w.reserve_null_section_index();
        let mut indices = Vec::new();
        let mut offsets = Vec::new();
        for s in &self.sections {
            let name = w.add_section_name(s.name.as_bytes());
            indices.push((name, w.reserve_section_index()));
            if s.kind == SectionKind::Progbits {
                let align = s.align.max(1) as usize;
                let mut off = w.reserved_len().next_multiple_of(align.max(4));
                // A loadable segment needs offset ≡ vaddr (mod alignment).
                if s.flags.alloc {
                    let a = align.max(4);
                    while off % a != s.addr as usize % a {
                        off += 1;
                    }
                }
                w.reserve_until(off);
                offsets.push(w.reserve(s.data.len(), 1));
            } else {
                offsets.push(w.reserved_len());
            }
        }
        w.reserve_null_symbol_index();
        let names: Vec<_> = symbols
            .iter()
            .map(|s| (w.add_string(s.name.as_bytes()), s))
            .collect();
        for (_, s) in &names {
            w.reserve_symbol_index(s.section.map(|i| indices[i].1));
        }
        w.reserve_symtab_section_index();
        w.reserve_symtab();
        w.reserve_strtab_section_index();
        w.reserve_strtab();
        w.reserve_shstrtab_section_index();
        w.reserve_shstrtab();
        w.reserve_section_headers();

        // Write, in the same order.
        w.write_file_header(&FileHeader {
            os_abi: elf::ELFOSABI_NONE,
            abi_version: 0,
            e_type: elf::ET_EXEC,
            e_machine: elf::EM_RISCV,
            e_entry: self.entry as u64,
            e_flags: EF_RISCV_FLOAT_ABI_SINGLE | if self.rvc { crate::ef::RVC } else { 0 },
        })
        .map_err(|e| WriteError::Object(e.to_string()))?;
        w.write_align_program_headers();
        for &i in &loaded {
            let s = &self.sections[i];
            let filesz = if s.kind == SectionKind::Progbits {
                s.data.len() as u64
            } else {
                0
            };
            let flags = elf::PF_R
                | if s.flags.write { elf::PF_W } else { 0 }
                | if s.flags.exec { elf::PF_X } else { 0 };
            w.write_program_header(&ProgramHeader {
                p_type: elf::PT_LOAD,
                p_flags: flags,
                p_offset: offsets[i] as u64,
                p_vaddr: s.addr as u64,
                p_paddr: s.addr as u64,
                p_filesz: filesz,
                p_memsz: s.size as u64,
                p_align: s.align.max(4) as u64,
            });
        }
        for (i, s) in self.sections.iter().enumerate() {
            if s.kind == SectionKind::Progbits {
                w.pad_until(offsets[i]);
                w.write(&s.data);
            }
        }
        w.write_null_symbol();
        for (name, s) in &names {
            let bind = if s.global {
                elf::STB_GLOBAL
            } else {
                elf::STB_LOCAL
            };
            w.write_symbol(&Sym {
                name: Some(*name),
                section: s.section.map(|i| indices[i].1),
                st_info: (bind << 4) | s.kind.bits(),
                st_other: elf::STV_DEFAULT,
                st_shndx: if s.section.is_some() { 0 } else { elf::SHN_ABS },
                st_value: s.value as u64,
                st_size: s.size as u64,
            });
        }
        w.write_strtab();
        w.write_shstrtab();
        w.write_null_section_header();
        for (i, s) in self.sections.iter().enumerate() {
            w.write_section_header(&SectionHeader {
                name: Some(indices[i].0),
                sh_type: if s.kind == SectionKind::Nobits {
                    elf::SHT_NOBITS
                } else {
                    elf::SHT_PROGBITS
                },
                sh_flags: s.flags.bits() as u64,
                sh_addr: if s.flags.alloc { s.addr as u64 } else { 0 },
                sh_offset: offsets[i] as u64,
                sh_size: s.size as u64,
                sh_link: 0,
                sh_info: 0,
                sh_addralign: s.align.max(1) as u64,
                sh_entsize: 0,
            });
        }
        w.write_symtab_section_header(num_local);
        w.write_strtab_section_header();
        w.write_shstrtab_section_header();
        Ok(buf)
    }
}

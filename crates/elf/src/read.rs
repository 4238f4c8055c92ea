//! Reading an ELF32 RISC-V executable into an [`ElfImage`], validating every header, offset
//! and size against the file. The `object` crate parses the structures; this module adds
//! weft's checks (class, byte order, machine, type, segments within the file and not
//! overlapping, entry inside an executable segment) and turns everything into typed errors.

use crate::image::{
    ElfImage, Section, SectionFlags, SectionKind, Segment, SegmentFlags, Symbol, SymbolBinding,
    SymbolKind,
};
use object::elf;
use object::read::elf::{FileHeader, ProgramHeader, SectionHeader, Sym};
use object::LittleEndian as LE;
use thiserror::Error;

/// Why a byte string is not a usable weft executable.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ElfError {
    /// Shorter than an ELF header.
    #[error("file too short for an ELF header ({0} bytes, need 52)")]
    TooShort(usize),
    /// The magic number is wrong.
    #[error("not an ELF file (bad magic number)")]
    NotElf,
    /// ELF64 or an unknown class.
    #[error("not an ELF32 file (class {0}; weft runs 32-bit RISC-V)")]
    Class(u8),
    /// Big-endian or an unknown byte order.
    #[error("not a little-endian ELF (data encoding {0})")]
    Endian(u8),
    /// Not RISC-V.
    #[error("not a RISC-V ELF (machine {0}, expected 243 = EM_RISCV)")]
    Machine(u16),
    /// A relocatable object, a core file or an unknown type.
    #[error("not an executable (ELF type {0}{hint})", hint = if *.0 == 1 { ": a relocatable object, link it first" } else { "" })]
    Type(u16),
    /// A header-level structure is malformed (from the parser).
    #[error("malformed ELF: {0}")]
    Malformed(String),
    /// A segment's file bytes lie outside the file.
    #[error("segment {index}: file range {offset:#x}+{size:#x} is outside the file ({file_len:#x} bytes)")]
    SegmentOutsideFile {
        /// Program header index.
        index: usize,
        /// `p_offset`.
        offset: u32,
        /// `p_filesz`.
        size: u32,
        /// File length.
        file_len: usize,
    },
    /// `p_filesz` > `p_memsz`.
    #[error("segment {index}: file size {filesz:#x} exceeds memory size {memsz:#x}")]
    SegmentFileSize {
        /// Program header index.
        index: usize,
        /// `p_filesz`.
        filesz: u32,
        /// `p_memsz`.
        memsz: u32,
    },
    /// A segment runs past the end of the 32-bit address space.
    #[error("segment {index}: {vaddr:#x}+{memsz:#x} wraps past the end of the address space")]
    SegmentWraps {
        /// Program header index.
        index: usize,
        /// `p_vaddr`.
        vaddr: u32,
        /// `p_memsz`.
        memsz: u32,
    },
    /// Two loadable segments share addresses.
    #[error("segments {a} and {b} overlap in memory ({a_start:#x}..{a_end:#x} and {b_start:#x}..{b_end:#x})")]
    SegmentOverlap {
        /// First program header index.
        a: usize,
        /// Second program header index.
        b: usize,
        /// First segment's range.
        a_start: u64,
        /// End of the first segment.
        a_end: u64,
        /// Second segment's range.
        b_start: u64,
        /// End of the second segment.
        b_end: u64,
    },
    /// No `PT_LOAD` segment.
    #[error("no loadable segment")]
    NoSegments,
    /// The entry point is not inside an executable segment.
    #[error("entry point {0:#x} is not inside an executable loadable segment")]
    Entry(u32),
    /// A section's contents lie outside the file.
    #[error("section {index} ({name}): contents outside the file")]
    SectionOutsideFile {
        /// Section header index.
        index: usize,
        /// Its name (possibly empty).
        name: String,
    },
    /// A section or symbol name is not valid.
    #[error("{0}: name is not valid UTF-8")]
    BadName(&'static str),
}

impl From<object::read::Error> for ElfError {
    fn from(e: object::read::Error) -> Self {
        ElfError::Malformed(e.to_string())
    }
}

/// Parse and validate an ELF32 little-endian RISC-V executable.
pub fn read_elf(bytes: &[u8]) -> Result<ElfImage, ElfError> {
    if bytes.len() < 52 {
        if bytes.len() >= 4 && bytes[..4] != elf::ELFMAG {
            return Err(ElfError::NotElf);
        }
        return Err(ElfError::TooShort(bytes.len()));
    }
    if bytes[..4] != elf::ELFMAG {
        return Err(ElfError::NotElf);
    }
    if bytes[4] != elf::ELFCLASS32 {
        return Err(ElfError::Class(bytes[4]));
    }
    if bytes[5] != elf::ELFDATA2LSB {
        return Err(ElfError::Endian(bytes[5]));
    }
    let header = elf::FileHeader32::<LE>::parse(bytes)?;
    let e = LE;
    let machine = header.e_machine(e);
    if machine != elf::EM_RISCV {
        return Err(ElfError::Machine(machine));
    }
    let ty = header.e_type(e);
    if ty != elf::ET_EXEC && ty != elf::ET_DYN {
        return Err(ElfError::Type(ty));
    }
    let entry = header.e_entry(e);

    let segments = read_segments(header, bytes)?;
    if !segments
        .iter()
        .any(|s| s.flags.may_execute() && s.contains(entry))
    {
        return Err(ElfError::Entry(entry));
    }
    let (sections, symbols) = read_sections(header, bytes)?;
    Ok(ElfImage {
        entry,
        flags: header.e_flags(e),
        segments,
        sections,
        symbols,
    })
}

fn read_segments(header: &elf::FileHeader32<LE>, bytes: &[u8]) -> Result<Vec<Segment>, ElfError> {
    let e = LE;
    let phdrs = header.program_headers(e, bytes)?;
    let mut out: Vec<(usize, Segment)> = Vec::new();
    for (index, ph) in phdrs.iter().enumerate() {
        if ph.p_type(e) != elf::PT_LOAD {
            continue;
        }
        let (offset, filesz, memsz, vaddr) =
            (ph.p_offset(e), ph.p_filesz(e), ph.p_memsz(e), ph.p_vaddr(e));
        let end = offset as u64 + filesz as u64;
        if end > bytes.len() as u64 {
            return Err(ElfError::SegmentOutsideFile {
                index,
                offset,
                size: filesz,
                file_len: bytes.len(),
            });
        }
        if filesz > memsz {
            return Err(ElfError::SegmentFileSize {
                index,
                filesz,
                memsz,
            });
        }
        if vaddr as u64 + memsz as u64 > 1u64 << 32 {
            return Err(ElfError::SegmentWraps {
                index,
                vaddr,
                memsz,
            });
        }
        if memsz == 0 {
            continue;
        }
        let seg = Segment {
            vaddr,
            data: bytes[offset as usize..end as usize].to_vec(),
            memsz,
            flags: SegmentFlags::from_bits(ph.p_flags(e)),
        };
        for (other_index, other) in &out {
            if (seg.vaddr as u64) < other.end() && (other.vaddr as u64) < seg.end() {
                return Err(ElfError::SegmentOverlap {
                    a: *other_index,
                    b: index,
                    a_start: other.vaddr as u64,
                    a_end: other.end(),
                    b_start: seg.vaddr as u64,
                    b_end: seg.end(),
                });
            }
        }
        out.push((index, seg));
    }
    if out.is_empty() {
        return Err(ElfError::NoSegments);
    }
    Ok(out.into_iter().map(|(_, s)| s).collect())
}

fn utf8(what: &'static str, b: &[u8]) -> Result<String, ElfError> {
    std::str::from_utf8(b)
        .map(str::to_string)
        .map_err(|_| ElfError::BadName(what))
}

type SectionsAndSymbols = (Vec<Section>, Vec<Symbol>);

fn read_sections(
    header: &elf::FileHeader32<LE>,
    bytes: &[u8],
) -> Result<SectionsAndSymbols, ElfError> {
    let e = LE;
    let table = header.sections(e, bytes)?;
    let mut names = Vec::with_capacity(table.len());
    let mut sections = Vec::new();
    for (index, sh) in table.iter().enumerate() {
        let name = utf8("section", table.section_name(e, sh)?)?;
        names.push(name.clone());
        if index == 0 {
            continue;
        }
        let kind = match sh.sh_type(e) {
            elf::SHT_PROGBITS => SectionKind::Progbits,
            elf::SHT_NOBITS => SectionKind::Nobits,
            elf::SHT_SYMTAB => SectionKind::Symtab,
            elf::SHT_STRTAB => SectionKind::Strtab,
            t => SectionKind::Other(t),
        };
        let data = if kind == SectionKind::Nobits {
            Vec::new()
        } else {
            sh.data(e, bytes)
                .map_err(|_| ElfError::SectionOutsideFile {
                    index,
                    name: name.clone(),
                })?
                .to_vec()
        };
        sections.push(Section {
            name,
            kind,
            addr: sh.sh_addr(e),
            size: sh.sh_size(e),
            data,
            flags: SectionFlags::from_bits(sh.sh_flags(e)),
            align: sh.sh_addralign(e),
        });
    }
    let mut symbols = Vec::new();
    let symtab = table.symbols(e, bytes, elf::SHT_SYMTAB)?;
    for (index, sym) in symtab.iter().enumerate() {
        if index == 0 {
            continue;
        }
        let name = utf8("symbol", symtab.symbol_name(e, sym)?)?;
        let shndx = sym.st_shndx(e);
        let section = if shndx == elf::SHN_UNDEF || shndx >= elf::SHN_LORESERVE {
            None
        } else {
            names.get(shndx as usize).cloned()
        };
        symbols.push(Symbol {
            name,
            value: sym.st_value(e),
            size: sym.st_size(e),
            kind: SymbolKind::from_bits(sym.st_type()),
            binding: SymbolBinding::from_bits(sym.st_bind()),
            section,
        });
    }
    Ok((sections, symbols))
}

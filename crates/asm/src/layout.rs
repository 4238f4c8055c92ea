//! Layout and output: after pass 1, every section gets its address (`.text` at 0x8000_0000,
//! then read-only data, writable data and zero-filled sections, each aligned, unless `.base`
//! fixed it); after pass 2, the sections and symbols become a [`Program`] and an ELF file.

use crate::assembler::{Asm, SymDef};
use crate::error::{AsmErrorKind, Located};
use weft_elf::{ElfBuilder, OutSection, OutSymbol, SectionFlags, SectionKind};

/// Where `.text` starts.
pub const TEXT_BASE: u32 = 0x8000_0000;

/// One assembled section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgSection {
    /// Name.
    pub name: String,
    /// Load address (0 for sections that are not loaded).
    pub addr: u32,
    /// Contents (empty for zero-filled sections).
    pub data: Vec<u8>,
    /// Size in memory.
    pub size: u32,
    /// Flags.
    pub flags: SectionFlags,
    /// Zero-filled (`.bss`).
    pub nobits: bool,
    /// Alignment.
    pub align: u32,
}

/// One symbol of the assembled program: exactly what the ELF writer takes (value is an
/// address or the value of an `.equ`; size is explicit `.size`, or up to the next label for
/// code labels; `section` indexes [`Program::sections`], `None` for absolute symbols).
pub type ProgSymbol = OutSymbol;

/// An assembled program, before it is written as ELF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Entry point.
    pub entry: u32,
    /// Sections (empty ones left out).
    pub sections: Vec<ProgSection>,
    /// Symbols (temporary `.L` and numeric local labels left out).
    pub symbols: Vec<ProgSymbol>,
    /// Whether any compressed instruction was assembled (the ELF's `EF_RISCV_RVC` flag).
    pub rvc: bool,
}

fn rank(s: &crate::assembler::SectionState) -> u8 {
    match (s.flags.alloc, s.flags.exec, s.flags.write, s.nobits) {
        (false, ..) => 4,
        (true, true, ..) => 0,
        (true, false, _, true) => 3,
        (true, false, false, false) => 1,
        (true, false, true, false) => 2,
    }
}

impl Asm {
    /// Give every section its address.
    pub(crate) fn layout(&mut self) {
        let mut order: Vec<usize> = (0..self.sections.len()).collect();
        order.sort_by_key(|&i| (rank(&self.sections[i]), i));
        let mut cursor: u64 = TEXT_BASE as u64;
        for &i in &order {
            let s = &mut self.sections[i];
            if !s.flags.alloc {
                s.addr = 0;
                continue;
            }
            let a = s.align.max(4) as u64;
            let addr = match s.base {
                Some(b) => b as u64,
                None => cursor.div_ceil(a) * a,
            };
            s.addr = addr as u32;
            if addr + s.offset > 1 << 32 {
                self.errors.push(Located {
                    span: s.span,
                    kind: AsmErrorKind::Range(format!(
                        "section `{}` does not fit below 4 GiB",
                        s.name
                    )),
                });
            }
            cursor = cursor.max(addr + s.offset);
        }
        // Overlapping loaded sections (possible with `.base`).
        for &i in &order {
            for &j in &order {
                let (a, b) = (&self.sections[i], &self.sections[j]);
                if i < j
                    && a.flags.alloc
                    && b.flags.alloc
                    && a.offset > 0
                    && b.offset > 0
                    && (a.addr as u64) < b.addr as u64 + b.offset
                    && (b.addr as u64) < a.addr as u64 + a.offset
                {
                    let span = a.span.max(b.span);
                    let msg = format!("sections `{}` and `{}` overlap", a.name, b.name);
                    self.errors.push(Located {
                        span,
                        kind: AsmErrorKind::Other(msg),
                    });
                }
            }
        }
    }

    /// Collect the program after pass 2.
    pub(crate) fn program(&self) -> Program {
        let mut index = vec![None; self.sections.len()];
        let mut sections = Vec::new();
        let mut order: Vec<usize> = (0..self.sections.len()).collect();
        order.sort_by_key(|&i| (rank(&self.sections[i]), i));
        for &i in &order {
            let s = &self.sections[i];
            if s.offset == 0 {
                continue;
            }
            index[i] = Some(sections.len());
            sections.push(ProgSection {
                name: s.name.clone(),
                addr: s.addr,
                data: s.data.clone(),
                size: s.offset as u32,
                flags: s.flags,
                nobits: s.nobits,
                align: s.align,
            });
        }
        let mut symbols = Vec::new();
        for name in &self.order {
            let Some(info) = self.symbols.get(name) else {
                continue;
            };
            if name.starts_with(".L") {
                continue;
            }
            let (value, section) = match &info.def {
                Some(SymDef::Label { section, offset }) => {
                    (self.address(*section, *offset) as u32, index[*section])
                }
                Some(SymDef::Value(v)) => (*v as u32, None),
                // Deferred definitions were all turned into values by pass 2.
                Some(SymDef::Deferred { .. }) | None => continue,
            };
            symbols.push((name, info, value, section));
        }
        // Code labels without `.size` extend to the next label of their section.
        let mut out = Vec::new();
        for &(name, info, value, section) in &symbols {
            let size = match (info.size, section) {
                (Some(s), _) => s,
                (None, Some(si)) if sections[si].flags.exec => {
                    let sec = &sections[si];
                    let end = sec.addr as u64 + sec.size as u64;
                    let next = symbols
                        .iter()
                        .filter(|s| s.3 == Some(si) && s.2 > value)
                        .map(|s| s.2 as u64)
                        .min()
                        .unwrap_or(end);
                    (next - value as u64) as u32
                }
                _ => 0,
            };
            out.push(ProgSymbol {
                name: name.clone(),
                value,
                size,
                kind: info.kind,
                global: info.global,
                section,
            });
        }
        let text = sections
            .iter()
            .find(|s| s.flags.exec)
            .map(|s| s.addr)
            .unwrap_or(TEXT_BASE);
        let entry = self.entry_value.unwrap_or_else(|| {
            out.iter()
                .find(|s| s.name == "_start" && s.section.is_some())
                .map(|s| s.value)
                .unwrap_or(text)
        });
        Program {
            entry,
            sections,
            symbols: out,
            rvc: self.rvc,
        }
    }
}

impl Program {
    /// Write the program as an ELF32 RISC-V executable.
    pub fn to_elf(&self) -> Result<Vec<u8>, weft_elf::WriteError> {
        let mut b = ElfBuilder::new(self.entry);
        b.rvc = self.rvc;
        for s in &self.sections {
            b.add_section(OutSection {
                name: s.name.clone(),
                kind: if s.nobits {
                    SectionKind::Nobits
                } else {
                    SectionKind::Progbits
                },
                addr: s.addr,
                data: s.data.clone(),
                size: s.size,
                flags: s.flags,
                align: s.align.max(1),
            });
        }
        for s in &self.symbols {
            b.add_symbol(s.clone());
        }
        b.write()
    }
}

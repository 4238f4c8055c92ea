//! Loading programs, as a library for every front end (the command line, test harnesses, a
//! runtime or debugger): [`load_file`] tells the formats apart (a Vortex `.vxbin`, an ELF, or
//! assembly source that is assembled on load); [`program_from_elf`] turns an ELF into a
//! [`Program`]: PT_LOAD segments, symbols, the HTIF `tohost` word, and the reconvergence table
//! — read from the `.weft.reconv` section when the toolchain stored one, otherwise computed
//! here from the code and its function symbols.

use crate::program::{Program, Segment};
use weft_elf::{read_elf, SymbolBinding, SymbolKind};
use weft_reconv::{analyze_with_data, CodeRegion, DataRegion, ReconvTable, Symbol};

/// Where the reconvergence table came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableSource {
    /// The ELF's `.weft.reconv` section.
    Section,
    /// Computed on load.
    Computed,
}

/// Why an ELF cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ElfLoadError {
    #[error("{0}")]
    Elf(#[from] weft_elf::ElfError),
    #[error("reconvergence section: {0}")]
    Section(#[from] weft_reconv::SectionError),
    #[error("reconvergence analysis: {0}")]
    Analysis(#[from] weft_reconv::AnalysisError),
}

/// Why a program file cannot be loaded. Each message names the file.
#[derive(Debug, thiserror::Error)]
pub enum FileLoadError {
    /// The file cannot be read.
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// Neither ELF nor text.
    #[error("{0}: neither an ELF file nor UTF-8 assembly source")]
    NotText(String),
    /// The assembler's report (its lines name file, line and column).
    #[error("{0}")]
    Asm(String),
    /// A bad ELF or `.vxbin` image.
    #[error("{path}: {msg}")]
    Image { path: String, msg: String },
    /// Text that is not assembly (a README, a config file): one line, not an error per line.
    #[error("{path}: not an ELF, assembly or C source ({why}); weft runs ELF executables, .s/.S assembly, .c/.cpp kernels and .vxbin images")]
    NotProgram { path: String, why: String },
}

/// A program file's ELF bytes: an ELF as it is, anything else assembled as weft assembly.
pub fn program_bytes(path: &std::path::Path) -> Result<Vec<u8>, FileLoadError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| FileLoadError::Io {
        path: name.clone(),
        source,
    })?;
    if bytes.starts_with(b"\x7fELF") {
        return Ok(bytes);
    }
    let ext = path.extension().map(|e| e.to_string_lossy().into_owned());
    if let Some(e) = ext.as_deref().filter(|e| !ASM_EXTENSIONS.contains(e)) {
        return Err(FileLoadError::NotProgram {
            path: name,
            why: format!("a .{e} file that is not ELF"),
        });
    }
    let text = String::from_utf8(bytes).map_err(|_| FileLoadError::NotText(name.clone()))?;
    weft_asm::assemble(&text, &name).map_err(|e| {
        let report = e.to_string();
        // The lines with an error (`NAME:LINE:COLUMN: error: …`).
        let mut bad: Vec<&str> = report
            .lines()
            .filter(|l| l.contains(": error: "))
            .filter_map(|l| l.strip_prefix(name.as_str())?.split(':').nth(1))
            .collect();
        bad.dedup();
        let errors = bad.len();
        let lines = text
            .lines()
            .filter(|l| {
                let l = l.trim();
                !l.is_empty() && !l.starts_with('#') && !l.starts_with("//")
            })
            .count();
        // A file without an extension whose lines are mostly not assembly is some other
        // text: say so once rather than once per line.
        if ext.is_none() && errors > 10 && errors * 2 > lines {
            let first = report.lines().next().unwrap_or_default().to_string();
            FileLoadError::NotProgram {
                path: name.clone(),
                why: format!("{errors} of its {lines} lines are not assembly; the first: {first}"),
            }
        } else {
            FileLoadError::Asm(report.trim_end().to_string())
        }
    })
}

/// Extensions of assembly source files (a file without an extension may be one too).
const ASM_EXTENSIONS: [&str; 4] = ["s", "S", "asm", "inc"];

/// Load a program file: a `.vxbin` (by its extension, or a binary that is neither ELF nor
/// text but has a valid `.vxbin` header), otherwise an ELF or assembly source.
pub fn load_file(path: &std::path::Path) -> Result<(Program, TableSource), FileLoadError> {
    let name = path.display().to_string();
    let raw = std::fs::read(path).map_err(|source| FileLoadError::Io {
        path: name.clone(),
        source,
    })?;
    let by_ext = path.extension().is_some_and(|e| e == "vxbin");
    let by_content = !raw.starts_with(b"\x7fELF")
        && std::str::from_utf8(&raw).is_err()
        && crate::vortex::vxbin::looks_like_vxbin(&raw);
    let image = |msg: String| FileLoadError::Image {
        path: name.clone(),
        msg,
    };
    if by_ext || by_content {
        let p = crate::vortex::vxbin::program_from_vxbin(&raw).map_err(|e| image(e.to_string()))?;
        return Ok((p, TableSource::Computed));
    }
    let bytes = program_bytes(path)?;
    program_from_elf(&bytes).map_err(|e| image(e.to_string()))
}

/// Read an ELF image into a program, with its reconvergence table.
pub fn program_from_elf(bytes: &[u8]) -> Result<(Program, TableSource), ElfLoadError> {
    let img = read_elf(bytes)?;
    let segments: Vec<Segment> = img
        .segments
        .iter()
        .map(|s| Segment {
            addr: s.vaddr,
            data: s.data.clone(),
            mem_size: s.memsz,
            exec: s.flags.may_execute(),
        })
        .collect();
    let symbols: Vec<(String, u32)> = img
        .symbols
        .iter()
        .filter(|s| !s.name.is_empty() && !matches!(s.kind, SymbolKind::Section | SymbolKind::File))
        .map(|s| (s.name.clone(), s.value))
        .collect();
    let tohost = img.symbol("tohost").map(|s| s.value);
    let fromhost = img.symbol("fromhost").map(|s| s.value);
    let (table, source) = match img.section(weft_reconv::SECTION_NAME) {
        Some(sec) => (
            ReconvTable::from_section_bytes(&sec.data)?,
            TableSource::Section,
        ),
        None => (analyze_image(&img)?.table, TableSource::Computed),
    };
    let reconv = crate::divergence::reconv_map(&table);
    Ok((
        Program {
            entry: img.entry,
            segments,
            symbols,
            tohost,
            fromhost,
            reconv,
        },
        source,
    ))
}

fn has_funcs(img: &weft_elf::ElfImage) -> bool {
    img.symbols.iter().any(|s| s.kind == SymbolKind::Func)
}

/// Run the reconvergence analysis on an image's executable segments, reading `switch` jump
/// tables from every loaded segment. Function starts are the FUNC symbols; in code with none
/// (hand-written assembly without `.type`), the global labels. Local labels are never
/// function starts (a loop label would split its loop).
pub fn analyze_image(
    img: &weft_elf::ElfImage,
) -> Result<weft_reconv::Analysis, weft_reconv::AnalysisError> {
    let regions: Vec<CodeRegion> = img
        .segments
        .iter()
        .filter(|s| s.flags.may_execute() && s.vaddr % 2 == 0)
        .map(|s| CodeRegion {
            base: s.vaddr,
            bytes: &s.data,
        })
        .collect();
    let funcs_typed = has_funcs(img);
    let funcs: Vec<Symbol> = img
        .symbols
        .iter()
        .filter(|s| {
            let func = if funcs_typed {
                s.kind == SymbolKind::Func
            } else {
                s.kind == SymbolKind::NoType && s.binding == SymbolBinding::Global
            };
            func && !s.name.is_empty()
                && img
                    .segments
                    .iter()
                    .any(|g| g.flags.may_execute() && g.contains(s.value))
        })
        .map(|s| {
            Symbol::new(
                s.name.clone(),
                s.value,
                if s.kind == SymbolKind::Func {
                    s.size
                } else {
                    0
                },
            )
        })
        .collect();
    let data: Vec<DataRegion> = img
        .segments
        .iter()
        .map(|s| DataRegion {
            base: s.vaddr,
            bytes: &s.data,
        })
        .collect();
    analyze_with_data(&regions, &data, &funcs)
}

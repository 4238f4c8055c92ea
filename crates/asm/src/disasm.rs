//! The disassembler: an ELF32 executable → assembly text that `weft asm` accepts and that
//! reproduces the same loaded bytes at the same addresses. Each loaded section becomes a
//! `.section` with its address (`.base`); code is one instruction per line with its address
//! and raw word in a leading comment, branch targets annotated `<symbol+off>`; words that do
//! not decode, and data, are `.word`/`.byte`; zero-filled sections are `.zero`.

use crate::error::DisasmError;
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write;
use weft_elf::{read_elf, ElfImage, SectionFlags, SectionKind, SymbolBinding, SymbolKind};
use weft_isa::Inst;

/// One loaded region to print.
struct Region {
    name: String,
    addr: u32,
    data: Vec<u8>,
    /// Memory size (≥ data.len(); the rest is zero-filled).
    size: u32,
    flags: SectionFlags,
    nobits: bool,
    align: u32,
}

fn valid_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '.' || c == '$')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'))
        && s != "."
}

/// Regions from the section headers, or from the segments when the sections do not cover
/// every loaded byte (stripped files, headers loaded with the code).
fn regions(img: &ElfImage) -> Vec<Region> {
    let from_sections: Vec<Region> = img
        .sections
        .iter()
        .filter(|s| s.flags.alloc && s.size > 0)
        .filter(|s| matches!(s.kind, SectionKind::Progbits | SectionKind::Nobits))
        .map(|s| Region {
            name: s.name.clone(),
            addr: s.addr,
            data: s.data.clone(),
            size: s.size,
            flags: s.flags,
            nobits: s.kind == SectionKind::Nobits,
            align: s.align,
        })
        .collect();
    let covered = |seg: &weft_elf::Segment| {
        // Every byte of the segment lies in some section.
        let mut at = seg.vaddr as u64;
        let end = seg.end();
        while at < end {
            match from_sections
                .iter()
                .find(|r| r.addr as u64 <= at && at < r.addr as u64 + r.size as u64)
            {
                Some(r) => at = r.addr as u64 + r.size as u64,
                None => return false,
            }
        }
        true
    };
    let names_ok = from_sections.iter().all(|r| valid_name(&r.name));
    if !from_sections.is_empty() && names_ok && img.segments.iter().all(covered) {
        return from_sections;
    }
    img.segments
        .iter()
        .enumerate()
        .map(|(i, s)| Region {
            name: format!(".segment{i}"),
            addr: s.vaddr,
            data: s.data.clone(),
            size: s.memsz,
            flags: SectionFlags {
                alloc: true,
                write: s.flags.write,
                exec: s.flags.may_execute(),
            },
            nobits: false,
            align: 4,
        })
        .collect()
}

/// Symbols to print, by address: (name, global, kind, size).
type Labels = BTreeMap<u32, Vec<(String, bool, SymbolKind, u32)>>;

fn labels(img: &ElfImage) -> (Labels, Vec<(u32, String)>) {
    let mut seen = HashSet::new();
    let mut by_addr: Labels = BTreeMap::new();
    let mut absolute = Vec::new();
    for s in &img.symbols {
        if matches!(s.kind, SymbolKind::Section | SymbolKind::File) || !valid_name(&s.name) {
            continue;
        }
        if !seen.insert(s.name.clone()) {
            continue;
        }
        let global = matches!(s.binding, SymbolBinding::Global | SymbolBinding::Weak);
        let loaded = s
            .section
            .as_ref()
            .and_then(|n| img.section(n))
            .is_some_and(|sec| sec.flags.alloc);
        if loaded {
            by_addr
                .entry(s.value)
                .or_default()
                .push((s.name.clone(), global, s.kind, s.size));
        } else if s.section.is_none() {
            absolute.push((s.value, s.name.clone()));
        }
    }
    (by_addr, absolute)
}

/// `<symbol+off>` for an address, from the nearest symbol at or below it.
fn annotate(labels: &Labels, addr: u32) -> Option<String> {
    let (base, names) = labels.range(..=addr).next_back()?;
    let name = &names.first()?.0;
    let off = addr - base;
    Some(if off == 0 {
        format!("<{name}>")
    } else {
        format!("<{name}+{off:#x}>")
    })
}

/// An instruction's text at `pc`, with its target's symbol as a comment when it has one.
fn annotated(i: &Inst, pc: u32, labels: &Labels) -> String {
    let note = i
        .target(pc)
        .and_then(|t| annotate(labels, t))
        .map(|n| format!("  # {n}"))
        .unwrap_or_default();
    format!("{}{note}", i.text(Some(pc)))
}

fn section_header(out: &mut String, r: &Region) {
    let mut flags = String::from("a");
    if r.flags.write {
        flags.push('w');
    }
    if r.flags.exec {
        flags.push('x');
    }
    let ty = if r.nobits { "@nobits" } else { "@progbits" };
    let _ = writeln!(out, "\n    .section {}, \"{flags}\", {ty}", r.name);
    let _ = writeln!(out, "    .base {:#010x}", r.addr);
    if r.align > 4 && r.align.is_power_of_two() && r.align <= 65536 {
        let _ = writeln!(out, "    .balign {}", r.align);
    }
}

fn print_labels(out: &mut String, labels: &Labels, addr: u32) {
    if let Some(list) = labels.get(&addr) {
        for (name, global, kind, size) in list {
            if *global {
                let _ = writeln!(out, "    .globl {name}");
            }
            match kind {
                SymbolKind::Func => {
                    let _ = writeln!(out, "    .type {name}, @function");
                }
                SymbolKind::Object => {
                    let _ = writeln!(out, "    .type {name}, @object");
                }
                _ => {}
            }
            if *size > 0 {
                let _ = writeln!(out, "    .size {name}, {size}");
            }
            let _ = writeln!(out, "{name}:");
        }
    }
}

fn print_region(out: &mut String, r: &Region, labels: &Labels) {
    section_header(out, r);
    let start = r.addr as u64;
    let end = start + r.size as u64;
    // Label addresses split the output into runs.
    let mut points: Vec<u64> = labels.keys().map(|a| *a as u64).collect();
    points.push(end);
    points.sort_unstable();
    points.dedup();
    let mut at = start;
    for p in points {
        print_run(out, r, labels, at, p);
        print_labels(out, labels, p as u32);
        at = at.max(p);
    }
}

fn byte_at(r: &Region, a: u64) -> u8 {
    r.data
        .get((a - r.addr as u64) as usize)
        .copied()
        .unwrap_or(0)
}

/// How many zero bytes start at `a` (up to `to`).
fn zeros(r: &Region, a: u64, to: u64) -> u64 {
    (a..to).take_while(|&x| byte_at(r, x) == 0).count() as u64
}

/// Print bytes [from, to) of a region.
fn print_run(out: &mut String, r: &Region, labels: &Labels, from: u64, to: u64) {
    let mut a = from;
    let file_end = r.addr as u64 + if r.nobits { 0 } else { r.data.len() as u64 };
    while a < to {
        // Zero-filled tail (or a .bss section).
        if a >= file_end {
            let _ = writeln!(out, "    /* {a:08x} */  .zero {}", to - a);
            return;
        }
        let half = (to - a >= 2 && file_end - a >= 2)
            .then(|| u16::from_le_bytes([byte_at(r, a), byte_at(r, a + 1)]));
        if let Some(h) = half.filter(|&h| r.flags.exec && Inst::len_of(h) == 2) {
            // A compressed instruction (or a halfword that is none: `.half`).
            match Inst::decode(h as u32) {
                Ok(i) => {
                    let text = annotated(&i, a as u32, labels);
                    let _ = writeln!(out, "    /* {a:08x}  {h:04x}     */  {text}");
                }
                Err(_) => {
                    let _ = writeln!(out, "    /* {a:08x}  {h:04x}     */  .half {h:#06x}");
                }
            }
            a += 2;
        } else if to - a >= 4 && file_end - a >= 4 {
            let w = u32::from_le_bytes([
                byte_at(r, a),
                byte_at(r, a + 1),
                byte_at(r, a + 2),
                byte_at(r, a + 3),
            ]);
            if r.flags.exec {
                match Inst::decode(w) {
                    Ok(i) => {
                        let text = annotated(&i, a as u32, labels);
                        let _ = writeln!(out, "    /* {a:08x}  {w:08x} */  {text}");
                    }
                    Err(_) => {
                        let _ = writeln!(out, "    /* {a:08x}  {w:08x} */  .word {w:#010x}");
                    }
                }
                a += 4;
            } else if (a - r.addr as u64).is_multiple_of(4) && zeros(r, a, to.min(file_end)) >= 16 {
                let n = zeros(r, a, to.min(file_end)) & !3;
                let _ = writeln!(out, "    /* {a:08x} */  .zero {n}");
                a += n;
            } else {
                let mut words = Vec::new();
                let line_start = a;
                while words.len() < 4 && to - a >= 4 && file_end - a >= 4 {
                    let w = u32::from_le_bytes([
                        byte_at(r, a),
                        byte_at(r, a + 1),
                        byte_at(r, a + 2),
                        byte_at(r, a + 3),
                    ]);
                    words.push(format!("{w:#010x}"));
                    a += 4;
                }
                let _ = writeln!(
                    out,
                    "    /* {line_start:08x} */  .word {}",
                    words.join(", ")
                );
            }
        } else {
            let n = (to - a).min(file_end - a).min(4);
            let bytes: Vec<String> = (0..n)
                .map(|k| format!("{:#04x}", byte_at(r, a + k)))
                .collect();
            let _ = writeln!(out, "    /* {a:08x} */  .byte {}", bytes.join(", "));
            a += n;
        }
    }
}

/// Disassemble an ELF32 RISC-V executable into text that `weft asm` turns back into the
/// same loaded bytes at the same addresses.
pub fn disassemble(elf: &[u8]) -> Result<String, DisasmError> {
    let img = read_elf(elf)?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# weft disassembly: `weft asm` re-assembles this into the same loaded bytes."
    );
    let _ = writeln!(out, "    .entry {:#010x}", img.entry);
    let (labels, absolute) = labels(&img);
    for (v, name) in &absolute {
        let _ = writeln!(out, "    .set {name}, {v:#x}");
    }
    let mut regions = regions(&img);
    regions.sort_by_key(|r| r.addr);
    // Each label belongs to the region that contains it, or else to one that ends at it.
    let mut per_region: Vec<Labels> = vec![BTreeMap::new(); regions.len()];
    for (a, l) in &labels {
        let a64 = *a as u64;
        let inside = regions
            .iter()
            .position(|r| a64 >= r.addr as u64 && a64 < r.addr as u64 + r.size as u64);
        let at_end = || {
            regions
                .iter()
                .position(|r| a64 == r.addr as u64 + r.size as u64)
        };
        if let Some(i) = inside.or_else(at_end) {
            per_region[i].insert(*a, l.clone());
        }
    }
    for (r, l) in regions.iter().zip(&per_region) {
        print_region(&mut out, r, l);
    }
    Ok(out)
}

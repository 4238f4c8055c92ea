//! Source lines from an ELF's DWARF line table (`.debug_line`, read with `gimli`): for a pc,
//! the file and line the compiler attributed it to, as `addr2line` would answer. Kernels built
//! with `weft cc -g` have it; assembly assembled by weft has none, and then there is no table.
//!
//! The table keeps every row of every line-number program (sequence by sequence), sorted by
//! address; a pc maps to the last row at or below it, unless a sequence ended in between.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// The line table of one program.
#[derive(Clone, Debug, Default)]
pub struct LineTable {
    /// (address, file index, line; 0 for the end of a sequence or a row without a line).
    rows: Vec<(u64, u32, u32)>,
    /// Files, by index: the path the compiler recorded (joined with its directory).
    files: Vec<PathBuf>,
}

impl LineTable {
    /// The line table of the ELF `bytes`; `Ok(None)` if it has no `.debug_line` (no `-g`).
    pub fn from_elf(bytes: &[u8]) -> Result<Option<LineTable>, String> {
        let img = weft_elf::read_elf(bytes).map_err(|e| e.to_string())?;
        if !img.sections.iter().any(|s| s.name == ".debug_line") {
            return Ok(None);
        }
        let section = |id: gimli::SectionId| -> Result<Cow<'_, [u8]>, gimli::Error> {
            Ok(img
                .sections
                .iter()
                .find(|s| s.name == id.name())
                .map(|s| Cow::Borrowed(&s.data[..]))
                .unwrap_or(Cow::Borrowed(&[])))
        };
        let sections = gimli::DwarfSections::load(section).map_err(dwarf_error)?;
        let dwarf = sections.borrow(|s| gimli::EndianSlice::new(s, gimli::LittleEndian));
        let mut t = LineTable::default();
        let mut units = dwarf.units();
        while let Some(header) = units.next().map_err(dwarf_error)? {
            let unit = dwarf.unit(header).map_err(dwarf_error)?;
            let Some(program) = unit.line_program.clone() else {
                continue;
            };
            let comp_dir = unit
                .comp_dir
                .map(|d| PathBuf::from(d.to_string_lossy().into_owned()))
                .unwrap_or_default();
            // File index in this program -> index in `t.files`.
            let mut local: Vec<(u64, u32)> = Vec::new();
            let mut rows = program.rows();
            while let Some((header, row)) = rows.next_row().map_err(dwarf_error)? {
                if row.end_sequence() {
                    t.rows.push((row.address(), 0, 0));
                    continue;
                }
                let line = row.line().map(|l| l.get() as u32).unwrap_or(0);
                let fi = row.file_index();
                let file = match local.iter().find(|(k, _)| *k == fi) {
                    Some(&(_, f)) => f,
                    None => {
                        let path = match row.file(header) {
                            Some(entry) => file_path(&dwarf, &unit, header, entry, &comp_dir),
                            None => PathBuf::from("?"),
                        };
                        let f = match t.files.iter().position(|p| *p == path) {
                            Some(f) => f as u32,
                            None => {
                                t.files.push(path);
                                (t.files.len() - 1) as u32
                            }
                        };
                        local.push((fi, f));
                        f
                    }
                };
                t.rows.push((row.address(), file, line));
            }
        }
        // A stable sort keeps a sequence's end before the next sequence starting at the same
        // address only if it came first; put ends first at equal addresses explicitly.
        t.rows.sort_by_key(|&(a, _, line)| (a, line != 0));
        Ok(Some(t))
    }

    /// The file and line of `pc`, if the table covers it.
    pub fn lookup(&self, pc: u32) -> Option<(usize, u32)> {
        let pc = pc as u64;
        let k = self.rows.partition_point(|&(a, _, _)| a <= pc);
        let &(_, file, line) = self.rows.get(k.checked_sub(1)?)?;
        (line != 0).then_some((file as usize, line))
    }

    /// The files rows refer to, by index.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }
}

fn dwarf_error(e: gimli::Error) -> String {
    format!("DWARF: {e}")
}

type Slice<'a> = gimli::EndianSlice<'a, gimli::LittleEndian>;

/// The path of a line-table file entry: its directory (relative ones under the compilation
/// directory) joined with its name.
fn file_path(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    unit: &gimli::Unit<Slice<'_>>,
    header: &gimli::LineProgramHeader<Slice<'_>>,
    entry: &gimli::FileEntry<Slice<'_>>,
    comp_dir: &Path,
) -> PathBuf {
    let text = |v: gimli::AttributeValue<Slice<'_>>| -> Option<String> {
        dwarf
            .attr_string(unit, v)
            .ok()
            .map(|s| s.to_string_lossy().into_owned())
    };
    let name = text(entry.path_name()).unwrap_or_else(|| "?".into());
    let dir = entry
        .directory(header)
        .and_then(text)
        .map(PathBuf::from)
        .unwrap_or_default();
    let dir = if dir.is_absolute() {
        dir
    } else {
        comp_dir.join(dir)
    };
    dir.join(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_elf_without_debug_info_has_no_table() {
        let elf = weft_asm::assemble("_start: addi a0, zero, 1\n", "t.s").unwrap();
        assert!(LineTable::from_elf(&elf).unwrap().is_none());
    }

    #[test]
    fn lookup_takes_the_last_row_at_or_below_and_stops_at_a_sequence_end() {
        let t = LineTable {
            rows: vec![(0x100, 0, 5), (0x108, 0, 7), (0x110, 0, 0), (0x200, 1, 3)],
            files: vec!["a.c".into(), "b.c".into()],
        };
        assert_eq!(t.lookup(0xfc), None);
        assert_eq!(t.lookup(0x100), Some((0, 5)));
        assert_eq!(t.lookup(0x104), Some((0, 5)));
        assert_eq!(t.lookup(0x10c), Some((0, 7)));
        assert_eq!(t.lookup(0x110), None);
        assert_eq!(t.lookup(0x1fc), None);
        assert_eq!(t.lookup(0x204), Some((1, 3)));
    }
}

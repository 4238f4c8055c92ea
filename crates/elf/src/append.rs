//! Adding a named, non-loaded section (such as the reconvergence table `.weft.reconv`) to an
//! existing ELF32 file without disturbing anything else: the section contents, a new
//! `.shstrtab` and a new section header table are appended at the end of the file and the
//! file header is pointed at them. Every loaded byte keeps its file offset.

use crate::read::ElfError;
use object::elf;
use object::read::elf::{FileHeader, SectionHeader};
use object::LittleEndian as LE;

const SHDR_SIZE: usize = 40;

fn put_u32(buf: &mut [u8], at: usize, v: u32) {
    buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn pad4(v: &mut Vec<u8>) {
    while !v.len().is_multiple_of(4) {
        v.push(0);
    }
}

#[allow(clippy::too_many_arguments)]
fn shdr(
    name: u32,
    ty: u32,
    flags: u32,
    addr: u32,
    offset: u32,
    size: u32,
    link: u32,
    info: u32,
    align: u32,
    entsize: u32,
) -> [u8; SHDR_SIZE] {
    let mut h = [0u8; SHDR_SIZE];
    for (k, v) in [
        name, ty, flags, addr, offset, size, link, info, align, entsize,
    ]
    .iter()
    .enumerate()
    {
        put_u32(&mut h, 4 * k, *v);
    }
    h
}

/// Return a copy of `file` with a non-allocated PROGBITS section `name` holding `data`. If
/// the file already has a section of that name, that section is pointed at the new data
/// instead (the old bytes stay in the file, unreferenced). The file must be a well-formed
/// ELF32 little-endian file (any machine and type).
pub fn append_section(file: &[u8], name: &str, data: &[u8]) -> Result<Vec<u8>, ElfError> {
    if file.len() < 52 {
        return Err(ElfError::TooShort(file.len()));
    }
    if file[..4] != elf::ELFMAG {
        return Err(ElfError::NotElf);
    }
    if file[4] != elf::ELFCLASS32 {
        return Err(ElfError::Class(file[4]));
    }
    if file[5] != elf::ELFDATA2LSB {
        return Err(ElfError::Endian(file[5]));
    }
    let e = LE;
    let header = elf::FileHeader32::<LE>::parse(file)?;
    let table = header.sections(e, file)?;
    let shstrndx = header.shstrndx(e, file)? as usize;

    // Existing headers (raw) and section-name strings.
    let mut headers: Vec<[u8; SHDR_SIZE]> = Vec::new();
    let mut names: Vec<u8>;
    let mut existing = None;
    if table.is_empty() {
        headers.push([0u8; SHDR_SIZE]);
        names = vec![0];
    } else {
        let shstr = table.section(object::SectionIndex(shstrndx))?;
        names = shstr.data(e, file)?.to_vec();
        for (i, sh) in table.iter().enumerate() {
            let mut raw = [0u8; SHDR_SIZE];
            for (k, v) in [
                sh.sh_name(e),
                sh.sh_type(e),
                sh.sh_flags(e),
                sh.sh_addr(e),
                sh.sh_offset(e),
                sh.sh_size(e),
                sh.sh_link(e),
                sh.sh_info(e),
                sh.sh_addralign(e),
                sh.sh_entsize(e),
            ]
            .iter()
            .enumerate()
            {
                put_u32(&mut raw, 4 * k, *v);
            }
            if i != 0 && table.section_name(e, sh)? == name.as_bytes() {
                existing = Some(i);
            }
            headers.push(raw);
        }
    }

    let mut out = file.to_vec();
    pad4(&mut out);
    let data_off = out.len() as u32;
    out.extend_from_slice(data);

    // A fresh string table: the old one plus the new name (and ".shstrtab" if it is new).
    let name_off = names.len() as u32;
    names.extend_from_slice(name.as_bytes());
    names.push(0);
    let shstrtab_idx = if table.is_empty() {
        let off = names.len() as u32;
        names.extend_from_slice(b".shstrtab\0");
        headers.push(shdr(off, elf::SHT_STRTAB, 0, 0, 0, 0, 0, 0, 1, 0));
        headers.len() - 1
    } else {
        shstrndx
    };
    let names_off = out.len() as u32;
    out.extend_from_slice(&names);
    if let Some(h) = headers.get_mut(shstrtab_idx) {
        put_u32(h, 16, names_off);
        put_u32(h, 20, names.len() as u32);
    }
    let new = shdr(
        name_off,
        elf::SHT_PROGBITS,
        0,
        0,
        data_off,
        data.len() as u32,
        0,
        0,
        1,
        0,
    );
    match existing {
        Some(i) => headers[i] = new,
        None => headers.push(new),
    }
    if headers.len() >= elf::SHN_LORESERVE as usize {
        return Err(ElfError::Malformed("too many sections to add one".into()));
    }
    pad4(&mut out);
    let shoff = out.len() as u32;
    for h in &headers {
        out.extend_from_slice(h);
    }
    put_u32(&mut out, 32, shoff);
    out[46..48].copy_from_slice(&(SHDR_SIZE as u16).to_le_bytes());
    out[48..50].copy_from_slice(&(headers.len() as u16).to_le_bytes());
    out[50..52].copy_from_slice(&(shstrtab_idx as u16).to_le_bytes());
    Ok(out)
}

//! Loading Vortex's `.vxbin` kernel images into a [`Program`].
//!
//! Layout: two little-endian u64 (the lowest and the highest virtual address the program
//! occupies), then the flat image from the lowest address (code and initialised data; the
//! rest up to the highest address is zero-filled BSS). An optional symbol footer ends the
//! file: a blob of names, then `n` entries of 16 bytes (u32 name offset into the blob, u16
//! name length, u16 padding, u64 pc), then u32 `n`, then the 8 bytes `VXSYMTAB`. The entry
//! point is the lowest address. The reconvergence table is computed from the image, with the
//! footer's symbols as function starts.

use crate::divergence::Reconv;
use crate::program::{Program, Segment};
use std::collections::HashMap;
use weft_reconv::{analyze, CodeRegion, Symbol};

/// The footer's magic, the file's last 8 bytes.
pub const MAGIC: &[u8; 8] = b"VXSYMTAB";

/// Why a `.vxbin` cannot be loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VxbinError {
    #[error("a .vxbin needs a 16-byte header; the file has {0} bytes")]
    Short(usize),
    #[error("header addresses {min:#x}..{max:#x} are not a 32-bit range with min < max")]
    Range { min: u64, max: u64 },
    #[error("the image ({image} bytes) is larger than its address range ({span} bytes)")]
    TooBig { image: u64, span: u64 },
    #[error("symbol footer entry {0} names bytes outside the footer")]
    Footer(u32),
}

/// A parsed `.vxbin`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vxbin {
    /// Lowest address (where the image goes, and the entry point).
    pub min_vma: u32,
    /// One past the highest address.
    pub max_vma: u32,
    /// The flat image.
    pub image: Vec<u8>,
    /// Footer symbols (name, pc), if the file has a footer.
    pub symbols: Vec<(String, u32)>,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from(u32_at(b, at)) | u64::from(u32_at(b, at + 4)) << 32
}

/// Parse a `.vxbin`.
pub fn parse(bytes: &[u8]) -> Result<Vxbin, VxbinError> {
    if bytes.len() < 16 {
        return Err(VxbinError::Short(bytes.len()));
    }
    let (min, max) = (u64_at(bytes, 0), u64_at(bytes, 8));
    if max <= min || max > 1 << 32 {
        return Err(VxbinError::Range { min, max });
    }
    let mut body = &bytes[16..];
    let mut symbols = Vec::new();
    if body.len() >= 12 && body.ends_with(MAGIC) {
        let n = u32_at(body, body.len() - 12) as usize;
        let entries_len = n.saturating_mul(16);
        if let Some(entries_at) = body.len().checked_sub(12 + entries_len) {
            let entries = &body[entries_at..body.len() - 12];
            let blob_len = (0..n)
                .map(|i| {
                    u32_at(entries, 16 * i) as usize
                        + (u32_at(entries, 16 * i + 4) & 0xffff) as usize
                })
                .max()
                .unwrap_or(0);
            if let Some(blob_at) = entries_at.checked_sub(blob_len) {
                for i in 0..n {
                    let e = &entries[16 * i..16 * i + 16];
                    let off = u32_at(e, 0) as usize;
                    let len = (u32_at(e, 4) & 0xffff) as usize;
                    let pc = u64_at(e, 8);
                    let name = body
                        .get(blob_at + off..blob_at + off + len)
                        .ok_or(VxbinError::Footer(i as u32))?;
                    symbols.push((String::from_utf8_lossy(name).into_owned(), pc as u32));
                }
                body = &body[..blob_at];
            }
        }
    }
    let span = max - min;
    // A NUL after the last footer name lands before the blob Vortex's loader computes; it
    // is harmless padding, so zero bytes past the range are dropped.
    if body.len() as u64 > span && body[span as usize..].iter().all(|&b| b == 0) {
        body = &body[..span as usize];
    }
    if body.len() as u64 > span {
        return Err(VxbinError::TooBig {
            image: body.len() as u64,
            span,
        });
    }
    Ok(Vxbin {
        min_vma: min as u32,
        max_vma: max as u32,
        image: body.to_vec(),
        symbols,
    })
}

/// Does this look like a `.vxbin` (a plausible header and not an ELF)?
pub fn looks_like_vxbin(bytes: &[u8]) -> bool {
    !bytes.starts_with(b"\x7fELF") && parse(bytes).is_ok()
}

/// Build a program from a `.vxbin`: the image as code, the rest of the range as BSS, the
/// entry at the lowest address, a reconvergence table computed from the image (empty if the
/// analysis rejects it: the program then runs with `converge`-only reconvergence).
pub fn program_from_vxbin(bytes: &[u8]) -> Result<Program, VxbinError> {
    let v = parse(bytes)?;
    let bin = v.image.len() as u32;
    let mut segments = vec![Segment {
        addr: v.min_vma,
        data: v.image.clone(),
        mem_size: bin,
        exec: true,
    }];
    if v.max_vma - v.min_vma > bin {
        segments.push(Segment {
            addr: v.min_vma + bin,
            data: Vec::new(),
            mem_size: v.max_vma - v.min_vma - bin,
            exec: false,
        });
    }
    let funcs: Vec<Symbol> = v
        .symbols
        .iter()
        .filter(|(_, pc)| pc.wrapping_sub(v.min_vma) < bin)
        .map(|(n, pc)| Symbol::new(n.clone(), *pc, 0))
        .collect();
    let image = &v.image[..v.image.len() & !3];
    let reconv: HashMap<u32, Reconv> = if v.min_vma % 4 == 0 {
        match analyze(
            &[CodeRegion {
                base: v.min_vma,
                bytes: image,
            }],
            &funcs,
        ) {
            Ok(a) => crate::divergence::reconv_map(&a.table),
            Err(_) => HashMap::new(),
        }
    } else {
        HashMap::new()
    };
    Ok(Program {
        entry: v.min_vma,
        segments,
        symbols: v.symbols,
        tohost: None,
        fromhost: None,
        reconv,
    })
}

/// Write a `.vxbin` for an image at `min_vma` spanning up to `max_vma`, with an optional
/// symbol footer (used by tests and tools).
pub fn write(min_vma: u32, max_vma: u32, image: &[u8], symbols: &[(&str, u32)]) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + image.len());
    out.extend_from_slice(&u64::from(min_vma).to_le_bytes());
    out.extend_from_slice(&u64::from(max_vma).to_le_bytes());
    out.extend_from_slice(image);
    if !symbols.is_empty() {
        let mut blob = Vec::new();
        let mut entries = Vec::new();
        for (k, (name, pc)) in symbols.iter().enumerate() {
            if k > 0 {
                blob.push(0);
            }
            entries.extend_from_slice(&(blob.len() as u32).to_le_bytes());
            entries.extend_from_slice(&(name.len() as u16).to_le_bytes());
            entries.extend_from_slice(&[0, 0]);
            entries.extend_from_slice(&u64::from(*pc).to_le_bytes());
            blob.extend_from_slice(name.as_bytes());
        }
        out.extend_from_slice(&blob);
        out.extend_from_slice(&entries);
        out.extend_from_slice(&(symbols.len() as u32).to_le_bytes());
        out.extend_from_slice(MAGIC);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_footer() {
        let img = [0x13, 0, 0, 0, 0x13, 0, 0, 0];
        let b = write(
            0x8000_0000,
            0x8000_0100,
            &img,
            &[("main", 0x8000_0000), ("k", 0x8000_0004)],
        );
        let v = parse(&b).unwrap();
        assert_eq!(v.image, img);
        assert_eq!(v.max_vma, 0x8000_0100);
        assert_eq!(
            v.symbols,
            vec![("main".into(), 0x8000_0000), ("k".into(), 0x8000_0004)]
        );
        let p = program_from_vxbin(&b).unwrap();
        assert_eq!(p.segments.len(), 2);
        assert_eq!(p.segments[1].mem_size, 0xf8);
    }

    #[test]
    fn bad_headers_are_errors() {
        assert_eq!(parse(&[0; 8]), Err(VxbinError::Short(8)));
        let b = write(0x100, 0x100, &[], &[]);
        assert!(matches!(parse(&b), Err(VxbinError::Range { .. })));
        let b = write(0x100, 0x104, &[1; 8], &[]);
        assert!(matches!(parse(&b), Err(VxbinError::TooBig { .. })));
    }
}

//! Modules and kernels: a `.vxbin` image loaded at its own addresses (`vx_module_h`), and the
//! named entry points its symbol footer lists (`vx_kernel_h`).
//!
//! A `.vxbin` is two little-endian u64 (lowest and one-past-highest address), the image from
//! the lowest address (code and data; the rest of the range is BSS, zeroed on load), and
//! optionally a footer: a blob of names, `n` entries of 16 bytes (u32 offset into the blob,
//! u16 length, u16 padding, u64 pc), u32 `n` and the magic `VXSYMTAB`. Vortex's `vxbin.py`
//! writes one entry per `__vx_kentry_<name>` symbol, `kernel_main` as `main`. Without a
//! footer the image's one kernel is `main` at its lowest address; a footer with a single
//! entry not called `main` also answers to `main` at that address.

use crate::buffer::Buffer;
use crate::device::Device;
use crate::error::{VxError, VxResult};
use std::sync::Arc;

const MAGIC: &[u8; 8] = b"VXSYMTAB";

/// The parts of a `.vxbin` image.
#[derive(Debug, PartialEq, Eq)]
pub struct Vxbin<'a> {
    /// Lowest address.
    pub lo: u32,
    /// Bytes from `lo` the image spans (code, data and BSS).
    pub span: u32,
    /// The bytes to copy to `lo`.
    pub body: &'a [u8],
    /// The footer's entries (name, pc), in file order; empty without a footer.
    pub entries: Vec<(String, u32)>,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(w)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// Split a `.vxbin` image into its parts.
pub fn parse_vxbin(bytes: &[u8]) -> VxResult<Vxbin<'_>> {
    let bad = |why: &str| VxError::Invalid(format!("not a kernel image: {why}"));
    if bytes.len() < 16 {
        return Err(bad("shorter than its header"));
    }
    let (lo, hi) = (u64_at(bytes, 0), u64_at(bytes, 8));
    if hi <= lo || hi > u32::MAX as u64 + 1 {
        return Err(bad("its address range"));
    }
    let (footer, entries) = footer(bytes).ok_or_else(|| bad("its symbol footer"))?;
    let body = &bytes[16..bytes.len() - footer];
    if body.len() as u64 > hi - lo {
        return Err(bad("more bytes than its address range"));
    }
    Ok(Vxbin {
        lo: lo as u32,
        span: (hi - lo) as u32,
        body,
        entries,
    })
}

/// The footer's length and entries (0 and none without one); `None` if it is malformed.
fn footer(bytes: &[u8]) -> Option<(usize, Vec<(String, u32)>)> {
    let len = bytes.len();
    if len < 16 + 12 || &bytes[len - 8..] != MAGIC {
        return Some((0, Vec::new()));
    }
    let n = u32_at(bytes, len - 12) as usize;
    let table = n.checked_mul(16)?;
    let entries_at = (len - 12).checked_sub(table)?;
    if entries_at < 16 {
        return None;
    }
    let raw: Vec<(usize, usize, u64)> = (0..n)
        .map(|i| {
            let e = entries_at + 16 * i;
            let off = u32_at(bytes, e) as usize;
            let nlen = u16::from_le_bytes([bytes[e + 4], bytes[e + 5]]) as usize;
            (off, nlen, u64_at(bytes, e + 8))
        })
        .collect();
    let blob = raw.iter().map(|&(o, l, _)| o + l).max().unwrap_or(0);
    let blob_at = entries_at.checked_sub(blob)?;
    if blob_at < 16 {
        return None;
    }
    let mut out = Vec::with_capacity(n);
    for (off, nlen, pc) in raw {
        let name = std::str::from_utf8(&bytes[blob_at + off..blob_at + off + nlen]).ok()?;
        out.push((name.to_string(), u32::try_from(pc).ok()?));
    }
    Some((len - blob_at, out))
}

/// Write a `.vxbin` image (for tests and tools): header, body, and a footer when `entries`
/// is not empty.
pub fn write_vxbin(lo: u32, span: u32, body: &[u8], entries: &[(&str, u32)]) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + body.len());
    out.extend_from_slice(&(lo as u64).to_le_bytes());
    out.extend_from_slice(&(lo as u64 + span as u64).to_le_bytes());
    out.extend_from_slice(body);
    if !entries.is_empty() {
        let mut offsets = Vec::new();
        let mut blob = Vec::new();
        for (name, _) in entries {
            offsets.push(blob.len() as u32);
            blob.extend_from_slice(name.as_bytes());
        }
        out.extend_from_slice(&blob);
        for ((name, pc), off) in entries.iter().zip(offsets) {
            out.extend_from_slice(&off.to_le_bytes());
            out.extend_from_slice(&(name.len() as u16).to_le_bytes());
            out.extend_from_slice(&[0, 0]);
            out.extend_from_slice(&(*pc as u64).to_le_bytes());
        }
        out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
        out.extend_from_slice(MAGIC);
    }
    out
}

/// Reserve an image's range on `dev` and copy it there (BSS zeroed).
pub fn upload_image(dev: &Arc<Device>, v: &Vxbin<'_>) -> VxResult<Buffer> {
    let region = dev.reserve(v.lo as u64, v.span as u64)?;
    let buf = Buffer::new(dev.clone(), region);
    let mut image = v.body.to_vec();
    image.resize(v.span as usize, 0);
    dev.write(region.addr, image)?;
    Ok(buf)
}

/// The kernel `vx_start` runs in an image with a footer: `main`, or the only entry.
pub fn default_entry(entries: &[(String, u32)]) -> Option<u32> {
    entries
        .iter()
        .find(|(n, _)| n == "main")
        .or(if entries.len() == 1 {
            entries.first()
        } else {
            None
        })
        .map(|&(_, pc)| pc)
}

/// A loaded module.
pub struct Module {
    pub image: Arc<Buffer>,
    /// Where every launch of its kernels starts (the start-up code at the image's base).
    pub base: u32,
    pub symbols: Vec<(String, u32)>,
}

/// A kernel: an entry point of a module (which it keeps loaded).
pub struct Kernel {
    pub module: Arc<Module>,
    pub pc: u32,
}

impl Module {
    /// `vx_module_load_bytes`.
    pub fn load(dev: &Arc<Device>, bytes: &[u8]) -> VxResult<Module> {
        let v = parse_vxbin(bytes)?;
        let image = Arc::new(upload_image(dev, &v)?);
        let mut symbols = v.entries.clone();
        match symbols.len() {
            0 => symbols.push(("main".into(), v.lo)),
            1 if symbols[0].0 != "main" => symbols.push(("main".into(), v.lo)),
            _ => {}
        }
        Ok(Module {
            image,
            base: v.lo,
            symbols,
        })
    }

    /// The entry point called `name`.
    pub fn kernel(self: &Arc<Self>, name: &str) -> VxResult<Kernel> {
        let pc = self
            .symbols
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, pc)| pc)
            .ok_or_else(|| VxError::Invalid(format!("no kernel named '{name}' in the module")))?;
        Ok(Kernel {
            module: self.clone(),
            pc,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_image_and_its_footer_round_trip() {
        let body = [1u8, 2, 3, 4, 5, 6, 7, 8];
        let img = write_vxbin(
            0x8000_0000,
            64,
            &body,
            &[("main", 0x8000_0010), ("saxpy", 0x8000_0020)],
        );
        let v = parse_vxbin(&img).unwrap();
        assert_eq!((v.lo, v.span, v.body), (0x8000_0000, 64, &body[..]));
        assert_eq!(
            v.entries,
            vec![
                ("main".to_string(), 0x8000_0010),
                ("saxpy".to_string(), 0x8000_0020)
            ]
        );
        assert_eq!(default_entry(&v.entries), Some(0x8000_0010));

        let plain = write_vxbin(0x8000_0000, 64, &body, &[]);
        let v = parse_vxbin(&plain).unwrap();
        assert!(v.entries.is_empty());
        assert_eq!(v.body, &body[..]);
        assert_eq!(default_entry(&v.entries), None);
        let one = vec![("k".to_string(), 4)];
        assert_eq!(default_entry(&one), Some(4));
    }

    #[test]
    fn malformed_images_are_refused() {
        assert!(parse_vxbin(&[0; 8]).is_err());
        assert!(
            parse_vxbin(&write_vxbin(0x100, 0, &[], &[])).is_err(),
            "empty range"
        );
        assert!(
            parse_vxbin(&write_vxbin(0x100, 4, &[0; 8], &[])).is_err(),
            "body > range"
        );
        let mut bad = write_vxbin(0x100, 64, &[0; 8], &[("main", 0x100)]);
        let n = bad.len() - 12;
        bad[n..n + 4].copy_from_slice(&1000u32.to_le_bytes());
        assert!(parse_vxbin(&bad).is_err(), "entry count beyond the file");
    }
}

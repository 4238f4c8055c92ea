//! The `.weft.reconv` section: a [`ReconvTable`] as bytes, so the toolchain can store it in an
//! ELF and the loader can hand it to the divergence unit.
//!
//! Layout (all fields little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | magic `WRCV` ([`SECTION_MAGIC`]) |
//! | 4 | 2 | version, 1 ([`SECTION_VERSION`]) |
//! | 6 | 2 | reserved, 0 |
//! | 8 | 4 | entry count *n* |
//! | 12 | 8·*n* | entries: `branch_pc: u32`, `reconv_pc: u32` |
//!
//! Entries are sorted by strictly increasing `branch_pc` (so a loader can binary-search the
//! raw bytes); every pc is even; `reconv_pc` = `0xFFFF_FFFF` ([`crate::AT_EXIT`]) means "at
//! function exit". The section is exactly `12 + 8·n` bytes long. Parsing checks all of this
//! and reports a typed [`SectionError`]; it never panics.

use crate::table::{Reconv, ReconvTable, AT_EXIT};
use thiserror::Error;

/// The ELF section name.
pub const SECTION_NAME: &str = ".weft.reconv";
/// The first four bytes of the section.
pub const SECTION_MAGIC: [u8; 4] = *b"WRCV";
/// The format version this crate writes and reads.
pub const SECTION_VERSION: u16 = 1;
/// Header size in bytes.
pub const HEADER_LEN: usize = 12;
/// Size of one entry in bytes.
pub const ENTRY_LEN: usize = 8;

/// Why section bytes are not a valid reconvergence table.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SectionError {
    /// Fewer bytes than a header.
    #[error(".weft.reconv: {len} bytes is shorter than the {HEADER_LEN}-byte header")]
    TooShort {
        /// Bytes given.
        len: usize,
    },
    /// The magic is not `WRCV`.
    #[error(".weft.reconv: bad magic {found:02x?} (expected \"WRCV\")")]
    BadMagic {
        /// The first four bytes.
        found: [u8; 4],
    },
    /// A version this crate does not read.
    #[error(".weft.reconv: unsupported version {found} (this reader knows {SECTION_VERSION})")]
    UnsupportedVersion {
        /// The version in the header.
        found: u16,
    },
    /// The reserved header field is not zero.
    #[error(".weft.reconv: reserved header field is {found:#06x}, expected 0")]
    Reserved {
        /// Its value.
        found: u16,
    },
    /// The length does not match the entry count.
    #[error(".weft.reconv: header announces {count} entries ({expected} bytes) but the section has {actual} bytes")]
    Length {
        /// Entry count from the header.
        count: u32,
        /// Bytes that count implies.
        expected: u64,
        /// Bytes present.
        actual: usize,
    },
    /// Branch pcs are not strictly increasing.
    #[error(".weft.reconv: entry {index}: branch pc {pc:#010x} does not follow {prev:#010x} (entries must be sorted, without duplicates)")]
    Unsorted {
        /// Entry index.
        index: usize,
        /// Its branch pc.
        pc: u32,
        /// The previous entry's branch pc.
        prev: u32,
    },
    /// A branch pc or reconvergence pc is odd (not an instruction address).
    #[error(".weft.reconv: entry {index}: {what} {pc:#010x} is not an instruction address")]
    OddPc {
        /// Entry index.
        index: usize,
        /// "branch pc" or "reconvergence pc".
        what: &'static str,
        /// The value.
        pc: u32,
    },
}

fn le32(b: &[u8], at: usize) -> Option<u32> {
    let w = b.get(at..at + 4)?;
    Some(u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
}

fn le16(b: &[u8], at: usize) -> Option<u16> {
    let w = b.get(at..at + 2)?;
    Some(u16::from_le_bytes([w[0], w[1]]))
}

impl ReconvTable {
    /// The section bytes (see the module documentation for the layout).
    pub fn to_section_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + ENTRY_LEN * self.len());
        out.extend_from_slice(&SECTION_MAGIC);
        out.extend_from_slice(&SECTION_VERSION.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        // A map keyed by u32 holds at most 2^32 entries; 2^32 − 1 is the largest count, and
        // no real program comes near either, so saturating is only a formality.
        let count = u32::try_from(self.len()).unwrap_or(u32::MAX);
        out.extend_from_slice(&count.to_le_bytes());
        for (pc, r) in self.iter().take(count as usize) {
            out.extend_from_slice(&pc.to_le_bytes());
            out.extend_from_slice(&r.to_raw().to_le_bytes());
        }
        out
    }

    /// Parse section bytes, checking every rule of the format.
    pub fn from_section_bytes(bytes: &[u8]) -> Result<ReconvTable, SectionError> {
        let too_short = SectionError::TooShort { len: bytes.len() };
        if bytes.len() < HEADER_LEN {
            return Err(too_short);
        }
        let mut magic = [0u8; 4];
        magic.copy_from_slice(&bytes[0..4]);
        if magic != SECTION_MAGIC {
            return Err(SectionError::BadMagic { found: magic });
        }
        let version = le16(bytes, 4).ok_or(too_short.clone())?;
        if version != SECTION_VERSION {
            return Err(SectionError::UnsupportedVersion { found: version });
        }
        let reserved = le16(bytes, 6).ok_or(too_short.clone())?;
        if reserved != 0 {
            return Err(SectionError::Reserved { found: reserved });
        }
        let count = le32(bytes, 8).ok_or(too_short)?;
        let expected = HEADER_LEN as u64 + ENTRY_LEN as u64 * count as u64;
        if expected != bytes.len() as u64 {
            return Err(SectionError::Length {
                count,
                expected,
                actual: bytes.len(),
            });
        }
        let mut table = ReconvTable::new();
        let mut prev: Option<u32> = None;
        for (index, e) in bytes[HEADER_LEN..].chunks_exact(ENTRY_LEN).enumerate() {
            let pc = u32::from_le_bytes([e[0], e[1], e[2], e[3]]);
            let raw = u32::from_le_bytes([e[4], e[5], e[6], e[7]]);
            if let Some(prev) = prev {
                if pc <= prev {
                    return Err(SectionError::Unsorted { index, pc, prev });
                }
            }
            if pc & 1 != 0 {
                return Err(SectionError::OddPc {
                    index,
                    what: "branch pc",
                    pc,
                });
            }
            if raw != AT_EXIT && raw & 1 != 0 {
                return Err(SectionError::OddPc {
                    index,
                    what: "reconvergence pc",
                    pc: raw,
                });
            }
            prev = Some(pc);
            table.insert(pc, Reconv::from_raw(raw));
        }
        Ok(table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_bytes() {
        let t: ReconvTable = [
            (0x8000_0000, Reconv::At(0x8000_0010)),
            (0x8000_0008, Reconv::AtExit),
        ]
        .into_iter()
        .collect();
        let b = t.to_section_bytes();
        assert_eq!(
            b,
            [
                b'W', b'R', b'C', b'V', 1, 0, 0, 0, 2, 0, 0, 0, //
                0x00, 0, 0, 0x80, 0x10, 0, 0, 0x80, //
                0x08, 0, 0, 0x80, 0xff, 0xff, 0xff, 0xff,
            ]
        );
        assert_eq!(ReconvTable::from_section_bytes(&b), Ok(t));
    }

    #[test]
    fn empty_table() {
        let b = ReconvTable::new().to_section_bytes();
        assert_eq!(b.len(), HEADER_LEN);
        assert_eq!(ReconvTable::from_section_bytes(&b), Ok(ReconvTable::new()));
    }
}

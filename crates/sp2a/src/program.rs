//! An assembled SP v2a program and its binary image format (`.sp2a` files).
//!
//! Image layout, all little-endian u32 unless noted:
//! `"WSP2"` magic, version (1), framebuffer width, height (0 = host default),
//! text length then that many instruction words (address 0 up),
//! data length then that many data words (address 0 up),
//! symbol count, then per symbol: section (u8: 0 text, 1 data, 2 constant), value,
//! name length (u16), name bytes (UTF-8).

use std::fmt;
use thiserror::Error;

/// Where a symbol lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// Instruction memory.
    Text,
    /// Data memory.
    Data,
    /// A constant (`.equ`), not an address.
    Const,
}

impl fmt::Display for Section {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Section::Text => "text",
            Section::Data => "data",
            Section::Const => "const",
        })
    }
}

/// A named value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// The name.
    pub name: String,
    /// Its section.
    pub section: Section,
    /// Address or constant value.
    pub value: u32,
}

/// An assembled program: instruction and data memory images plus symbols.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    /// Instruction memory from address 0 (gaps are 0, i.e. NOP).
    pub text: Vec<u32>,
    /// Data memory from address 0 (gaps are 0).
    pub data: Vec<u32>,
    /// Labels and constants (user-defined only).
    pub symbols: Vec<Symbol>,
    /// Framebuffer size requested with `.fb W H`, if any.
    pub fb_size: Option<(u32, u32)>,
}

/// A malformed binary image.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ImageError {
    /// The file does not start with `WSP2`.
    #[error("not an SP v2a image (bad magic)")]
    BadMagic,
    /// Unsupported version.
    #[error("unsupported SP v2a image version {0}")]
    BadVersion(u32),
    /// The file ends early.
    #[error("SP v2a image truncated at byte {0}")]
    Truncated(usize),
    /// A field has an impossible value.
    #[error("SP v2a image: {0}")]
    Bad(String),
}

const MAGIC: &[u8; 4] = b"WSP2";

impl Program {
    /// Symbols in `section` sorted by value, for disassembly.
    pub fn labels(&self, section: Section) -> Vec<&Symbol> {
        let mut v: Vec<&Symbol> = self
            .symbols
            .iter()
            .filter(|s| s.section == section)
            .collect();
        v.sort_by(|a, b| (a.value, &a.name).cmp(&(b.value, &b.name)));
        v
    }

    /// The address of a text or data label.
    pub fn symbol(&self, name: &str) -> Option<u32> {
        self.symbols
            .iter()
            .find(|s| s.name == name)
            .map(|s| s.value)
    }

    /// Serialize to the binary image format.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        let put = |out: &mut Vec<u8>, v: u32| out.extend_from_slice(&v.to_le_bytes());
        put(&mut out, 1);
        let (w, h) = self.fb_size.unwrap_or((0, 0));
        put(&mut out, w);
        put(&mut out, h);
        for mem in [&self.text, &self.data] {
            put(&mut out, mem.len() as u32);
            for &word in mem.iter() {
                put(&mut out, word);
            }
        }
        put(&mut out, self.symbols.len() as u32);
        for s in &self.symbols {
            out.push(match s.section {
                Section::Text => 0,
                Section::Data => 1,
                Section::Const => 2,
            });
            put(&mut out, s.value);
            let name = &s.name.as_bytes()[..s.name.len().min(u16::MAX as usize)];
            out.extend_from_slice(&(name.len() as u16).to_le_bytes());
            out.extend_from_slice(name);
        }
        out
    }

    /// Whether `bytes` looks like a binary image (starts with the magic).
    pub fn is_image(bytes: &[u8]) -> bool {
        bytes.starts_with(MAGIC)
    }

    /// Parse a binary image.
    pub fn from_bytes(bytes: &[u8]) -> Result<Program, ImageError> {
        let mut r = Reader { bytes, pos: 0 };
        if r.take(4)? != MAGIC {
            return Err(ImageError::BadMagic);
        }
        let version = r.u32()?;
        if version != 1 {
            return Err(ImageError::BadVersion(version));
        }
        let (w, h) = (r.u32()?, r.u32()?);
        let fb_size = match (w, h) {
            (0, 0) => None,
            (w, h) => Some((w, h)),
        };
        let mut mems = [Vec::new(), Vec::new()];
        for mem in mems.iter_mut() {
            let n = r.u32()? as usize;
            if n > 65536 {
                return Err(ImageError::Bad(format!(
                    "memory image of {n} words > 65536"
                )));
            }
            for _ in 0..n {
                mem.push(r.u32()?);
            }
        }
        let [text, data] = mems;
        let nsyms = r.u32()?;
        let mut symbols = Vec::new();
        for _ in 0..nsyms {
            let section = match r.take(1)?[0] {
                0 => Section::Text,
                1 => Section::Data,
                2 => Section::Const,
                s => return Err(ImageError::Bad(format!("bad symbol section {s}"))),
            };
            let value = r.u32()?;
            let len = u16::from_le_bytes([r.take(1)?[0], r.take(1)?[0]]) as usize;
            let name = String::from_utf8(r.take(len)?.to_vec())
                .map_err(|_| ImageError::Bad("symbol name is not UTF-8".into()))?;
            symbols.push(Symbol {
                name,
                section,
                value,
            });
        }
        if r.pos != bytes.len() {
            return Err(ImageError::Bad(format!(
                "{} trailing bytes",
                bytes.len() - r.pos
            )));
        }
        Ok(Program {
            text,
            data,
            symbols,
            fb_size,
        })
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], ImageError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or(ImageError::Truncated(self.pos))?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, ImageError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

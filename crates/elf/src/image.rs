//! The validated contents of an ELF32 executable: entry point, loadable segments, sections
//! and symbols, in plain owned types that the loader and tools use without touching ELF
//! structures.

/// Access rights of a loadable segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SegmentFlags {
    /// Readable.
    pub read: bool,
    /// Writable.
    pub write: bool,
    /// Executable.
    pub exec: bool,
}

impl SegmentFlags {
    /// From ELF `p_flags` (PF_X = 1, PF_W = 2, PF_R = 4).
    pub fn from_bits(bits: u32) -> SegmentFlags {
        SegmentFlags {
            read: bits & 4 != 0,
            write: bits & 2 != 0,
            exec: bits & 1 != 0,
        }
    }
    /// As ELF `p_flags`.
    pub fn bits(self) -> u32 {
        (self.read as u32) << 2 | (self.write as u32) << 1 | self.exec as u32
    }
    /// May code run from the segment? When it is marked executable, or when it has no access
    /// bits at all: a linker script that names none (the official riscv-tests environment
    /// does) leaves them unspecified, and Spike and QEMU load such a segment as code.
    pub fn may_execute(self) -> bool {
        self.exec || self.bits() == 0
    }
}

/// A `PT_LOAD` segment. The loader copies `data` to `vaddr` and zero-fills up to `memsz`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Virtual (= physical, weft has no MMU) start address.
    pub vaddr: u32,
    /// Bytes from the file (`p_filesz` of them).
    pub data: Vec<u8>,
    /// Size in memory (≥ `data.len()`); the rest is zero.
    pub memsz: u32,
    /// Access rights.
    pub flags: SegmentFlags,
}

impl Segment {
    /// One past the last address (as u64, so it cannot wrap).
    pub fn end(&self) -> u64 {
        self.vaddr as u64 + self.memsz as u64
    }
    /// True if `addr` lies within the segment's memory image.
    pub fn contains(&self, addr: u32) -> bool {
        addr >= self.vaddr && (addr as u64) < self.end()
    }
}

/// Section attribute flags that matter to weft.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SectionFlags {
    /// Occupies memory at run time (SHF_ALLOC).
    pub alloc: bool,
    /// Writable (SHF_WRITE).
    pub write: bool,
    /// Executable (SHF_EXECINSTR).
    pub exec: bool,
}

impl SectionFlags {
    /// Code: allocated, executable.
    pub const TEXT: SectionFlags = SectionFlags {
        alloc: true,
        write: false,
        exec: true,
    };
    /// Read-only data: allocated.
    pub const RODATA: SectionFlags = SectionFlags {
        alloc: true,
        write: false,
        exec: false,
    };
    /// Writable data: allocated, writable.
    pub const DATA: SectionFlags = SectionFlags {
        alloc: true,
        write: true,
        exec: false,
    };
    /// Not loaded (metadata such as `.weft.reconv`).
    pub const NONE: SectionFlags = SectionFlags {
        alloc: false,
        write: false,
        exec: false,
    };
    /// From ELF `sh_flags`.
    pub fn from_bits(bits: u32) -> SectionFlags {
        SectionFlags {
            write: bits & 1 != 0,
            alloc: bits & 2 != 0,
            exec: bits & 4 != 0,
        }
    }
    /// As ELF `sh_flags`.
    pub fn bits(self) -> u32 {
        self.write as u32 | (self.alloc as u32) << 1 | (self.exec as u32) << 2
    }
}

/// What a section holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SectionKind {
    /// Bytes in the file (SHT_PROGBITS).
    Progbits,
    /// Zero-filled memory with no file bytes (SHT_NOBITS, `.bss`).
    Nobits,
    /// A symbol table.
    Symtab,
    /// A string table.
    Strtab,
    /// Any other section type (the raw `sh_type`).
    Other(u32),
}

/// A named section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// Name (from `.shstrtab`).
    pub name: String,
    /// Kind.
    pub kind: SectionKind,
    /// Address when loaded (0 for non-allocated sections).
    pub addr: u32,
    /// Size in bytes (for NOBITS, the memory size).
    pub size: u32,
    /// File contents (empty for NOBITS).
    pub data: Vec<u8>,
    /// Flags.
    pub flags: SectionFlags,
    /// Alignment (`sh_addralign`).
    pub align: u32,
}

/// Type of a symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// STT_NOTYPE: a plain label.
    NoType,
    /// STT_OBJECT: data.
    Object,
    /// STT_FUNC: code.
    Func,
    /// STT_SECTION.
    Section,
    /// STT_FILE.
    File,
    /// Any other `st_type`.
    Other(u8),
}

impl SymbolKind {
    /// From ELF `st_type`.
    pub fn from_bits(t: u8) -> SymbolKind {
        match t {
            0 => SymbolKind::NoType,
            1 => SymbolKind::Object,
            2 => SymbolKind::Func,
            3 => SymbolKind::Section,
            4 => SymbolKind::File,
            t => SymbolKind::Other(t),
        }
    }
    /// As ELF `st_type`.
    pub fn bits(self) -> u8 {
        match self {
            SymbolKind::NoType => 0,
            SymbolKind::Object => 1,
            SymbolKind::Func => 2,
            SymbolKind::Section => 3,
            SymbolKind::File => 4,
            SymbolKind::Other(t) => t & 0xf,
        }
    }
}

/// Binding of a symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolBinding {
    /// STB_LOCAL.
    Local,
    /// STB_GLOBAL.
    Global,
    /// STB_WEAK.
    Weak,
    /// Any other binding.
    Other(u8),
}

impl SymbolBinding {
    /// From ELF `st_bind`.
    pub fn from_bits(b: u8) -> SymbolBinding {
        match b {
            0 => SymbolBinding::Local,
            1 => SymbolBinding::Global,
            2 => SymbolBinding::Weak,
            b => SymbolBinding::Other(b),
        }
    }
}

/// A symbol from `.symtab`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// Name (may be empty for section symbols).
    pub name: String,
    /// Value (an address for defined symbols in allocated sections).
    pub value: u32,
    /// Size in bytes (0 if unknown).
    pub size: u32,
    /// Type.
    pub kind: SymbolKind,
    /// Binding.
    pub binding: SymbolBinding,
    /// Name of the section it is defined in; `None` for undefined or absolute symbols.
    pub section: Option<String>,
}

/// A validated ELF32 RISC-V executable.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ElfImage {
    /// Entry point.
    pub entry: u32,
    /// The header's `e_flags` (RISC-V: RVC, float ABI, RVE, TSO; see [`ElfImage::needs`]).
    pub flags: u32,
    /// `PT_LOAD` segments, in file order.
    pub segments: Vec<Segment>,
    /// Sections, in header order (the null section left out).
    pub sections: Vec<Section>,
    /// Symbols of `.symtab` (the null symbol left out), in table order.
    pub symbols: Vec<Symbol>,
}

/// RISC-V `e_flags` bits (psABI).
pub mod ef {
    /// Uses compressed instructions.
    pub const RVC: u32 = 0x1;
    /// Float ABI field: 0 soft, 2 single, 4 double, 6 quad.
    pub const FLOAT_ABI: u32 = 0x6;
    /// Single-precision float ABI.
    pub const FLOAT_ABI_SINGLE: u32 = 0x2;
    /// The RV32E base (16 registers).
    pub const RVE: u32 = 0x8;
    /// Needs the TSO memory model.
    pub const TSO: u32 = 0x10;
}

impl ElfImage {
    /// What the header's `e_flags` say the program needs that weft (RV32IMAFC, ilp32 or
    /// ilp32f, sequentially consistent memory) lacks: one message per need, empty if none.
    pub fn needs(&self) -> Vec<String> {
        let mut out = Vec::new();
        match self.flags & ef::FLOAT_ABI {
            4 => out.push("the double-precision float ABI (ilp32d: the D extension)".into()),
            6 => out.push("the quad-precision float ABI (ilp32q: the Q extension)".into()),
            _ => {}
        }
        if self.flags & ef::RVE != 0 {
            out.push("the RV32E base (ilp32e ABI)".into());
        }
        let known = ef::RVC | ef::FLOAT_ABI | ef::RVE | ef::TSO;
        if self.flags & !known != 0 {
            out.push(format!("unknown e_flags bits {:#x}", self.flags & !known));
        }
        out
    }

    /// The section with this name, if any.
    pub fn section(&self, name: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.name == name)
    }
    /// The first symbol with this name, if any.
    pub fn symbol(&self, name: &str) -> Option<&Symbol> {
        self.symbols.iter().find(|s| s.name == name)
    }
    /// The segment containing `addr`, if any.
    pub fn segment_at(&self, addr: u32) -> Option<&Segment> {
        self.segments.iter().find(|s| s.contains(addr))
    }
    /// Read a little-endian word from the loaded image (zero-filled parts read as 0).
    pub fn read_u32(&self, addr: u32) -> Option<u32> {
        let mut b = [0u8; 4];
        for (k, byte) in b.iter_mut().enumerate() {
            let a = addr.checked_add(k as u32)?;
            let seg = self.segment_at(a)?;
            *byte = seg.data.get((a - seg.vaddr) as usize).copied().unwrap_or(0);
        }
        Some(u32::from_le_bytes(b))
    }
}

//! The local-bus map: data addresses 0xFF00–0xFFFF go to an 8-bit-address, 32-bit-data bus.
//!
//! This table is the single source for the bus: the core's load/store unit decodes with it,
//! the assembler predefines its names as constants, and `docs/sp2a.md` lists it
//! ([`bus_listing`]).

/// First data address of the local-bus window.
pub const BUS_BASE: u16 = 0xFF00;

/// Access allowed on a bus register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Read and write.
    ReadWrite,
    /// Read only (writes fault).
    ReadOnly,
    /// Write only (reads return 0).
    WriteOnly,
}

/// A named bus register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BusReg {
    /// Assembler name.
    pub name: &'static str,
    /// Bus address (0x00..=0xFF); the data address is `0xFF00 + offset`.
    pub offset: u8,
    /// Allowed access.
    pub access: Access,
    /// What it does.
    pub doc: &'static str,
}

macro_rules! bus_map {
    ($( $konst:ident = $off:literal, $name:literal, $acc:ident, $doc:literal; )*) => {
        $( #[doc = $doc] pub const $konst: u8 = $off; )*
        /// Every bus register, by address.
        pub const BUS_REGS: &[BusReg] = &[
            $( BusReg { name: $name, offset: $off, access: Access::$acc, doc: $doc } ),*
        ];
    };
}

bus_map! {
    DMA_CMD0 = 0x00, "DMA_CMD0", ReadWrite, "DMA slot 0 command: bits 0-15 local address, 16-27 dword count, 31 direction (1 = framebuffer to local)";
    DMA_FB_ADDR0 = 0x01, "DMA_FB_ADDR0", ReadWrite, "DMA slot 0 framebuffer dword address";
    DMA_CMD1 = 0x02, "DMA_CMD1", ReadWrite, "DMA slot 1 command";
    DMA_FB_ADDR1 = 0x03, "DMA_FB_ADDR1", ReadWrite, "DMA slot 1 framebuffer address";
    DMA_CMD2 = 0x04, "DMA_CMD2", ReadWrite, "DMA slot 2 command";
    DMA_FB_ADDR2 = 0x05, "DMA_FB_ADDR2", ReadWrite, "DMA slot 2 framebuffer address";
    DMA_CMD3 = 0x06, "DMA_CMD3", ReadWrite, "DMA slot 3 command";
    DMA_FB_ADDR3 = 0x07, "DMA_FB_ADDR3", ReadWrite, "DMA slot 3 framebuffer address";
    DMA_CTRL = 0x08, "DMA_CTRL", ReadWrite, "write n = 1..4: run slots 0..n-1 in order (0: nothing; >4 or while busy: fault); read: slots not yet finished (0 = idle)";
    CORE_INDEX = 0x10, "CORE_INDEX", ReadOnly, "this core's index in the array, 0..CORE_COUNT-1";
    CORE_COUNT = 0x11, "CORE_COUNT", ReadOnly, "number of cores in the array";
    FB_WIDTH = 0x12, "FB_WIDTH", ReadOnly, "framebuffer width in pixels";
    FB_HEIGHT = 0x13, "FB_HEIGHT", ReadOnly, "framebuffer height in pixels";
    CYCLE_LO = 0x14, "CYCLE_LO", ReadOnly, "array cycle counter, low 32 bits";
    CYCLE_HI = 0x15, "CYCLE_HI", ReadOnly, "array cycle counter, high 32 bits (read separately, not latched)";
    HALT = 0x20, "HALT", WriteOnly, "write: this core stops; the value is its exit code (DMA in flight still completes)";
    FRAME = 0x21, "FRAME", WriteOnly, "write: ask the host to save a snapshot of the framebuffer at the end of this cycle";
    PUTC = 0x22, "PUTC", WriteOnly, "write: append the low byte to the console";
    PUTDEC = 0x23, "PUTDEC", WriteOnly, "write: append the value as signed decimal to the console";
    PUTHEX = 0x24, "PUTHEX", WriteOnly, "write: append the value as 8 hex digits to the console";
}

/// The register at bus address `offset`, if any.
pub fn bus_reg(offset: u8) -> Option<&'static BusReg> {
    BUS_REGS.iter().find(|r| r.offset == offset)
}

/// The bus map as Markdown, for `docs/sp2a.md`.
pub fn bus_listing() -> String {
    let mut s = String::from("| data address | name | access | meaning |\n|---|---|---|---|\n");
    for r in BUS_REGS {
        let acc = match r.access {
            Access::ReadWrite => "r/w",
            Access::ReadOnly => "r",
            Access::WriteOnly => "w",
        };
        s.push_str(&format!(
            "| 0x{:04X} | {} | {} | {} |\n",
            u16::from(r.offset) + BUS_BASE,
            r.name,
            acc,
            r.doc
        ));
    }
    s
}

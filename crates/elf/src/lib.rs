//! weft-elf: ELF32 RISC-V executables for weft — reading them with full validation (the
//! simulator's loader, the disassembler and the reconvergence analysis all start here) and
//! writing them (the assembler's output, and extra named sections such as `.weft.reconv`).
//!
//! Reading never panics: any byte string gives either an [`ElfImage`] or an [`ElfError`]
//! naming what is wrong.
//!
//! ```
//! use weft_elf::{ElfBuilder, OutSection, SectionFlags, read_elf};
//! let mut b = ElfBuilder::new(0x8000_0000);
//! b.add_section(OutSection::progbits(".text", 0x8000_0000, vec![0x13, 0, 0, 0], SectionFlags::TEXT));
//! let bytes = b.write().unwrap();
//! let image = read_elf(&bytes).unwrap();
//! assert_eq!(image.entry, 0x8000_0000);
//! assert_eq!(image.segments[0].data, vec![0x13, 0, 0, 0]);
//! ```

mod append;
mod image;
mod read;
mod write;

pub use append::append_section;
pub use image::{
    ef, ElfImage, Section, SectionFlags, SectionKind, Segment, SegmentFlags, Symbol, SymbolBinding,
    SymbolKind,
};
pub use read::{read_elf, ElfError};
pub use write::{ElfBuilder, OutSection, OutSymbol, WriteError};

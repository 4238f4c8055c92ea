//! weft-elf: write → read round trips, every validation error, appending sections, and
//! "never panics" on random and truncated bytes.

use proptest::prelude::*;
use weft_elf::*;

fn sample() -> Vec<u8> {
    let mut b = ElfBuilder::new(0x8000_0000);
    let text = b.add_section(OutSection::progbits(
        ".text",
        0x8000_0000,
        vec![0x13, 0, 0, 0, 0x6f, 0, 0, 0],
        SectionFlags::TEXT,
    ));
    let data = b.add_section(OutSection::progbits(
        ".data",
        0x8000_0010,
        vec![1, 2, 3, 4],
        SectionFlags::DATA,
    ));
    b.add_section(OutSection::nobits(
        ".bss",
        0x8000_0014,
        64,
        SectionFlags::DATA,
    ));
    b.add_symbol(OutSymbol {
        name: "_start".into(),
        value: 0x8000_0000,
        size: 8,
        kind: SymbolKind::Func,
        global: true,
        section: Some(text),
    });
    b.add_symbol(OutSymbol {
        name: "table".into(),
        value: 0x8000_0010,
        size: 4,
        kind: SymbolKind::Object,
        global: false,
        section: Some(data),
    });
    b.add_symbol(OutSymbol {
        name: "CONST".into(),
        value: 42,
        size: 0,
        kind: SymbolKind::NoType,
        global: false,
        section: None,
    });
    b.write().unwrap()
}

#[test]
fn write_then_read() {
    let img = read_elf(&sample()).unwrap();
    assert_eq!(img.entry, 0x8000_0000);
    assert_eq!(img.segments.len(), 3);
    let t = &img.segments[0];
    assert_eq!((t.vaddr, t.memsz), (0x8000_0000, 8));
    assert_eq!(
        t.flags,
        SegmentFlags {
            read: true,
            write: false,
            exec: true
        }
    );
    let bss = &img.segments[2];
    assert_eq!((bss.vaddr, bss.memsz, bss.data.len()), (0x8000_0014, 64, 0));
    assert!(bss.flags.write && !bss.flags.exec);
    assert_eq!(img.read_u32(0x8000_0004), Some(0x6f));
    assert_eq!(img.read_u32(0x8000_0010), Some(0x0403_0201));
    let s = img.symbol("_start").unwrap();
    assert_eq!(s.kind, SymbolKind::Func);
    assert_eq!(s.binding, SymbolBinding::Global);
    assert_eq!(s.section.as_deref(), Some(".text"));
    assert_eq!(s.size, 8);
    let t = img.symbol("table").unwrap();
    assert_eq!(
        (t.kind, t.binding, t.value),
        (SymbolKind::Object, SymbolBinding::Local, 0x8000_0010)
    );
    let c = img.symbol("CONST").unwrap();
    assert_eq!((c.value, c.section.clone()), (42, None));
    assert_eq!(img.section(".text").unwrap().data.len(), 8);
    assert_eq!(img.section(".bss").unwrap().kind, SectionKind::Nobits);
    assert!(img.section(".symtab").is_some());
}

#[test]
fn append_a_named_section() {
    let file = sample();
    let with = append_section(&file, ".weft.reconv", b"reconv-table").unwrap();
    let img = read_elf(&with).unwrap();
    let s = img.section(".weft.reconv").unwrap();
    assert_eq!(s.data, b"reconv-table");
    assert!(!s.flags.alloc);
    // Loaded bytes are untouched.
    assert_eq!(img.segments, read_elf(&file).unwrap().segments);
    assert_eq!(img.symbols, read_elf(&file).unwrap().symbols);
    // Replacing it keeps one section of that name.
    let again = append_section(&with, ".weft.reconv", b"v2").unwrap();
    let img = read_elf(&again).unwrap();
    assert_eq!(img.section(".weft.reconv").unwrap().data, b"v2");
    assert_eq!(
        img.sections
            .iter()
            .filter(|s| s.name == ".weft.reconv")
            .count(),
        1
    );
}

#[test]
fn extra_section_from_builder() {
    let mut b = ElfBuilder::new(0x8000_0000);
    b.add_section(OutSection::progbits(
        ".text",
        0x8000_0000,
        vec![0x13, 0, 0, 0],
        SectionFlags::TEXT,
    ));
    b.add_section(OutSection::progbits(
        ".weft.reconv",
        0,
        vec![9, 9],
        SectionFlags::NONE,
    ));
    let img = read_elf(&b.write().unwrap()).unwrap();
    assert_eq!(img.segments.len(), 1);
    assert_eq!(img.section(".weft.reconv").unwrap().data, vec![9, 9]);
}

fn set_u16(f: &mut [u8], at: usize, v: u16) {
    f[at..at + 2].copy_from_slice(&v.to_le_bytes());
}
fn set_u32(f: &mut [u8], at: usize, v: u32) {
    f[at..at + 4].copy_from_slice(&v.to_le_bytes());
}
fn phoff(f: &[u8]) -> usize {
    u32::from_le_bytes(f[28..32].try_into().unwrap()) as usize
}

#[test]
fn each_error_is_named() {
    let good = sample();
    assert_eq!(read_elf(&[]), Err(ElfError::TooShort(0)));
    assert_eq!(read_elf(b"\x7fELF"), Err(ElfError::TooShort(4)));
    assert_eq!(read_elf(&[0u8; 64]), Err(ElfError::NotElf));
    let mut f = good.clone();
    f[4] = 2;
    assert_eq!(read_elf(&f), Err(ElfError::Class(2)));
    let mut f = good.clone();
    f[5] = 2;
    assert_eq!(read_elf(&f), Err(ElfError::Endian(2)));
    let mut f = good.clone();
    set_u16(&mut f, 18, 62);
    assert_eq!(read_elf(&f), Err(ElfError::Machine(62)));
    let mut f = good.clone();
    set_u16(&mut f, 16, 1);
    let e = read_elf(&f).unwrap_err();
    assert_eq!(e, ElfError::Type(1));
    assert!(e.to_string().contains("link it first"));
    let mut f = good.clone();
    set_u32(&mut f, 24, 0x9000_0000);
    assert_eq!(read_elf(&f), Err(ElfError::Entry(0x9000_0000)));
    // Entry in the data segment (not executable).
    let mut f = good.clone();
    set_u32(&mut f, 24, 0x8000_0010);
    assert_eq!(read_elf(&f), Err(ElfError::Entry(0x8000_0010)));
    // Segment 0 file range outside the file.
    let ph = phoff(&good);
    let mut f = good.clone();
    set_u32(&mut f, ph + 4, 0xffff_0000);
    assert!(matches!(
        read_elf(&f),
        Err(ElfError::SegmentOutsideFile { index: 0, .. })
    ));
    // filesz > memsz.
    let mut f = good.clone();
    set_u32(&mut f, ph + 20, 4);
    assert!(matches!(
        read_elf(&f),
        Err(ElfError::SegmentFileSize { index: 0, .. })
    ));
    // Wrap past 4 GiB.
    let mut f = good.clone();
    set_u32(&mut f, ph + 32 + 8, 0xffff_fffe);
    assert!(matches!(
        read_elf(&f),
        Err(ElfError::SegmentWraps { index: 1, .. })
    ));
    // Overlap: move .data onto .text.
    let mut f = good.clone();
    set_u32(&mut f, ph + 32 + 8, 0x8000_0004);
    let e = read_elf(&f).unwrap_err();
    assert!(
        matches!(e, ElfError::SegmentOverlap { a: 0, b: 1, .. }),
        "{e}"
    );
    // No loadable segment.
    let mut f = good.clone();
    set_u16(&mut f, 44, 0);
    assert_eq!(read_elf(&f), Err(ElfError::NoSegments));
    // Program header table outside the file.
    let mut f = good.clone();
    set_u32(&mut f, 28, 0xffff_ff00);
    assert!(matches!(read_elf(&f), Err(ElfError::Malformed(_))));
    // Section header table outside the file.
    let mut f = good.clone();
    set_u32(&mut f, 32, 0xffff_ff00);
    assert!(matches!(read_elf(&f), Err(ElfError::Malformed(_))));
    // Every error has a message.
    assert!(!ElfError::NoSegments.to_string().is_empty());
}

#[test]
fn every_truncation_is_an_error_not_a_panic() {
    let good = sample();
    for n in 0..good.len() {
        let r = read_elf(&good[..n]);
        // A truncation that drops only trailing section headers is still caught.
        assert!(r.is_err(), "truncated to {n} bytes was accepted");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = read_elf(&bytes);
        let _ = append_section(&bytes, ".x", b"y");
    }

    #[test]
    fn mutated_elf_never_panics(flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..8)) {
        let mut f = sample();
        for (at, v) in flips {
            let n = f.len();
            f[at % n] = v;
        }
        if let Ok(img) = read_elf(&f) {
            // Whatever is accepted is consistent.
            for s in &img.segments {
                prop_assert!(s.data.len() as u64 <= s.memsz as u64);
                prop_assert!(s.end() <= 1 << 32);
            }
        }
        let _ = append_section(&f, ".weft.reconv", b"z");
    }
}

/// Executables linked by GNU ld and by lld from `fixtures/source.s` read correctly.
#[test]
fn reads_executables_from_other_linkers() {
    for name in ["gnu-ld.elf", "lld.elf"] {
        let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(&path).unwrap();
        let img = read_elf(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let start = img.symbol("_start").unwrap();
        assert_eq!(start.value, 0x8000_0000, "{name}");
        assert_eq!(img.entry, 0x8000_0000, "{name}");
        // addi a0, a0, 1 ; j _start
        assert_eq!(img.read_u32(0x8000_0000), Some(0x0015_0513), "{name}");
        assert_eq!(img.read_u32(0x8000_0004), Some(0xffdf_f06f), "{name}");
        let x = img.symbol("x").unwrap();
        assert_eq!(img.read_u32(x.value), Some(5), "{name}");
        assert!(img.section(".text").unwrap().flags.exec);
    }
}

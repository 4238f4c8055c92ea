//! Shared by the tests: a `.vxbin` image assembled from a program in `tests/vortex/`.

/// Assemble `tests/vortex/<path>` into a `.vxbin` whose footer names `entries` (footer name,
/// program symbol); also the program's symbols.
pub fn vxbin(path: &str, entries: &[(&str, &str)]) -> (Vec<u8>, weft_elf::ElfImage) {
    let file = format!("{}/../../tests/vortex/{path}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let bytes = weft_asm::assemble(&src, path).unwrap_or_else(|e| panic!("{path}:\n{e}"));
    let img = weft_elf::read_elf(&bytes).unwrap();
    let lo = img.segments.iter().map(|s| s.vaddr).min().unwrap();
    let hi = img
        .segments
        .iter()
        .map(|s| s.vaddr + s.memsz.max(s.data.len() as u32))
        .max()
        .unwrap();
    let end = img
        .segments
        .iter()
        .map(|s| s.vaddr + s.data.len() as u32)
        .max()
        .unwrap();
    let mut flat = vec![0u8; (end - lo) as usize];
    for s in &img.segments {
        let at = (s.vaddr - lo) as usize;
        flat[at..at + s.data.len()].copy_from_slice(&s.data);
    }
    let named: Vec<(&str, u32)> = entries.iter().map(|&(n, s)| (n, symbol(&img, s))).collect();
    (weft_simt::vortex::vxbin::write(lo, hi, &flat, &named), img)
}

/// A program symbol's address.
pub fn symbol(img: &weft_elf::ElfImage, s: &str) -> u32 {
    img.symbol(s)
        .unwrap_or_else(|| panic!("no symbol {s}"))
        .value
}

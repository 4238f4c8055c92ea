//! Assemble a file and print errors or a summary (a development aid).
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: wasm FILE.s [OUT.elf]");
        std::process::exit(2);
    };
    let src = std::fs::read_to_string(path).unwrap_or_default();
    match weft_asm::assemble(&src, path) {
        Ok(elf) => {
            if let Some(out) = args.get(2) {
                let _ = std::fs::write(out, &elf);
            }
            println!(
                "{}",
                weft_asm::disassemble(&elf).unwrap_or_else(|e| e.to_string())
            );
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}

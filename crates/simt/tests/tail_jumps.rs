//! Tail calls in real compiler output (clang 14 + lld, which does not relax `tail` into `j`,
//! and gcc 12 with `--no-relax`) are `auipc` + `jalr x0`: the analysis knows their constant
//! target, and `weft reconv` names it instead of calling the jump unresolved.

use std::process::Command;

const SRC: &str = "
__attribute__((noinline)) int g(int y) { return y ? 200 : 300; }
__attribute__((noinline)) int f(int x) { if (x == 0) return 100; return g(x - 1); }
int _start(int x) { return f(x) + 1; }
";

fn build(tool: &str, args: &[&str]) -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!("weft-reconv-tail-{tool}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (src, out) = (dir.join("t.c"), dir.join("t.elf"));
    std::fs::write(&src, SRC).unwrap();
    let o = Command::new(tool)
        .args(args)
        .args([
            "-O2",
            "-nostdlib",
            "-ffreestanding",
            "-Wl,-Ttext=0x80000000",
        ])
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap_or_else(|e| panic!("{tool}: {e} (CI installs it)"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    bytes
}

fn check(elf: &[u8]) {
    let img = weft_elf::read_elf(elf).unwrap();
    let a = weft_simt::load::analyze_image(&img).unwrap();
    let f = a.functions.iter().find(|f| f.name == "f").expect("f");
    let g = a.functions.iter().find(|f| f.name == "g").expect("g");
    assert_eq!(f.constant_jumps.len(), 1, "{:?}", f);
    assert_eq!(f.constant_jumps[0].1, g.start, "the tail call goes to g");
    let dump = a.dump();
    assert!(dump.contains("tail jump to g"), "{dump}");
    assert!(!dump.contains("unresolved jump"), "{dump}");
}

#[test]
fn clang_tail_call() {
    check(&build(
        "clang",
        &[
            "--target=riscv32-unknown-elf",
            "-march=rv32imaf",
            "-mabi=ilp32f",
            "-fuse-ld=lld",
        ],
    ));
}

#[test]
fn gcc_tail_call_without_relaxation() {
    check(&build(
        "riscv64-unknown-elf-gcc",
        &["-march=rv32imaf", "-mabi=ilp32f", "-Wl,--no-relax"],
    ));
}

//! The `weft` command on compressed code: `weft reconv` prints the pcs of 2-byte branches
//! and their joins; `weft run` runs it; an ELF whose `e_flags` ask for what weft lacks
//! (double-float ABI, RVE) runs with one warning line on stderr, and one that asks for
//! nothing weft lacks gets none.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SRC: &str = "
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr a0, thread_id
    andi a5, a0, 1
br: c.beqz a5, else
    c.li a4, 1
    c.j join
else:
    c.li a4, 2
join:
    c.add a4, a0
    li t0, 0xffffff04
    sw zero, 0(t0)
";

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("weft-compressed-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn weft(args: &[&str], file: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(args)
        .arg(file)
        .output()
        .expect("run weft")
}

fn elf() -> Vec<u8> {
    weft_asm::assemble(SRC, "c.s").unwrap()
}

#[test]
fn reconv_prints_compressed_pcs_and_run_succeeds() {
    let d = dir();
    let p = d.join("c.elf");
    std::fs::write(&p, elf()).unwrap();
    let out = weft(&["reconv"], &p);
    let text = String::from_utf8_lossy(&out.stdout);
    // li (4) + csrw (4) + csrr (4) + andi (4): the c.beqz at +16; c.li, c.j, c.li: the join
    // at +24, a halfword boundary the walk by length finds.
    assert!(
        text.contains("0x80000010  c.beqz a5, 0x80000016") && text.contains("-> 0x80000018"),
        "{text}"
    );
    let out = weft(&["run", "--lanes", "8"], &p);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_elf_needing_what_weft_lacks_runs_with_one_warning() {
    let d = dir();
    for (flags, what) in [(0x5u32, "ilp32d"), (0x9, "RV32E"), (0x7, "ilp32q")] {
        let mut bytes = elf();
        bytes[36..40].copy_from_slice(&flags.to_le_bytes()); // e_flags
        let p = d.join(format!("f{flags}.elf"));
        std::fs::write(&p, &bytes).unwrap();
        let out = weft(&["run"], &p);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("weft: warning: ") && err.contains(what),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

//! HTIF console through `weft run`: a program with `tohost` and `fromhost` symbols prints
//! through device 1 command 1 (the protocol QEMU's and Spike's spike machines implement) and
//! exits through device 0.
//! The loader passes the `fromhost` symbol to the memory, which switches `tohost` to the
//! 64-bit protocol; without it an odd low word would be taken as an exit.

use std::process::Command;

const SRC: &str = "    .text
    .globl _start
_start:
    la t0, tohost
    li t1, 0x01010000
    li a0, 'a'
    sw a0, 0(t0)
    sw t1, 4(t0)
    li a0, 'B'
    sw a0, 0(t0)
    sw t1, 4(t0)
    li a0, 1
    sw a0, 0(t0)
    sw zero, 4(t0)
1:  j 1b
    .data
    .align 3
    .globl tohost
tohost: .word 0, 0
    .size tohost, 8
    .globl fromhost
fromhost: .word 0, 0
    .size fromhost, 8
";

#[test]
fn htif_putchar_and_exit_through_the_cli() {
    let dir = std::env::temp_dir().join(format!("weft-htif-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let f = dir.join("htif.s");
    std::fs::write(&f, SRC).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .arg("run")
        .arg(&f)
        .output()
        .expect("weft runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "aB");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

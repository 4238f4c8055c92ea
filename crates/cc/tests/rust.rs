//! Rust kernels: device/rust (the `weft-kernel` crate and its example kernels) built with cargo
//! for riscv32imafc-unknown-none-elf, linked by weft cc with the device runtime, and run at
//! several machine shapes; the expected output is computed here, on the host.

mod common;
use common::*;
use std::process::Command;
use weft_cc::Reconv;

const TARGET: &str = "riscv32imafc-unknown-none-elf";

fn collatz(mut x: u32) -> u32 {
    let mut n = 0;
    while x != 1 {
        x = if x % 2 == 1 { 3 * x + 1 } else { x / 2 };
        n += 1;
    }
    n
}

fn classify(t: u32) -> u32 {
    match t % 7 {
        0 => t * 3,
        1 => t ^ 0x5a5a,
        2 => collatz(t + 2),
        3 => t.rotate_left(5),
        4 => t / 3 + 1,
        5 => !t & 0xffff,
        _ => 42,
    }
}

/// What the example prints on a machine with `hw` threads per core.
fn expected(hw: u32) -> String {
    let mut s = String::from("vecadd: PASS\n");
    for i in (0..100).filter(|i| i % 10 == 3) {
        s += &format!(
            "thread {i} block {}: collatz {} class {}\n",
            i / 25,
            collatz(i + 1),
            classify(i)
        );
    }
    let total: u32 = (0..100).map(|i| collatz(i + 1) + classify(i)).sum();
    s += &format!("collatz+match total: {total}\n");
    let block = 1u32 << (31 - hw.clamp(1, 32).leading_zeros());
    s += &format!("reduce over {} threads: PASS\n", 8 * block);
    s
}

#[test]
fn rust_kernels_run_and_match_the_host() {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains(TARGET))
        .unwrap_or(false);
    assert!(
        installed,
        "the Rust kernel test needs the {TARGET} target: rustup target add {TARGET}"
    );
    let target_dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("device-rust");
    // Run from device/rust so that its .cargo/config.toml (the codegen flags) applies.
    let status = Command::new("cargo")
        .current_dir(root().join("device/rust"))
        .args(["build", "--release", "--target", TARGET])
        .env("CARGO_TARGET_DIR", &target_dir)
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building device/rust failed");
    let lib = target_dir.join(TARGET).join("release/librust_kernels.a");
    let dir = tempfile::tempdir().unwrap();
    let elf = build_device(&lib, "-O2", Reconv::Table, dir.path());
    for (cores, warps, lanes) in [(1, 4, 8), (1, 2, 32), (2, 4, 1)] {
        let (got, code) = run(&elf, cores, warps, lanes, mode_of(Reconv::Table));
        assert_eq!(
            (got.as_str(), code),
            (expected((warps * lanes) as u32).as_str(), 0),
            "{cores}x{warps}x{lanes}"
        );
    }
}

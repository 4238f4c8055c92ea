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

/// Build device/rust (every example crate) with cargo; the target directory.
fn build_device_rust() -> std::path::PathBuf {
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
    target_dir.join(TARGET).join("release")
}

#[test]
fn rust_kernels_run_and_match_the_host() {
    let lib = build_device_rust().join("librust_kernels.a");
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

fn lcg(s: &mut u32) -> u32 {
    *s = s.wrapping_mul(1664525).wrapping_add(1013904223);
    *s >> 8
}

/// What the warp-level example (examples-rs/warp) prints at `w` lanes.
fn expected_warp(w: u32) -> String {
    let mut s = 12345;
    let data: Vec<u32> = (0..3000).map(|_| lcg(&mut s) % 100000).collect();
    let sum = data.iter().fold(0u32, |a, &x| a.wrapping_add(x));
    let last: u32 = data.iter().map(|x| x % 1000).sum();
    let kept = data.iter().filter(|&&x| x % 7 < 3).count();
    let mut s = 777;
    let bytes: Vec<u32> = (0..4096)
        .map(|i| (i / 37) % 13 * 5 + lcg(&mut s) % 3)
        .collect();
    let mut bins = [0u32; 4];
    for &b in &bytes {
        if (b as usize % 64) < 4 {
            bins[b as usize % 64] += 1;
        }
    }
    // branches: two blocks of four warps; each lane's value from its path, then per warp the
    // sum of (value + 7 or 1) and the ballot of odd values
    let v = |g: u32| match (g % 3, g % 2) {
        (0, 0) => g * 10,
        (0, _) => g + 1000,
        _ => g,
    };
    let u = |g: u32| if g % 4 == 1 { 7 } else { 1 };
    let mut h = 2166136261u32;
    for g in 0..8 * w {
        let base = g / w * w;
        let sum = (base..base + w).fold(0u32, |a, x| a.wrapping_add(v(x) + u(x)));
        let odd = (base..base + w).fold(0u32, |a, x| a | ((v(x) % 2) << (x - base)));
        h = (h ^ (sum ^ odd.rotate_left(g % 32))).wrapping_mul(16777619);
    }
    format!(
        "warp reduce: {sum} PASS\nwarp scan: last {last} PASS\ncompact: kept {kept} PASS\n\
         histogram: bins[0..4] {} {} {} {} PASS\nbranches: {h:08x}\nzero-cost pair agree: PASS\n",
        bins[0], bins[1], bins[2], bins[3]
    )
}

/// The bytes of the function `name` in a linked ELF.
fn function_bytes(elf: &[u8], name: &str) -> Vec<u8> {
    let img = weft_elf::read_elf(elf).expect("read the ELF");
    let sym = img
        .symbols
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no symbol {name}"));
    assert!(sym.size > 0, "{name} has no size");
    let seg = img
        .segments
        .iter()
        .find(|s| s.contains(sym.value))
        .expect("the function is in a segment");
    let off = (sym.value - seg.vaddr) as usize;
    seg.data[off..off + sym.size as usize].to_vec()
}

#[test]
fn typed_warp_kernels_run_and_cost_nothing() {
    let lib = build_device_rust().join("libwarp_kernels.a");
    let dir = tempfile::tempdir().unwrap();
    let elf = build_device(&lib, "-O2", Reconv::Table, dir.path());
    for (warps, lanes) in [(4, 8), (2, 32), (4, 1), (4, 5)] {
        let (got, code) = run(&elf, 1, warps, lanes, mode_of(Reconv::Table));
        assert_eq!(
            (got.as_str(), code),
            (expected_warp(lanes as u32).as_str(), 0),
            "{warps}x{lanes}"
        );
    }
    // Zero cost: a branch and a warp sum through Warp<All> compile to the very bytes of the
    // same code written with the raw instructions.
    let (checked, hand) = (
        function_bytes(&elf, "zc_checked"),
        function_bytes(&elf, "zc_hand"),
    );
    assert!(checked.len() > 40, "{} bytes", checked.len());
    assert_eq!(checked, hand, "zc_checked and zc_hand differ");
}

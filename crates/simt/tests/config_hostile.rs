//! Hostile configuration files: every key with every kind of wrong value, and nonsense around
//! them. Parsing never panics; what parses also validates and builds a machine's memory; every
//! rejection is one message naming the key or the TOML problem.

use std::panic::{catch_unwind, AssertUnwindSafe};
use weft_simt::{Config, Profile};

const KEYS: &[&str] = &[
    "profile",
    "kernel_arg",
    "cores",
    "warps",
    "lanes",
    "stack_depth",
    "reconv",
    "dram_size",
    "local_mem_size",
    "local_mem_base",
    "barriers",
    "max_cycles",
    "require_exit",
    "display.cycles_per_line",
    "display.lines_per_frame",
    "display.visible_lines",
    "display.pixels_per_line",
    "display.visible_pixels",
    "display.pixel_clock_hz",
    "dma.setup_cycles",
    "dma.cycles_per_dword",
    "dxa.units",
    "dxa.latency",
    "dxa.inflight",
    "dxa.issue_latency",
];

const VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "3",
    "4097",
    "4096",
    "0xffffffff",
    "0x7f000000",
    "0x100000000",
    "9223372036854775807",
    "-9223372036854775808",
    "1.5",
    "nan",
    "inf",
    "true",
    "\"\"",
    "\"table\"",
    "\"vortex\"",
    "\"x\"",
    "[]",
    "[1, 2]",
    "{}",
    "{ a = 1 }",
    "1979-05-27",
];

fn check(text: &str) {
    for profile in [None, Some(Profile::Weft), Some(Profile::Vortex)] {
        let r = catch_unwind(AssertUnwindSafe(|| Config::from_toml_for(text, profile)));
        match r.unwrap_or_else(|_| panic!("config parsing panicked on:\n{text}")) {
            Ok(c) => {
                c.validate()
                    .unwrap_or_else(|e| panic!("parsed but invalid: {e}\n{text}"));
                weft_mem::Memory::new(c.mem_config())
                    .unwrap_or_else(|e| panic!("parsed but no memory: {e}\n{text}"));
            }
            Err(e) => {
                let msg = e.to_string();
                assert!(!msg.is_empty(), "an empty message for:\n{text}");
            }
        }
    }
}

#[test]
fn every_key_with_every_kind_of_value() {
    for k in KEYS {
        for v in VALUES {
            let text = match k.split_once('.') {
                Some((table, key)) => format!("[{table}]\n{key} = {v}\n"),
                None => format!("{k} = {v}\n"),
            };
            check(&text);
            check(&format!("lanes = 32\nwarps = 32\n{text}"));
        }
    }
}

#[test]
fn nonsense_files() {
    for text in [
        "",
        "=",
        "[",
        "[display",
        "cores = ",
        "cores = 1\ncores = 2\n",
        "unknown = 1\n",
        "[unknown]\n",
        "[display]\n[display]\n",
        "display = 3\n",
        "\u{feff}cores = 1\n",
        "cores = 1 # comment\n",
        &"[".repeat(10_000),
        &format!("cores = {}\n", "9".repeat(10_000)),
        &format!("a = {}1{}\n", "[".repeat(5_000), "]".repeat(5_000)),
    ] {
        check(text);
    }
}

/// A refused value names the rule it breaks, with its bounds (the caches' keys belong to
/// weft-timing and are checked in its tests/config.rs).
#[test]
fn every_refusal_names_its_rule_and_bounds() {
    let text = "stack_spill = 2000000\n";
    let e = weft_simt::Config::from_toml(text)
        .and_then(|c| c.validate().map(|()| c))
        .expect_err(text);
    assert!(
        e.to_string()
            .starts_with("stack_spill = 2000000 is out of range (allowed 0..=1048576)"),
        "{e}"
    );
}

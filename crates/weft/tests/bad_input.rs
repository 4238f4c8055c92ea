//! Bad input and limits through the command line: every hostile input in `tests/bad_input/`
//! (missing files, truncated and wrong-architecture ELFs, segments outside memory, absurd
//! configurations, programs that never end, deadlocks, faults, random bytes, hostile
//! assembly) gets a short, clear message on stderr and a non-zero exit status, and no input
//! ever makes weft panic.

use std::path::PathBuf;
use std::process::Command;

fn bad(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/bad_input")
        .join(name);
    p.to_string_lossy().into_owned()
}

/// Run weft; return (exit status, stdout, stderr), asserting it did not panic.
fn weft(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(args)
        .output()
        .expect("weft runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !stderr.contains("panicked") && !stdout.contains("panicked"),
        "weft {args:?} panicked:\n{stderr}"
    );
    (out.status.code().unwrap_or(-1), stdout, stderr)
}

/// weft fails with status `code`, stderr mentions every one of `want`, in at most `lines`
/// lines.
fn fails(args: &[&str], code: i32, want: &[&str], lines: usize) {
    let (status, _, err) = weft(args);
    assert_eq!(
        status, code,
        "weft {args:?}: status {status}, stderr:\n{err}"
    );
    for w in want {
        assert!(err.contains(w), "weft {args:?}: stderr lacks `{w}`:\n{err}");
    }
    let n = err.lines().count();
    assert!(
        (1..=lines).contains(&n),
        "weft {args:?}: {n} stderr lines:\n{err}"
    );
}

#[test]
fn missing_files() {
    fails(
        &["run", "no/such/prog.elf"],
        2,
        &["no/such/prog.elf", "No such file"],
        1,
    );
    fails(
        &["asm", "no/such.s", "-o", "/dev/null"],
        2,
        &["no/such.s"],
        1,
    );
    fails(&["disasm", "no/such.elf"], 2, &["no/such.elf"], 1);
    let k = bad("forever.s");
    fails(
        &["run", "--config", "no/such.toml", &k],
        2,
        &["no/such.toml"],
        1,
    );
}

#[test]
fn broken_and_foreign_elfs() {
    for (file, what) in [
        ("truncated.elf", "too short"),
        ("just_magic.elf", "too short"),
        ("x86_64.elf", "ELF32"),
        ("rv64.elf", "ELF32"),
        ("arm32.elf", "not a RISC-V ELF"),
        ("big_endian.elf", "little-endian"),
        ("random_with_magic.elf", "not a RISC-V ELF"),
        ("phdr_past_end.elf", "program header"),
        ("filesz_past_end.elf", "outside the file"),
    ] {
        fails(&["run", &bad(file)], 2, &[what], 2);
        let (status, _, err) = weft(&["disasm", &bad(file)]);
        assert_ne!(status, 0, "disasm {file}: {err}");
    }
}

#[test]
fn segments_outside_memory_and_bad_entries() {
    fails(
        &["run", &bad("segment_outside.elf")],
        2,
        &["0x00001000", "outside"],
        1,
    );
    fails(&["run", &bad("segment_wraps.elf")], 2, &["wraps"], 1);
    fails(&["run", &bad("huge_memsz.elf")], 2, &["wraps"], 1);
    fails(
        &["run", &bad("bad_entry.elf")],
        2,
        &["entry point 0x80000001"],
        1,
    );
}

#[test]
fn absurd_configurations() {
    let k = bad("forever.s");
    for (file, what) in [
        ("zero_lanes.toml", "lanes = 0"),
        ("many_warps.toml", "warps = 1000"),
        ("zero_dram.toml", "dram_size = 0"),
        ("unknown_key.toml", "unknown field `lanez`"),
        ("bad_syntax.toml", "line 1"),
        ("wrong_type.toml", "invalid type"),
        ("negative.toml", "-1"),
        ("overlap.toml", "overlaps"),
        ("bad_reconv.toml", "sometimes"),
    ] {
        let (status, _, err) = weft(&["run", "--config", &bad(file), &k]);
        assert_eq!(status, 2, "{file}: {err}");
        assert!(err.contains(what), "{file}: stderr lacks `{what}`:\n{err}");
        assert!(
            err.contains(file),
            "{file}: the message names the file:\n{err}"
        );
    }
    fails(&["run", "--lanes", "0", &k], 2, &["lanes = 0"], 1);
    fails(&["run", "--lanes", "33", &k], 2, &["lanes = 33"], 1);
    fails(&["run", "--warps", "1000", &k], 2, &["warps = 1000"], 1);
    fails(&["run", "--cores", "0", &k], 2, &["cores = 0"], 1);
    fails(&["run", "--lanes", "many", &k], 2, &["--lanes"], 4);
    fails(&["frobnicate"], 2, &["frobnicate"], 5);
}

#[test]
fn programs_that_never_end_hit_the_bound() {
    let k = bad("forever.s");
    fails(
        &["run", "--max-cycles", "500", &k],
        124,
        &["cycle bound", "500"],
        1,
    );
    // A configured bound (the same message as the built-in default of 10^10 cycles).
    fails(
        &["run", "--config", &bad("short_bound.toml"), &k],
        124,
        &["cycle bound", "1000", "--max-cycles"],
        1,
    );
}

/// A deadlock (or a fault with --report-warps): the one line naming it first (every `want` in
/// it), then the state of every warp (docs/debugging.md), and nothing else.
fn fails_with_report(args: &[&str], code: i32, want: &[&str]) {
    let (status, _, err) = weft(args);
    assert_eq!(status, code, "weft {args:?}: stderr:\n{err}");
    let mut lines = err.lines();
    let first = lines.next().unwrap_or_default();
    for w in want {
        assert!(
            first.contains(w),
            "weft {args:?}: first line lacks `{w}`:\n{err}"
        );
    }
    assert!(
        lines
            .next()
            .is_some_and(|l| l.starts_with("machine state at cycle")),
        "weft {args:?}: no machine state after the message:\n{err}"
    );
    assert!(
        lines.all(|l| l.starts_with("  ")),
        "weft {args:?}: only the indented report follows:\n{err}"
    );
}

#[test]
fn deadlock_names_who_waits_on_what() {
    fails_with_report(
        &["run", "--warps", "2", &bad("deadlock.s")],
        125,
        &["deadlock", "warp 0", "barrier 0", "1 of 2"],
    );
}

const FAULT_WORDS: [&str; 6] = [
    "LOAD_FAULT",
    "core 0",
    "warp 0",
    "lanes 0x1",
    "pc 0x80000004",
    "0x00000010",
];

#[test]
fn faults_name_fault_core_warp_lanes_pc_address() {
    // One line on stderr (a fault is reported in one line) …
    fails(&["run", &bad("fault.s")], 128 + 3, &FAULT_WORDS, 1);
    // … and with --report-warps, every warp's state below it.
    fails_with_report(
        &["run", "--report-warps", &bad("fault.s")],
        128 + 3,
        &FAULT_WORDS,
    );
}

#[test]
fn hostile_assembly() {
    let (status, _, err) = weft(&["asm", &bad("hostile.s"), "-o", "/dev/null"]);
    assert_eq!(status, 2, "{err}");
    assert!(
        err.contains("hostile.s:3:14"),
        "errors carry file:line:column:\n{err}"
    );
    assert!(
        err.lines().count() >= 5,
        "several errors in one run:\n{err}"
    );
    fails(&["run", &bad("huge_space.s")], 2, &["exceed"], 1);
    fails(&["run", &bad("huge_fill.s")], 2, &["exceed"], 1);
    fails(&["run", &bad("not_utf8.s")], 2, &["UTF-8"], 1);
    fails(&["disasm", &bad("random.bin")], 2, &["not an ELF"], 1);
}

#[test]
fn random_bytes_never_panic() {
    let dir = std::env::temp_dir().join(format!("weft-bad-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut x: u64 = 0x9e37_79b9;
    let mut byte = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x as u8
    };
    let elf = std::fs::read(bad("segment_outside.elf")).expect("sample");
    for i in 0..24 {
        let len = 1 + (byte() as usize) * 4;
        let data: Vec<u8> = match i % 3 {
            // Random bytes behind an ELF32 little-endian magic.
            0 => b"\x7fELF\x01\x01\x01"
                .iter()
                .copied()
                .chain((0..len).map(|_| byte()))
                .collect(),
            // A valid header with one random byte.
            1 => {
                let mut e = elf.clone();
                let at = byte() as usize % e.len();
                e[at] = byte();
                e
            }
            _ => (0..len).map(|_| byte()).collect(),
        };
        let f = dir.join(format!("r{i}.bin"));
        std::fs::write(&f, &data).expect("write");
        let f = f.to_string_lossy().into_owned();
        weft(&["run", "--max-cycles", "2000", &f]);
        weft(&["disasm", &f]);
        weft(&["asm", &f, "-o", "/dev/null"]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_collected_input_is_rejected_cleanly() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/bad_input");
    for e in std::fs::read_dir(&dir).expect("tests/bad_input").flatten() {
        let p = e.path().to_string_lossy().into_owned();
        if p.ends_with(".toml") {
            weft(&[
                "run",
                "--config",
                &p,
                "--max-cycles",
                "2000",
                &bad("forever.s"),
            ]);
        } else {
            let (status, _, err) = weft(&["run", "--max-cycles", "2000", "--warps", "2", &p]);
            assert_ne!(status, 0, "{p} ran cleanly?\n{err}");
            assert!(!err.trim().is_empty(), "{p}: no message");
            weft(&["disasm", &p]);
        }
    }
}

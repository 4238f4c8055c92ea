//! `weft run`'s trace and report flags through the command line: the trace files are written
//! (and parse), a window needs a trace and must not be empty, an unwritable file is one clear
//! error, and a fault or a deadlock report shows every warp, not only the one that faulted.

use std::process::Command;

fn weft(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(args)
        .output()
        .expect("weft runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !stderr.contains("panicked"),
        "weft {args:?} panicked:\n{stderr}"
    );
    (out.status.code().unwrap_or(-1), stdout, stderr)
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// Warp 1 is started and both warps wait at barrier 0 for three warps: a deadlock. Warp 0 is
/// diverged when it arrives (its even lanes are parked at `skip`).
const DEADLOCK: &str = "
    .text
    .globl _start
_start:
    la t0, worker
    csrw spawn_pc, t0
    li t0, 2
    csrw warp_active, t0
    li t1, -1
    csrw tmask, t1
    csrr s0, thread_id
    andi t1, s0, 1
    beqz t1, skip
    li t0, (3 << 16) | 0
    csrw barrier, t0
skip:
    csrw tmask, zero
worker:
    li t0, (3 << 16) | 0
    csrw barrier, t0
    csrw tmask, zero
";

/// Warp 1 spins while warp 0's odd lanes load from address 0.
const FAULT: &str = "
    .text
    .globl _start
_start:
    la t0, worker
    csrw spawn_pc, t0
    li t0, 2
    csrw warp_active, t0
    li t1, -1
    csrw tmask, t1
    csrr s0, thread_id
    andi t1, s0, 1
    beqz t1, skip
    lw a0, 0(zero)
skip:
    csrw tmask, zero
worker:
    j worker
";

#[test]
fn a_deadlock_report_shows_every_warp_with_its_barrier_and_stack() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "d.s", DEADLOCK);
    let (code, _, err) = weft(&["run", &src]);
    assert_eq!(code, 125, "{err}");
    assert!(
        err.contains("weft: deadlock: "),
        "the one-line message stays first: {err}"
    );
    assert!(err.contains("machine state at cycle"), "{err}");
    assert!(
        err.contains("core 0 warp 0: waits at barrier 0 (2 of 3 arrived)"),
        "{err}"
    );
    assert!(
        err.contains("core 0 warp 1: waits at barrier 0 (2 of 3 arrived)"),
        "{err}"
    );
    assert!(err.contains("core 0 warp 2: idle (never started)"), "{err}");
    // Warp 0 arrived with its odd lanes; the even ones took the branch to `skip`, the
    // reconvergence point itself, so they are parked there in the stack's entry.
    assert!(err.contains("mask 0xaa"), "{err}");
    assert!(err.contains("saved 0xff parked 0x55"), "{err}");
}

#[test]
fn a_fault_report_shows_the_faulted_warp_and_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "f.s", FAULT);
    let (code, _, err) = weft(&["run", &src]);
    assert_eq!(code, 128 + 3, "{err}");
    assert_eq!(
        err.lines().count(),
        1,
        "a fault is one line by default:\n{err}"
    );
    let (code, _, err) = weft(&["run", "--report-warps", &src]);
    assert_eq!(code, 128 + 3, "{err}");
    let first = err.lines().next().unwrap();
    assert!(
        first.starts_with("weft: fault LOAD_FAULT (code 3) at core 0 warp 0 lanes 0xaa"),
        "{err}"
    );
    assert!(err.contains("core 0 warp 0: faulted"), "{err}");
    assert!(
        err.contains("lw a0, 0(zero)"),
        "the faulting instruction: {err}"
    );
    assert!(
        err.contains("core 0 warp 1: running"),
        "the other warp too: {err}"
    );
    assert!(err.contains("<worker>  jal zero"), "{err}");
}

#[test]
fn trace_files_are_written_and_parse() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("t.json");
    let vcd = dir.path().join("t.vcd");
    let (code, _, err) = weft(&[
        "run",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/divergence/nested.s"
        ),
        "--lanes",
        "4",
        "--trace-json",
        json.to_str().unwrap(),
        "--vcd",
        vcd.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let events = v["traceEvents"].as_array().unwrap();
    // nested.s: the outer if/else (A) and, among its odd lanes, the inner one (B).
    for name in ["diverged at A", "diverged at B"] {
        assert!(events.iter().any(|e| e["name"] == name), "{name} in {v}");
    }
    let text = std::fs::read_to_string(&vcd).unwrap();
    assert!(text.contains("$enddefinitions $end"), "{text}");
}

#[test]
fn trace_flag_errors_are_one_clear_message() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["--trace-json", "/nonexistent-dir/t.json"],
            "/nonexistent-dir/t.json: ",
        ),
        (
            &["--vcd", "/nonexistent-dir/t.vcd"],
            "/nonexistent-dir/t.vcd: ",
        ),
        (
            &["--trace-from", "5"],
            "--trace-from and --trace-to need --trace-json or --vcd",
        ),
        (
            &["--vcd", "/dev/null", "--trace-from", "9", "--trace-to", "9"],
            "--trace-from 9 must be below --trace-to 9",
        ),
    ];
    for (flags, want) in cases {
        let mut args = vec!["run", "../../examples/matmul.s"];
        args.extend_from_slice(flags);
        let out = Command::new(env!("CARGO_BIN_EXE_weft"))
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {err}");
        assert!(err.contains(want), "{flags:?}: {err}");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
    }
}

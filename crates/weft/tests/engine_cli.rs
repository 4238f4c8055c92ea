//! `--engine` through the command line: interp, jit and diff give the same output, statistics
//! and exit status; a bad engine name is refused; `weft bench` compares the engines, and
//! `--vs-qemu` runs its QEMU user-mode reference (qemu-user, clang and lld are installed by
//! .ci/run; without them the test fails rather than skips).

use std::path::PathBuf;
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

fn repo(p: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(p)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn every_engine_gives_the_same_run() {
    let dir = tempfile::tempdir().unwrap();
    for prog in ["examples/matmul.s", "tests/kernels/loop_leave.s"] {
        let mut seen: Vec<(i32, String, String)> = Vec::new();
        for e in ["interp", "jit", "diff"] {
            let json = dir.path().join(format!("{e}.json"));
            let (st, out, err) = weft(&[
                "run",
                &repo(prog),
                "--lanes",
                "8",
                "--engine",
                e,
                "--stats-json",
                json.to_str().unwrap(),
            ]);
            assert!(!err.contains("differ"), "{prog} on {e}: {err}");
            let stats = std::fs::read_to_string(&json).expect("stats written");
            seen.push((st, out, stats));
        }
        assert_eq!(seen[0], seen[1], "{prog}: interp and jit");
        assert_eq!(seen[0], seen[2], "{prog}: interp and diff");
    }
}

#[test]
fn an_unknown_engine_is_refused() {
    let (st, _, err) = weft(&["run", &repo("examples/matmul.s"), "--engine", "fast"]);
    assert_eq!(st, 2, "{err}");
    assert!(err.contains("unknown engine"), "{err}");
}

#[test]
fn bench_compares_the_engines() {
    let (st, out, err) = weft(&[
        "bench",
        "--kernel",
        "alu,diverge",
        "--lanes",
        "8",
        "--warps",
        "1",
        "--iterations",
        "2000",
        "--repeat",
        "1",
    ]);
    assert_eq!(st, 0, "{err}");
    assert!(out.contains("interp") && out.contains("jit"), "{out}");
    assert!(out.contains("× the interp"), "{out}");
}

#[test]
fn bench_vs_qemu_runs_the_scalar_reference() {
    let (st, out, err) = weft(&[
        "bench",
        "--vs-qemu",
        "--kernel",
        "alu,mem",
        "--lanes",
        "4",
        "--iterations",
        "3000",
        "--repeat",
        "1",
    ]);
    assert_eq!(st, 0, "{err}");
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.split_whitespace().nth(2) == Some("qemu"))
        .collect();
    assert_eq!(rows.len(), 2, "{out}");
    // The scalar program does lanes × the iterations: 4 × 3000 × 9 instructions (alu).
    let alu_qemu = rows[0].split_whitespace().nth(3).unwrap();
    let n: u64 = alu_qemu.parse().unwrap();
    assert!((108_000..108_100).contains(&n), "{out}");
    assert!(out.contains("weft/qemu"), "{out}");
}

/// A C kernel of the library in the QEMU comparison: weft runs its device build (which must
/// print its own PASS), QEMU the sequential runtime's build for one scalar thread.
#[test]
fn bench_vs_qemu_runs_a_c_kernel() {
    let (st, out, err) = weft(&[
        "bench",
        "--vs-qemu",
        "--kernel",
        "saxpy.c",
        "--lanes",
        "4",
        "--engine",
        "interp",
        "--repeat",
        "1",
    ]);
    assert_eq!(st, 0, "{err}");
    let col = |engine: &str| -> u64 {
        let l = out
            .lines()
            .find(|l| l.starts_with("saxpy.c") && l.split_whitespace().nth(2) == Some(engine))
            .unwrap_or_else(|| panic!("no {engine} row:\n{out}"));
        l.split_whitespace().nth(3).unwrap().parse().unwrap()
    };
    // saxpy's 777 threads do at least a handful of instructions each on both sides.
    assert!(col("interp") > 777 * 5, "{out}");
    assert!(col("qemu") > 777 * 5, "{out}");
}

/// A kernel --vs-qemu does not know is one clear error before anything runs.
#[test]
fn bench_vs_qemu_names_an_unknown_kernel() {
    let (st, out, err) = weft(&["bench", "--vs-qemu", "--kernel", "nope.c"]);
    assert_eq!(st, 2, "{out}{err}");
    assert!(err.contains("unknown kernel nope.c"), "{err}");
    assert!(out.is_empty(), "{out}");
}

/// `--scale N` builds the C kernels with `SCALE=N`: saxpy's work grows linearly with its
/// length (on top of a fixed start-up: the runtime, the printing), so the scalar program's
/// instructions from scale 1 to 3 grow as much as from 3 to 5, and every side still prints
/// PASS. A scale of 0 is refused.
#[test]
fn bench_vs_qemu_scales_a_c_kernel() {
    let qemu_instrs = |scale: &str| -> u64 {
        let (st, out, err) = weft(&[
            "bench",
            "--vs-qemu",
            "--kernel",
            "saxpy.c",
            "--lanes",
            "8",
            "--engine",
            "interp",
            "--repeat",
            "1",
            "--scale",
            scale,
        ]);
        assert_eq!(st, 0, "{err}");
        let name = if scale == "1" {
            "saxpy.c".to_string()
        } else {
            format!("saxpy.c×{scale}")
        };
        let l = out
            .lines()
            .find(|l| {
                l.split_whitespace().next() == Some(name.as_str())
                    && l.split_whitespace().nth(2) == Some("qemu")
            })
            .unwrap_or_else(|| panic!("no qemu row for {name}:\n{out}"));
        l.split_whitespace().nth(3).unwrap().parse().unwrap()
    };
    let (one, three, five) = (qemu_instrs("1"), qemu_instrs("3"), qemu_instrs("5"));
    let (a, b) = (three.saturating_sub(one), five.saturating_sub(three));
    assert!(
        a > 777 * 2 * 5 && b * 10 > a * 9 && b * 10 < a * 11,
        "instructions at scale 1, 3, 5: {one}, {three}, {five} (not linear in the length)"
    );
    let (st, _, err) = weft(&["bench", "--vs-qemu", "--scale", "0"]);
    assert_eq!(st, 2, "{err}");
    assert!(err.contains("--scale 0"), "{err}");
}

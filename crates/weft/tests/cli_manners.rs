//! How the command behaves toward its user: input that is not a program is one line, every
//! file written is named on stderr, `--help` shows defaults and examples, `--set` errors name
//! the `--set`, `bench --timing` has one row per kernel, and the sweep says what its speedups
//! are over.

use std::process::{Command, Output};

fn weft(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_weft"))
        .current_dir(format!("{}/../..", env!("CARGO_MANIFEST_DIR")))
        .args(args)
        .output()
        .expect("run weft")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn tmp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("weft-manners-{}-{name}", std::process::id()))
}

#[test]
fn text_that_is_not_a_program_is_one_line() {
    let o = weft(&["run", "README.md"]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(
        e.contains("README.md: not an ELF, assembly or C source"),
        "{e}"
    );
    // The same text without an extension: assembled, then recognised as not assembly.
    let p = tmp("readme");
    std::fs::copy(
        format!("{}/../../README.md", env!("CARGO_MANIFEST_DIR")),
        &p,
    )
    .unwrap();
    let o = weft(&["run", p.to_str().unwrap()]);
    let e = stderr(&o);
    let _ = std::fs::remove_file(&p);
    assert_eq!((o.status.code(), e.lines().count()), (Some(2), 1), "{e}");
    assert!(e.contains("lines are not assembly; the first:"), "{e}");
    // A real program with one mistake still gets the assembler's located error.
    let p = tmp("one-error");
    std::fs::write(&p, "li a0, 3\nbogus a0\nli a1, 0xffffff04\nsw a0, 0(a1)\n").unwrap();
    let o = weft(&["run", p.to_str().unwrap()]);
    let e = stderr(&o);
    let _ = std::fs::remove_file(&p);
    assert!(
        e.contains(":2:1: error: unknown instruction `bogus`"),
        "{e}"
    );
}

#[test]
fn every_file_written_is_named() {
    let (json, trace, perfetto, konata) = (tmp("s.json"), tmp("t.txt"), tmp("p.json"), tmp("k"));
    let o = weft(&[
        "run",
        "examples/matmul.s",
        "--timing",
        "--stats-json",
        json.to_str().unwrap(),
        "--trace-file",
        trace.to_str().unwrap(),
        "--trace-json",
        perfetto.to_str().unwrap(),
        "--konata",
        konata.to_str().unwrap(),
    ]);
    let e = stderr(&o);
    assert!(o.status.success(), "{e}");
    for (p, what) in [
        (&json, "statistics"),
        (&trace, "trace"),
        (&perfetto, "Perfetto trace"),
        (&konata, "Konata pipeline view"),
    ] {
        assert!(p.exists(), "{} was not written", p.display());
        assert!(
            e.contains(&format!("weft: wrote {} ({what})", p.display())),
            "{}: {e}",
            p.display()
        );
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn help_shows_defaults_and_an_example_for_every_command() {
    let o = weft(&["run", "--help"]);
    let h = String::from_utf8_lossy(&o.stdout);
    for d in [
        "[default: 4]",
        "[default: 8; 4 under --profile vortex]",
        "[default: table]",
    ] {
        assert!(h.contains(d), "run --help lacks {d}:\n{h}");
    }
    for cmd in [
        "demo",
        "run",
        "view",
        "asm",
        "cc",
        "disasm",
        "reconv",
        "bench",
        "board",
        "sweep",
        "sp2a-asm",
        "sp2a-disasm",
    ] {
        let o = weft(&[cmd, "--help"]);
        let h = String::from_utf8_lossy(&o.stdout);
        assert!(
            h.contains("Example:\n  weft ") || h.contains("Examples:\n  weft "),
            "{cmd} --help has no example:\n{h}"
        );
    }
}

#[test]
fn a_bad_set_is_named_as_written() {
    let o = weft(&["run", "examples/matmul.s", "--set", "l1.size=abc"]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert_eq!(
        e.trim(),
        "weft: --set l1.size=abc: invalid type: string \"abc\", expected u32"
    );
}

#[test]
fn bench_timing_has_one_row_per_kernel_and_lane_count() {
    let o = weft(&[
        "bench",
        "--timing",
        "--kernel",
        "alu,mem",
        "--lanes",
        "8",
        "--iterations",
        "200",
        "--repeat",
        "1",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("alu ") || l.starts_with("mem "))
        .collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert!(
        rows.iter()
            .all(|r| r.split_whitespace().nth(1) == Some("timing")),
        "{out}"
    );
}

#[test]
fn the_sweep_says_what_its_speedups_are_over() {
    let dir = tmp("sweep");
    let o = weft(&[
        "sweep",
        "--warps",
        "2",
        "--lanes",
        "4,8",
        "-o",
        dir.to_str().unwrap(),
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    let e = stderr(&o);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(o.status.success(), "{e}");
    assert!(
        out.contains("speedup over 2 warps × 4 lanes: 1 warp × 1 lane was not swept"),
        "{out}"
    );
    assert!(e.contains(&format!("weft: wrote {}", dir.display())), "{e}");
}

/// A kernel that launches its work is swept by its launches' cycles (what `weft run --timing`
/// reports per launch), not by the whole run with `main`'s serial part.
#[test]
fn a_sweep_of_a_launching_kernel_measures_its_launches() {
    let dir = tmp("sweep-launch");
    let o = weft(&[
        "sweep",
        "--kernel",
        "tests/launch/two_launches.c",
        "--warps",
        "2",
        "--lanes",
        "8",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let jobs: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let job = &jobs.as_array().expect("a list of jobs")[0];
    let json = tmp("sweep-launch.json");
    let o = weft(&[
        "run",
        "tests/launch/two_launches.c",
        "--timing",
        "--warps",
        "2",
        "--lanes",
        "8",
        "--stats-json",
        json.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let _ = std::fs::remove_file(&json);
    let launches: u64 = run["launches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["cycles"].as_u64().unwrap())
        .sum();
    assert_eq!(job["kernel_cycles"].as_u64(), Some(launches), "{job:#}");
    assert_eq!(job["cycles"], run["cycles"]);
    assert!(launches < run["cycles"].as_u64().unwrap());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!out.is_empty());
}

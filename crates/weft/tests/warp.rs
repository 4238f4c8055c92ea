//! Warp-level kernels under the timing model: the C intrinsics, the kernel library's warp
//! kernels and the Rust typed-warp kernels print under `weft run --timing` what they print
//! under the functional model (which crates/cc's tests check against CUDA's definitions and
//! host references), at 8 and 32 lanes; a bad `_sync` mask gives the same SYNC_MASK fault
//! line in both models, from C and from assembly.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn weft(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_weft"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("run weft")
}

/// stdout, stderr, exit status of `weft run ELF --lanes L` (and `--timing`).
fn run(elf: &Path, lanes: u32, timing: bool) -> (String, String, i32) {
    let lanes = lanes.to_string();
    let mut args = vec!["run", elf.to_str().unwrap(), "--lanes", &lanes];
    if timing {
        args.push("--timing");
    }
    let o = weft(&args);
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code().unwrap_or(-1),
    )
}

/// `weft cc` a C source with extra flags into `dir`.
fn cc(src: &str, flags: &[&str], dir: &Path) -> PathBuf {
    let stem = Path::new(src)
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let out = dir.join(format!("{stem}{}.elf", flags.join("").replace('=', "")));
    let mut args = vec!["cc", src];
    args.extend_from_slice(flags);
    args.extend_from_slice(&["-o", out.to_str().unwrap()]);
    let o = weft(&args);
    assert!(
        o.status.success(),
        "weft cc {src}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// The same output, status and (for a fault) stderr in both models.
fn same_in_both_models(elf: &Path, lanes: u32) -> (String, String, i32) {
    let f = run(elf, lanes, false);
    let t = run(elf, lanes, true);
    assert_eq!(
        (&f.0, f.2),
        (&t.0, t.2),
        "{} at {lanes} lanes: functional vs timing",
        elf.display()
    );
    let fault = |e: &str| e.lines().find(|l| l.contains("fault")).map(str::to_owned);
    assert_eq!(
        fault(&f.1),
        fault(&t.1),
        "{}: the fault line",
        elf.display()
    );
    f
}

#[test]
fn c_warp_kernels_give_the_same_results_under_timing() {
    let dir = tempfile::tempdir().unwrap();
    let mut kernels: Vec<PathBuf> = ["warp_reduce", "warp_scan", "compact", "histogram_warp"]
        .iter()
        .map(|k| cc(&format!("examples/kernels/{k}.c"), &["-O2"], dir.path()))
        .collect();
    for opt in ["-O0", "-O2"] {
        kernels.push(cc(
            "crates/cc/tests/kernels/warp_intrinsics.c",
            &[opt],
            dir.path(),
        ));
    }
    for elf in &kernels {
        for lanes in [8, 32] {
            let (out, err, code) = same_in_both_models(elf, lanes);
            assert_eq!(code, 0, "{}: {out}{err}", elf.display());
            let name = elf.file_stem().unwrap().to_string_lossy();
            if !name.starts_with("warp_intrinsics") {
                assert!(out.contains(": PASS"), "{name}: {out}");
            } else {
                assert!(out.starts_with(&format!("warpSize {lanes}\n")), "{out}");
            }
        }
    }
}

#[test]
fn a_bad_mask_faults_alike_in_both_models() {
    let dir = tempfile::tempdir().unwrap();
    for case in 1..=5 {
        for opt in ["-O0", "-O2"] {
            let def = format!("-DCASE={case}");
            let elf = cc(
                "crates/cc/tests/kernels/warp_bad_mask.c",
                &[opt, &def],
                dir.path(),
            );
            for lanes in [8, 32] {
                let (_, err, code) = same_in_both_models(&elf, lanes);
                assert_eq!(code, 128 + 18, "case {case} {opt} {lanes}: {err}");
                assert!(
                    err.contains("weft: fault SYNC_MASK (code 18) at core 0 warp 0 lanes 0x"),
                    "{err}"
                );
            }
        }
    }
    // The instruction itself: lanes 0-3 vote with a mask naming lanes 0-7.
    let src = dir.path().join("vote.s");
    std::fs::write(
        &src,
        "    .globl _start\n_start:\n    li t0, 0xff\n    csrw tmask, t0\n    csrr t1, thread_id\n\
         \x20   li t2, 4\n    bge t1, t2, done\n    li t3, 1\nvote:\n    vote.ballot a0, t3, t0\n\
         done:\n    li t4, 0\n    csrw tmask, t4\n",
    )
    .unwrap();
    for timing in [false, true] {
        let (_, err, code) = run(&src, 8, timing);
        assert_eq!(code, 146, "{err}");
        assert!(
            err.contains(
                "weft: fault SYNC_MASK (code 18) at core 0 warp 0 lanes 0xf pc 0x80000018: \
                 vote.ballot: lane 0's member mask 0xff names lanes 0xf0 that are not active"
            ),
            "timing {timing}: {err}"
        );
    }
}

#[test]
fn rust_warp_kernels_give_the_same_results_under_timing() {
    const TARGET: &str = "riscv32imafc-unknown-none-elf";
    // The same target directory as crates/cc/tests/rust.rs, so one build serves both.
    let target_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("device-rust");
    let status = Command::new("cargo")
        .current_dir(root().join("device/rust"))
        .args(["build", "--release", "--target", TARGET])
        .env("CARGO_TARGET_DIR", &target_dir)
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .status()
        .expect("cargo runs");
    assert!(
        status.success(),
        "building device/rust failed (it needs: rustup target add {TARGET})"
    );
    let lib = target_dir.join(TARGET).join("release/libwarp_kernels.a");
    let dir = tempfile::tempdir().unwrap();
    let elf = cc(lib.to_str().unwrap(), &[], dir.path());
    for lanes in [8, 32] {
        let (out, err, code) = same_in_both_models(&elf, lanes);
        assert_eq!(code, 0, "{out}{err}");
        assert_eq!(out.matches("PASS").count(), 5, "{out}");
    }
}

/// docs/warp.md's fenced blocks whose info string is `trace PROGRAM FLAGS…`: (args, body).
fn trace_blocks(doc: &str) -> Vec<(Vec<String>, String)> {
    let mut out = Vec::new();
    let mut open: Option<(Vec<String>, String)> = None;
    for line in doc.lines() {
        match open.as_mut() {
            None => {
                if let Some(rest) = line.strip_prefix("```trace ") {
                    open = Some((
                        rest.split_whitespace().map(String::from).collect(),
                        String::new(),
                    ));
                }
            }
            Some((_, body)) if line != "```" => {
                body.push_str(line);
                body.push('\n');
            }
            Some(_) => out.push(open.take().unwrap()),
        }
    }
    assert!(open.is_none(), "docs/warp.md: a trace block is not closed");
    out
}

#[test]
fn the_docs_traces_and_shuffle_table_are_real_output() {
    let doc = std::fs::read_to_string(root().join("docs/warp.md")).expect("docs/warp.md");
    let blocks = trace_blocks(&doc);
    let programs: Vec<&str> = blocks.iter().map(|(a, _)| a[0].as_str()).collect();
    assert_eq!(
        programs,
        ["examples/warp/shuffle.s", "examples/warp/ballot.s"]
    );
    for (args, body) in &blocks {
        let mut a = vec!["run"];
        a.extend(args.iter().map(String::as_str));
        a.push("--trace");
        let o = weft(&a);
        assert_eq!(
            String::from_utf8_lossy(&o.stderr),
            body.as_str(),
            "docs/warp.md: the trace of `weft {}`",
            a.join(" ")
        );
        // shuffle.s checks its results and exits 0; ballot.s ends at its SYNC_MASK fault
        let want = if args[0].ends_with("shuffle.s") {
            0
        } else {
            146
        };
        assert_eq!(o.status.code(), Some(want), "{}", args[0]);
    }
    // The shuffle table of §3: the rows shuffle_table.c prints at 8 lanes.
    let o = weft(&["run", "examples/warp/shuffle_table.c", "--lanes", "8"]);
    assert!(o.status.success());
    let printed: Vec<Vec<String>> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| {
            l.replace([':', '|'], " ")
                .split_whitespace()
                .map(String::from)
                .collect()
        })
        .collect();
    let table: Vec<Vec<String>> = doc
        .lines()
        .skip_while(|l| !l.starts_with("| lane | `__shfl_sync(m,v,3)`"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.replace("**", "")
                .split('|')
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(String::from)
                .collect()
        })
        .collect();
    assert_eq!(table.len(), 8, "docs/warp.md: the 8-lane shuffle table");
    assert_eq!(table, printed, "docs/warp.md's shuffle table");
}

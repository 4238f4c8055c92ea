//! Recursion deeper than the on-chip divergence stack: a C kernel recursing 40 levels on 32
//! lanes, one lane returning at each level from 9 down, keeps about 31 divergence entries open
//! — past the 16 on chip — so the bottom ones spill to the warp's spill area and come back.
//! Built at -O0 and -O2 (and with converge instructions), run on both engines and under the
//! timing model, it must print what the same source prints built for the host; without a
//! spill area the same run faults DIVERGE_OVERFLOW, naming both sizes.

use std::path::Path;
use std::process::Command;

fn weft(args: &[&str]) -> std::process::Output {
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(args)
        .output()
        .expect("weft runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "weft {args:?} panicked:\n{err}");
    out
}

fn ok(args: &[&str]) -> String {
    let out = weft(args);
    assert!(
        out.status.success(),
        "weft {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn path(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

#[test]
fn a_recursive_kernel_40_deep_on_32_lanes_gives_the_hosts_result() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("deep_recursion.c");
    std::fs::write(&src, include_str!("kernels/deep_recursion.c")).unwrap();
    let host = dir.path().join("host");
    ok(&["cc", "--host", &path(&src), "-o", &path(&host)]);
    let want = Command::new(&host).output().expect("the host build runs");
    let want = String::from_utf8_lossy(&want.stdout).into_owned();
    assert_eq!(want.lines().count(), 32);

    for build in [&["-O0"][..], &["-O2"], &["-O2", "--reconv", "converge"]] {
        let elf = dir.path().join("k.elf");
        let (s, e) = (path(&src), path(&elf));
        let mut args = vec!["cc", &s as &str];
        args.extend_from_slice(build);
        args.extend_from_slice(&["-o", &e]);
        ok(&args);
        let stats = dir.path().join("stats.json");
        let st = path(&stats);
        for run in [
            &["--engine", "interp"][..],
            &["--engine", "jit"],
            &["--timing"],
        ] {
            let mut a = vec!["run", &e as &str, "--lanes", "32", "--stats-json", &st];
            a.extend_from_slice(run);
            assert_eq!(ok(&a), want, "{build:?} {run:?}");
            let json: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
            let depth = json["max_divergence_depth"].as_u64().unwrap();
            let spills = json["stack_spills"].as_u64().unwrap();
            assert!(depth > 16, "{build:?}: depth {depth}");
            assert_eq!(spills, depth - 16, "{build:?} {run:?}");
            assert_eq!(json["stack_fills"].as_u64(), Some(spills));
            if run == ["--timing"] {
                let bytes: u64 = json["timing"]["memory"]["stack_spill_bytes"]
                    .as_u64()
                    .unwrap();
                assert!(bytes >= 2 * 32 * spills, "{build:?}: {bytes} bytes charged");
            }
        }
        // No spill area: the on-chip stack overflows, and the message names both sizes.
        let out = weft(&["run", &e, "--lanes", "32", "--set", "stack_spill=0"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0));
        assert!(
            err.contains("DIVERGE_OVERFLOW")
                && err.contains("16 entries on chip and 0 in the spill area"),
            "{err}"
        );
    }
}

//! Per-launch statistics (`--stats`, `--stats-json`'s `launches`): each kernel launch's
//! counters are checked against what the instruction trace shows between the writes of the
//! `launch` CSR that start and end it — an independent count — and, under the timing model,
//! against the timing model's own share of the launch.

use serde_json::Value;
use std::process::Command;

fn repo() -> String {
    format!("{}/../..", env!("CARGO_MANIFEST_DIR"))
}

/// Run `weft run` with `args`; the stats JSON and stderr.
fn run(args: &[&str], tag: &str) -> (Value, String) {
    let json = std::env::temp_dir().join(format!("weft-launch-{tag}-{}.json", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .current_dir(repo())
        .arg("run")
        .args(args)
        .arg("--stats-json")
        .arg(&json)
        .output()
        .expect("run weft");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "weft run {args:?}: {err}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let _ = std::fs::remove_file(&json);
    (v, err)
}

/// From a `--trace` text: per launch, the warp-instructions and thread-instructions from the
/// instruction that starts it (`csrrw zero, launch, REG`) up to the one that ends it
/// (`csrrw zero, launch, zero`), and the cycle of each.
fn traced_launches(trace: &str) -> Vec<(u64, u64, u64, u64)> {
    let lines: Vec<&str> = trace.lines().filter(|l| l.contains(" c0 w")).collect();
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (k, l) in lines.iter().enumerate() {
        if !l.contains("csrrw zero, launch, ") {
            continue;
        }
        if let Some(s) = start.take() {
            let (mut wi, mut ti) = (0, 0);
            for m in &lines[s..k] {
                wi += 1;
                let mask = u32::from_str_radix(m.split_whitespace().nth(3).unwrap(), 16).unwrap();
                ti += mask.count_ones() as u64;
            }
            let cycle = |l: &str| l.split_whitespace().next().unwrap().parse::<u64>().unwrap();
            out.push((wi, ti, cycle(lines[s]), cycle(l)));
        } else {
            assert!(!l.ends_with("zero"), "a launch ends before it starts: {l}");
            start = Some(k);
        }
    }
    out
}

#[test]
fn each_launch_has_the_counts_the_trace_shows() {
    for lanes in ["8", "32"] {
        let trace =
            std::env::temp_dir().join(format!("weft-launch-trace-{lanes}-{}", std::process::id()));
        let (v, _) = run(
            &[
                "tests/launch/two_launches.c",
                "--lanes",
                lanes,
                "--trace-file",
                trace.to_str().unwrap(),
            ],
            lanes,
        );
        let text = std::fs::read_to_string(&trace).unwrap();
        let _ = std::fs::remove_file(&trace);
        let traced = traced_launches(&text);
        let launches = v["launches"].as_array().expect("a launches list");
        assert_eq!(
            traced.len(),
            2,
            "two launches in the trace at {lanes} lanes"
        );
        assert_eq!(launches.len(), 2, "{v:#}");
        for (k, (l, (wi, ti, c0, c1))) in launches.iter().zip(&traced).enumerate() {
            let what = format!("launch {k} at {lanes} lanes: {l:#}");
            assert_eq!(l["kernel"], ["sq", "half"][k], "{what}");
            assert_eq!(l["complete"], true, "{what}");
            assert_eq!(l["warp_instructions"], *wi, "{what}");
            assert_eq!(l["thread_instructions"], *ti, "{what}");
            assert_eq!(l["start_cycle"], *c0, "{what}");
            assert_eq!(l["end_cycle"], *c1, "{what}");
            let lanes_n: f64 = lanes.parse().unwrap();
            let eff = *ti as f64 / (*wi as f64 * lanes_n);
            assert!(
                (l["simd_efficiency"].as_f64().unwrap() - eff).abs() < 1e-9,
                "{what}"
            );
        }
        // The launches are parts of the run.
        let total = v["thread_instructions"].as_u64().unwrap();
        assert!(traced.iter().map(|t| t.1).sum::<u64>() < total);
    }
}

#[test]
fn timed_launches_split_their_issue_slots_and_match_the_functional_counts() {
    let (f, _) = run(&["tests/launch/two_launches.c"], "functional");
    let (t, _) = run(&["tests/launch/two_launches.c", "--timing"], "timing");
    let fl = f["launches"].as_array().unwrap();
    let tl = t["launches"].as_array().unwrap();
    let timing = t["timing"]["launches"].as_array().expect("timing launches");
    assert_eq!((fl.len(), tl.len(), timing.len()), (2, 2, 2));
    for k in 0..2 {
        // Execute at issue: the same instructions in each launch, at other cycles.
        assert_eq!(fl[k]["thread_instructions"], tl[k]["thread_instructions"]);
        assert_eq!(fl[k]["warp_instructions"], tl[k]["warp_instructions"]);
        let s = &timing[k];
        assert_eq!(s["cycles"], tl[k]["cycles"], "launch {k}: {s:#}");
        let stalls: u64 = s["stalls"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(
            s["issued"].as_u64().unwrap() + stalls,
            s["issue_slots"].as_u64().unwrap(),
            "launch {k}: every slot issued or lost: {s:#}"
        );
        assert_eq!(s["issued"], tl[k]["warp_instructions"], "launch {k}");
    }
}

/// The README's and the tutorial's example: the kernel's own SIMD efficiency, not diluted by
/// `main`'s single-lane set-up and check, is listed above the whole run's.
#[test]
fn the_mandelbrot_kernel_is_reported_apart_from_main() {
    let (v, err) = run(
        &["examples/kernels/mandelbrot.c", "--lanes", "32", "--stats"],
        "mandelbrot",
    );
    let l = &v["launches"].as_array().unwrap()[0];
    assert_eq!(l["kernel"], "mandel");
    let (kernel, run) = (
        l["simd_efficiency"].as_f64().unwrap(),
        v["simd_efficiency"].as_f64().unwrap(),
    );
    assert!(kernel > 2.0 * run, "kernel {kernel}, whole run {run}");
    assert!(
        err.contains("kernel launches:") && err.contains("0 mandel"),
        "{err}"
    );
    assert!(err.contains("outside launches"), "{err}");
}

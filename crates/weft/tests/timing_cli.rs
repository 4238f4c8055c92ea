//! The timing model from the command line: `weft run --timing` and `--set`, the shipped
//! configuration files, configuration errors that name their key, and `weft sweep` with its
//! table, CSV, JSON, charts, and the job-array workflow (`--job K`, then `--collect`).

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

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

const CHECKSUM: &str = "matmul 32x32 checksum 0x502bf000";

#[test]
fn run_timing_reports_its_model_and_keeps_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("s.json");
    let o = weft(&[
        "run",
        "examples/matmul.s",
        "--timing",
        "--set",
        "pipeline.scheduler=gto",
        "--stats-json",
        json.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains(CHECKSUM));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["model"], "timing");
    assert_eq!(v["timing"]["scheduler"], "gto");
    let t = &v["timing"];
    let stalls: u64 = t["stalls"]
        .as_object()
        .unwrap()
        .values()
        .map(|x| x.as_u64().unwrap())
        .sum();
    assert_eq!(
        t["issued"].as_u64().unwrap() + stalls,
        v["cycles"].as_u64().unwrap()
    );
    assert_eq!(t["issued"], v["warp_instructions"]);
}

#[test]
fn shipped_configurations_run_the_matrix_multiply() {
    for c in ["configs/vortex-paper.toml", "configs/warp-core.toml"] {
        let o = weft(&["run", "examples/matmul.s", "--config", c, "--stats"]);
        assert!(o.status.success(), "{c}: {}", text(&o));
        let t = text(&o);
        assert!(t.contains(CHECKSUM), "{c}: {t}");
        assert!(t.contains("timing model (scheduler lrr)"), "{c}: {t}");
    }
}

#[test]
fn configuration_errors_name_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &str); 6] = [
        ("[l1]\nsize = 1000\n", "l1.size"),
        ("[l1]\nwayz = 2\n", "wayz"),
        ("[units.alu]\nlatency = 0\n", "units.alu.latency"),
        ("[pipeline]\nscheduler = \"fifo\"\n", "fifo"),
        ("[dram]\nbytes_per_cycle = 0\n", "dram.bytes_per_cycle"),
        ("[l2]\nenabled = true\nline = 64\n", "l2.line"),
    ];
    for (k, (toml, key)) in cases.iter().enumerate() {
        let p = dir.path().join(format!("c{k}.toml"));
        std::fs::write(&p, toml).unwrap();
        let o = weft(&["run", "examples/matmul.s", "--config", p.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{toml}: {}", text(&o));
        assert!(text(&o).contains(key), "{toml}: {}", text(&o));
    }
    let o = weft(&["run", "examples/matmul.s", "--set", "l1.bogus=1"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("bogus"), "{}", text(&o));
    let o = weft(&["run", "examples/matmul.s", "--set", "l1"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("KEY=VALUE"), "{}", text(&o));
}

fn csv_rows(dir: &Path) -> Vec<Vec<String>> {
    let csv = std::fs::read_to_string(dir.join("results.csv")).unwrap();
    csv.lines()
        .skip(1)
        .map(|l| l.split(',').map(String::from).collect())
        .collect()
}

#[test]
fn sweep_writes_table_csv_json_and_charts() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sw");
    let o = weft(&[
        "sweep",
        "--warps",
        "1,4",
        "--lanes",
        "1,8",
        "--set",
        "l1.size=4096,16384",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let rows = csv_rows(&out);
    assert_eq!(rows.len(), 8, "2 warps × 2 lanes × 2 L1 sizes");
    for r in &rows {
        assert_eq!(r[5], "0", "exit status: {r:?}");
        let cycles: u64 = r[6].parse().unwrap();
        let speedup: f64 = r[8].parse().unwrap();
        assert!(cycles > 0);
        if r[1] == "1" && r[2] == "1" {
            assert_eq!(speedup, 1.0, "the baseline: {r:?}");
        }
    }
    // More threads finish the same work in fewer cycles.
    let cyc = |w: &str, l: &str| -> u64 {
        rows.iter()
            .find(|r| r[1] == w && r[2] == l && r[3] == "l1.size=16384")
            .unwrap()[6]
            .parse()
            .unwrap()
    };
    assert!(cyc("1", "8") < cyc("1", "1"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 8);
    for chart in ["speedup", "cycles"] {
        let svg = std::fs::read_to_string(out.join(format!("{chart}.svg"))).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("threads per warp"));
        let png = image::open(out.join(format!("{chart}.png"))).expect("a PNG");
        assert_eq!((png.width(), png.height()), (960, 640));
    }
    assert!(text(&o).contains("warps\\lanes"), "{}", text(&o));
}

#[test]
fn sweep_jobs_run_one_at_a_time_and_collect() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sw");
    let o = out.to_str().unwrap();
    let axes = ["--warps", "1,2", "--lanes", "1,2"];
    let list = weft(&[&["sweep", "--list"][..], &axes].concat());
    assert_eq!(text(&list).lines().count(), 4, "{}", text(&list));
    // Collecting before every job has run names the missing ones.
    let early = weft(&[&["sweep", "--collect", "-o", o][..], &axes].concat());
    assert!(!early.status.success());
    assert!(text(&early).contains("missing"), "{}", text(&early));
    for k in 0..4 {
        let r = weft(&[&["sweep", "--job", &k.to_string(), "-o", o][..], &axes].concat());
        assert!(r.status.success(), "{}", text(&r));
    }
    let bad = weft(&[&["sweep", "--job", "4", "-o", o][..], &axes].concat());
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad));
    let done = weft(&[&["sweep", "--collect", "-o", o][..], &axes].concat());
    assert!(done.status.success(), "{}", text(&done));
    assert_eq!(csv_rows(&out).len(), 4);
}

#[test]
fn konata_and_stall_slices_account_for_every_instruction_and_slot() {
    let dir = tempfile::tempdir().unwrap();
    let (k, j, s) = (
        dir.path().join("k.log"),
        dir.path().join("t.json"),
        dir.path().join("s.json"),
    );
    let o = weft(&[
        "run",
        "examples/matmul.s",
        "--timing",
        "--warps",
        "8",
        "--konata",
        k.to_str().unwrap(),
        "--trace-json",
        j.to_str().unwrap(),
        "--stats-json",
        s.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let stats: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&s).unwrap()).unwrap();
    // Konata: one retired row per warp-instruction, cycles only going forward, every stage
    // closed.
    let log = std::fs::read_to_string(&k).unwrap();
    assert!(log.starts_with("Kanata\t0004\n"));
    let retired = log.lines().filter(|l| l.starts_with("R\t")).count() as u64;
    assert_eq!(retired, stats["warp_instructions"].as_u64().unwrap());
    let starts = log.lines().filter(|l| l.starts_with("S\t")).count();
    let ends = log.lines().filter(|l| l.starts_with("E\t")).count();
    assert_eq!(starts, ends);
    let mut at = 0u64;
    for l in log.lines() {
        if let Some(d) = l.strip_prefix("C\t") {
            assert!(d.parse::<u64>().unwrap() > 0);
            at += d.parse::<u64>().unwrap();
        } else if let Some(d) = l.strip_prefix("C=\t") {
            at = d.parse().unwrap();
        }
    }
    // The last event is a retirement near the end of the run (a store may complete after
    // the exit that ends it).
    let cycles = stats["cycles"].as_u64().unwrap();
    assert!(at + 10 >= cycles && at <= cycles + 1000, "{at} vs {cycles}");
    // Perfetto: the stall slices on the core's issue track add up to the lost slots.
    let trace: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&j).unwrap()).unwrap();
    let lost: u64 = trace["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "X" && e["tid"] == 8)
        .map(|e| e["dur"].as_u64().unwrap())
        .sum();
    let stalls: u64 = stats["timing"]["stalls"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(lost, stalls);
}

/// Every C kernel of the library, built with `weft cc` (clang): the timing run prints the same
/// output (each kernel checks its results against a host computation and prints them), exits
/// the same way and retires the same instructions as the functional run (all but bfs, whose
/// benign race makes the count depend on the interleaving).
#[test]
fn c_kernels_give_the_same_results_functional_and_timed() {
    let dir = tempfile::tempdir().unwrap();
    let mut kernels: Vec<PathBuf> = std::fs::read_dir(root().join("examples/kernels"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    kernels.sort();
    assert!(kernels.len() >= 10, "{kernels:?}");
    for k in kernels {
        let name = k.file_stem().unwrap().to_string_lossy().into_owned();
        let elf = dir.path().join(format!("{name}.elf"));
        let b = weft(&[
            "cc",
            k.to_str().unwrap(),
            "-O2",
            "-o",
            elf.to_str().unwrap(),
        ]);
        assert!(b.status.success(), "{name}: {}", text(&b));
        let mut runs = Vec::new();
        for timing in [false, true] {
            let json = dir.path().join(format!("{name}-{timing}.json"));
            let mut args = vec![
                "run",
                elf.to_str().unwrap(),
                "--cores",
                "2",
                "--stats-json",
                json.to_str().unwrap(),
            ];
            if timing {
                args.push("--timing");
            }
            let o = weft(&args);
            let v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
            runs.push((
                o.status.code(),
                String::from_utf8_lossy(&o.stdout).into_owned(),
                v["warp_instructions"].clone(),
                v["thread_instructions"].clone(),
            ));
        }
        assert_eq!(runs[0].0, Some(0), "{name}: {}", runs[0].1);
        assert_eq!(runs[0].0, runs[1].0, "{name}: exit status");
        assert_eq!(runs[0].1, runs[1].1, "{name}: output");
        if name == "bfs" {
            // A benign race: a thread that finds a neighbour already levelled by another
            // thread of the same launch skips the write, so how many instructions run depends
            // on the interleaving (as on hardware); the levels are the same.
            continue;
        }
        assert_eq!(
            runs[0], runs[1],
            "{name}: functional and timing runs differ"
        );
    }
}

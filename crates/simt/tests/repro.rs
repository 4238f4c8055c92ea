//! The reconvergence bugs found with real compiler output, as self-checking programs
//! (`tests/repro/bug*.s`), run without a fault and print no `X` at 1, 4, 8 and 32 lanes under
//! both mechanisms; the loop reproductions use one divergence stack entry under the table.

mod common;

use common::run_src;
use weft_simt::{Config, ReconvMode, RunEnd};

fn files() -> Vec<(String, String)> {
    let root = format!("{}/../..", env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let dir = format!("{root}/tests/repro");
    let rd = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{dir}: {e}"));
    for f in rd {
        let p = f.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("bug") && name.ends_with(".s") {
            out.push((name, std::fs::read_to_string(&p).unwrap()));
        }
    }
    out.sort();
    assert!(
        out.len() >= 5,
        "expected the five reproductions, found {out:?}"
    );
    out
}

#[test]
fn every_reproduction_is_right_at_every_lane_count_under_both_mechanisms() {
    for (name, src) in files() {
        for mode in [ReconvMode::Table, ReconvMode::Converge] {
            for lanes in [1, 4, 8, 32] {
                let cfg = Config {
                    lanes,
                    reconv: mode,
                    max_cycles: 1_000_000,
                    ..Config::default()
                };
                let r = run_src(&src, cfg);
                let what = format!("{name} --lanes {lanes} --reconv {}", mode.name());
                assert!(
                    matches!(r.end, RunEnd::AllHalted | RunEnd::Exit(0)),
                    "{what}: {:?}",
                    r.end
                );
                let out = String::from_utf8_lossy(r.m.console()).into_owned();
                assert!(!out.contains('X'), "{what} printed {out:?}");
                if src.contains("'.'") || src.contains("print") {
                    let dots = out.chars().filter(|&c| c == '.').count();
                    let printing = if name.starts_with("bug1") {
                        3.min(lanes)
                    } else {
                        lanes
                    };
                    assert_eq!(dots, printing, "{what} printed {out:?}");
                }
                let depth = r.m.report().max_divergence_depth;
                if mode == ReconvMode::Table && name.starts_with("bug2") {
                    assert!(depth <= 1, "{what}: max divergence depth {depth}");
                }
            }
        }
    }
}

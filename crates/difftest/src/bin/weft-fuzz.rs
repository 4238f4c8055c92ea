//! `weft-fuzz`: time-bounded mutation fuzzing of weft's input-facing entry points on stable
//! Rust. `cargo run --release -p weft-difftest --bin weft-fuzz -- [--target NAME|all]
//! [--seconds N] [--seed S] [--root REPO]`. Crashing inputs are saved to
//! `REPO/fuzz/artifacts/<target>-<n>.bin` with the panic message beside them (`.txt`).

use std::path::PathBuf;
use std::time::Duration;
use weft_difftest::fuzz::{fuzz, seeds, Target, TARGETS};

fn main() {
    let mut targets: Vec<Target> = TARGETS.to_vec();
    let mut seconds = 10u64;
    let mut seed = 1u64;
    let mut root = PathBuf::from(".");
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let v = it.next();
        let bad = |m: &str| -> ! {
            eprintln!("weft-fuzz: {m} (usage: weft-fuzz [--target NAME|all] [--seconds N] [--seed S] [--root DIR])");
            std::process::exit(2)
        };
        let v = v.unwrap_or_else(|| bad(&format!("{a} needs a value")));
        match a.as_str() {
            "--target" if v == "all" => targets = TARGETS.to_vec(),
            "--target" => {
                targets = vec![Target::from_name(&v).unwrap_or_else(|| {
                    bad(&format!(
                        "unknown target `{v}`; targets: {}",
                        TARGETS.map(|t| t.name()).join(", ")
                    ))
                })]
            }
            "--seconds" => seconds = v.parse().unwrap_or_else(|_| bad("--seconds N")),
            "--seed" => seed = v.parse().unwrap_or_else(|_| bad("--seed S")),
            "--root" => root = PathBuf::from(v),
            _ => bad(&format!("unknown argument `{a}`")),
        }
    }
    std::panic::set_hook(Box::new(|_| {}));
    let art = root.join("fuzz/artifacts");
    let mut total_crashes = 0;
    for t in targets {
        let corpus = seeds(t, &root);
        let rep = fuzz(t, &corpus, seed, Duration::from_secs(seconds), u64::MAX);
        println!(
            "{:>10}: {} seeds, {} execs in {:.1} s ({:.0}/s), {} distinct crashes",
            t.name(),
            corpus.len(),
            rep.execs,
            rep.elapsed.as_secs_f64(),
            rep.execs as f64 / rep.elapsed.as_secs_f64().max(1e-9),
            rep.crashes.len()
        );
        for (i, (input, msg)) in rep.crashes.iter().enumerate() {
            total_crashes += 1;
            let _ = std::fs::create_dir_all(&art);
            let base = art.join(format!("{}-{seed}-{i}", t.name()));
            let _ = std::fs::write(base.with_extension("bin"), input);
            let _ = std::fs::write(base.with_extension("txt"), msg);
            println!(
                "    crash: {msg} -> {}",
                base.with_extension("bin").display()
            );
        }
    }
    std::process::exit(if total_crashes > 0 { 1 } else { 0 });
}

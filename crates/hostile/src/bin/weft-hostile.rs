//! `weft-hostile`: the host-API and GDB-stub hostile-input campaigns, time-bounded.
//! `weft-hostile [--target c-api|gdb|all] [--seconds N] [--seed S] [--root REPO]`; exit 1 if a
//! campaign found anything (each finding printed).

use std::path::PathBuf;

fn main() {
    let mut targets = vec!["c-api", "gdb"];
    let mut seconds = 5.0f64;
    let mut seed = 1u64;
    let mut root = PathBuf::from(".");
    let mut it = std::env::args().skip(1);
    let usage =
        "usage: weft-hostile [--target c-api|gdb|all] [--seconds N] [--seed S] [--root DIR]";
    while let Some(a) = it.next() {
        let bad = |m: &str| -> ! {
            eprintln!("weft-hostile: {m} ({usage})");
            std::process::exit(2)
        };
        let v = it
            .next()
            .unwrap_or_else(|| bad(&format!("{a} needs a value")));
        match (a.as_str(), v.as_str()) {
            ("--target", "all") => targets = vec!["c-api", "gdb"],
            ("--target", t @ ("c-api" | "gdb")) => {
                targets = vec![if t == "gdb" { "gdb" } else { "c-api" }]
            }
            ("--target", t) => bad(&format!("unknown target `{t}`")),
            ("--seconds", s) => seconds = s.parse().unwrap_or_else(|_| bad("--seconds N")),
            ("--seed", s) => seed = s.parse().unwrap_or_else(|_| bad("--seed S")),
            ("--root", s) => root = PathBuf::from(s),
            _ => bad(&format!("unknown argument `{a}`")),
        }
    }
    let mut failed = false;
    for t in targets {
        let start = std::time::Instant::now();
        let rep = match t {
            "gdb" => weft_hostile::gdb::run(seed, seconds),
            _ => {
                let dir = tempfile::tempdir().unwrap_or_else(|e| {
                    eprintln!("weft-hostile: temporary directory: {e}");
                    std::process::exit(2)
                });
                match weft_hostile::capi::build_kernels(&root, dir.path()) {
                    Ok(elf) => weft_hostile::capi::run(elf, seed, seconds),
                    Err(e) => {
                        eprintln!("weft-hostile: {e}");
                        std::process::exit(2)
                    }
                }
            }
        };
        println!(
            "{t:>10}: {} checked calls in {:.1} s (seed {seed}), {} findings",
            rep.ops,
            start.elapsed().as_secs_f64(),
            rep.findings.len()
        );
        for f in &rep.findings {
            println!("    finding: {f}");
        }
        failed |= !rep.findings.is_empty();
    }
    std::process::exit(i32::from(failed));
}

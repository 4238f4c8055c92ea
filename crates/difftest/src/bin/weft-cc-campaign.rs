//! `weft-cc-campaign`: the real-compiler campaign (docs/reliability.md).
//!
//! `cargo run --release -p weft-difftest --bin weft-cc-campaign -- [--corpus] [--csmith N]
//! [--seed S] [--jobs J] [--bound CYCLES]`
//!
//! `--corpus` runs every kernel of `tests/compiled/kernels` built by clang and gcc at -O0,
//! -O1, -O2, -O3 and -Os, at 1, 4, 8 and 32 lanes; `--csmith N` checks csmith seeds S .. S+N
//! (one compiler and level per seed, chosen by the seed). Every lane's result is compared with
//! the host's. `--bound` changes every run's cycle bound (default 2·10⁹; a program that meets
//! it is rerun with a larger one to tell "slow" from "never ends"). Prints a summary (and, for csmith, progress on stderr); exit status 1 on any unexplained failure, 2 on a usage or
//! tool error.

use std::time::Instant;
use weft_difftest::{compiled, csmith};

struct Args {
    corpus: bool,
    csmith: u64,
    seed: u64,
    jobs: usize,
}

fn parse() -> Result<Args, String> {
    let mut a = Args {
        corpus: false,
        csmith: 0,
        seed: 1,
        jobs: 2,
    };
    let mut it = std::env::args().skip(1);
    while let Some(f) = it.next() {
        let mut num = |name: &str| -> Result<u64, String> {
            let v = it.next().ok_or(format!("{name} needs a value"))?;
            v.parse().map_err(|e| format!("{name} {v}: {e}"))
        };
        match f.as_str() {
            "--corpus" => a.corpus = true,
            "--csmith" => a.csmith = num("--csmith")?,
            "--seed" => a.seed = num("--seed")?,
            "--jobs" => a.jobs = num("--jobs")?.clamp(1, 64) as usize,
            "--bound" => weft_difftest::compiled::set_run_bound(num("--bound")?.max(1)),
            _ => {
                return Err(format!(
                    "unknown argument {f}\nusage: weft-cc-campaign [--corpus] [--csmith N] \
                     [--seed S] [--jobs J] [--bound CYCLES]"
                ))
            }
        }
    }
    if !a.corpus && a.csmith == 0 {
        a.corpus = true;
    }
    Ok(a)
}

fn main() {
    let code = match run() {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(e) => {
            eprintln!("weft-cc-campaign: {e}");
            2
        }
    };
    std::process::exit(code);
}

fn run() -> Result<bool, String> {
    let a = parse()?;
    let tc = compiled::toolchain()?;
    let mut ok = true;
    if a.corpus {
        let t = Instant::now();
        let r = compiled::corpus_campaign(&tc, a.jobs)?;
        let bad: Vec<_> = r.iter().filter(|c| c.outcome.is_failure()).collect();
        let small = r
            .iter()
            .filter(|c| matches!(c.outcome, compiled::Outcome::StackTooSmall(_)))
            .count();
        println!(
            "corpus: {} kernels, {} runs (clang and gcc × -O0 -O1 -O2 -O3 -Os × 1/4/8/32 lanes): \
             {} passed, {} stack too small, {} failed, {:.1} s",
            compiled::corpus()?.len(),
            r.len(),
            r.len() - bad.len() - small,
            small,
            bad.len(),
            t.elapsed().as_secs_f64()
        );
        for c in &bad {
            println!("  FAIL {c}");
        }
        ok &= bad.is_empty();
    }
    if a.csmith > 0 {
        let t = Instant::now();
        let s = csmith::campaign(&tc, a.seed, a.csmith, a.jobs, true)?;
        println!(
            "csmith seeds {}..{}: {} programs, {} passed ({} runs), {} explained, {} failed, {:.1} s",
            a.seed,
            a.seed + a.csmith,
            s.programs,
            s.passed,
            s.runs,
            s.explained.len(),
            s.failed.len(),
            t.elapsed().as_secs_f64()
        );
        let mut kinds: std::collections::BTreeMap<String, usize> = Default::default();
        for (_, why) in &s.explained {
            let k = why.split(':').next().unwrap_or(why).to_string();
            *kinds.entry(k).or_default() += 1;
        }
        for (k, n) in kinds {
            println!("  explained: {n} × {k}");
        }
        for (seed, runs) in &s.failed {
            for c in runs.iter().filter(|c| c.outcome.is_failure()) {
                println!("  FAIL seed {seed}: {c}");
            }
        }
        ok &= s.failed.is_empty();
    }
    Ok(ok)
}

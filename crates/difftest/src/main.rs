//! `weft-difftest`: a long differential campaign against QEMU.
//!
//! `cargo run --release -p weft-difftest -- --count 20000 --seed 1 [--jobs 2] [--blocks 60]
//! [--timeout-ms 10000] [--no-misaligned] [--no-float] [--max-failures 5] [--emit DIR]`
//! (`--emit DIR` only writes the generated sources, e.g. to cross-check with GNU as)
//!
//! Program `i` uses seed `S + i`, so any failure is reproduced with `--seed S+i --count 1`.
//! Failures are minimized and printed; the exit status is 1 if any program failed.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use weft_difftest::minimize::minimize;
use weft_difftest::runner::{check, qemu_available, Verdict, QEMU};
use weft_difftest::{GenConfig, TestProgram};

struct Args {
    count: u64,
    seed: u64,
    jobs: usize,
    timeout: Duration,
    max_failures: usize,
    gen: GenConfig,
    emit: Option<std::path::PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        count: 1000,
        seed: 1,
        jobs: 2,
        timeout: Duration::from_secs(10),
        max_failures: 5,
        gen: GenConfig::default(),
        emit: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut num = |name: &str| -> Result<u64, String> {
            let v = it.next().ok_or(format!("{name} needs a value"))?;
            let v = v.trim();
            let r = match v.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16),
                None => v.parse(),
            };
            r.map_err(|e| format!("{name} {v}: {e}"))
        };
        match flag.as_str() {
            "--count" => a.count = num("--count")?,
            "--seed" => a.seed = num("--seed")?,
            "--jobs" => a.jobs = num("--jobs")?.clamp(1, 64) as usize,
            "--blocks" => a.gen.blocks = num("--blocks")?.clamp(0, 5000) as usize,
            "--timeout-ms" => a.timeout = Duration::from_millis(num("--timeout-ms")?),
            "--max-failures" => a.max_failures = num("--max-failures")? as usize,
            "--no-misaligned" => a.gen.misaligned = false,
            "--no-float" => a.gen.float = false,
            "--compressed" => a.gen.compressed = true,
            "--emit" => a.emit = Some(it.next().ok_or("--emit needs a directory")?.into()),
            "-h" | "--help" => {
                return Err(
                    "usage: weft-difftest [--count N] [--seed S] [--jobs J] [--blocks B] \
                            [--timeout-ms T] [--max-failures F] [--no-misaligned] [--no-float] [--compressed] [--emit DIR]"
                        .into(),
                )
            }
            other => return Err(format!("unknown argument `{other}` (try --help)")),
        }
    }
    Ok(a)
}

fn report(prog: &TestProgram, v: &Verdict, timeout: Duration) {
    eprintln!("== seed {} fails: {v:?}", prog.seed);
    let fails = |p: &TestProgram| check(p, timeout).is_failure();
    let small = minimize(prog, fails);
    eprintln!(
        "-- minimized from {} to {} body instructions; differences:",
        prog.body_len(),
        small.body_len()
    );
    match check(&small, timeout) {
        Verdict::Differ(d) => {
            for (name, w, q) in d {
                eprintln!("   {name:>10}: weft {w:#010x}  qemu {q:#010x}");
            }
        }
        other => eprintln!("   {other:?}"),
    }
    eprintln!("-- minimized program:\n{}", small.source());
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("weft-difftest: {e}");
            std::process::exit(2);
        }
    };
    if let Some(dir) = &args.emit {
        // Write the sources only (e.g. to cross-check with GNU as), no runs.
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("weft-difftest: {}: {e}", dir.display());
            std::process::exit(2);
        }
        for i in 0..args.count {
            let p = TestProgram::generate(args.seed.wrapping_add(i), &args.gen);
            let f = dir.join(format!("prog-{}.s", p.seed));
            if let Err(e) = std::fs::write(&f, p.source()) {
                eprintln!("weft-difftest: {}: {e}", f.display());
                std::process::exit(2);
            }
        }
        return;
    }
    if !qemu_available() {
        eprintln!("weft-difftest: {QEMU} not found (apt install qemu-system-misc)");
        std::process::exit(2);
    }
    let start = Instant::now();
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let failures = AtomicUsize::new(0);
    let log = Mutex::new(());
    std::thread::scope(|s| {
        for _ in 0..args.jobs {
            s.spawn(|| loop {
                if failures.load(Ordering::Relaxed) >= args.max_failures {
                    return;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= args.count {
                    return;
                }
                let prog = TestProgram::generate(args.seed.wrapping_add(i), &args.gen);
                let v = check(&prog, args.timeout);
                if v.is_failure() {
                    failures.fetch_add(1, Ordering::Relaxed);
                    let _g = log.lock();
                    report(&prog, &v, args.timeout);
                }
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                if n.is_multiple_of(1000) {
                    eprintln!(
                        "weft-difftest: {n} programs, {} failing, {:.0} s",
                        failures.load(Ordering::Relaxed),
                        start.elapsed().as_secs_f64()
                    );
                }
            });
        }
    });
    let n = done.load(Ordering::Relaxed);
    let f = failures.load(Ordering::Relaxed);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "weft-difftest: {n} programs compared (seeds {}..{}), {f} failing, {secs:.1} s, {:.1} programs/s",
        args.seed,
        args.seed.wrapping_add(n),
        n as f64 / secs.max(1e-9)
    );
    std::process::exit(if f > 0 { 1 } else { 0 });
}

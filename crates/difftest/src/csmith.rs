//! csmith programs as lane-dependent weft kernels, for the real-compiler campaign.
//!
//! csmith (Debian's `csmith`) writes a random, UB-free C program whose result is a function of
//! its constants. weft's lanes share memory, so programs are generated without global
//! variables (`--no-global-variables`, and without pointers, structs and unions so that the
//! result is a plain value). Every scalar local initialiser `T l_N = V;` becomes
//! `T l_N = (T)((V) ^ WEFT_TID());`, so every lane computes something different and lanes
//! diverge wherever the program branches on its data. The kernel returns `func_1()`.
//!
//! Changing the constants can make a program loop for a very long time or reach undefined
//! behaviour csmith had ruled out for its own values. The host run has a time limit
//! ([`HOST_LIMIT`]); a program that does not end within it is counted as *explained* and
//! skipped. When weft's result differs from the host's, the program is rebuilt for the host
//! with UBSan and ASan: if they report undefined behaviour (or the instrumented build gives
//! other results), the mismatch is *explained*; otherwise it is a failure. Everything else
//! must give the host's result in every lane.

use crate::compiled::{self, CaseReport, Compiler, Toolchain, LEVELS};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The csmith options of the campaign.
pub const OPTIONS: &[&str] = &[
    "--no-global-variables",
    "--no-pointers",
    "--no-structs",
    "--no-unions",
    "--no-argc",
    "--max-funcs",
    "6",
];

/// The result of one csmith seed.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// Every build and lane count matched the host.
    Pass(Vec<CaseReport>),
    /// Skipped for a reason that is not weft's (the reason).
    Explained(String),
    /// At least one run failed.
    Fail(Vec<CaseReport>),
}

/// Generate the program for `seed`.
pub fn generate(seed: u64) -> Result<String, String> {
    if !Command::new("csmith")
        .arg("--version")
        .current_dir(std::env::temp_dir())
        .output()
        .is_ok_and(|o| o.status.success())
    {
        return Err("the csmith campaign needs `csmith`: apt-get install csmith".into());
    }
    let out = Command::new("csmith")
        .args(OPTIONS)
        .args(["--seed", &seed.to_string()])
        .current_dir(std::env::temp_dir())
        .output()
        .map_err(|e| format!("csmith: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "csmith --seed {seed}: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `T l_N = V;` (T an integer type, optional const/volatile) → lane-dependent initialiser.
fn rewrite_line(line: &str) -> Option<String> {
    let indent = &line[..line.len() - line.trim_start().len()];
    let mut rest = line.trim();
    if !rest.ends_with(';') || rest.contains('{') || rest.contains('*') || rest.contains('[') {
        return None;
    }
    let mut quals = String::new();
    for q in ["const ", "volatile "] {
        if let Some(r) = rest.strip_prefix(q) {
            quals.push_str(q);
            rest = r;
        }
    }
    let (ty, after) = rest.split_once(' ')?;
    let ty_ok = ["int8_t", "int16_t", "int32_t", "int64_t"]
        .iter()
        .any(|t| ty == *t || ty.strip_prefix('u') == Some(t));
    if !ty_ok {
        return None;
    }
    let (name, value) = after.split_once(" = ")?;
    let name = name.trim();
    if !name.starts_with("l_") || !name[2..].chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let value = value.trim_end_matches(';').trim();
    Some(format!(
        "{indent}{quals}{ty} {name} = ({ty})(({value}) ^ WEFT_TID());"
    ))
}

/// Turn csmith's output into a kernel source: its own header replaced by
/// `csmith_weft.h`, scalar local initialisers made lane-dependent, `main` replaced by
/// `kernel`. Returns the source and how many initialisers were rewritten.
pub fn lane_dependent(src: &str) -> (String, usize) {
    let mut out = String::from("#include \"csmith_weft.h\"\n");
    let mut rewritten = 0;
    for line in src.lines() {
        if line.starts_with("#include \"csmith.h\"") {
            continue;
        }
        if line.starts_with("int main") {
            break;
        }
        match rewrite_line(line) {
            Some(l) => {
                rewritten += 1;
                out.push_str(&l);
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out.push_str(
        "\n#ifndef __riscv\nuint32_t weft_host_tid;\n#endif\n\
         uint32_t kernel(uint32_t tid) {\n\
         #ifndef __riscv\n    weft_host_tid = tid;\n#endif\n\
         \x20   (void)tid;\n    return (uint32_t)func_1();\n}\n",
    );
    (out, rewritten)
}

/// Build and check the program of `seed` with one compiler and level chosen by the seed.
pub fn check_seed(tc: &Toolchain, seed: u64, scratch: &Path) -> Verdict {
    let src = match generate(seed) {
        Ok(s) => s,
        Err(e) => return Verdict::Fail(vec![failed_build(seed, e)]),
    };
    let (kernel, n) = lane_dependent(&src);
    if n == 0 {
        return Verdict::Explained("no local initialiser to make lane-dependent".into());
    }
    let path = scratch.join(format!("csmith{seed}.c"));
    if let Err(e) = std::fs::write(&path, &kernel) {
        return Verdict::Fail(vec![failed_build(seed, e.to_string())]);
    }
    let extra = vec![
        "-I/usr/include/csmith".to_string(),
        format!("-I{}", compiled::campaign_dir().join("rt").display()),
    ];
    let srcs: Vec<PathBuf> = vec![path.clone()];
    let host = scratch.join(format!("csmith{seed}-host"));
    let cleanup = |extra: &[PathBuf]| {
        for f in [&path, &host].into_iter().chain(extra) {
            let _ = std::fs::remove_file(f);
        }
    };
    // The plain host build is the reference; the sanitizers are only needed to explain a
    // mismatch (most programs match, and an instrumented build costs several times more).
    if let Err(e) = compiled::build_host(&srcs, &extra, false, &host) {
        cleanup(&[]);
        return Verdict::Explained(format!("host build fails: {}", first_line(&e)));
    }
    let want = match compiled::host_results(&host, 32, HOST_LIMIT) {
        Ok(w) => w,
        Err(compiled::HostEnd::Timeout) => {
            cleanup(&[]);
            return Verdict::Explained(format!(
                "the host run does not end within {} ms",
                HOST_LIMIT.as_millis()
            ));
        }
        Err(compiled::HostEnd::Failed(e)) => {
            cleanup(&[]);
            return Verdict::Explained(format!("the host run fails: {e}"));
        }
    };
    let compiler = Compiler::ALL[(seed % 2) as usize];
    let level = LEVELS[(seed / 2 % LEVELS.len() as u64) as usize];
    let name = format!("csmith{seed}");
    let r = compiled::check_builds(
        tc,
        &name,
        &srcs,
        &extra,
        &[(compiler, level)],
        &want,
        scratch,
    );
    let elf = scratch.join(format!("{name}-{}{level}.elf", compiler.name()));
    if !r.iter().any(|c| c.outcome.is_failure()) {
        cleanup(&[elf]);
        return Verdict::Pass(r);
    }
    // A mismatch: is the program's behaviour defined for the lane-dependent values?
    let checked = scratch.join(format!("csmith{seed}-host-checked"));
    let why = match compiled::build_host(&srcs, &extra, true, &checked) {
        Err(e) => Some(format!("sanitized host build fails: {}", first_line(&e))),
        Ok(()) => match compiled::host_results(&checked, 32, 4 * HOST_LIMIT) {
            Ok(w) if w == want => None,
            Ok(_) => Some("undefined behaviour on the host: results depend on the build".into()),
            Err(compiled::HostEnd::Timeout) => None,
            Err(compiled::HostEnd::Failed(e)) => {
                Some(format!("undefined behaviour on the host: {e}"))
            }
        },
    };
    cleanup(&[elf, checked]);
    match why {
        Some(why) => Verdict::Explained(why),
        None => Verdict::Fail(r),
    }
}

/// How long the host may run a program for 32 tids. A program that needs longer runs for
/// billions of instructions, more than a campaign's weft run is given.
pub const HOST_LIMIT: Duration = Duration::from_millis(500);

fn first_line(s: &str) -> String {
    s.lines()
        .find(|l| l.contains("error"))
        .unwrap_or("")
        .to_string()
}

fn failed_build(seed: u64, e: String) -> CaseReport {
    CaseReport {
        kernel: format!("csmith{seed}"),
        compiler: Compiler::Clang,
        level: "-",
        march: compiled::MARCHES[0],
        lanes: 0,
        outcome: compiled::Outcome::Fault(e),
    }
}

/// Totals of a csmith campaign.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Programs checked.
    pub programs: usize,
    /// Programs that passed.
    pub passed: usize,
    /// Programs skipped for a reason that is not weft's, with counts per reason kind.
    pub explained: Vec<(u64, String)>,
    /// Failures.
    pub failed: Vec<(u64, Vec<CaseReport>)>,
    /// Runs compared (program × lane count).
    pub runs: usize,
}

/// Check seeds `first .. first + count` on `jobs` threads. With `progress`, a line goes to
/// stderr every 250 programs, and every failure as soon as it is found.
pub fn campaign(
    tc: &Toolchain,
    first: u64,
    count: u64,
    jobs: usize,
    progress: bool,
) -> Result<Summary, String> {
    // Drawn only when stderr is a terminal (and `progress` asks for it).
    let bar = if progress {
        let b = indicatif::ProgressBar::new(count);
        if let Ok(st) = indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} programs: {msg}, {elapsed} elapsed, ETA {eta}",
        ) {
            b.set_style(st);
        }
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let next = std::sync::atomic::AtomicU64::new(0);
    let sum = std::sync::Mutex::new(Summary::default());
    std::thread::scope(|s| {
        for j in 0..jobs.max(1) {
            let (next, sum, bar) = (&next, &sum, &bar);
            s.spawn(move || {
                let Ok(scratch) = compiled::scratch_dir(&format!("csmith{j}")) else {
                    return;
                };
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    let seed = first + i;
                    let v = check_seed(tc, seed, &scratch);
                    let mut s = sum.lock().unwrap();
                    s.programs += 1;
                    match v {
                        Verdict::Pass(r) => {
                            s.passed += 1;
                            s.runs += r.len();
                        }
                        Verdict::Explained(why) => s.explained.push((seed, why)),
                        Verdict::Fail(r) => {
                            if progress {
                                for c in r.iter().filter(|c| c.outcome.is_failure()) {
                                    bar.suspend(|| eprintln!("FAIL seed {seed}: {c}"));
                                }
                            }
                            s.runs += r.len();
                            s.failed.push((seed, r));
                        }
                    }
                    bar.inc(1);
                    bar.set_message(format!(
                        "{} passed, {} explained, {} failed",
                        s.passed,
                        s.explained.len(),
                        s.failed.len()
                    ));
                }
                let _ = std::fs::remove_dir_all(&scratch);
            });
        }
    });
    bar.finish_and_clear();
    let mut s = sum.into_inner().unwrap();
    s.explained.sort();
    s.failed.sort_by_key(|f| f.0);
    if s.programs as u64 != count {
        return Err("could not create a scratch directory".into());
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initialisers_become_lane_dependent() {
        assert_eq!(
            rewrite_line("    int32_t l_2 = 6L;").as_deref(),
            Some("    int32_t l_2 = (int32_t)((6L) ^ WEFT_TID());")
        );
        assert_eq!(
            rewrite_line("        const uint16_t l_7 = 0xDACAL;").as_deref(),
            Some("        const uint16_t l_7 = (uint16_t)((0xDACAL) ^ WEFT_TID());")
        );
        assert_eq!(rewrite_line("    int8_t l_4[6] = {1L,1L};"), None);
        assert_eq!(rewrite_line("    int i;"), None);
        assert_eq!(rewrite_line("    int32_t *l_3 = &l_2;"), None);
        assert_eq!(rewrite_line("    static int32_t l_9 = 1;"), None);
    }
}

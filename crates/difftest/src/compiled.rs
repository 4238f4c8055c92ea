//! The real-compiler campaign: C kernels built by stock compilers, run on weft at several lane
//! counts, every lane's result compared with the same C built and run on the host.
//!
//! A kernel is `uint32_t kernel(uint32_t tid)` (`tests/compiled/kernels/`, or a csmith program
//! made lane-dependent by [`crate::csmith`]). For weft it is built with clang 14 + lld or with
//! riscv64-unknown-elf-gcc 12 (`-march=rv32imaf -mabi=ilp32f`, or `-march=rv32imafc` for
//! compressed code: [`MARCHES`]) at an optimisation level and
//! linked with `tests/compiled/rt/` (start-up code, linker script, a harness that runs the
//! kernel in every lane and prints the results through the exit word). The host build runs
//! `kernel(0..N)` in turn. Nothing here trusts weft: the reference is the host.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use weft_simt::{Config, RunEnd};

/// A compiler for the device build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compiler {
    /// Debian's clang 14 with lld.
    Clang,
    /// riscv64-unknown-elf-gcc 12 with its rv32 multilib.
    Gcc,
}

impl Compiler {
    /// Both compilers.
    pub const ALL: [Compiler; 2] = [Compiler::Clang, Compiler::Gcc];

    /// Short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Compiler::Clang => "clang",
            Compiler::Gcc => "gcc",
        }
    }
}

/// The `-march` values of the campaign: without and with compressed instructions. (libgcc
/// is the rv32imaf one either way; weft runs both kinds of code mixed.)
pub const MARCHES: [&str; 2] = ["rv32imaf", "rv32imafc"];

/// The optimisation levels of the campaign.
pub const LEVELS: [&str; 5] = ["-O0", "-O1", "-O2", "-O3", "-Os"];

/// The lane counts of the campaign.
pub const LANES: [usize; 4] = [1, 4, 8, 32];

/// The tools the campaign runs, found on PATH.
#[derive(Clone, Debug)]
pub struct Toolchain {
    /// libgcc for rv32imaf/ilp32f (64-bit arithmetic helpers), from the riscv gcc.
    pub libgcc: PathBuf,
}

/// Find the compilers, or say which Debian package to install: the device toolchain as
/// `weft cc` finds it, and the host gcc with its 32-bit runtime for the reference.
pub fn toolchain() -> Result<Toolchain, String> {
    let libgcc =
        weft_cc::find_toolchain().map_err(|e| format!("the real-compiler campaign: {e}"))?;
    let m32 = Command::new("gcc")
        .args(["-m32", "-print-libgcc-file-name"])
        .output()
        .map_err(|_| "the real-compiler campaign needs `gcc`: apt-get install gcc".to_string())?;
    if !Path::new(String::from_utf8_lossy(&m32.stdout).trim()).is_file() {
        return Err(
            "the real-compiler campaign builds its host reference with gcc -m32, \
                    which has no 32-bit runtime here: apt-get install gcc-multilib"
                .into(),
        );
    }
    Ok(Toolchain { libgcc })
}

/// `tests/compiled` in the repository.
pub fn campaign_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/compiled")
}

/// The corpus kernels, sorted.
pub fn corpus() -> Result<Vec<PathBuf>, String> {
    let dir = campaign_dir().join("kernels");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    v.sort();
    Ok(v)
}

fn run_tool(cmd: &mut Command) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Build `src` with `weft cc -O2` (weft's own toolchain and runtime) into `dir`; returns the
/// ELF bytes.
pub fn weft_cc_o2(src: &Path, dir: &Path) -> Result<Vec<u8>, String> {
    let name = src.file_name().unwrap_or_default().to_string_lossy();
    let out = dir.join(format!("{name}.elf"));
    let o = weft_cc::Options {
        inputs: vec![src.to_path_buf()],
        output: out.clone(),
        opt: "-O2".into(),
        ..weft_cc::Options::default()
    };
    weft_cc::build(&o).map_err(|e| format!("weft cc {}: {e}", src.display()))?;
    std::fs::read(&out).map_err(|e| format!("{}: {e}", out.display()))
}

/// Build `sources` for weft with `compiler` at `level` into `out`; returns the ELF bytes.
/// `extra` goes to the compiler (include paths).
pub fn build_device(
    tc: &Toolchain,
    compiler: Compiler,
    level: &str,
    sources: &[PathBuf],
    extra: &[String],
    out: &Path,
) -> Result<Vec<u8>, String> {
    build_device_for(tc, MARCHES[0], compiler, level, sources, extra, out)
}

/// [`build_device`] for an `-march` value (one of [`MARCHES`]).
pub fn build_device_for(
    tc: &Toolchain,
    march: &str,
    compiler: Compiler,
    level: &str,
    sources: &[PathBuf],
    extra: &[String],
    out: &Path,
) -> Result<Vec<u8>, String> {
    let rt = campaign_dir().join("rt");
    let march = format!("-march={march}");
    let mut cmd = match compiler {
        Compiler::Clang => {
            let mut c = Command::new("clang");
            c.args([
                "--target=riscv32-unknown-elf",
                &march,
                "-mabi=ilp32f",
                "-fuse-ld=lld",
            ]);
            c
        }
        Compiler::Gcc => {
            let mut c = Command::new("riscv64-unknown-elf-gcc");
            c.args([&march, "-mabi=ilp32f", "-Wl,--no-warn-rwx-segments"]);
            c
        }
    };
    cmd.arg(level)
        .args(["-ffreestanding", "-nostdlib", "-w", "-T"])
        .arg(rt.join("link.ld"))
        .args(extra)
        .arg(rt.join("crt0.S"))
        .arg(rt.join("harness.c"))
        .arg(rt.join("mem.c"))
        .args(sources)
        .arg(&tc.libgcc)
        .arg("-o")
        .arg(out);
    run_tool(&mut cmd)?;
    std::fs::read(out).map_err(|e| format!("{}: {e}", out.display()))
}

/// Build `sources` for the host (with the sanitizers when `checked`) into `out`: a 32-bit
/// program (`-m32`), so that `long`, pointers and the usual arithmetic conversions are those
/// of the device's ILP32 ABI (csmith's `L` constants are `long`), with SSE floats (x87
/// excess precision would differ from rv32's single precision).
pub fn build_host(
    sources: &[PathBuf],
    extra: &[String],
    checked: bool,
    out: &Path,
) -> Result<(), String> {
    let mut cmd = Command::new("gcc");
    cmd.args(["-m32", "-msse2", "-mfpmath=sse", "-O1", "-w"]);
    if checked {
        cmd.args(["-fsanitize=undefined,address", "-fno-sanitize-recover=all"]);
    }
    cmd.args(extra)
        .arg(campaign_dir().join("rt/host_main.c"))
        .args(sources)
        .arg("-o")
        .arg(out);
    run_tool(&mut cmd)
}

/// How a host run ended when it gave no results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostEnd {
    /// Still running after the time limit (killed).
    Timeout,
    /// It failed (a sanitizer report, a crash).
    Failed(String),
}

/// Run the host build for tids 0..n with a time limit; its per-tid results.
pub fn host_results(exe: &Path, n: usize, limit: Duration) -> Result<Vec<u32>, HostEnd> {
    let mut child = Command::new(exe)
        .arg(n.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| HostEnd::Failed(e.to_string()))?;
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(HostEnd::Timeout);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return Err(HostEnd::Failed(e.to_string())),
        }
    }
    let out = child
        .wait_with_output()
        .map_err(|e| HostEnd::Failed(e.to_string()))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(HostEnd::Failed(
            err.lines().take(3).collect::<Vec<_>>().join(" | "),
        ));
    }
    parse_results(&out.stdout, n).map_err(HostEnd::Failed)
}

fn parse_results(text: &[u8], n: usize) -> Result<Vec<u32>, String> {
    let s = String::from_utf8_lossy(text);
    let v: Result<Vec<u32>, _> = s.lines().map(|l| l.trim().parse::<u32>()).collect();
    let v = v.map_err(|e| format!("output {s:?}: {e}"))?;
    if v.len() != n {
        return Err(format!("{} results for {n} lanes: {s:?}", v.len()));
    }
    Ok(v)
}

/// How a weft run compared with the host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every lane gave the host's result.
    Pass,
    /// Lanes whose result differs: (lane, host, weft).
    Mismatch(Vec<(usize, u32, u32)>),
    /// The run faulted (weft's message) — not a stack too small.
    Fault(String),
    /// Every warp halted without the exit word.
    HaltedEarly,
    /// DIVERGE_OVERFLOW: the divergence stack is too small for this code (the message names
    /// `--stack-depth`).
    StackTooSmall(String),
    /// The cycle bound was reached.
    Timeout(u64),
    /// The console output is not the harness's.
    BadOutput(String),
}

impl Outcome {
    /// True for every outcome but `Pass` and `StackTooSmall` (an explained limit).
    pub fn is_failure(&self) -> bool {
        !matches!(self, Outcome::Pass | Outcome::StackTooSmall(_))
    }
}

/// Run an ELF on weft (1 core, 1 warp, `lanes` lanes, default stack depth) and compare with
/// `want` (the host's results for tids 0..lanes).
pub fn run_on_weft(elf: &[u8], lanes: usize, want: &[u32], max_cycles: u64) -> (Outcome, u64) {
    let prog = match weft_simt::load::program_from_elf(elf) {
        Ok((p, _)) => p,
        Err(e) => return (Outcome::Fault(format!("load: {e}")), 0),
    };
    let cfg = Config {
        cores: 1,
        warps: 1,
        lanes,
        max_cycles,
        require_exit: true,
        ..Config::default()
    };
    let (m, end) = match crate::engines::run_both(cfg, &prog, |_| {}) {
        Ok(r) => r,
        Err(e) => return (Outcome::Fault(e), 0),
    };
    let cycles = m.cycle;
    let outcome = match end {
        RunEnd::Exit(0) => match parse_results(m.console(), lanes) {
            Err(e) => Outcome::BadOutput(e),
            Ok(got) => {
                let bad: Vec<(usize, u32, u32)> = (0..lanes)
                    .filter(|&l| got[l] != want[l])
                    .map(|l| (l, want[l], got[l]))
                    .collect();
                if bad.is_empty() {
                    Outcome::Pass
                } else {
                    Outcome::Mismatch(bad)
                }
            }
        },
        RunEnd::Fault(f) if f.code == weft_isa::FaultCode::DivergeOverflow => {
            Outcome::StackTooSmall(f.to_string())
        }
        RunEnd::Fault(f) => Outcome::Fault(f.to_string()),
        RunEnd::NoExit | RunEnd::AllHalted => Outcome::HaltedEarly,
        RunEnd::CycleLimit(c) => Outcome::Timeout(c),
        e => Outcome::Fault(format!("{e:?}")),
    };
    (outcome, cycles)
}

/// One (kernel, compiler, level, lanes) result.
#[derive(Clone, Debug)]
pub struct CaseReport {
    /// The kernel's name.
    pub kernel: String,
    /// Compiler.
    pub compiler: Compiler,
    /// Optimisation level.
    pub level: &'static str,
    /// `-march`.
    pub march: &'static str,
    /// Lanes.
    pub lanes: usize,
    /// What happened.
    pub outcome: Outcome,
}

impl std::fmt::Display for CaseReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} {} -march={} --lanes {}: {:?}",
            self.kernel,
            self.compiler.name(),
            self.level,
            self.march,
            self.lanes,
            self.outcome
        )
    }
}

/// The default cycle bound of every run: csmith programs made lane-dependent can run for
/// hundreds of millions of instructions at -O0 (64-bit arithmetic through libgcc), still
/// within the host's time limit. The bound only stops a run that would never end.
pub const RUN_BOUND: u64 = 2_000_000_000;

static RUN_BOUND_NOW: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(RUN_BOUND);

/// The cycle bound in force ([`RUN_BOUND`] unless [`set_run_bound`] changed it).
pub fn run_bound() -> u64 {
    RUN_BOUND_NOW.load(std::sync::atomic::Ordering::Relaxed)
}

/// Change the cycle bound (`weft-cc-campaign --bound`), e.g. to rerun a program that met it.
pub fn set_run_bound(cycles: u64) {
    RUN_BOUND_NOW.store(cycles, std::sync::atomic::Ordering::Relaxed);
}

/// Build one kernel (sources) every way and run each build at every lane count against the
/// host results `want` (for 32 tids). Every run may take [`run_bound`] cycles, or 128
/// times the 1-lane run if that is more.
pub fn check_builds(
    tc: &Toolchain,
    name: &str,
    sources: &[PathBuf],
    extra: &[String],
    builds: &[(Compiler, &'static str)],
    want: &[u32],
    scratch: &Path,
) -> Vec<CaseReport> {
    check_builds_for(tc, MARCHES[0], name, sources, extra, builds, want, scratch)
}

/// [`check_builds`] for an `-march` value. A build for a compressed `-march` must hold
/// compressed instructions (the ELF says so, `EF_RISCV_RVC`), or the case fails.
#[allow(clippy::too_many_arguments)]
pub fn check_builds_for(
    tc: &Toolchain,
    march: &'static str,
    name: &str,
    sources: &[PathBuf],
    extra: &[String],
    builds: &[(Compiler, &'static str)],
    want: &[u32],
    scratch: &Path,
) -> Vec<CaseReport> {
    let mut out = Vec::new();
    for &(compiler, level) in builds {
        let elf_path = scratch.join(format!("{name}-{}{level}-{march}.elf", compiler.name()));
        let report = |lanes, outcome| CaseReport {
            kernel: name.to_string(),
            compiler,
            level,
            march,
            lanes,
            outcome,
        };
        let elf = match build_device_for(tc, march, compiler, level, sources, extra, &elf_path) {
            Ok(e) => e,
            Err(e) => {
                out.push(report(0, Outcome::Fault(format!("build failed: {e}"))));
                continue;
            }
        };
        let rvc = weft_elf::read_elf(&elf).map(|i| i.flags & weft_elf::ef::RVC != 0);
        if rvc != Ok(march.contains('c')) {
            let why = format!("-march={march} but the ELF's RVC flag is {rvc:?}");
            out.push(report(0, Outcome::Fault(why)));
            continue;
        }
        let (one, c1) = run_on_weft(&elf, 1, want, run_bound());
        // The 1-lane run computes tid 0 only; other tids may work far longer (a loop count
        // that depends on the tid), so the bound of a wider run is not derived from it alone.
        let bound = c1.saturating_mul(4 * 32).max(run_bound());
        out.push(report(1, one));
        for &lanes in &LANES[1..] {
            let (o, _) = run_on_weft(&elf, lanes, want, bound);
            out.push(report(lanes, o));
        }
    }
    out
}

/// Every compiler × level.
pub fn all_builds() -> Vec<(Compiler, &'static str)> {
    Compiler::ALL
        .iter()
        .flat_map(|&c| LEVELS.iter().map(move |&l| (c, l)))
        .collect()
}

/// A scratch directory unique to this process and `tag`.
pub fn scratch_dir(tag: &str) -> Result<PathBuf, String> {
    let d = std::env::temp_dir().join(format!("weft-compiled-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
    Ok(d)
}

/// Run the whole corpus: every kernel, every compiler and level, lanes 1/4/8/32, on `jobs`
/// threads.
pub fn corpus_campaign(tc: &Toolchain, jobs: usize) -> Result<Vec<CaseReport>, String> {
    corpus_campaign_for(tc, jobs, MARCHES[0])
}

/// [`corpus_campaign`] for an `-march` value (one of [`MARCHES`]).
pub fn corpus_campaign_for(
    tc: &Toolchain,
    jobs: usize,
    march: &'static str,
) -> Result<Vec<CaseReport>, String> {
    let kernels = corpus()?;
    // Drawn only when stderr is a terminal.
    let bar = indicatif::ProgressBar::new(kernels.len() as u64);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    let errors = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for j in 0..jobs.max(1) {
            let (kernels, next, results, errors, bar) = (&kernels, &next, &results, &errors, &bar);
            s.spawn(move || {
                let scratch = match scratch_dir(&format!("corpus{j}")) {
                    Ok(d) => d,
                    Err(e) => return errors.lock().unwrap().push(e),
                };
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(path) = kernels.get(k) else { break };
                    let name = path.file_stem().unwrap().to_string_lossy().into_owned();
                    let host = scratch.join(format!("{name}-host"));
                    let srcs = vec![path.clone()];
                    let want = build_host(&srcs, &[], true, &host)
                        .map_err(|e| format!("{name}: host build: {e}"))
                        .and_then(|_| {
                            host_results(&host, 32, Duration::from_secs(20))
                                .map_err(|e| format!("{name}: host run: {e:?}"))
                        });
                    match want {
                        Err(e) => errors.lock().unwrap().push(e),
                        Ok(want) => {
                            let r = check_builds_for(
                                tc,
                                march,
                                &name,
                                &srcs,
                                &[],
                                &all_builds(),
                                &want,
                                &scratch,
                            );
                            results.lock().unwrap().extend(r);
                        }
                    }
                    bar.inc(1);
                }
                let _ = std::fs::remove_dir_all(&scratch);
            });
        }
    });
    bar.finish_and_clear();
    let errors = errors.into_inner().unwrap();
    if !errors.is_empty() {
        return Err(errors.join("\n"));
    }
    let mut r = results.into_inner().unwrap();
    r.sort_by(|a, b| {
        (&a.kernel, a.compiler.name(), a.level, a.lanes).cmp(&(
            &b.kernel,
            b.compiler.name(),
            b.level,
            b.lanes,
        ))
    });
    Ok(r)
}

//! `weft correlate`: how close the timing model's cycle counts are to a reference's. It runs a
//! set of kernels on weft under the timing model — standalone programs in-process
//! (`--kernels`: Vortex-profile assembly, ELF or `.vxbin`) and host programs linked with
//! weft's `libvortex.so` (`--hosts`) — reads the reference's counts for the same kernels
//! (`correlate_ref.rs`: SimX's `PERF:` lines, or a table), and writes the comparison as CSV
//! and JSON, the error figures (mean absolute percentage error of cycles, the worst error,
//! the correlation of log cycles, instruction counts equal or not) and a log–log scatter
//! plot with y = x (`correlate_plot.rs`). docs/correlation.md shows the plots and
//! the commands that made them.

use crate::correlate_ref::{self, Counts, Row};
use crate::run_cmd::{config_from, MachineArgs};
use clap::Args;
use serde::Serialize;
use std::path::{Path, PathBuf};
use weft_simt::{Machine, Profile};
use weft_timing::{MachineConfig, TimingModel};

/// `weft correlate`'s arguments.
#[derive(Args, Debug)]
pub struct CorrelateArgs {
    /// Standalone kernels, run in-process under the Vortex profile: a directory of `.s` files
    /// (its `crt.s`, if any, is prepended to each; tests/correlate is such a directory), or
    /// single `.s`, `.elf` or `.vxbin` files. Repeatable.
    #[arg(long = "kernels", value_name = "DIR|FILE")]
    pub kernels: Vec<PathBuf>,
    /// Host programs: a directory with one subdirectory per kernel, each holding `cmd`, a
    /// shell command run in that subdirectory with weft's libvortex.so configured through
    /// WEFT_CONFIG (the configuration below, timing model on) and counting the last launch
    /// (WEFT_PERF_SCOPE=launch, as SimX); its last `PERF: instrs=N, cycles=M` line is the
    /// count (scripts/simx-correlate.sh makes such a directory from Vortex's regression
    /// tests). Repeatable.
    #[arg(long = "hosts", value_name = "DIR")]
    pub hosts: Vec<PathBuf>,
    /// The reference's counts: a CSV table (`kernel,instrs,cycles`) or a log of lines `NAME
    /// … | PERF: instrs=N, cycles=M` (SimX's results as tools/vortex's prepare.sh writes
    /// them; lines whose second field is not PASS are left out).
    #[arg(long, value_name = "FILE")]
    pub reference: PathBuf,
    /// The reference's name on the plot and in the table.
    #[arg(long, default_value = "SimX")]
    pub reference_name: String,
    /// Where the table (correlation.csv, correlation.json) and plot (correlation.svg, .png)
    /// go.
    #[arg(
        long,
        short = 'o',
        value_name = "DIR",
        default_value = "target/correlate"
    )]
    pub out: PathBuf,
    /// Only the kernels of these names. Repeatable.
    #[arg(long = "only", value_name = "NAME")]
    pub only: Vec<String>,
    /// Exit with status 1 if the mean absolute percentage error of cycles is above this.
    #[arg(long, value_name = "PERCENT")]
    pub max_mape: Option<f64>,
    /// Exit with status 1 if any kernel's cycle error is above this (percent).
    #[arg(long, value_name = "PERCENT")]
    pub max_error: Option<f64>,
    /// Exit with status 1 if a kernel's instruction count differs from the reference's,
    /// except the kernels named by --instrs-may-differ.
    #[arg(long)]
    pub equal_instrs: bool,
    /// A kernel whose instruction count may differ (say why in the docs). Repeatable.
    #[arg(long = "instrs-may-differ", value_name = "NAME")]
    pub instrs_may_differ: Vec<String>,
    /// The machine: --config FILE.toml (e.g. configs/vortex-simx.toml), --set, --cores,
    /// --warps, --lanes; the Vortex profile and the timing model are always on.
    #[command(flatten)]
    pub machine: MachineArgs,
}

/// The error figures over a table.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Summary {
    /// Kernels compared.
    pub kernels: usize,
    /// Mean absolute percentage error of cycles.
    pub mape_percent: f64,
    /// The largest absolute error, in percent, and its kernel.
    pub worst_error_percent: f64,
    /// The kernel with the largest error.
    pub worst_kernel: String,
    /// Pearson correlation of ln(weft cycles) with ln(reference cycles).
    pub log_cycles_correlation: f64,
    /// Kernels whose instruction counts are equal.
    pub instrs_equal: usize,
}

impl Summary {
    /// The figures of `rows` (none if empty).
    pub fn of(rows: &[Row]) -> Option<Summary> {
        if rows.is_empty() {
            return None;
        }
        let n = rows.len() as f64;
        let mape = rows.iter().map(|r| r.error_percent.abs()).sum::<f64>() / n;
        let worst = rows
            .iter()
            .max_by(|a, b| a.error_percent.abs().total_cmp(&b.error_percent.abs()))?;
        let xs: Vec<f64> = rows.iter().map(|r| (r.ref_cycles as f64).ln()).collect();
        let ys: Vec<f64> = rows.iter().map(|r| (r.weft_cycles as f64).ln()).collect();
        Some(Summary {
            kernels: rows.len(),
            mape_percent: mape,
            worst_error_percent: worst.error_percent.abs(),
            worst_kernel: worst.kernel.clone(),
            log_cycles_correlation: pearson(&xs, &ys),
            instrs_equal: rows
                .iter()
                .filter(|r| r.weft_instrs == r.ref_instrs)
                .count(),
        })
    }
}

/// Pearson's correlation coefficient (1 for a single point or constant series that agree).
pub fn pearson(xs: &[f64], ys: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let (mx, my) = (xs.iter().sum::<f64>() / n, ys.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (x, y) in xs.iter().zip(ys) {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
    }
    if sxx == 0.0 || syy == 0.0 {
        return if sxx == syy { 1.0 } else { 0.0 };
    }
    sxy / (sxx * syy).sqrt()
}

/// A kernel to run on weft.
enum Kernel {
    /// A standalone program, with the start-up to prepend to assembly.
    Standalone {
        name: String,
        path: PathBuf,
        crt: Option<String>,
    },
    /// A host program's directory (with its `cmd`).
    Host { name: String, dir: PathBuf },
}

impl Kernel {
    fn name(&self) -> &str {
        match self {
            Kernel::Standalone { name, .. } | Kernel::Host { name, .. } => name,
        }
    }
}

fn stem(p: &Path) -> String {
    p.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The kernels the arguments name, in name order within each argument.
fn kernels(a: &CorrelateArgs) -> Result<Vec<Kernel>, String> {
    let mut out = Vec::new();
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
    for k in &a.kernels {
        if k.is_dir() {
            let crt = k.join("crt.s");
            let crt = if crt.exists() {
                Some(read(&crt)?)
            } else {
                None
            };
            let mut files: Vec<PathBuf> = std::fs::read_dir(k)
                .map_err(|e| format!("{}: {e}", k.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "s") && stem(p) != "crt")
                .collect();
            files.sort();
            if files.is_empty() {
                return Err(format!("{}: no .s kernels", k.display()));
            }
            out.extend(files.into_iter().map(|path| Kernel::Standalone {
                name: stem(&path),
                path,
                crt: crt.clone(),
            }));
        } else {
            out.push(Kernel::Standalone {
                name: stem(k),
                path: k.clone(),
                crt: None,
            });
        }
    }
    for h in &a.hosts {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(h)
            .map_err(|e| format!("{}: {e}", h.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("cmd").is_file())
            .collect();
        dirs.sort();
        if dirs.is_empty() {
            return Err(format!(
                "{}: no subdirectory with a `cmd` file (scripts/correlate-hosts.sh makes them)",
                h.display()
            ));
        }
        out.extend(dirs.into_iter().map(|dir| Kernel::Host {
            name: stem(&dir),
            dir,
        }));
    }
    if !a.only.is_empty() {
        for o in &a.only {
            if !out.iter().any(|k| k.name() == o) {
                return Err(format!("--only {o}: no such kernel"));
            }
        }
        out.retain(|k| a.only.iter().any(|o| o == k.name()));
    }
    Ok(out)
}

/// Run a standalone kernel in-process under the timing model.
fn run_standalone(path: &Path, crt: Option<&str>, cfg: &MachineConfig) -> Result<Counts, String> {
    let is_asm = path.extension().is_some_and(|x| x == "s" || x == "S");
    let prog = if is_asm {
        let src = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let text = format!("{}{src}", crt.unwrap_or(""));
        let elf = weft_asm::assemble(&text, &path.display().to_string())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        weft_simt::load::program_from_elf(&elf)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .0
    } else {
        crate::run_cmd::load_program(path)?.0
    };
    let mut m =
        Machine::new(cfg.machine.clone(), &prog).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut t = TimingModel::new(&cfg.machine, &cfg.timing);
    let end = t.run(&mut m, u64::MAX);
    if end.exit_status() != 0 {
        return Err(format!(
            "{}: the run ended with {} (status {})",
            path.display(),
            end.name(),
            end.exit_status()
        ));
    }
    Ok(Counts {
        instrs: m.report().warp_instructions,
        cycles: m.cycle,
    })
}

/// Run a host program's `cmd` in its directory with weft's libvortex.so set up by
/// `config` (a machine file), and read its last PERF line.
fn run_host(dir: &Path, config: &Path) -> Result<Counts, String> {
    let cmd = std::fs::read_to_string(dir.join("cmd"))
        .map_err(|e| format!("{}: {e}", dir.join("cmd").display()))?;
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(cmd.trim())
        .current_dir(dir)
        .env("WEFT_CONFIG", config)
        .env("WEFT_TIMING", "1")
        // SimX's counters count the last launch only; so do weft's here.
        .env("WEFT_PERF_SCOPE", "launch")
        .env_remove("WEFT_CORES")
        .env_remove("WEFT_WARPS")
        .env_remove("WEFT_THREADS")
        .output()
        .map_err(|e| format!("{}: cannot run `{}`: {e}", dir.display(), cmd.trim()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    std::fs::write(dir.join("weft.log"), &out.stdout)
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "{}: `{}` failed ({}): {}",
            dir.display(),
            cmd.trim(),
            out.status,
            err.lines().next().unwrap_or("")
        ));
    }
    stdout
        .lines()
        .rev()
        .find_map(correlate_ref::perf_line)
        .ok_or_else(|| format!("{}: no `PERF: instrs=…, cycles=…` line", dir.display()))
}

/// The machine file a host program's libvortex.so reads: the whole configuration.
fn machine_file(cfg: &MachineConfig) -> Result<String, String> {
    let mut t = toml::Table::try_from(&cfg.machine).map_err(|e| e.to_string())?;
    let timing = toml::Table::try_from(cfg.timing).map_err(|e| e.to_string())?;
    t.extend(timing);
    toml::to_string(&t).map_err(|e| e.to_string())
}

/// Run `weft correlate`; returns the exit status.
pub fn correlate(a: &CorrelateArgs) -> Result<i32, String> {
    if a.kernels.is_empty() && a.hosts.is_empty() {
        return Err("give kernels to run: --kernels DIR|FILE or --hosts DIR".into());
    }
    let mut margs = a.machine.clone();
    if margs.profile.is_some_and(|p| p != Profile::Vortex) {
        return Err("--profile: the kernels are Vortex programs (leave --profile out)".into());
    }
    margs.profile = Some(Profile::Vortex);
    let cfg = config_from(&margs, true, false)?;
    let reference = correlate_ref::read(&a.reference)?;
    let list = kernels(a)?;
    std::fs::create_dir_all(&a.out).map_err(|e| format!("{}: {e}", a.out.display()))?;
    let config_path = std::path::absolute(a.out.join("weft-config.toml"))
        .map_err(|e| format!("{}: {e}", a.out.display()))?;
    std::fs::write(&config_path, machine_file(&cfg)?)
        .map_err(|e| format!("{}: {e}", config_path.display()))?;
    let mut rows = Vec::new();
    for k in &list {
        let Some(r) = reference.get(k.name()) else {
            return Err(format!(
                "{}: no count for kernel {} (the reference has {})",
                a.reference.display(),
                k.name(),
                reference.keys().cloned().collect::<Vec<_>>().join(", ")
            ));
        };
        let w = match k {
            Kernel::Standalone { path, crt, .. } => run_standalone(path, crt.as_deref(), &cfg)?,
            Kernel::Host { dir, .. } => run_host(dir, &config_path)?,
        };
        rows.push(Row {
            kernel: k.name().to_string(),
            weft_instrs: w.instrs,
            ref_instrs: r.instrs,
            weft_cycles: w.cycles,
            ref_cycles: r.cycles,
            error_percent: 100.0 * (w.cycles as f64 - r.cycles as f64) / r.cycles.max(1) as f64,
        });
    }
    let summary = Summary::of(&rows).ok_or("no kernels to compare")?;
    write_outputs(a, &cfg, &rows, &summary)?;
    print_table(&a.reference_name, &rows, &summary);
    let mut fail = Vec::new();
    if let Some(m) = a.max_mape {
        if summary.mape_percent > m {
            fail.push(format!("MAPE {:.1} % is above {m} %", summary.mape_percent));
        }
    }
    if let Some(m) = a.max_error {
        for r in rows.iter().filter(|r| r.error_percent.abs() > m) {
            fail.push(format!(
                "{}: error {:+.1} % is beyond ±{m} %",
                r.kernel, r.error_percent
            ));
        }
    }
    if a.equal_instrs {
        for r in &rows {
            if r.weft_instrs != r.ref_instrs && !a.instrs_may_differ.contains(&r.kernel) {
                fail.push(format!(
                    "{}: {} instructions, {} on {}",
                    r.kernel, r.weft_instrs, r.ref_instrs, a.reference_name
                ));
            }
        }
    }
    for f in &fail {
        eprintln!("weft: correlate: {f}");
    }
    Ok(if fail.is_empty() { 0 } else { 1 })
}

fn write_outputs(
    a: &CorrelateArgs,
    cfg: &MachineConfig,
    rows: &[Row],
    summary: &Summary,
) -> Result<(), String> {
    let path = |f: &str| a.out.join(f);
    let write = |f: &str, text: String| {
        std::fs::write(path(f), text).map_err(|e| format!("{}: {e}", path(f).display()))
    };
    let mut csv =
        String::from("kernel,weft_instrs,ref_instrs,weft_cycles,ref_cycles,error_percent\n");
    for r in rows {
        csv += &format!(
            "{},{},{},{},{},{:.2}\n",
            r.kernel, r.weft_instrs, r.ref_instrs, r.weft_cycles, r.ref_cycles, r.error_percent
        );
    }
    write("correlation.csv", csv)?;
    let m = &cfg.machine;
    let json = serde_json::json!({
        "reference": a.reference_name,
        "reference_file": a.reference.display().to_string(),
        "shape": format!("{}x{}x{}", m.cores, m.warps, m.lanes),
        "summary": summary,
        "rows": rows,
    });
    write(
        "correlation.json",
        serde_json::to_string_pretty(&json).map_err(|e| e.to_string())? + "\n",
    )?;
    let title = format!(
        "weft vs {} ({}×{}×{}): MAPE {:.1} %, r(log) = {:.3}",
        a.reference_name,
        m.cores,
        m.warps,
        m.lanes,
        summary.mape_percent,
        summary.log_cycles_correlation
    );
    crate::correlate_plot::scatter(&a.out, "correlation", &title, &a.reference_name, rows)
}

fn print_table(reference: &str, rows: &[Row], s: &Summary) {
    println!(
        "{:<22} {:>12} {:>12} {:>12} {:>12} {:>8}",
        "kernel",
        "weft instrs",
        format!("{reference} instrs"),
        "weft cycles",
        format!("{reference} cycles"),
        "error"
    );
    for r in rows {
        println!(
            "{:<22} {:>12} {:>12} {:>12} {:>12} {:>+7.1}%{}",
            r.kernel,
            r.weft_instrs,
            r.ref_instrs,
            r.weft_cycles,
            r.ref_cycles,
            r.error_percent,
            if r.weft_instrs == r.ref_instrs {
                ""
            } else {
                "  (instructions differ)"
            }
        );
    }
    println!(
        "{} kernels: MAPE {:.1} %, worst {:.1} % ({}), correlation of log cycles {:.4}, \
         instruction counts equal on {} of {}",
        s.kernels,
        s.mape_percent,
        s.worst_error_percent,
        s.worst_kernel,
        s.log_cycles_correlation,
        s.instrs_equal,
        s.kernels
    );
}

//! `weft sweep`: the Vortex paper's experiment, and any other parameter sweep, under the
//! timing model. Every combination of the axes (`--warps`, `--lanes`, and each
//! `--set KEY=a,b,c`) is one independent job with its own JSON result under `OUT/jobs/`; jobs
//! run in parallel on the host's cores with a progress bar, or one at a time with
//! `--job K` (for a batch scheduler's job array), and `--collect` builds the table, CSV, JSON
//! and charts from the job files. Every job must end with status 0 and the same console
//! output as the others (the kernel's answer does not depend on the machine's shape).

use crate::run_cmd::load_program;
use crate::sweep_job::{job_path, run_job, write_json, JobResult, JobSpec};
use clap::Args;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;
use weft_simt::Config;

/// The default kernel: the 32×32 matrix multiply of the Vortex paper's Figures 7 and 8.
const MATMUL: &str = include_str!("../../../examples/matmul.s");

/// Flags of `weft sweep`.
#[derive(Args, Debug)]
pub struct SweepArgs {
    /// Kernel (ELF, assembly or C source); default the built-in 32×32 matrix multiply
    /// (examples/matmul.s).
    #[arg(long, value_name = "FILE")]
    pub kernel: Option<PathBuf>,
    /// Warps per core to sweep.
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16,32")]
    pub warps: Vec<usize>,
    /// Lanes (threads per warp) to sweep.
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16,32")]
    pub lanes: Vec<usize>,
    /// Another axis: a configuration key and its values (`--set l1.size=8192,16384`), or a
    /// fixed setting (`--set pipeline.scheduler=gto`). Repeatable.
    #[arg(long = "set", value_name = "KEY=A,B,...")]
    pub set: Vec<String>,
    /// Base machine configuration (TOML); the axes override it. Timing is always on.
    #[arg(long, value_name = "FILE.toml")]
    pub config: Option<PathBuf>,
    /// Output directory (results.csv, results.json, speedup and cycles charts as PNG and
    /// SVG, and jobs/job-K.json).
    #[arg(short = 'o', long, value_name = "DIR", default_value = "sweep")]
    pub out: PathBuf,
    /// Host threads (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Run only job K (0-based; see --list) and write its JSON: one task of a job array.
    #[arg(long, value_name = "K")]
    pub job: Option<usize>,
    /// Print the jobs (index and settings) and exit.
    #[arg(long)]
    pub list: bool,
    /// Build the table, CSV, JSON and charts from OUT/jobs/*.json without running.
    #[arg(long)]
    pub collect: bool,
    /// Cycle bound per job.
    #[arg(long)]
    pub max_cycles: Option<u64>,
}

/// Every job of the sweep, in order: the `--set` axes outermost, then warps, then lanes.
fn jobs(a: &SweepArgs) -> Result<Vec<JobSpec>, String> {
    let mut axes: Vec<(String, Vec<String>)> = Vec::new();
    for s in &a.set {
        let (k, v) = s
            .split_once('=')
            .ok_or_else(|| format!("--set {s}: expected KEY=VALUE[,VALUE...]"))?;
        axes.push((
            k.trim().into(),
            v.split(',').map(|x| x.trim().into()).collect(),
        ));
    }
    if a.warps.is_empty() || a.lanes.is_empty() {
        return Err("--warps and --lanes need at least one value".into());
    }
    let mut combos: Vec<BTreeMap<String, String>> = vec![BTreeMap::new()];
    for (k, vals) in &axes {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                vals.iter().map(move |v| {
                    let mut c = c.clone();
                    c.insert(k.clone(), v.clone());
                    c
                })
            })
            .collect();
    }
    let mut out = Vec::new();
    for settings in combos {
        for &warps in &a.warps {
            for &lanes in &a.lanes {
                out.push(JobSpec {
                    index: out.len(),
                    warps,
                    lanes,
                    settings: settings.clone(),
                });
            }
        }
    }
    Ok(out)
}

/// The configuration of one job.
fn job_config(a: &SweepArgs, base: &str, spec: &JobSpec) -> Result<Config, String> {
    let mut sets: Vec<String> = spec
        .settings
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    sets.push(format!("warps={}", spec.warps));
    sets.push(format!("lanes={}", spec.lanes));
    sets.push("timing=true".into());
    if let Some(c) = a.max_cycles {
        sets.push(format!("max_cycles={c}"));
    }
    let text = crate::config_set::apply(base, &sets)?;
    Config::from_toml(&text).map_err(|e| format!("job {}: configuration: {e}", spec.index))
}

/// Run `weft sweep`; returns the exit status.
pub fn sweep(a: &SweepArgs) -> Result<i32, String> {
    let specs = jobs(a)?;
    if a.list {
        for s in &specs {
            println!(
                "{:>4}  warps={} lanes={} {:?}",
                s.index, s.warps, s.lanes, s.settings
            );
        }
        return Ok(0);
    }
    let jobs_dir = a.out.join("jobs");
    fs::create_dir_all(&jobs_dir).map_err(|e| format!("{}: {e}", jobs_dir.display()))?;
    if !a.collect {
        let base = match &a.config {
            Some(p) => fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?,
            None => String::new(),
        };
        let prog = match &a.kernel {
            Some(p) => load_program(p)?.0,
            None => {
                let elf = weft_asm::assemble(MATMUL, "matmul.s").map_err(|e| e.to_string())?;
                weft_simt::load::program_from_elf(&elf)
                    .map_err(|e| e.to_string())?
                    .0
            }
        };
        let todo: Vec<&JobSpec> = match a.job {
            Some(k) => vec![specs.get(k).ok_or_else(|| {
                format!(
                    "--job {k}: the sweep has {} jobs (0..{})",
                    specs.len(),
                    specs.len()
                )
            })?],
            None => specs.iter().collect(),
        };
        // Check every configuration before running any.
        let cfgs: Vec<Config> = todo
            .iter()
            .map(|s| job_config(a, &base, s))
            .collect::<Result<_, _>>()?;
        let bar = crate::progress::bar(todo.len() as u64, "configurations");
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(a.jobs.unwrap_or(0))
            .build()
            .map_err(|e| e.to_string())?;
        let results: Vec<Result<(), String>> = pool.install(|| {
            todo.par_iter()
                .zip(cfgs.into_par_iter())
                .map(|(spec, cfg)| {
                    let r = run_job(&prog, cfg, spec)?;
                    write_json(&job_path(&a.out, spec.index), &r)?;
                    bar.inc(1);
                    Ok(())
                })
                .collect()
        });
        bar.finish_and_clear();
        for r in results {
            r?;
        }
        if a.job.is_some() {
            return Ok(0);
        }
    }
    collect(a, &specs)
}

/// Read every job's result, check them, and write the table, CSV, JSON and charts.
fn collect(a: &SweepArgs, specs: &[JobSpec]) -> Result<i32, String> {
    let mut results = Vec::new();
    let mut missing = Vec::new();
    for s in specs {
        let p = job_path(&a.out, s.index);
        match fs::read_to_string(&p) {
            Ok(text) => {
                let r: JobResult =
                    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))?;
                if r.spec != *s {
                    return Err(format!(
                        "{}: was written by a different sweep (job {} is {:?})",
                        p.display(),
                        s.index,
                        s
                    ));
                }
                results.push(r);
            }
            Err(_) => missing.push(s.index),
        }
    }
    if !missing.is_empty() {
        return Err(format!(
            "{} of {} jobs have no result in {} (missing: {:?}); run them with --job K",
            missing.len(),
            specs.len(),
            a.out.join("jobs").display(),
            missing
        ));
    }
    let bad: Vec<String> = results
        .iter()
        .filter(|r| r.exit_status != 0 || r.console != results[0].console)
        .map(|r| {
            format!(
                "job {} (warps={} lanes={} {:?}) ended {} with status {}, console {:?}",
                r.spec.index,
                r.spec.warps,
                r.spec.lanes,
                r.spec.settings,
                r.end,
                r.exit_status,
                r.console
            )
        })
        .collect();
    for r in 0..results.len() {
        let base = results
            .iter()
            .find(|b| {
                b.spec.warps == 1
                    && b.spec.lanes == 1
                    && b.spec.settings == results[r].spec.settings
            })
            .or_else(|| {
                results
                    .iter()
                    .find(|b| b.spec.settings == results[r].spec.settings)
            })
            .map(|b| b.measured());
        results[r].speedup = base.map(|b| b as f64 / results[r].measured().max(1) as f64);
    }
    write_json(&a.out.join("results.json"), &results)?;
    let mut csv = String::from(
        "index,warps,lanes,settings,end,exit_status,cycles,kernel_cycles,speedup,warp_instructions,thread_instructions,ipc,simd_efficiency,l1_hit_rate,dram_bytes\n",
    );
    for r in &results {
        let settings: Vec<String> = r
            .spec
            .settings
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{},{},{:.4},{},{},{:.4},{:.4},{:.4},{}",
            r.spec.index,
            r.spec.warps,
            r.spec.lanes,
            settings.join(";"),
            r.end,
            r.exit_status,
            r.cycles,
            r.kernel_cycles.map(|c| c.to_string()).unwrap_or_default(),
            r.speedup.unwrap_or(0.0),
            r.warp_instructions,
            r.thread_instructions,
            r.ipc,
            r.simd_efficiency,
            r.l1_hit_rate,
            r.dram_bytes
        );
    }
    let csv_path = a.out.join("results.csv");
    fs::write(&csv_path, csv).map_err(|e| format!("{}: {e}", csv_path.display()))?;
    print!("{}", table(&results));
    crate::sweep_chart::charts(&a.out, &results)?;
    crate::wrote::wrote(
        &a.out,
        "results.csv, results.json, speedup.png/.svg, cycles.png/.svg, jobs/",
    );
    if !bad.is_empty() {
        return Err(format!(
            "{} jobs did not give the same answer as job 0:\n  {}",
            bad.len(),
            bad.join("\n  ")
        ));
    }
    Ok(0)
}

/// The table: per group of other settings, warps down and lanes across, cycles and speedup.
fn table(results: &[JobResult]) -> String {
    let mut s = String::new();
    let mut groups: Vec<&BTreeMap<String, String>> = Vec::new();
    for r in results {
        if !groups.contains(&&r.spec.settings) {
            groups.push(&r.spec.settings);
        }
    }
    for g in groups {
        let rs: Vec<&JobResult> = results.iter().filter(|r| &r.spec.settings == g).collect();
        let mut lanes: Vec<usize> = rs.iter().map(|r| r.spec.lanes).collect();
        lanes.dedup();
        lanes.sort();
        lanes.dedup();
        let mut warps: Vec<usize> = rs.iter().map(|r| r.spec.warps).collect();
        warps.sort();
        warps.dedup();
        if !g.is_empty() {
            let _ = writeln!(s, "{g:?}");
        }
        let _ = write!(s, "{:>12}", "warps\\lanes");
        for l in &lanes {
            let _ = write!(s, " {:>18}", l);
        }
        let _ = writeln!(s);
        for w in &warps {
            let _ = write!(s, "{:>12}", w);
            for l in &lanes {
                match rs.iter().find(|r| r.spec.warps == *w && r.spec.lanes == *l) {
                    Some(r) => {
                        let _ = write!(
                            s,
                            " {:>10} {:>6.2}×",
                            r.measured(),
                            r.speedup.unwrap_or(0.0)
                        );
                    }
                    None => {
                        let _ = write!(s, " {:>18}", "");
                    }
                }
            }
            let _ = writeln!(s);
        }
        let what = if rs.iter().any(|r| r.kernel_cycles.is_some()) {
            "cycles of the kernel launches, main's serial part left out"
        } else {
            "cycles"
        };
        // The speedup's base: the group's 1 × 1 job, or its first job when 1 × 1 was not run.
        let base = rs
            .iter()
            .find(|r| r.spec.warps == 1 && r.spec.lanes == 1)
            .or(rs.first());
        let _ = match base {
            Some(b) if b.spec.warps == 1 && b.spec.lanes == 1 => {
                writeln!(s, "({what}, and speedup over 1 warp × 1 lane)")
            }
            Some(b) => writeln!(
                s,
                "({what}, and speedup over {} warp{} × {} lane{}: 1 warp × 1 lane was not swept)",
                b.spec.warps,
                if b.spec.warps == 1 { "" } else { "s" },
                b.spec.lanes,
                if b.spec.lanes == 1 { "" } else { "s" }
            ),
            None => Ok(()),
        };
    }
    s
}

//! One job of `weft sweep`: its settings, running it under the timing model, and its result
//! (the JSON file under `OUT/jobs/` that `--collect` reads back and the charts draw).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use weft_simt::{Config, Machine, Program};

/// One job's settings: warps, lanes, and the other axes' values.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct JobSpec {
    /// Index in the sweep.
    pub index: usize,
    /// Warps per core.
    pub warps: usize,
    /// Lanes per warp.
    pub lanes: usize,
    /// Other keys, as written on the command line.
    pub settings: BTreeMap<String, String>,
}

/// One job's result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JobResult {
    /// What ran.
    pub spec: JobSpec,
    /// How it ended (`exit`, `all-halted`, …) and its exit status.
    pub end: String,
    pub exit_status: i32,
    /// Console output.
    pub console: String,
    /// Cycles of the whole run.
    pub cycles: u64,
    /// Cycles of the program's kernel launches (`weft_launch`), summed, when it made any:
    /// what the sweep compares then, apart from `main`'s serial set-up and checking.
    #[serde(default)]
    pub kernel_cycles: Option<u64>,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    pub ipc: f64,
    pub simd_efficiency: f64,
    pub l1_hit_rate: f64,
    pub dram_bytes: u64,
    /// Issue slots lost, by reason.
    pub stalls: BTreeMap<String, u64>,
    /// Cycles of the 1 warp × 1 lane job with the same other settings, divided by this
    /// job's (filled in when the sweep is collected).
    #[serde(default)]
    pub speedup: Option<f64>,
}

impl JobResult {
    /// The cycles the sweep compares: the kernel launches', or the whole run's.
    pub fn measured(&self) -> u64 {
        self.kernel_cycles.unwrap_or(self.cycles)
    }
}

/// Run one job.
pub fn run_job(prog: &Program, cfg: Config, spec: &JobSpec) -> Result<JobResult, String> {
    let mut m = Machine::new(cfg.clone(), prog).map_err(|e| format!("job {}: {e}", spec.index))?;
    let mut t = weft_timing::TimingModel::new(&cfg);
    let end = t.run(&mut m, u64::MAX);
    let r = m.report();
    let tr = t.report(&m);
    Ok(JobResult {
        spec: spec.clone(),
        end: end.name().into(),
        exit_status: end.exit_status(),
        console: String::from_utf8_lossy(m.console()).into_owned(),
        cycles: tr.cycles,
        kernel_cycles: (!r.launches.is_empty()).then(|| r.launches.iter().map(|l| l.cycles).sum()),
        warp_instructions: r.warp_instructions,
        thread_instructions: r.thread_instructions,
        ipc: r.ipc,
        simd_efficiency: r.simd_efficiency,
        l1_hit_rate: tr.l1_hit_rate,
        dram_bytes: tr.memory.dram_read_bytes + tr.memory.dram_write_bytes,
        stalls: tr.stalls.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        speedup: None,
    })
}

pub fn job_path(out: &Path, k: usize) -> PathBuf {
    out.join("jobs").join(format!("job-{k:04}.json"))
}

pub fn write_json<T: Serialize>(path: &Path, v: &T) -> Result<(), String> {
    let text = serde_json::to_string_pretty(v).map_err(|e| e.to_string())?;
    fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))
}

//! How a run is reported, the same for every machine (`weft run`, `--sp2a`, `weft demo`):
//! the line on stderr for an end other than an exit, and the `--stats-json` file.

use std::fs;
use std::path::Path;
use weft_simt::{Device, RunEnd};

/// Say on stderr how a run ended, if not by exiting or halting (`hint` tells how to raise
/// the cycle bound). The same words for both machines.
pub fn report_end(end: &RunEnd, hint: &str) {
    match end {
        RunEnd::Fault(f) => eprintln!("weft: {f}"),
        RunEnd::CycleLimit(c) => {
            eprintln!("weft: stopped at the cycle bound ({c} cycles); {hint}")
        }
        RunEnd::Deadlock(why) => eprintln!("weft: deadlock: {why}"),
        RunEnd::NoExit => eprintln!(
            "weft: every warp halted without writing the exit word (required by --require-exit)"
        ),
        RunEnd::Exit(_) | RunEnd::AllHalted => {}
    }
}

/// Write `--stats-json`: the machine's statistics with the run's `exit_status` and `end`.
pub fn write_stats_json(path: &Path, dev: &dyn Device, end: &RunEnd) -> Result<(), String> {
    write_stats_json_with(path, dev, end, None)
}

/// [`write_stats_json`] with one more top-level key (the timing model's report).
pub fn write_stats_json_with(
    path: &Path,
    dev: &dyn Device,
    end: &RunEnd,
    extra: Option<(&str, serde_json::Value)>,
) -> Result<(), String> {
    let mut v = dev.stats_json();
    if let Some((k, x)) = extra {
        v[k] = x;
    }
    v["exit_status"] = end.exit_status().into();
    v["end"] = end.name().into();
    let text = serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?;
    fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
    crate::wrote::wrote(path, "statistics");
    Ok(())
}

//! The debugging flags of `weft run`: trace export (`--trace-json`, `--vcd`, `--trace-from`,
//! `--trace-to`; `weft-view`), the GDB stub (`--gdb`; `weft-gdb`), and the whole-machine
//! state printed after a fault or deadlock.

use clap::Args;
use std::path::PathBuf;
use weft_simt::{Machine, RunEnd};
use weft_view::{TraceOptions, Traces, Window};

/// Debugging flags of `weft run`.
#[derive(Args, Debug, Default)]
pub struct DebugArgs {
    /// Write a Chrome trace-event JSON file (open it in ui.perfetto.dev): a track per core and
    /// warp with divergent regions, barriers and faults.
    #[arg(long, value_name = "FILE")]
    pub trace_json: Option<PathBuf>,
    /// Write a VCD file (GTKWave, Surfer): per warp pc, thread mask, stack depth and state.
    #[arg(long, value_name = "FILE")]
    pub vcd: Option<PathBuf>,
    /// First cycle the trace files cover.
    #[arg(long, value_name = "N")]
    pub trace_from: Option<u64>,
    /// First cycle the trace files no longer cover.
    #[arg(long, value_name = "N")]
    pub trace_to: Option<u64>,
    /// Wait for a GDB connection on ADDR:PORT (e.g. 127.0.0.1:3333) and run under its
    /// control: each warp is a thread.
    #[arg(long, value_name = "ADDR:PORT")]
    pub gdb: Option<String>,
    /// After a fault, also print every warp's state (pc, mask, divergence stack, barrier
    /// waits) below the one-line fault message. A deadlock always prints it.
    #[arg(long)]
    pub report_warps: bool,
}

impl DebugArgs {
    /// True if any debugging flag is given.
    pub fn any(&self) -> bool {
        self.trace_json.is_some()
            || self.vcd.is_some()
            || self.trace_from.is_some()
            || self.trace_to.is_some()
            || self.gdb.is_some()
    }
}

/// Open and attach the trace files the flags ask for.
pub fn attach(m: &mut Machine, a: &DebugArgs) -> Result<Traces, String> {
    let o = TraceOptions {
        json: a.trace_json.clone(),
        vcd: a.vcd.clone(),
        window: Window {
            from: a.trace_from.unwrap_or(0),
            to: a.trace_to.unwrap_or(u64::MAX),
        },
    };
    if !o.any() && (a.trace_from.is_some() || a.trace_to.is_some()) {
        return Err("--trace-from and --trace-to need --trace-json or --vcd".into());
    }
    weft_view::attach(m, &o)
}

/// Run the machine: to its end, or under a GDB client's control with `--gdb`.
pub fn run(m: &mut Machine, a: &DebugArgs) -> Result<RunEnd, String> {
    match &a.gdb {
        Some(addr) => weft_gdb::serve(m, addr),
        None => Ok(m.run()),
    }
}

/// After a deadlock (or a fault, with `--report-warps`), every warp's state on stderr. A
/// fault's own report stays one line unless asked (DESIGN §2.5).
pub fn report_state(end: &RunEnd, m: &Machine, a: &DebugArgs) {
    let fault = matches!(end, RunEnd::Fault(_)) && a.report_warps;
    if fault || matches!(end, RunEnd::Deadlock(_)) {
        eprint!("{}", weft_view::state::machine_report(m));
    }
}

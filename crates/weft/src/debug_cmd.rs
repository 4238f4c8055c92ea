//! The debugging flags of `weft run`: trace export (`--trace-json`, `--vcd`, `--trace-from`,
//! `--trace-to`; `weft-view`; in timing runs also `--konata` and the stall slices), the GDB
//! stub (`--gdb`; `weft-gdb`), and the whole-machine state printed after a fault or deadlock.

use clap::Args;
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;
use weft_isa::Inst;
use weft_simt::{Machine, RunEnd};
use weft_timing::{Stages, TimingModel, TimingObserver, Why};
use weft_view::{ChromeTrace, KonataTrace, TraceOptions, Traces, Window};

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
    /// With --timing: write a Konata pipeline view (each warp-instruction's fetch, issue and
    /// completion) to FILE.
    #[arg(long, value_name = "FILE")]
    pub konata: Option<PathBuf>,
    /// After a fault, also print every warp's state (pc, mask, divergence stack, barrier
    /// waits) below the one-line fault message. A deadlock always prints it.
    #[arg(long)]
    pub report_warps: bool,
}

impl DebugArgs {
    /// The cycle window of the trace files.
    fn window(&self) -> Window {
        Window {
            from: self.trace_from.unwrap_or(0),
            to: self.trace_to.unwrap_or(u64::MAX),
        }
    }

    /// True if any debugging flag is given.
    pub fn any(&self) -> bool {
        self.trace_json.is_some()
            || self.vcd.is_some()
            || self.trace_from.is_some()
            || self.trace_to.is_some()
            || self.gdb.is_some()
            || self.konata.is_some()
    }
}

/// Feeds the timing model's events to the trace writers: lost issue slots become slices on
/// each core's "issue (stalls)" track of the Chrome trace, instructions rows of the Konata
/// view.
struct TimingTraces {
    chrome: Option<Rc<RefCell<ChromeTrace>>>,
    konata: Option<Rc<RefCell<KonataTrace>>>,
}

impl TimingObserver for TimingTraces {
    fn instruction(&mut self, core: usize, warp: usize, pc: u32, inst: &Inst, t: Stages) {
        if let Some(k) = &self.konata {
            let text = inst.text(Some(pc));
            k.borrow_mut()
                .instruction(core, warp, pc, &text, t.fetch, t.issue, t.done);
        }
    }
    fn stall(&mut self, core: usize, why: Why, from: u64, to: u64) {
        if let Some(c) = &self.chrome {
            c.borrow_mut().core_slice(core, why.name(), from, to);
        }
    }
}

/// With a timing model: attach the stall slices to the Chrome trace and open the Konata
/// file. `--konata` without `--timing` is an error.
pub fn attach_timing(
    m: &Machine,
    timing: Option<&mut TimingModel>,
    traces: &Traces,
    a: &DebugArgs,
) -> Result<Option<Rc<RefCell<KonataTrace>>>, String> {
    let Some(t) = timing else {
        if a.konata.is_some() {
            return Err("--konata needs the timing model (--timing)".into());
        }
        return Ok(None);
    };
    let window = a.window();
    let konata = match &a.konata {
        Some(p) => {
            let f = std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()))?;
            let w = std::io::BufWriter::with_capacity(1 << 16, f);
            Some(Rc::new(RefCell::new(KonataTrace::new(
                Box::new(w),
                m.cfg.warps,
                window,
            ))))
        }
        None => None,
    };
    let chrome = traces.chrome();
    if chrome.is_some() || konata.is_some() {
        t.add_observer(Box::new(TimingTraces {
            chrome,
            konata: konata.clone(),
        }));
    }
    Ok(konata)
}

/// Finish the Konata file, reporting a write error.
pub fn close_konata(k: Option<Rc<RefCell<KonataTrace>>>, a: &DebugArgs) -> Result<(), String> {
    match (k, &a.konata) {
        (Some(k), Some(p)) => k
            .borrow_mut()
            .close()
            .map_err(|e| format!("{}: {e}", p.display())),
        _ => Ok(()),
    }
}

/// Name the trace files written (after they are closed).
pub fn name_outputs(a: &DebugArgs) {
    for (p, what) in [
        (&a.trace_json, "Perfetto trace"),
        (&a.vcd, "VCD waveform"),
        (&a.konata, "Konata pipeline view"),
    ] {
        if let Some(p) = p {
            crate::wrote::wrote(p, what);
        }
    }
}

/// Open and attach the trace files the flags ask for.
pub fn attach(m: &mut Machine, a: &DebugArgs) -> Result<Traces, String> {
    let o = TraceOptions {
        json: a.trace_json.clone(),
        vcd: a.vcd.clone(),
        window: a.window(),
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
/// fault's own report stays one line unless asked (docs/isa.md, faults).
pub fn report_state(end: &RunEnd, m: &Machine, a: &DebugArgs) {
    let fault = matches!(end, RunEnd::Fault(_)) && a.report_warps;
    if fault || matches!(end, RunEnd::Deadlock(_)) {
        eprint!("{}", weft_view::state::machine_report(m));
    }
}

//! weft-view: seeing inside a run of the functional SIMT model.
//!
//! - [`chrome`]: Chrome trace-event JSON for ui.perfetto.dev (`weft run --trace-json`): a
//!   track per core and warp, slices for divergent regions (with masks), barriers, faults.
//! - [`vcd`]: a value change dump for GTKWave or Surfer (`weft run --vcd`): per warp the pc,
//!   thread mask, stack depth and state each cycle.
//! - [`state`]: the whole machine as text — every warp's pc, mask, divergence stack and barrier
//!   wait — for fault and deadlock reports and the GDB stub's `monitor` commands.
//!
//! Both traces are [`Observer`]s of the machine's step records, written as the run goes
//! (bounded memory), optionally over a cycle window. [`attach`] opens the files and attaches
//! them; [`Traces::close`] finishes them and reports any write error.
//!
//! - [`konata`]: Konata pipeline views of a timing run (`weft run --timing --konata`); the
//!   timing model's stall slices go into the Chrome trace's per-core "issue" track
//!   ([`ChromeTrace::core_slice`]). Both are fed by a `weft_timing::TimingObserver` in the
//!   command (this crate does not depend on the timing model).

pub mod chrome;
pub mod konata;
pub mod state;
pub mod vcd;

pub use chrome::{ChromeTrace, Window};
pub use konata::KonataTrace;
pub use vcd::VcdTrace;

use std::cell::RefCell;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use weft_simt::{Machine, Observer, StepRecord};

/// Which traces to write.
#[derive(Clone, Debug, Default)]
pub struct TraceOptions {
    /// Chrome trace-event JSON file.
    pub json: Option<PathBuf>,
    /// VCD file.
    pub vcd: Option<PathBuf>,
    /// The cycle window.
    pub window: Window,
}

impl TraceOptions {
    /// True if any trace is asked for.
    pub fn any(&self) -> bool {
        self.json.is_some() || self.vcd.is_some()
    }
}

/// An observer shared between the machine (which owns its observers) and [`Traces`], which
/// closes it after the run.
struct Shared<T>(Rc<RefCell<T>>);

impl<T: Observer> Observer for Shared<T> {
    fn step(&mut self, m: &Machine, r: &StepRecord) {
        self.0.borrow_mut().step(m, r);
    }
    fn finish(&mut self) {
        self.0.borrow_mut().finish();
    }
}

/// The traces attached to a machine.
#[derive(Default)]
pub struct Traces {
    chrome: Option<(PathBuf, Rc<RefCell<ChromeTrace>>)>,
    vcd: Option<(PathBuf, Rc<RefCell<VcdTrace>>)>,
}

fn create(path: &Path) -> Result<Box<BufWriter<File>>, String> {
    let f = File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Box::new(BufWriter::with_capacity(1 << 16, f)))
}

/// Open the trace files `o` names and attach their writers to `m`. An unwritable file or an
/// empty window is an error (one message naming it).
pub fn attach(m: &mut Machine, o: &TraceOptions) -> Result<Traces, String> {
    if o.window.from >= o.window.to {
        return Err(format!(
            "--trace-from {} must be below --trace-to {}",
            o.window.from, o.window.to
        ));
    }
    let mut t = Traces::default();
    if let Some(p) = &o.json {
        let w = Rc::new(RefCell::new(ChromeTrace::new(m, create(p)?, o.window)));
        m.add_observer(Box::new(Shared(w.clone())));
        t.chrome = Some((p.clone(), w));
    }
    if let Some(p) = &o.vcd {
        let w = Rc::new(RefCell::new(VcdTrace::new(m, create(p)?, o.window)));
        m.add_observer(Box::new(Shared(w.clone())));
        t.vcd = Some((p.clone(), w));
    }
    Ok(t)
}

impl Traces {
    /// The trace-event writer, if one is attached (a timing model adds its stall slices
    /// through it).
    pub fn chrome(&self) -> Option<Rc<RefCell<ChromeTrace>>> {
        self.chrome.as_ref().map(|(_, w)| w.clone())
    }

    /// Finish every trace at the machine's current cycle (open slices end there) and flush.
    pub fn close(&self, m: &Machine) -> Result<(), String> {
        if let Some((p, w)) = &self.chrome {
            w.borrow_mut()
                .close_all(m.cycle)
                .map_err(|e| format!("{}: {e}", p.display()))?;
        }
        if let Some((p, w)) = &self.vcd {
            w.borrow_mut()
                .close_at(m.cycle)
                .map_err(|e| format!("{}: {e}", p.display()))?;
        }
        Ok(())
    }
}

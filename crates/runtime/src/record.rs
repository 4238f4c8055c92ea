//! Recording one launch: its trace (the records `weft run --trace` prints, one per
//! warp-instruction) and the `weft view` step-through page of it (`weft_view::web`, the same
//! page `weft view` writes). A launch asks for it with [`crate::LaunchOptions::record`]; the
//! device then attaches one recorder to its machine, which records only the launches that
//! asked, up to their bound of warp-instructions. The machine keeps an attached observer for
//! good, so from then on the device runs on the interpreter (the same results and cycles as
//! the block engine; slower).

use std::cell::RefCell;
use std::rc::Rc;
use weft_simt::{Machine, Observer, StepRecord};
use weft_view::web::{PageInfo, Recorder};

/// One warp-instruction of a recorded launch: the columns of a `weft run --trace` line
/// (docs/cli.md), before the instruction executes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep {
    /// The cycle it issued in.
    pub cycle: u64,
    /// Core.
    pub core: usize,
    /// Warp of the core.
    pub warp: usize,
    /// The thread mask it executed with.
    pub mask: u32,
    /// Its address.
    pub pc: u32,
    /// The nearest symbol at or below pc (`name+0xoff`), if any.
    pub symbol: Option<String>,
    /// The instruction as the disassembler prints it.
    pub inst: String,
    /// The step as `weft run --trace` prints it (one line, with its newline).
    pub line: String,
}

/// A recorded launch: its trace, and its step-through page.
#[derive(Clone, Debug)]
pub struct Recording {
    /// The launch's warp-instructions in the order they issued (at most the bound).
    pub trace: Vec<TraceStep>,
    /// Warp-instructions the launch issued past the bound (not recorded).
    pub dropped: u64,
    /// The `weft view` page of the launch: one self-contained HTML document.
    pub page: String,
}

/// What is being recorded now: the page's recorder and the trace so far.
pub(crate) struct Live {
    view: Recorder,
    trace: Vec<TraceStep>,
    max_steps: usize,
    dropped: u64,
}

/// The observer the device attaches once: it records while a [`Live`] recording is set.
#[derive(Clone, Default)]
pub(crate) struct Slot(Rc<RefCell<Option<Live>>>);

impl Observer for Slot {
    fn step(&mut self, m: &Machine, r: &StepRecord) {
        let mut live = self.0.borrow_mut();
        let Some(live) = live.as_mut() else {
            return;
        };
        live.view.step(m, r);
        if live.trace.len() < live.max_steps {
            live.trace.push(TraceStep {
                cycle: r.cycle,
                core: r.core,
                warp: r.warp,
                mask: r.mask,
                pc: r.pc,
                symbol: m.symbolize(r.pc),
                inst: r.inst.text(Some(r.pc)),
                line: weft_simt::TextTrace::line(m, r),
            });
        } else {
            live.dropped += 1;
        }
    }
}

impl Slot {
    /// Start recording machine `m` as it is now (a launch's cores just started), keeping at
    /// most `max_steps` warp-instructions.
    pub(crate) fn start(&self, m: &Machine, max_steps: usize) {
        *self.0.borrow_mut() = Some(Live {
            view: Recorder::new(m, max_steps),
            trace: Vec::new(),
            max_steps,
            dropped: 0,
        });
    }

    /// Stop recording: the launch's recording, its page built from machine `m` as the launch
    /// left it (`kernel` names it, `end` says how it ended; `exec` and `lines` are its
    /// program's code ranges and line table).
    pub(crate) fn finish(
        &self,
        m: &Machine,
        kernel: &str,
        end: String,
        exec: &[(u32, u32)],
        lines: Option<&weft_view::dwarf::LineTable>,
    ) -> Option<Recording> {
        let live = self.0.borrow_mut().take()?;
        let info = PageInfo {
            program: kernel.to_string(),
            end,
            truncated: live.dropped > 0,
        };
        let page = weft_view::web::page(m, &live.view, &info, exec, lines);
        Some(Recording {
            trace: live.trace,
            dropped: live.dropped,
            page,
        })
    }
}

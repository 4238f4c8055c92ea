//! The text trace (`--trace`): an [`Observer`] that writes one line per warp-instruction,
//! `cycle core warp mask pc <symbol>  instruction`.

use crate::machine::{Machine, Observer};
use crate::record::StepRecord;
use std::io::Write;

/// The text trace observer.
pub struct TextTrace {
    out: Box<dyn Write>,
}

impl TextTrace {
    /// A trace written to `out`.
    pub fn new(out: Box<dyn Write>) -> TextTrace {
        TextTrace { out }
    }

    /// The line for one record.
    pub fn line(m: &Machine, r: &StepRecord) -> String {
        let sym = m
            .symbolize(r.pc)
            .map(|s| format!(" <{s}>"))
            .unwrap_or_default();
        format!(
            "{:>10} c{} w{} {:08x} {:08x}{}  {}\n",
            r.cycle,
            r.core,
            r.warp,
            r.mask,
            r.pc,
            sym,
            r.inst.text(Some(r.pc))
        )
    }
}

impl Observer for TextTrace {
    fn step(&mut self, m: &Machine, r: &StepRecord) {
        let _ = self.out.write_all(TextTrace::line(m, r).as_bytes());
    }
    fn finish(&mut self) {
        let _ = self.out.flush();
    }
}

//! Konata pipeline views (`weft run --timing --konata FILE`): each warp-instruction as a row
//! with its stages — `F` from fetch to issue (waiting in the warp's front end: I-cache,
//! scoreboard, unit, barrier), `X` from issue until its result or memory access is done —
//! and one lane per warp. The file is the Kanata log format (version 0004) that the Konata
//! viewer opens (github.com/shioyadan/Konata).
//!
//! Events are written in cycle order as the run goes. An instruction's fetch can lie in the
//! past when it issues, so events wait in a small queue until no later instruction can
//! produce an earlier one: fetches older than `LOOKBACK` cycles before the newest issue are
//! drawn from that point (memory stays bounded on any run).

use crate::chrome::Window;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::{self, Write};

/// How far back a fetch may be drawn, in cycles before the newest issue.
pub const LOOKBACK: u64 = 4096;

/// The Konata writer. Feed it from a timing model observer.
pub struct KonataTrace {
    out: Box<dyn Write>,
    window: Window,
    warps: usize,
    /// Pending lines: (cycle, instruction id, order within the instruction, text).
    queue: BinaryHeap<Reverse<(u64, u64, u8, String)>>,
    next_id: u64,
    /// Cycle of the last line written (`None` before the first).
    at: Option<u64>,
    /// Nothing earlier than this may still be queued.
    floor: u64,
    error: Option<io::Error>,
}

impl KonataTrace {
    /// A writer to `out` for a machine of `warps` warps per core, tracing `window`.
    pub fn new(out: Box<dyn Write>, warps: usize, window: Window) -> KonataTrace {
        let mut k = KonataTrace {
            out,
            window,
            warps,
            queue: BinaryHeap::new(),
            next_id: 0,
            at: None,
            floor: 0,
            error: None,
        };
        k.raw("Kanata\t0004\n");
        k
    }

    fn raw(&mut self, s: &str) {
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(s.as_bytes()) {
                self.error = Some(e);
            }
        }
    }

    /// Warp `warp` of core `core` had the instruction `text` at `pc` from cycle `fetch`,
    /// issued it at `issue`, done at `done` (> `issue`).
    #[allow(clippy::too_many_arguments)]
    pub fn instruction(
        &mut self,
        core: usize,
        warp: usize,
        pc: u32,
        text: &str,
        fetch: u64,
        issue: u64,
        done: u64,
    ) {
        if !self.window.contains(issue) {
            return;
        }
        // Everything before the lookback horizon is final: write it.
        let horizon = issue.saturating_sub(LOOKBACK);
        self.flush_before(horizon);
        self.floor = self.floor.max(horizon);
        let fetch = fetch.max(self.floor).min(issue);
        let done = done.max(issue + 1);
        let id = self.next_id;
        self.next_id += 1;
        let tid = core * self.warps + warp;
        let lines = [
            (fetch, format!("I\t{id}\t{id}\t{tid}\n")),
            (
                fetch,
                format!("L\t{id}\t0\t{pc:08x} c{core} w{warp}  {text}\n"),
            ),
            (fetch, format!("S\t{id}\t0\tF\n")),
            (issue, format!("E\t{id}\t0\tF\n")),
            (issue, format!("S\t{id}\t0\tX\n")),
            (done, format!("E\t{id}\t0\tX\n")),
            (done, format!("R\t{id}\t{id}\t0\n")),
        ];
        for (k, (cycle, text)) in lines.into_iter().enumerate() {
            self.queue.push(Reverse((cycle, id, k as u8, text)));
        }
    }

    /// Write every queued line before `cycle`, in order.
    fn flush_before(&mut self, cycle: u64) {
        while let Some(Reverse((c, ..))) = self.queue.peek() {
            if *c >= cycle {
                break;
            }
            let Some(Reverse((c, _, _, text))) = self.queue.pop() else {
                break;
            };
            match self.at {
                None => self.raw(&format!("C=\t{c}\n")),
                Some(a) if c > a => self.raw(&format!("C\t{}\n", c - a)),
                _ => {}
            }
            self.at = Some(c);
            self.raw(&text);
        }
    }

    /// Write everything still queued and flush; report a write error.
    pub fn close(&mut self) -> io::Result<()> {
        self.flush_before(u64::MAX);
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;

    #[derive(Clone, Default)]
    struct Buf(Rc<RefCell<Vec<u8>>>);
    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_come_out_in_cycle_order_with_deltas() {
        let b = Buf::default();
        let mut k = KonataTrace::new(Box::new(b.clone()), 4, Window::default());
        k.instruction(0, 1, 0x8000_0000, "addi a0, a0, 1", 10, 12, 13);
        k.instruction(0, 2, 0x8000_0004, "lw a1, 0(a0)", 5, 13, 40);
        k.close().unwrap();
        let text = String::from_utf8(b.0.borrow().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "Kanata\t0004");
        assert_eq!(lines[1], "C=\t5", "the earliest event first: {text}");
        assert_eq!(lines[2], "I\t1\t1\t2");
        // Cycles only go forward.
        let mut at = 0u64;
        for l in &lines[1..] {
            if let Some(d) = l.strip_prefix("C\t") {
                at += d.parse::<u64>().unwrap();
            } else if let Some(d) = l.strip_prefix("C=\t") {
                at = d.parse().unwrap();
            }
        }
        assert_eq!(at, 40, "the last event is the load's retirement");
        assert_eq!(text.matches("\nR\t").count(), 2);
        assert!(text.contains("L\t0\t0\t80000000 c0 w1  addi a0, a0, 1"));
    }
}

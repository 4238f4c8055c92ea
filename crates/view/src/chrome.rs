//! Chrome trace-event JSON (`weft run --trace-json FILE`), the format ui.perfetto.dev and
//! chrome://tracing open as they are.
//!
//! Layout: one *process* per core (`core C`, with a counter track of its running warps) and one
//! *thread* per warp (`warp W`, named in metadata events even if the warp never runs, so every
//! warp has its track). On a warp's track, nested complete (`"ph":"X"`) slices show
//!
//! - `warp W` — from the warp's first instruction until it halts or faults;
//! - `diverged at PC` — a divergence region, from the push of its stack entry to the pop
//!   (args: source pc, saved mask, reconvergence point);
//! - `lanes 0xM` — inside a region, the group of lanes running now (a new slice each time a
//!   group parks and another starts);
//! - `barrier N` — waiting at a barrier, from arrival to release;
//!
//! plus an instant event (`"ph":"i"`) for a fault, and a counter (`"ph":"C"`) of the warp's
//! active lanes. Time is in cycles: the viewer's 1 µs is one cycle.
//!
//! Events are written as they close, through a buffered writer, so memory stays bounded by the
//! open slices (at most a few per warp, whatever the run's length). With a cycle window only
//! events inside it are written; slices crossing its edges are cut at the edges.
//!
//! **Seam for the timing model.** Stalls need cycle timing, which the functional model does
//! not have. A timing model adds them with [`ChromeTrace::complete`] (a slice on a warp's
//! track: e.g. name `stall: scoreboard`, from its first to its last stalled cycle) on the
//! writer it shares with the run ([`crate::Traces::chrome`]); nothing here invents them.

use serde_json::{json, Value};
use std::io::{self, Write};
use weft_simt::warp::WarpState;
use weft_simt::{Machine, Observer, StepRecord};

/// A cycle window `[from, to)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// First cycle traced.
    pub from: u64,
    /// First cycle not traced (`u64::MAX`: to the end).
    pub to: u64,
}

impl Default for Window {
    fn default() -> Self {
        Window {
            from: 0,
            to: u64::MAX,
        }
    }
}

impl Window {
    /// Clip `[start, end)` to the window; `None` if nothing is left.
    pub fn clip(&self, start: u64, end: u64) -> Option<(u64, u64)> {
        let (s, e) = (start.max(self.from), end.min(self.to));
        (s < e || (s == e && start == end && self.contains(s))).then_some((s, e))
    }

    /// True if `cycle` is inside.
    pub fn contains(&self, cycle: u64) -> bool {
        self.from <= cycle && cycle < self.to
    }
}

/// An open slice.
struct Slice {
    name: String,
    start: u64,
    args: Value,
}

/// What the writer last saw of one warp.
#[derive(Default)]
struct Track {
    /// Open slices, outermost first: the warp's run, then (region, group) pairs, then a
    /// barrier wait.
    open: Vec<Slice>,
    alive: bool,
    regions: usize,
    group: u32,
    barrier: bool,
    lanes: u32,
}

/// The trace-event writer; an [`Observer`].
pub struct ChromeTrace {
    out: Box<dyn Write>,
    window: Window,
    warps: usize,
    lanes: usize,
    tracks: Vec<Track>,
    running: Vec<u32>,
    waiting: usize,
    first: bool,
    last: u64,
    closed: bool,
    error: Option<io::Error>,
}

impl ChromeTrace {
    /// A writer for machine `m` (as it is now, before the run) to `out`, tracing `window`.
    pub fn new(m: &Machine, out: Box<dyn Write>, window: Window) -> ChromeTrace {
        let (cores, warps) = (m.cores.len(), m.cfg.warps);
        let mut t = ChromeTrace {
            out,
            window,
            warps,
            lanes: m.cfg.lanes,
            tracks: (0..cores * warps).map(|_| Track::default()).collect(),
            running: vec![u32::MAX; cores],
            waiting: 0,
            first: true,
            last: m.cycle,
            closed: false,
            error: None,
        };
        t.raw("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"weft\",\"time_unit\":\"1 us = 1 cycle\"},\"traceEvents\":[\n");
        for c in 0..cores {
            t.event(json!({"name":"process_name","ph":"M","pid":c,"tid":0,"args":{"name":format!("core {c}")}}));
            t.event(json!({"name":"process_sort_index","ph":"M","pid":c,"tid":0,"args":{"sort_index":c}}));
            for w in 0..warps {
                t.event(json!({"name":"thread_name","ph":"M","pid":c,"tid":w,"args":{"name":format!("warp {w}")}}));
                t.event(json!({"name":"thread_sort_index","ph":"M","pid":c,"tid":w,"args":{"sort_index":w}}));
            }
            if m.cfg.timing {
                t.event(json!({"name":"thread_name","ph":"M","pid":c,"tid":warps,"args":{"name":"issue (stalls)"}}));
                t.event(json!({"name":"thread_sort_index","ph":"M","pid":c,"tid":warps,"args":{"sort_index":warps}}));
            }
        }
        t
    }

    fn raw(&mut self, s: &str) {
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(s.as_bytes()) {
                self.error = Some(e);
            }
        }
    }

    fn event(&mut self, v: Value) {
        let sep = if self.first { "" } else { ",\n" };
        self.first = false;
        let s = format!("{sep}{v}");
        self.raw(&s);
    }

    /// A complete slice on warp `w` of core `c` from cycle `start` to `end` (exclusive),
    /// clipped to the window. The timing model's stall slices come through here.
    pub fn complete(&mut self, c: usize, w: usize, name: &str, start: u64, end: u64, args: Value) {
        if let Some((s, e)) = self.window.clip(start, end) {
            self.event(json!({"name":name,"cat":"weft","ph":"X","pid":c,"tid":w,"ts":s,"dur":e - s,"args":args}));
        }
    }

    /// A slice on core `c`'s own track (after its warps; present in timing runs): the timing
    /// model's runs of lost issue slots, named by their reason.
    pub fn core_slice(&mut self, c: usize, name: &str, start: u64, end: u64) {
        let tid = self.warps;
        self.complete(c, tid, name, start, end, json!({}));
    }

    fn instant(&mut self, c: usize, w: usize, name: &str, ts: u64, args: Value) {
        if self.window.contains(ts) {
            self.event(json!({"name":name,"cat":"weft","ph":"i","s":"t","pid":c,"tid":w,"ts":ts,"args":args}));
        }
    }

    fn counter(&mut self, c: usize, name: &str, ts: u64, args: Value) {
        if self.window.contains(ts) {
            self.event(json!({"name":name,"ph":"C","pid":c,"tid":0,"ts":ts,"args":args}));
        }
    }

    fn open(&mut self, k: usize, name: String, start: u64, args: Value) {
        self.tracks[k].open.push(Slice { name, start, args });
    }

    fn close(&mut self, k: usize, end: u64) {
        if let Some(s) = self.tracks[k].open.pop() {
            let (c, w) = (k / self.warps, k % self.warps);
            self.complete(c, w, &s.name, s.start, end, s.args);
        }
    }

    /// Bring warp (`c`, `w`)'s track up to date with the machine after a step of `cycle`.
    fn sync(&mut self, m: &Machine, c: usize, w: usize, cycle: u64) {
        let k = c * self.warps + w;
        let warp = &m.cores[c].warps[w];
        let alive = !matches!(warp.state, WarpState::Idle | WarpState::Faulted);
        let barrier = matches!(warp.state, WarpState::Barrier { .. });
        let depth = warp.stack.len();
        let end = cycle + 1;
        let t = &self.tracks[k];
        if t.barrier && !barrier {
            self.close(k, end);
            self.tracks[k].barrier = false;
            self.waiting -= 1;
        }
        let t = &self.tracks[k];
        if t.alive && !alive {
            while !self.tracks[k].open.is_empty() {
                self.close(k, end);
            }
            self.tracks[k] = Track::default();
        }
        if !self.tracks[k].alive && alive {
            self.open(
                k,
                format!("warp {w}"),
                cycle,
                json!({"start_pc": hex(warp.pc)}),
            );
            self.tracks[k].alive = true;
        }
        if !self.tracks[k].alive {
            return;
        }
        // Regions that popped close with their group.
        while self.tracks[k].regions > depth {
            self.close(k, end);
            self.close(k, end);
            self.tracks[k].regions -= 1;
            self.tracks[k].group = warp.mask;
        }
        // A group parked and another started: a new group slice.
        if self.tracks[k].regions > 0
            && self.tracks[k].regions == depth
            && self.tracks[k].group != warp.mask
        {
            self.close(k, end);
            let args = json!({"mask": hex(warp.mask), "pc": hex(warp.pc)});
            self.open(k, group_name(warp.mask), end, args);
            self.tracks[k].group = warp.mask;
        }
        while self.tracks[k].regions < depth {
            let e = &warp.stack.entries()[self.tracks[k].regions];
            let name = format!(
                "diverged at {}",
                m.symbolize(e.source_pc)
                    .unwrap_or_else(|| format!("{:#010x}", e.source_pc))
            );
            let args = json!({
                "source_pc": hex(e.source_pc),
                "saved_mask": hex(e.saved_mask),
                "reconverge": crate::state::entry_line(e),
            });
            self.open(k, name, end, args);
            self.open(
                k,
                group_name(warp.mask),
                end,
                json!({"mask": hex(warp.mask), "pc": hex(warp.pc)}),
            );
            self.tracks[k].regions += 1;
            self.tracks[k].group = warp.mask;
        }
        if barrier && !self.tracks[k].barrier {
            let WarpState::Barrier { id, global } = warp.state else {
                unreachable!()
            };
            let name = format!("{}barrier {id}", if global { "global " } else { "" });
            self.open(k, name, end, json!({"pc": hex(warp.pc)}));
            self.tracks[k].barrier = true;
            self.waiting += 1;
        }
        if self.tracks[k].lanes != warp.mask {
            self.tracks[k].lanes = warp.mask;
            let name = format!("warp {w} active lanes");
            self.counter(c, &name, end, json!({"lanes": warp.mask.count_ones()}));
        }
    }

    /// Close every open slice at `end` and the JSON, and flush. Later records are ignored.
    pub fn close_all(&mut self, end: u64) -> io::Result<()> {
        if !self.closed {
            for k in 0..self.tracks.len() {
                while !self.tracks[k].open.is_empty() {
                    self.close(k, end);
                }
            }
            self.raw("\n]}\n");
            self.closed = true;
        }
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()
    }

    /// The last cycle seen, plus one: where the run ended.
    pub fn end_cycle(&self) -> u64 {
        self.last
    }

    /// The number of lanes per warp of the traced machine.
    pub fn lanes(&self) -> usize {
        self.lanes
    }
}

fn hex(v: u32) -> String {
    format!("{v:#010x}")
}

fn group_name(mask: u32) -> String {
    format!("lanes {mask:#x}")
}

impl Observer for ChromeTrace {
    fn step(&mut self, m: &Machine, r: &StepRecord) {
        if self.closed {
            return;
        }
        self.last = r.cycle + 1;
        self.sync(m, r.core, r.warp, r.cycle);
        if self.waiting > 0 {
            for c in 0..m.cores.len() {
                for w in 0..self.warps {
                    if self.tracks[c * self.warps + w].barrier {
                        self.sync(m, c, w, r.cycle);
                    }
                }
            }
        }
        // Warps another warp started (warp_active) get their track now.
        let core = &m.cores[r.core];
        let running = core.active_mask();
        if running != self.running[r.core] {
            for w in 0..self.warps {
                if running >> w & 1 != 0 && !self.tracks[r.core * self.warps + w].alive {
                    self.sync(m, r.core, w, r.cycle);
                }
            }
            self.running[r.core] = running;
            self.counter(
                r.core,
                "running warps",
                r.cycle + 1,
                json!({"warps": running.count_ones()}),
            );
        }
        if let Some(f) = &r.fault {
            let args = json!({
                "pc": hex(f.pc), "lanes": hex(f.lanes),
                "address": f.addr.map(hex), "detail": f.detail,
            });
            let name = format!("fault {}", f.code.name());
            self.instant(f.core, f.warp, &name, r.cycle, args);
        }
    }

    fn finish(&mut self) {
        if self.error.is_none() {
            if let Err(e) = self.out.flush() {
                self.error = Some(e);
            }
        }
    }
}

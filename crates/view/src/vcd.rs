//! VCD, the value change dump of Verilog simulators (`weft run --vcd FILE`), for GTKWave or
//! Surfer: under a scope `coreC.warpW`, each warp has
//!
//! | signal | width | value |
//! |---|---|---|
//! | `pc` | 32 | the pc of the warp's next instruction |
//! | `mask` | lanes | its thread mask (the running group's lanes) |
//! | `depth` | 16 | divergence stack depth |
//! | `state` | 3 | 0 idle, 1 running, 2 barrier, 3 stopped at break_pc, 4 wspawn wait, 5 faulted |
//!
//! One time unit is one cycle; the value at time *t* is the state at the start of cycle *t*
//! (after every instruction of the cycles before). Only changes are written, through a
//! buffered writer: memory does not grow with the run. With a cycle window, the values at its
//! start are dumped there and changes after its end are dropped.

use crate::chrome::Window;
use std::io::{self, Write};
use weft_simt::warp::WarpState;
use weft_simt::{Machine, Observer, StepRecord};

/// The code the `state` signal uses for a warp state.
pub fn state_code(s: WarpState) -> u32 {
    match s {
        WarpState::Idle => 0,
        WarpState::Running => 1,
        WarpState::Barrier { .. } => 2,
        WarpState::Breakpoint => 3,
        WarpState::SpawnWait { .. } => 4,
        WarpState::Faulted => 5,
    }
}

/// Signals per warp, in declaration order: (name, width).
fn signals(lanes: usize) -> [(&'static str, usize); 4] {
    [("pc", 32), ("mask", lanes), ("depth", 16), ("state", 3)]
}

/// The VCD writer; an [`Observer`].
pub struct VcdTrace {
    out: Box<dyn Write>,
    window: Window,
    warps: usize,
    lanes: usize,
    /// Last value of each signal, 4 per warp.
    values: Vec<u32>,
    /// Identifier codes of the signals.
    ids: Vec<String>,
    /// The last time written (`None` before the window's start dump).
    time: Option<u64>,
    global_waiters: bool,
    closed: bool,
    error: Option<io::Error>,
}

/// The identifier code of signal `n`: base-94 in the printable characters `!`..`~`.
fn id_code(mut n: usize) -> String {
    let mut s = String::new();
    loop {
        s.push((b'!' + (n % 94) as u8) as char);
        n /= 94;
        if n == 0 {
            return s;
        }
        n -= 1;
    }
}

impl VcdTrace {
    /// A writer for machine `m` (as it is now, before the run) to `out`, tracing `window`.
    pub fn new(m: &Machine, out: Box<dyn Write>, window: Window) -> VcdTrace {
        let (cores, warps, lanes) = (m.cores.len(), m.cfg.warps, m.cfg.lanes);
        let n = cores * warps * 4;
        let mut t = VcdTrace {
            out,
            window,
            warps,
            lanes,
            values: vec![0; n],
            ids: (0..n).map(id_code).collect(),
            time: None,
            global_waiters: false,
            closed: false,
            error: None,
        };
        let mut h = String::from(
            "$comment weft: per warp pc, thread mask, divergence stack depth and state $end\n\
             $timescale 1ns $end\n$scope module weft $end\n",
        );
        for c in 0..cores {
            h += &format!("$scope module core{c} $end\n");
            for w in 0..warps {
                h += &format!("$scope module warp{w} $end\n");
                for (s, (name, width)) in signals(lanes).iter().enumerate() {
                    let id = &t.ids[(c * warps + w) * 4 + s];
                    h += &format!("$var wire {width} {id} {name} $end\n");
                }
                h += "$upscope $end\n";
            }
            h += "$upscope $end\n";
        }
        h += "$upscope $end\n$enddefinitions $end\n";
        t.raw(&h);
        for c in 0..cores {
            for w in 0..warps {
                t.sample(m, c, w);
            }
        }
        if t.window.from <= m.cycle {
            t.dump(m.cycle);
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

    fn value_text(&self, k: usize) -> String {
        let width = signals(self.lanes)[k % 4].1;
        format!("b{:0width$b} {}\n", self.values[k], self.ids[k])
    }

    /// Every value at `time` (the window's start).
    fn dump(&mut self, time: u64) {
        let mut s = format!("#{time}\n$dumpvars\n");
        for k in 0..self.values.len() {
            s += &self.value_text(k);
        }
        s += "$end\n";
        self.raw(&s);
        self.time = Some(time);
    }

    /// Read warp (`c`, `w`)'s signals; returns which of them changed (bit per signal).
    fn sample(&mut self, m: &Machine, c: usize, w: usize) -> u8 {
        let warp = &m.cores[c].warps[w];
        let now = [
            warp.pc,
            warp.mask,
            warp.stack.len().min(0xffff) as u32,
            state_code(warp.state),
        ];
        if matches!(warp.state, WarpState::Barrier { global: true, .. }) {
            self.global_waiters = true;
        }
        let base = (c * self.warps + w) * 4;
        let mut changed = 0;
        for (s, v) in now.into_iter().enumerate() {
            if self.values[base + s] != v {
                self.values[base + s] = v;
                changed |= 1 << s;
            }
        }
        changed
    }

    /// Sample a core's warps after a step of `cycle` and write the changes at `cycle + 1`.
    fn core_changes(&mut self, m: &Machine, c: usize, t: u64) {
        for w in 0..self.warps {
            let changed = self.sample(m, c, w);
            if changed == 0 || self.time.is_none() || t >= self.window.to {
                continue;
            }
            if self.time != Some(t) {
                self.raw(&format!("#{t}\n"));
                self.time = Some(t);
            }
            let base = (c * self.warps + w) * 4;
            for s in 0..4 {
                if changed >> s & 1 != 0 {
                    let line = self.value_text(base + s);
                    self.raw(&line);
                }
            }
        }
    }

    /// Write the end time and flush. Later records are ignored.
    pub fn close_at(&mut self, end: u64) -> io::Result<()> {
        if !self.closed {
            if let Some(t) = self.time {
                let end = end.min(self.window.to);
                if end > t {
                    self.raw(&format!("#{end}\n"));
                }
            }
            self.closed = true;
        }
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()
    }
}

impl Observer for VcdTrace {
    fn step(&mut self, m: &Machine, r: &StepRecord) {
        if self.closed {
            return;
        }
        let t = r.cycle + 1;
        if self.time.is_none() && t >= self.window.from {
            // Entering the window: the values as they were at its start.
            self.dump(self.window.from);
        }
        if self.global_waiters {
            self.global_waiters = false;
            for c in 0..m.cores.len() {
                self.core_changes(m, c, t);
            }
        } else {
            self.core_changes(m, r.core, t);
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

//! Kernel launches: the device runtime writes a kernel's address to the `launch` CSR when a
//! launch starts and 0 when it ends (the Vortex profile's KMU marks its launches the same
//! way), and the machine keeps, for each launch, the counters at its start and end. The
//! report then gives each launch's own figures — cycles, warp- and thread-instructions, SIMD
//! efficiency, divergence, memory — apart from `main`'s serial part, as GPGPU-Sim reports per
//! kernel and Vortex's PERF line per launch.

use serde::Serialize;
use std::collections::BTreeMap;
use weft_isa::TABLE;

/// The machine's counters at one moment (everything a launch's figures are differences of).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Counts {
    pub cycle: u64,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    pub divergences: u64,
    pub reconvergences: u64,
    pub barrier_waits: u64,
    pub loads: u64,
    pub stores: u64,
    pub atomics: u64,
    /// Executions per instruction-table row.
    pub per_op: Vec<u64>,
}

/// One launch: the kernel's address and the counters at its start and (once it ended) end.
#[derive(Clone, Debug, PartialEq)]
struct Mark {
    kernel: u32,
    start: Counts,
    end: Option<Counts>,
    /// Ended by its own end mark (not by the next start).
    complete: bool,
}

/// Every launch of a run, in order.
#[derive(Clone, Debug, Default)]
pub struct LaunchLog {
    marks: Vec<Mark>,
    /// Starts and ends seen (a timing model compares it to notice a new one).
    events: u64,
}

impl LaunchLog {
    /// A write of `value` to the `launch` CSR with the counters `now`: a kernel's address
    /// starts a launch (ending one still open, which then counts as cut short), 0 ends the
    /// open one (a 0 with none open is ignored).
    pub fn write(&mut self, value: u32, now: Counts) {
        if let Some(open) = self.marks.last_mut().filter(|m| m.end.is_none()) {
            open.end = Some(now.clone());
            open.complete = value == 0;
        } else if value == 0 {
            return;
        }
        if value != 0 {
            self.marks.push(Mark {
                kernel: value,
                start: now,
                end: None,
                complete: false,
            });
        }
        self.events += 1;
    }

    /// Launches begun (what the `launch` CSR reads).
    pub fn begun(&self) -> u32 {
        self.marks.len() as u32
    }

    /// Is a launch under way (started, not ended)?
    pub fn open(&self) -> bool {
        self.marks.last().is_some_and(|m| m.end.is_none())
    }

    /// Starts and ends so far.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Each launch's figures; a launch still open ends at `now` (and is marked incomplete).
    /// `name` gives a kernel address's symbol.
    pub fn reports(
        &self,
        now: &Counts,
        lanes: u64,
        cores: u64,
        name: impl Fn(u32) -> Option<String>,
    ) -> Vec<LaunchReport> {
        self.marks
            .iter()
            .enumerate()
            .map(|(k, m)| {
                let end = m.end.as_ref().unwrap_or(now);
                LaunchReport::between(k, m.kernel, &m.start, end, lanes, cores, &name)
                    .complete(m.complete)
            })
            .collect()
    }
}

/// The symbol at exactly `pc` (a launch's kernel by name; `reports`' `name`).
pub fn kernel_name(symbols: &[(String, u32)], pc: u32) -> Option<String> {
    symbols
        .iter()
        .find(|(_, a)| *a == pc)
        .map(|(n, _)| n.clone())
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// One launch's figures (the `launches` list of `--stats-json`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LaunchReport {
    /// Its place among the run's launches, from 0.
    pub index: usize,
    /// The kernel's symbol (or its address in hex).
    pub kernel: String,
    pub kernel_pc: u32,
    /// False if the run ended (a fault, the cycle bound) before the launch did.
    pub complete: bool,
    pub start_cycle: u64,
    pub end_cycle: u64,
    pub cycles: u64,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    pub simd_efficiency: f64,
    pub ipc: f64,
    pub divergences: u64,
    pub reconvergences: u64,
    pub barrier_waits: u64,
    pub loads: u64,
    pub stores: u64,
    pub atomics: u64,
    pub classes: BTreeMap<String, u64>,
}

impl LaunchReport {
    /// The figures between `a` and `b`.
    fn between(
        index: usize,
        kernel_pc: u32,
        a: &Counts,
        b: &Counts,
        lanes: u64,
        cores: u64,
        name: &dyn Fn(u32) -> Option<String>,
    ) -> LaunchReport {
        let d = |f: fn(&Counts) -> u64| f(b).saturating_sub(f(a));
        let wi = d(|c| c.warp_instructions);
        let ti = d(|c| c.thread_instructions);
        let cycles = d(|c| c.cycle);
        LaunchReport {
            index,
            kernel: name(kernel_pc).unwrap_or_else(|| format!("{kernel_pc:#010x}")),
            kernel_pc,
            complete: true,
            start_cycle: a.cycle,
            end_cycle: b.cycle,
            cycles,
            warp_instructions: wi,
            thread_instructions: ti,
            simd_efficiency: ratio(ti, wi * lanes),
            ipc: ratio(wi, cycles * cores),
            divergences: d(|c| c.divergences),
            reconvergences: d(|c| c.reconvergences),
            barrier_waits: d(|c| c.barrier_waits),
            loads: d(|c| c.loads),
            stores: d(|c| c.stores),
            atomics: d(|c| c.atomics),
            classes: classes(&a.per_op, &b.per_op),
        }
    }

    fn complete(mut self, yes: bool) -> LaunchReport {
        self.complete = yes;
        self
    }
}

/// Executions per instruction class between two per-op count vectors.
pub(crate) fn classes(a: &[u64], b: &[u64]) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for (k, e) in TABLE.iter().enumerate() {
        let n = b.get(k).copied().unwrap_or(0) - a.get(k).copied().unwrap_or(0);
        if n > 0 {
            *out.entry(format!("{:?}", e.class).to_lowercase())
                .or_insert(0) += n;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(cycle: u64, wi: u64, ti: u64) -> Counts {
        Counts {
            cycle,
            warp_instructions: wi,
            thread_instructions: ti,
            ..Counts::default()
        }
    }

    #[test]
    fn a_launch_is_the_difference_of_its_ends() {
        let mut log = LaunchLog::default();
        log.write(0, at(1, 1, 1)); // an end with nothing open: ignored
        assert_eq!((log.begun(), log.events()), (0, 0));
        log.write(0x8000_0100, at(10, 5, 5));
        log.write(0, at(30, 25, 165));
        let r = log.reports(&at(40, 30, 170), 8, 1, |_| Some("k".into()));
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].cycles, r[0].warp_instructions), (20, 20));
        assert_eq!(r[0].thread_instructions, 160);
        assert!((r[0].simd_efficiency - 1.0).abs() < 1e-12);
        assert!(r[0].complete);
        assert_eq!(log.events(), 2);
    }

    #[test]
    fn a_launch_cut_short_ends_at_the_next_start_or_the_end_of_the_run() {
        let mut log = LaunchLog::default();
        log.write(0x10, at(0, 0, 0));
        log.write(0x20, at(5, 5, 10));
        let r = log.reports(&at(9, 8, 13), 4, 1, |_| None);
        assert_eq!(r.len(), 2);
        assert!(!r[0].complete, "cut short by the next start");
        assert_eq!((r[0].cycles, r[0].kernel.as_str()), (5, "0x00000010"));
        assert!(!r[1].complete);
        assert_eq!(r[1].thread_instructions, 3);
    }
}

//! The timing model's counters and its report: issue slots (issued, or stalled and why),
//! per-warp activity, and the memory system's counts, as the `timing` object of
//! `--stats-json`, a table for `--stats`, and the hardware performance counters kernels read
//! (`mhpmcounter4`…`mhpmcounter20`, docs/isa.md §4.2).

use crate::cache::CacheStats;
use crate::memsys::{MemStats, MemSys};
use serde::Serialize;
use std::fmt::Write;

/// Why an issue slot went unused. The order is the order of `mhpmcounter5`…`11`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// Instruction fetch: an I-cache miss, the refill after a redirect, a warp starting.
    Fetch,
    /// Waiting on the result of an ALU, MUL/DIV, FPU or SFU instruction.
    Scoreboard,
    /// The functional unit the instruction needs is busy.
    Unit,
    /// Waiting on memory: a load's data, the LSU or MSHRs busy, a fence.
    Memory,
    /// At a barrier (or a `wspawn` waiting for the core's other warps).
    Barrier,
    /// Divergence-stack push or pop.
    Divergence,
    /// No warp started on the core.
    Idle,
}

impl Why {
    /// Every reason, in counter order.
    pub const ALL: [Why; 7] = [
        Why::Fetch,
        Why::Scoreboard,
        Why::Unit,
        Why::Memory,
        Why::Barrier,
        Why::Divergence,
        Why::Idle,
    ];

    /// Name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Why::Fetch => "fetch",
            Why::Scoreboard => "scoreboard",
            Why::Unit => "unit_busy",
            Why::Memory => "memory",
            Why::Barrier => "barrier",
            Why::Divergence => "divergence",
            Why::Idle => "no_warp",
        }
    }
}

/// One core's issue-slot counters.
#[derive(Clone, Debug, Default)]
pub struct CoreCounters {
    /// Slots in which a warp issued.
    pub issued: u64,
    /// Slots lost, by [`Why`] (index = position in [`Why::ALL`]).
    pub stalls: [u64; 7],
    /// The tensor core unit.
    pub tcu: TcuStats,
    /// Until when the tensor core unit has a micro-op in flight (for `tcu.busy_cycles`).
    pub tcu_busy_until: u64,
}

/// The tensor core unit's counters (summed over cores in a report).
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq, Eq)]
pub struct TcuStats {
    /// Tensor-core instructions issued (`wmma`, `wmma.sp`, `wgmma`, `tcu.ld`).
    pub instructions: u64,
    /// Their micro-ops (each takes an issue slot and a place in the unit).
    pub micro_ops: u64,
    /// Cycles in which the unit had at least one micro-op between its start and its result.
    pub busy_cycles: u64,
}

impl TcuStats {
    fn add(&mut self, o: &TcuStats) {
        self.instructions += o.instructions;
        self.micro_ops += o.micro_ops;
        self.busy_cycles += o.busy_cycles;
    }

    fn since(&self, start: &TcuStats) -> TcuStats {
        TcuStats {
            instructions: self.instructions - start.instructions,
            micro_ops: self.micro_ops - start.micro_ops,
            busy_cycles: self.busy_cycles - start.busy_cycles,
        }
    }
}

impl CoreCounters {
    /// Slots lost in all.
    pub fn stalled(&self) -> u64 {
        self.stalls.iter().sum()
    }
}

/// One warp's activity.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct WarpActivity {
    /// Core.
    pub core: usize,
    /// Warp.
    pub warp: usize,
    /// Issue slots it used: warp-instructions, and for each tensor-core macro-op one per
    /// micro-op.
    pub issued: u64,
    /// Cycle of its first issue.
    pub first_issue: Option<u64>,
    /// Cycle of its last issue.
    pub last_issue: Option<u64>,
}

/// The hardware performance counters of core `c` (index = counter number).
pub fn hpm(core: &CoreCounters, mem: &MemSys, c: usize, out: &mut [u64]) {
    let (l1, ic, ms) = mem.core_stats(c);
    out[4] = core.stalled();
    for (k, v) in core.stalls.iter().enumerate() {
        out[5 + k] = *v;
    }
    out[12] = l1.accesses;
    out[13] = l1.hits;
    out[14] = l1.misses;
    out[15] = l1.mshr_merges;
    out[16] = ms.smem_bank_conflicts;
    out[17] = ms.dram_read_bytes;
    out[18] = ms.dram_write_bytes;
    out[19] = ic.misses;
    out[20] = l1.evictions;
}

/// The timing model's report.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TimingReport {
    /// Warp scheduling policy.
    pub scheduler: &'static str,
    /// Cycles.
    pub cycles: u64,
    /// Issue slots: cycles × cores (one scheduler per core, one issue per cycle).
    pub issue_slots: u64,
    /// Slots in which a warp issued (an instruction, or one micro-op of a tensor-core
    /// macro-op).
    pub issued: u64,
    /// Slots lost, by reason.
    pub stalls: std::collections::BTreeMap<&'static str, u64>,
    /// The tensor core unit, summed over cores.
    pub tcu: TcuStats,
    /// L1 data caches, summed over cores.
    pub l1: CacheStats,
    /// Instruction caches, summed over cores.
    pub icache: CacheStats,
    /// The L2, if enabled.
    pub l2: Option<CacheStats>,
    /// Shared memory, I/O, atomics and DRAM traffic, summed over cores.
    pub memory: MemStats,
    /// L1 hit rate (hits / accesses).
    pub l1_hit_rate: f64,
    /// DRAM bytes per cycle achieved.
    pub dram_bytes_per_cycle: f64,
    /// Per-warp activity.
    pub per_warp: Vec<WarpActivity>,
    /// Each kernel launch's issue slots and memory traffic, in the order of the functional
    /// report's `launches`.
    pub launches: Vec<LaunchTiming>,
}

/// One kernel launch's share of the timing counters (between its start and end marks).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LaunchTiming {
    /// Its place among the run's launches, from 0.
    pub index: usize,
    pub cycles: u64,
    pub issue_slots: u64,
    pub issued: u64,
    /// Slots lost, by reason.
    pub stalls: std::collections::BTreeMap<&'static str, u64>,
    pub tcu: TcuStats,
    pub l1: CacheStats,
    pub icache: CacheStats,
    pub memory: MemStats,
    pub l1_hit_rate: f64,
}

impl TimingReport {
    /// Build the report.
    pub fn new(
        scheduler: &'static str,
        cycles: u64,
        cores: &[CoreCounters],
        mem: &MemSys,
        per_warp: Vec<WarpActivity>,
    ) -> TimingReport {
        let mut stalls = std::collections::BTreeMap::new();
        let mut tcu = TcuStats::default();
        let (mut l1, mut icache, mut memory) = (
            CacheStats::default(),
            CacheStats::default(),
            MemStats::default(),
        );
        for (c, k) in cores.iter().enumerate() {
            for (i, w) in Why::ALL.iter().enumerate() {
                *stalls.entry(w.name()).or_insert(0) += k.stalls[i];
            }
            tcu.add(&k.tcu);
            let (a, b, m) = mem.core_stats(c);
            l1.add(&a);
            icache.add(&b);
            memory.add(&m);
        }
        let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        TimingReport {
            scheduler,
            cycles,
            issue_slots: cycles * cores.len() as u64,
            issued: cores.iter().map(|k| k.issued).sum(),
            stalls,
            tcu,
            l1_hit_rate: ratio(l1.hits, l1.accesses),
            dram_bytes_per_cycle: ratio(memory.dram_read_bytes + memory.dram_write_bytes, cycles),
            l1,
            icache,
            l2: mem.l2_stats(),
            memory,
            per_warp,
            launches: Vec::new(),
        }
    }

    /// The counters from `start` (an earlier report of the same run) to this one, as launch
    /// `index`.
    pub fn since(&self, start: &TimingReport, index: usize) -> LaunchTiming {
        let l1 = self.l1.since(&start.l1);
        let cycles = self.cycles - start.cycles;
        LaunchTiming {
            index,
            cycles,
            issue_slots: self.issue_slots - start.issue_slots,
            issued: self.issued - start.issued,
            stalls: self
                .stalls
                .iter()
                .map(|(k, v)| (*k, v - start.stalls.get(k).copied().unwrap_or(0)))
                .collect(),
            tcu: self.tcu.since(&start.tcu),
            l1_hit_rate: if l1.accesses == 0 {
                0.0
            } else {
                l1.hits as f64 / l1.accesses as f64
            },
            l1,
            icache: self.icache.since(&start.icache),
            memory: self.memory.since(&start.memory),
        }
    }

    /// The readable table `--stats` prints after the functional statistics.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let pct = |v: u64| {
            if self.issue_slots == 0 {
                0.0
            } else {
                100.0 * v as f64 / self.issue_slots as f64
            }
        };
        let _ = writeln!(s, "timing model (scheduler {}):", self.scheduler);
        let _ = writeln!(
            s,
            "  issue slots       {:>12}  issued {} ({:.1} %)",
            self.issue_slots,
            self.issued,
            pct(self.issued)
        );
        for w in Why::ALL {
            let v = self.stalls[w.name()];
            let _ = writeln!(s, "  stall {:<11} {:>12}  ({:.1} %)", w.name(), v, pct(v));
        }
        if self.tcu.instructions > 0 {
            let t = &self.tcu;
            let _ = writeln!(
                s,
                "  tensor core       {:>12} instructions, {} micro-ops, busy {} cycles ({:.1} %)",
                t.instructions,
                t.micro_ops,
                t.busy_cycles,
                100.0 * t.busy_cycles as f64 / (self.issue_slots.max(1)) as f64
            );
        }
        let c = &self.l1;
        let _ = writeln!(
            s,
            "  L1 data           {:>12} accesses, {} hits, {} misses ({:.1} % hits), {} MSHR merges, {} evictions, {} bank-conflict cycles",
            c.accesses,
            c.hits,
            c.misses,
            100.0 * self.l1_hit_rate,
            c.mshr_merges,
            c.evictions,
            c.bank_conflicts
        );
        let c = &self.icache;
        let _ = writeln!(
            s,
            "  I-cache           {:>12} accesses, {} misses, {} lines prefetched",
            c.accesses, c.misses, c.prefetches
        );
        if let Some(c) = &self.l2 {
            let _ = writeln!(
                s,
                "  L2                {:>12} accesses, {} hits, {} misses, {} evictions",
                c.accesses, c.hits, c.misses, c.evictions
            );
        }
        let m = &self.memory;
        let _ = writeln!(
            s,
            "  shared memory     {:>12} accesses, {} bank-conflict cycles",
            m.smem_accesses, m.smem_bank_conflicts
        );
        if m.dma_bytes > 0 {
            let _ = writeln!(
                s,
                "  DMA and DXA       {:>12} bytes moved below the L1",
                m.dma_bytes
            );
        }
        let _ = writeln!(
            s,
            "  DRAM              {:>12} bytes read, {} written ({:.2} bytes/cycle)",
            m.dram_read_bytes, m.dram_write_bytes, self.dram_bytes_per_cycle
        );
        for l in &self.launches {
            let pct = |v: u64| 100.0 * v as f64 / l.issue_slots.max(1) as f64;
            let (why, most) = l
                .stalls
                .iter()
                .max_by_key(|(_, v)| **v)
                .map_or(("none", 0), |(k, v)| (*k, *v));
            let _ = writeln!(
                s,
                "  launch {:<10} {:>12} slots, issued {:.1} %, most lost to {why} ({:.1} %), L1 hits {:.1} %",
                l.index,
                l.issue_slots,
                pct(l.issued),
                pct(most),
                100.0 * l.l1_hit_rate
            );
        }
        s
    }
}

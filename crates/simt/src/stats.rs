//! Run statistics: counters kept while simulating (per instruction, per warp) and the report
//! built from them at the end — the readable table of `--stats` and the JSON of `--stats-json`.

use crate::machine::Machine;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;
use weft_isa::TABLE;

pub use crate::counters::Stats;

/// Per-warp figures in the report.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct WarpReport {
    pub core: usize,
    pub warp: usize,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    pub simd_efficiency: f64,
    pub divergences: u64,
    pub reconvergences: u64,
    pub max_divergence_depth: u64,
    /// Divergence-stack entries moved to the spill area, and back.
    pub stack_spills: u64,
    pub stack_fills: u64,
    pub barrier_waits: u64,
}

/// The end-of-run report.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Report {
    pub model: &'static str,
    pub cores: usize,
    pub warps: usize,
    pub lanes: usize,
    pub reconvergence: &'static str,
    pub cycles: u64,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    pub simd_efficiency: f64,
    pub ipc: f64,
    pub divergences: u64,
    pub reconvergences: u64,
    pub max_divergence_depth: u64,
    /// Divergence-stack entries moved to the spill area, and back (all warps).
    pub stack_spills: u64,
    pub stack_fills: u64,
    pub loads: u64,
    pub stores: u64,
    pub atomics: u64,
    pub classes: BTreeMap<String, u64>,
    pub mnemonics: BTreeMap<String, u64>,
    pub per_warp: Vec<WarpReport>,
    /// The display controller's counters.
    pub display: weft_devices::DisplayStats,
    /// The DMA engines' counters, summed over the cores.
    pub dma: DmaReport,
    /// The DXA copy engine's counters (SimX's `VX_CSR_MPM_DXA_*`, docs/vortex.md).
    pub dxa: weft_devices::DxaStats,
    /// Each kernel launch's own figures (docs/cli.md, "Statistics"), in order.
    pub launches: Vec<crate::launch::LaunchReport>,
}

/// DMA figures in the report (all cores).
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq, Eq)]
pub struct DmaReport {
    pub triggers: u64,
    pub transfers: u64,
    pub words_in: u64,
    pub words_out: u64,
    pub busy_cycles: u64,
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

impl Machine {
    /// The counters now, summed over the cores (what a launch's figures are differences of).
    pub fn counts(&self) -> crate::launch::Counts {
        let mut c = crate::launch::Counts {
            cycle: self.cycle,
            loads: self.stats.loads,
            stores: self.stats.stores,
            atomics: self.stats.atomics,
            per_op: self.stats.per_op.clone(),
            ..Default::default()
        };
        for w in self.cores.iter().flat_map(|core| &core.warps) {
            let s = &w.stats;
            c.warp_instructions += s.warp_instructions;
            c.thread_instructions += s.thread_instructions;
            c.divergences += s.divergences;
            c.reconvergences += s.reconvergences;
            c.barrier_waits += s.barrier_waits;
        }
        c
    }

    /// Starts and ends of kernel launches so far (a timing model notices a new one by it).
    pub fn launch_events(&self) -> u64 {
        self.launches.events()
    }

    /// Kernel launches begun so far.
    pub fn launches_begun(&self) -> usize {
        self.launches.begun() as usize
    }

    /// Is a kernel launch under way?
    pub fn launch_open(&self) -> bool {
        self.launches.open()
    }

    /// Build the report from the counters.
    pub fn report(&self) -> Report {
        let lanes = self.cfg.lanes as u64;
        let mut per_warp = Vec::new();
        for (c, core) in self.cores.iter().enumerate() {
            for (w, warp) in core.warps.iter().enumerate() {
                let s = &warp.stats;
                per_warp.push(WarpReport {
                    core: c,
                    warp: w,
                    warp_instructions: s.warp_instructions,
                    thread_instructions: s.thread_instructions,
                    simd_efficiency: ratio(s.thread_instructions, s.warp_instructions * lanes),
                    divergences: s.divergences,
                    reconvergences: s.reconvergences,
                    max_divergence_depth: s.max_divergence_depth,
                    stack_spills: warp.stack.spills,
                    stack_fills: warp.stack.fills,
                    barrier_waits: s.barrier_waits,
                });
            }
        }
        let sum = |f: fn(&WarpReport) -> u64| per_warp.iter().map(f).sum::<u64>();
        let wi = sum(|w| w.warp_instructions);
        let ti = sum(|w| w.thread_instructions);
        let classes = crate::launch::classes(&[], &self.stats.per_op);
        let mut mnemonics = BTreeMap::new();
        for (k, &count) in self.stats.per_op.iter().enumerate() {
            if count > 0 {
                mnemonics.insert(TABLE[k].name.to_string(), count);
            }
        }
        Report {
            model: if self.cfg.timing {
                "timing"
            } else {
                "functional"
            },
            cores: self.cfg.cores,
            warps: self.cfg.warps,
            lanes: self.cfg.lanes,
            reconvergence: self.cfg.reconv.name(),
            cycles: self.cycle,
            warp_instructions: wi,
            thread_instructions: ti,
            simd_efficiency: ratio(ti, wi * lanes),
            ipc: ratio(wi, self.cycle * self.cfg.cores as u64),
            divergences: sum(|w| w.divergences),
            reconvergences: sum(|w| w.reconvergences),
            max_divergence_depth: per_warp
                .iter()
                .map(|w| w.max_divergence_depth)
                .max()
                .unwrap_or(0),
            stack_spills: sum(|w| w.stack_spills),
            stack_fills: sum(|w| w.stack_fills),
            loads: self.stats.loads,
            stores: self.stats.stores,
            atomics: self.stats.atomics,
            classes,
            mnemonics,
            per_warp,
            display: self.display().stats,
            dma: (0..self.cfg.cores).fold(DmaReport::default(), |mut r, c| {
                let d = self.dma_stats(c);
                r.triggers += d.triggers;
                r.transfers += d.transfers;
                r.words_in += d.dwords_in;
                r.words_out += d.dwords_out;
                r.busy_cycles += d.busy_cycles;
                r
            }),
            dxa: self.dxa_stats(),
            launches: self
                .launches
                .reports(&self.counts(), lanes, self.cfg.cores as u64, |pc| {
                    crate::launch::kernel_name(&self.symbols, pc)
                }),
        }
    }
}

impl Report {
    /// The kernel launches' rows of the table: each launch's own figures, then what ran
    /// outside them (`main`'s serial part).
    pub fn launch_table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "  kernel launches:               cycles    warp-instr    thread-instr   SIMD eff  diverg"
        );
        let row = |s: &mut String, name: &str, cy: u64, wi: u64, ti: u64, div: u64| {
            let eff = ratio(ti, wi * self.lanes as u64);
            let _ = writeln!(
                s,
                "    {name:<24} {cy:>11} {wi:>13} {ti:>15} {:>9.1}% {div:>7}",
                100.0 * eff
            );
        };
        let (mut cy, mut wi, mut ti, mut div) = (0, 0, 0, 0);
        for l in &self.launches {
            let mut name = format!("{} {}", l.index, l.kernel);
            if !l.complete {
                name.push_str(" (cut short)");
            }
            if name.chars().count() > 24 {
                name = name.chars().take(23).collect::<String>() + "…";
            }
            row(
                &mut s,
                &name,
                l.cycles,
                l.warp_instructions,
                l.thread_instructions,
                l.divergences,
            );
            cy += l.cycles;
            wi += l.warp_instructions;
            ti += l.thread_instructions;
            div += l.divergences;
        }
        row(
            &mut s,
            "outside launches",
            self.cycles.saturating_sub(cy),
            self.warp_instructions.saturating_sub(wi),
            self.thread_instructions.saturating_sub(ti),
            self.divergences.saturating_sub(div),
        );
        s
    }

    /// The readable table printed by `--stats`.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "weft {} model: {} core(s) × {} warps × {} lanes, reconvergence: {}",
            self.model, self.cores, self.warps, self.lanes, self.reconvergence
        );
        let rows: [(&str, String); 11] = [
            ("cycles", self.cycles.to_string()),
            ("warp instructions", self.warp_instructions.to_string()),
            ("thread instructions", self.thread_instructions.to_string()),
            (
                "SIMD efficiency",
                format!("{:.1}%", 100.0 * self.simd_efficiency),
            ),
            ("IPC (warp-instr/cycle/core)", format!("{:.3}", self.ipc)),
            ("divergences", self.divergences.to_string()),
            ("reconvergences", self.reconvergences.to_string()),
            (
                "max divergence depth",
                self.max_divergence_depth.to_string(),
            ),
            ("lane loads", self.loads.to_string()),
            ("lane stores", self.stores.to_string()),
            ("lane atomics", self.atomics.to_string()),
        ];
        for (k, v) in rows {
            let _ = writeln!(s, "  {k:<28} {v:>14}");
        }
        let d = &self.display;
        if d.frames_captured > 0 || self.dma.triggers > 0 {
            let _ = writeln!(
                s,
                "  {:<28} {:>14}",
                "frames scanned / captured",
                format!("{} / {}", d.frames_scanned, d.frames_captured)
            );
            let m = &self.dma;
            let _ = writeln!(
                s,
                "  {:<28} {:>14}",
                "DMA triggers / slots",
                format!("{} / {}", m.triggers, m.transfers)
            );
            let _ = writeln!(
                s,
                "  {:<28} {:>14}",
                "DMA words in / out",
                format!("{} / {}", m.words_in, m.words_out)
            );
        }
        let x = &self.dxa;
        if x.transfers + x.gmem_reads > 0 {
            let rows = [
                ("DXA copies", x.transfers.to_string()),
                (
                    "DXA pieces read / repeated",
                    format!("{} / {}", x.gmem_reads, x.gmem_dedup),
                ),
                ("DXA local-memory writes", x.lmem_writes.to_string()),
                ("DXA cycles (copies summed)", x.total_latency.to_string()),
            ];
            for (k, v) in rows {
                let _ = writeln!(s, "  {k:<28} {v:>14}");
            }
        }
        if self.stack_spills > 0 {
            let _ = writeln!(
                s,
                "  {:<28} {:>14}",
                "stack entries spilled / filled",
                format!("{} / {}", self.stack_spills, self.stack_fills)
            );
        }
        if !self.launches.is_empty() {
            s.push_str(&self.launch_table());
        }
        let _ = writeln!(s, "  instruction classes:");
        for (k, v) in &self.classes {
            let _ = writeln!(s, "    {k:<26} {v:>14}");
        }
        let _ = writeln!(
            s,
            "  per warp:            warp-instr    thread-instr   SIMD eff  diverg  max depth"
        );
        for w in &self.per_warp {
            if w.warp_instructions > 0 {
                let _ = writeln!(
                    s,
                    "    core {:>3} warp {:>2} {:>12} {:>15} {:>9.1}% {:>7} {:>10}",
                    w.core,
                    w.warp,
                    w.warp_instructions,
                    w.thread_instructions,
                    100.0 * w.simd_efficiency,
                    w.divergences,
                    w.max_divergence_depth
                );
            }
        }
        s
    }
}

//! Vortex's memory counter class (`VX_DCR_MPM_CLASS_MEM`) answered from weft's timing model:
//! the counters `vx_mpm_query` reads for class 2, and the lines `vx_dump_perf` prints with
//! `VORTEX_PROFILING=2`, in the format of Vortex's runtime (`sw/runtime/common`), so a host
//! program's profile reads the same on SimX and on weft.
//!
//! Each counter is the timing model's own count of the same event: I-cache reads and
//! misses, D-cache reads, writes, read and write misses (an access merged into a fill on its
//! way counts as a miss, as SimX's MSHR hits do), cycles requests waited for a busy bank or
//! a free MSHR, the L2's, and the requests DRAM answered with their summed latency. weft
//! keeps no count of shared-memory lane requests, memory-bank stalls or coalescer misses:
//! those read 0, and are not printed (no `lmem:` or `coalescer:` lines, no `bank_st` in the
//! `memory:` line). Without the timing model there are no
//! caches, and every counter reads 0.

use weft_timing::{CacheStats, MemStats, TimingModel};

/// `VX_DCR_MPM_CLASS_MEM`.
pub const MPM_CLASS_MEM: u32 = 2;

/// The memory counters of every core (L1, I-cache, the rest) and the L2.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemCounters {
    cores: Vec<(CacheStats, CacheStats, MemStats)>,
    l2: Option<CacheStats>,
}

impl MemCounters {
    /// The model's counters now, for `cores` cores (all zero without a model).
    pub fn read(timing: Option<&TimingModel>, cores: usize) -> MemCounters {
        match timing {
            Some(t) => MemCounters {
                cores: (0..cores).map(|c| t.core_memory(c)).collect(),
                l2: t.l2_memory(),
            },
            None => MemCounters {
                cores: vec![Default::default(); cores],
                l2: None,
            },
        }
    }

    /// The counts since `earlier` (a reading of the same model).
    pub fn since(&self, earlier: &MemCounters) -> MemCounters {
        MemCounters {
            cores: self
                .cores
                .iter()
                .zip(&earlier.cores)
                .map(|(a, b)| (a.0.since(&b.0), a.1.since(&b.1), a.2.since(&b.2)))
                .collect(),
            l2: match (self.l2, earlier.l2) {
                (Some(a), Some(b)) => Some(a.since(&b)),
                (a, _) => a,
            },
        }
    }

    /// DRAM's counters, summed over the cores.
    fn memory(&self) -> MemStats {
        let mut m = MemStats::default();
        for c in &self.cores {
            m.add(&c.2);
        }
        m
    }

    /// Counter `addr` (0xB03…0xB1F, `VX_CSR_MPM_*` of the memory class) of core `core`:
    /// the caches' per core, the L2's and DRAM's for the whole machine, as SimX answers them.
    pub fn value(&self, addr: u32, core: usize) -> u64 {
        let Some((l1, ic, ms)) = self.cores.get(core) else {
            return 0;
        };
        let l2 = self.l2.unwrap_or_default();
        match addr {
            0xB03 => ic.accesses,
            0xB04 => ic.misses,
            0xB05 => ic.mshr_stall_cycles,
            0xB06 => l1.accesses - l1.writes,
            0xB07 => l1.writes,
            0xB08 => l1.misses - l1.write_misses,
            0xB09 => l1.write_misses,
            0xB0A => l1.bank_conflicts,
            0xB0B => l1.mshr_stall_cycles,
            0xB0C => l2.accesses - l2.writes,
            0xB0D => l2.writes,
            0xB0E => l2.misses - l2.write_misses,
            0xB0F => l2.write_misses,
            0xB10 => l2.bank_conflicts,
            0xB11 => l2.mshr_stall_cycles,
            0xB18 => self.memory().dram_reads,
            0xB19 => self.memory().dram_writes,
            0xB1A => self.memory().dram_read_cycles,
            0xB1D => ms.smem_bank_conflicts,
            _ => 0,
        }
    }

    /// The lines `vx_dump_perf` prints for the memory class (`VORTEX_PROFILING=2`), in
    /// Vortex's format: each core's I- and D-cache, the L2, then DRAM (without the memory
    /// banks' stalls, which weft does not count).
    pub fn lines(&self) -> String {
        let mut s = String::new();
        for (c, (l1, ic, _)) in self.cores.iter().enumerate() {
            s += &format!(
                "PERF: core{c}: icache: reads={}, miss={} (hit={}%), mshr_st={} (utility={}%)\n",
                ic.accesses,
                ic.misses,
                hit_percent(ic.misses, ic.accesses),
                ic.mshr_stall_cycles,
                utility(ic.misses, ic.mshr_stall_cycles)
            );
            s += &cache_line(&format!("core{c}: dcache"), l1, true);
        }
        if let Some(l2) = &self.l2 {
            s += &cache_line("core0: l2cache", l2, false);
        }
        let m = self.memory();
        let lat = if m.dram_reads == 0 {
            0.0
        } else {
            m.dram_read_cycles as f64 / m.dram_reads as f64
        };
        s += &format!(
            "PERF: memory: reqs={} (r={}, w={}), lat={lat:.1} cyc\n",
            m.dram_reads + m.dram_writes,
            m.dram_reads,
            m.dram_writes,
        );
        s
    }
}

/// A cache's line: requests, read and write misses with their hit rates, and (for the
/// L1) its bank stalls.
fn cache_line(name: &str, k: &CacheStats, banks: bool) -> String {
    let (reads, read_misses) = (k.accesses - k.writes, k.misses - k.write_misses);
    let mut s = format!(
        "PERF: {name}: reqs={}, miss_r={read_misses} (hit={}%), miss_w={} (hit={}%)",
        k.accesses,
        hit_percent(read_misses, reads),
        k.write_misses,
        hit_percent(k.write_misses, k.writes),
    );
    if banks {
        s += &format!(
            ", bank_st={} (utility={}%)",
            k.bank_conflicts,
            utility(k.accesses, k.bank_conflicts)
        );
    }
    s + "\n"
}

/// Vortex's `calc_ratio`: the hit rate in whole percent (0 with no accesses).
fn hit_percent(misses: u64, accesses: u64) -> u64 {
    if accesses == 0 {
        return 0;
    }
    ((1.0 - misses as f64 / accesses as f64) * 100.0).round() as u64
}

/// Vortex's `calc_utility`: useful / (useful + stalls) in whole percent.
fn utility(useful: u64, stalls: u64) -> u64 {
    if useful + stalls == 0 {
        return 0;
    }
    (useful as f64 * 100.0 / (useful + stalls) as f64).round() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lines_follow_vortex_s_format_and_arithmetic() {
        let l1 = CacheStats {
            accesses: 100,
            writes: 20,
            misses: 30,
            write_misses: 10,
            bank_conflicts: 25,
            ..Default::default()
        };
        let ic = CacheStats {
            accesses: 50,
            misses: 5,
            ..Default::default()
        };
        let ms = MemStats {
            dram_reads: 4,
            dram_writes: 6,
            dram_read_cycles: 402,
            ..Default::default()
        };
        let k = MemCounters {
            cores: vec![(l1, ic, ms)],
            l2: None,
        };
        assert_eq!(
            k.lines(),
            "PERF: core0: icache: reads=50, miss=5 (hit=90%), mshr_st=0 (utility=100%)\n\
             PERF: core0: dcache: reqs=100, miss_r=20 (hit=75%), miss_w=10 (hit=50%), bank_st=25 (utility=80%)\n\
             PERF: memory: reqs=10 (r=4, w=6), lat=100.5 cyc\n"
        );
        assert_eq!(k.value(0xB06, 0), 80, "D-cache reads");
        assert_eq!(k.value(0xB08, 0), 20, "D-cache read misses");
        assert_eq!(k.value(0xB1A, 0), 402, "DRAM latency, summed");
        assert_eq!(k.value(0xB06, 1), 0, "no core 1");
    }
}

//! The memory system a warp's memory instruction meets: coalescing of the lanes' addresses
//! into line requests, the per-core L1 data cache and instruction cache, banked shared memory
//! with bank-conflict serialization, the I/O page, an optional L2 shared by every core, and
//! DRAM with latency, bandwidth and a bound on requests in flight. Every access is timed when
//! it is made (see `cache.rs`): the functional model has already done it (execute at issue),
//! and this module only says when its data arrives and what it cost.

use crate::cache::{Cache, CacheStats, Outcome};
use crate::dram::Dram;
use crate::TimingConfig;
use weft_simt::record::AccessKind;
// The I/O page (console, exit word) is uncached, timed by `pipeline.io_latency`.
use weft_mem::IO_BASE;
use weft_simt::Config;

/// Per-core memory counters besides the caches'.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct MemStats {
    /// Warp memory instructions to shared memory.
    pub smem_accesses: u64,
    /// Extra cycles shared-memory accesses took for bank conflicts.
    pub smem_bank_conflicts: u64,
    /// Lane accesses to the I/O page and other uncached addresses.
    pub io_accesses: u64,
    /// Atomic operations (performed at the L2, or at memory without one).
    pub atomics: u64,
    /// Bytes the core's DMA engine moved (each way).
    pub dma_bytes: u64,
    /// Bytes DRAM read for this core.
    pub dram_read_bytes: u64,
    /// Bytes DRAM wrote for this core.
    pub dram_write_bytes: u64,
    /// Read requests (a line fill, an uncached load) DRAM answered for this core.
    pub dram_reads: u64,
    /// Write requests (a write-through store, a write-back, an uncached store).
    pub dram_writes: u64,
    /// Cycles from each read request to its answer, summed (over `dram_reads`: the mean
    /// memory latency).
    pub dram_read_cycles: u64,
    /// Bytes of divergence-stack entries the core's warps moved to and from their spill
    /// areas (part of the DRAM bytes).
    pub stack_spill_bytes: u64,
}

impl MemStats {
    /// Add another core's counters.
    pub fn add(&mut self, o: &MemStats) {
        self.smem_accesses += o.smem_accesses;
        self.smem_bank_conflicts += o.smem_bank_conflicts;
        self.io_accesses += o.io_accesses;
        self.atomics += o.atomics;
        self.dma_bytes += o.dma_bytes;
        self.dram_read_bytes += o.dram_read_bytes;
        self.dram_write_bytes += o.dram_write_bytes;
        self.dram_reads += o.dram_reads;
        self.dram_writes += o.dram_writes;
        self.dram_read_cycles += o.dram_read_cycles;
        self.stack_spill_bytes += o.stack_spill_bytes;
    }

    /// The counts since `earlier` (a snapshot of the same counters).
    pub fn since(&self, earlier: &MemStats) -> MemStats {
        MemStats {
            smem_accesses: self.smem_accesses - earlier.smem_accesses,
            smem_bank_conflicts: self.smem_bank_conflicts - earlier.smem_bank_conflicts,
            io_accesses: self.io_accesses - earlier.io_accesses,
            atomics: self.atomics - earlier.atomics,
            dma_bytes: self.dma_bytes - earlier.dma_bytes,
            dram_read_bytes: self.dram_read_bytes - earlier.dram_read_bytes,
            dram_write_bytes: self.dram_write_bytes - earlier.dram_write_bytes,
            dram_reads: self.dram_reads - earlier.dram_reads,
            dram_writes: self.dram_writes - earlier.dram_writes,
            dram_read_cycles: self.dram_read_cycles - earlier.dram_read_cycles,
            stack_spill_bytes: self.stack_spill_bytes - earlier.stack_spill_bytes,
        }
    }
}

/// A request of core `c` to DRAM (`bytes` of `line` at `t`, a read or a write), counted in
/// `stats`. Returns when DRAM has answered.
fn to_dram(
    dram: &mut Dram,
    stats: &mut MemStats,
    c: usize,
    line: u32,
    bytes: u32,
    t: u64,
    write: bool,
) -> u64 {
    let done = dram.request(c, line, bytes, t);
    if write {
        stats.dram_write_bytes += bytes as u64;
        stats.dram_writes += 1;
    } else {
        stats.dram_read_bytes += bytes as u64;
        stats.dram_reads += 1;
        stats.dram_read_cycles += done.saturating_sub(t);
    }
    done
}

/// One core's private memories.
struct CoreMem {
    l1: Cache,
    icache: Cache,
    smem_free: u64,
    /// When each load in flight in the load/store unit completes (`pipeline.lsu_loads`).
    loads: Vec<u64>,
    /// When each memory instruction waiting for a place among them gets it.
    waiting: Vec<u64>,
    /// With `pipeline.lsu_in_order`: when the LSU has sent the last memory instruction's
    /// requests and can start the next.
    lsu_next: u64,
    stats: MemStats,
}

/// What a warp memory instruction costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemTiming {
    /// When loaded data is in the register (for stores: when the last write is done).
    pub done: u64,
    /// The cycle the LSU may take the next instruction (one line request per cycle).
    pub lsu_free: u64,
    /// When the access started: its issue's address cycle, or later for a load that waited
    /// for a place among the loads in flight.
    pub start: u64,
}

/// The whole memory system.
pub struct MemSys {
    cores: Vec<CoreMem>,
    l2: Option<Cache>,
    dram: Dram,
    smem_base: u32,
    smem_size: u32,
    smem_banks: u32,
    smem_latency: u64,
    io_latency: u64,
    coalesce: bool,
    /// Bytes of the blocks lanes merge in (`pipeline.coalesce_lane_bytes`); 0: L1 lines.
    block: u32,
    /// Loads a core keeps in flight (0: no bound).
    lsu_loads: usize,
    /// Memory instructions leave the LSU in issue order (`pipeline.lsu_in_order`).
    lsu_in_order: bool,
    /// Data addresses no cache holds (`dram.uncached`: start, length).
    uncached: (u32, u32),
    /// Line requests of one warp access, reused.
    lines: Vec<(u32, u32)>,
    /// Its blocks in the uncached range, reused.
    uncached_blocks: Vec<u32>,
    /// Shared-memory words per bank, reused.
    bank_words: Vec<Vec<u32>>,
}

impl MemSys {
    /// The memory system of the machine `cfg` with the timing parameters `t`.
    pub fn new(cfg: &Config, t: &TimingConfig) -> MemSys {
        let banks = if t.smem.banks == 0 {
            cfg.lanes as u32
        } else {
            t.smem.banks
        };
        MemSys {
            cores: (0..cfg.cores)
                .map(|_| CoreMem {
                    l1: Cache::new(t.l1),
                    icache: Cache::new(t.icache),
                    smem_free: 0,
                    loads: Vec::new(),
                    waiting: Vec::new(),
                    lsu_next: 0,
                    stats: MemStats::default(),
                })
                .collect(),
            l2: t.l2.enabled.then(|| Cache::new(t.l2)),
            dram: Dram::new(t.dram, cfg.cores),
            smem_base: cfg.local_mem_base,
            smem_size: cfg.local_mem_size,
            smem_banks: banks,
            smem_latency: t.smem.latency as u64,
            io_latency: t.pipeline.io_latency as u64,
            coalesce: t.pipeline.coalesce,
            block: match t.pipeline.coalesce_lane_bytes {
                0 => 0,
                b => (b as u64 * cfg.lanes as u64).min(t.l1.line as u64) as u32,
            },
            lsu_loads: t.pipeline.lsu_loads as usize,
            lsu_in_order: t.pipeline.lsu_in_order,
            uncached: (t.dram.uncached[0], t.dram.uncached[1] - t.dram.uncached[0]),
            lines: Vec::with_capacity(32),
            uncached_blocks: Vec::new(),
            bank_words: vec![Vec::new(); banks as usize],
        }
    }

    /// Read (`write` false) or write `bytes` of the line `line` below the L1s, at `t`, for
    /// core `c`: through the L2 if there is one, else DRAM. Returns when it is done.
    fn below(&mut self, c: usize, line: u32, bytes: u32, t: u64, write: bool) -> u64 {
        let stats = &mut self.cores[c].stats;
        let dram = &mut self.dram;
        let Some(l2) = &mut self.l2 else {
            return to_dram(dram, stats, c, line, bytes, t, write);
        };
        let l2_line = l2.line_of(line);
        let through = l2.write_through();
        match l2.access(l2_line, t, write) {
            Outcome::Hit(d) | Outcome::Bypass(d) => {
                if write && through {
                    to_dram(dram, stats, c, line, bytes, d, true);
                }
                d
            }
            Outcome::Miss { start, victim } => {
                let size = l2.line_size();
                if let Some(v) = victim {
                    to_dram(dram, stats, c, v, size, start, true);
                }
                let fill = to_dram(dram, stats, c, l2_line, size, start, false);
                l2.filled(l2_line, fill)
            }
        }
    }

    /// A DMA burst of core `c`: `bytes` at DRAM address `addr`, read (`write` false: DRAM to
    /// shared memory) or written, requested at `t`, past the L1 (through the L2 if there is
    /// one). Returns when it is done.
    pub fn dma(&mut self, c: usize, addr: u32, bytes: u32, t: u64, write: bool) -> u64 {
        self.cores[c].stats.dma_bytes += bytes as u64;
        self.below(c, addr, bytes, t, write)
    }

    /// Divergence-stack spill traffic of a warp of core `c`: `bytes` of entries written to
    /// (`write`) or read from its spill area at `t`, straight to DRAM (the spill area is not
    /// cached). Returns when it is done.
    pub fn stack_spill(&mut self, c: usize, bytes: u32, t: u64, write: bool) -> u64 {
        let stats = &mut self.cores[c].stats;
        stats.stack_spill_bytes += bytes as u64;
        // The step record gives no address for the spill area; its traffic goes to a row of
        // its own per core (a warp's spill area is contiguous, so a run of spills and fills
        // stays mostly within one row).
        let row = u32::MAX - ((c as u32 + 1) << 12) + 1;
        to_dram(&mut self.dram, stats, c, row, bytes, t, write)
    }

    /// The I-cache line holding `pc`.
    pub fn icache_line(&self, c: usize, pc: u32) -> u32 {
        self.cores[c].icache.line_of(pc)
    }

    /// Fetch at `pc` for core `c` at cycle `t`: when the instruction is available (a hit is
    /// available at once; the I-cache's hit time is part of the front end).
    pub fn fetch(&mut self, c: usize, pc: u32, t: u64) -> u64 {
        let ic = &mut self.cores[c].icache;
        let line = ic.line_of(pc);
        let size = ic.line_size();
        let (ready, start) = match ic.access(line, t, false) {
            Outcome::Hit(d) => (d.saturating_sub(ic.hit_latency()).max(t), t),
            Outcome::Bypass(d) => (d, t),
            Outcome::Miss { start, .. } => {
                let fill = self.below(c, line, size, start, false);
                self.cores[c].icache.filled(line, fill);
                (fill, start)
            }
        };
        // Tagged sequential prefetch: after a miss, or the first use of a line the prefetcher
        // brought in, the next lines are requested one cycle apart, each only if absent and
        // an MSHR is free.
        for k in 1..=self.cores[c].icache.take_prefetch() {
            let Some(next) = line.checked_add(k * size) else {
                break;
            };
            let at = start + k as u64;
            if let Some(Outcome::Miss { victim, .. }) = self.cores[c].icache.prefetch(next, at) {
                if let Some(v) = victim {
                    self.below(c, v, size, at, true);
                }
                let done = self.below(c, next, size, at, false);
                self.cores[c].icache.filled(next, done);
            }
        }
        ready
    }

    /// A warp memory instruction of core `c` whose addresses are ready at `t`: `addrs[l]`
    /// for each lane `l` of `mask`, `size` bytes each. A load waits first for a place among
    /// the core's loads in flight (`pipeline.lsu_loads`); with `pipeline.lsu_in_order` every
    /// memory instruction first waits for the LSU to have sent the one before it.
    pub fn access(
        &mut self,
        c: usize,
        kind: AccessKind,
        size: u8,
        mask: u32,
        addrs: &[u32; 32],
        t: u64,
    ) -> MemTiming {
        let bounded = self.lsu_loads > 0 && kind != AccessKind::Store;
        let cm = &mut self.cores[c];
        let mut start = t;
        if self.lsu_in_order {
            start = start.max(cm.lsu_next);
        }
        if bounded {
            start = crate::cache::wait_for_slot(&mut cm.loads, self.lsu_loads, start);
        }
        if start > t {
            cm.waiting.retain(|&w| w > t);
            cm.waiting.push(start);
        }
        let mt = self.access_at(c, kind, size, mask, addrs, start);
        let cm = &mut self.cores[c];
        if bounded {
            cm.loads.push(mt.done.max(start) + 1);
        }
        if self.lsu_in_order {
            cm.lsu_next = mt.lsu_free;
        }
        mt
    }

    /// With a bound on loads in flight: whether the LSU can take a memory instruction at `t`
    /// when `lsu_queue` of them may wait for a place; if not, the cycle it can. With no
    /// queue it waits while every place is taken; with one, while the queue is full.
    pub fn lsu_queue_full(&mut self, c: usize, t: u64, lsu_queue: usize) -> Option<u64> {
        if self.lsu_loads == 0 {
            return None;
        }
        let cm = &mut self.cores[c];
        if lsu_queue == 0 {
            cm.loads.retain(|&d| d > t);
            return (cm.loads.len() >= self.lsu_loads)
                .then(|| cm.loads.iter().copied().min().unwrap_or(t));
        }
        cm.waiting.retain(|&s| s > t);
        (cm.waiting.len() >= lsu_queue).then(|| cm.waiting.iter().copied().min().unwrap_or(t))
    }

    /// [`MemSys::access`] once the access has its place.
    fn access_at(
        &mut self,
        c: usize,
        kind: AccessKind,
        size: u8,
        mask: u32,
        addrs: &[u32; 32],
        t: u64,
    ) -> MemTiming {
        let mut done = t;
        let mut lsu_free = t + 1;
        // Split the lanes: shared memory, DRAM lines, other (I/O).
        self.lines.clear();
        let mut smem = false;
        let mut io = 0u64;
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let a = addrs[l];
            if a.wrapping_sub(self.smem_base) < self.smem_size {
                if !smem {
                    for b in &mut self.bank_words {
                        b.clear();
                    }
                    smem = true;
                }
                let word = a >> 2;
                let bank = &mut self.bank_words[(word % self.smem_banks) as usize];
                if !bank.contains(&word) {
                    bank.push(word);
                }
            } else if a >= IO_BASE {
                io += 1;
            } else {
                // (the request's block: its L1 line, or a part of it)
                let line = match self.block {
                    0 => self.cores[c].l1.line_of(a),
                    b => a - a % b,
                };
                if a.wrapping_sub(self.uncached.0) < self.uncached.1 {
                    self.cores[c].stats.io_accesses += 1;
                    if !self.uncached_blocks.contains(&line) {
                        self.uncached_blocks.push(line);
                    }
                    continue;
                }
                if !self.coalesce {
                    self.lines.push((line, size as u32));
                    continue;
                }
                match self.lines.last_mut() {
                    Some(e) if e.0 == line => e.1 += size as u32,
                    _ => match self.lines.iter_mut().find(|(ln, _)| *ln == line) {
                        Some(e) => e.1 += size as u32,
                        None => self.lines.push((line, size as u32)),
                    },
                }
            }
        }
        let cm = &mut self.cores[c];
        if smem {
            let degree = self.bank_words.iter().map(|b| b.len()).max().unwrap_or(1) as u64;
            let start = t.max(cm.smem_free);
            cm.smem_free = start + degree;
            cm.stats.smem_accesses += 1;
            cm.stats.smem_bank_conflicts += degree - 1;
            done = done.max(start + self.smem_latency + degree - 1);
            lsu_free = lsu_free.max(start + degree);
        }
        if io > 0 {
            cm.stats.io_accesses += io;
            done = done.max(t + self.io_latency);
        }
        // Uncached blocks: each a request of its own to DRAM, one per cycle, before the
        // cached lines (SimX's cache sends I/O requests past its banks).
        let n_unc = self.uncached_blocks.len() as u64;
        let bytes = match self.block {
            0 => self.cores[c].l1.line_size(),
            b => b,
        };
        for k in 0..self.uncached_blocks.len() {
            let (r, line) = (t + k as u64, self.uncached_blocks[k]);
            let stats = &mut self.cores[c].stats;
            let store = kind == AccessKind::Store;
            let answered = to_dram(&mut self.dram, stats, c, line, bytes, r, store);
            // (a store is posted, as a write-through store is; a load or AMO waits)
            done = done.max(if store { r + 1 } else { answered });
            lsu_free = lsu_free.max(r + 1);
        }
        self.uncached_blocks.clear();
        let lines = std::mem::take(&mut self.lines);
        for (k, &(line, bytes)) in lines.iter().enumerate() {
            let k = k + n_unc as usize;
            let r = t + k as u64;
            let d = if kind == AccessKind::Amo {
                self.cores[c].stats.atomics += 1;
                self.below(c, line, bytes, r, true)
            } else {
                self.line_access(c, line, bytes, r, kind == AccessKind::Store)
            };
            done = done.max(d);
            lsu_free = lsu_free.max(r + 1);
        }
        self.lines = lines;
        MemTiming {
            done,
            lsu_free,
            start: t,
        }
    }

    /// One line request to core `c`'s L1.
    fn line_access(&mut self, c: usize, block: u32, bytes: u32, r: u64, write: bool) -> u64 {
        let l1 = &mut self.cores[c].l1;
        let line = l1.line_of(block);
        let through = l1.write_through();
        match l1.access(line, r, write) {
            Outcome::Hit(d) => {
                if write && through {
                    self.below(c, line, bytes, d, true);
                }
                d
            }
            Outcome::Bypass(d) => {
                self.below(c, line, bytes, d, true);
                d
            }
            Outcome::Miss { start, victim } => {
                let size = self.cores[c].l1.line_size();
                if let Some(v) = victim {
                    self.below(c, v, size, start, true);
                }
                let fill = self.below(c, line, size, start, false);
                self.cores[c].l1.filled(line, fill)
            }
        }
    }

    /// Empty the caches, close the DRAM rows and forget what is in flight, keeping every
    /// counter (`pipeline.launch_resets_memory`).
    pub fn empty(&mut self) {
        for cm in &mut self.cores {
            cm.l1.empty();
            cm.icache.empty();
            cm.loads.clear();
            cm.waiting.clear();
            cm.lsu_next = 0;
        }
        if let Some(l2) = &mut self.l2 {
            l2.empty();
        }
        self.dram.empty();
    }

    /// Core `c`'s counters: L1, I-cache, and the rest.
    pub fn core_stats(&self, c: usize) -> (CacheStats, CacheStats, MemStats) {
        let m = &self.cores[c];
        (m.l1.stats, m.icache.stats, m.stats)
    }

    /// The L2's counters, if there is one.
    pub fn l2_stats(&self) -> Option<CacheStats> {
        self.l2.as_ref().map(|c| c.stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MachineConfig;

    /// One core whose LSU keeps one load in flight; a load that misses, a second load that
    /// waits for its place, then a store.
    fn store_after_a_waiting_load(in_order: bool) -> (MemTiming, MemTiming) {
        let mut mc = MachineConfig::default();
        mc.timing.pipeline.lsu_loads = 1;
        mc.timing.pipeline.lsu_queue = 4;
        mc.timing.pipeline.lsu_in_order = in_order;
        let mut m = MemSys::new(&mc.machine, &mc.timing);
        let mut addrs = [0u32; 32];
        addrs[0] = 0x1000;
        let first = m.access(0, AccessKind::Load, 4, 1, &addrs, 0);
        addrs[0] = 0x2000;
        let second = m.access(0, AccessKind::Load, 4, 1, &addrs, 1);
        assert!(
            second.start >= first.done,
            "one load in flight: the second waits"
        );
        addrs[0] = 0x3000;
        (second, m.access(0, AccessKind::Store, 4, 1, &addrs, 2))
    }

    #[test]
    fn an_in_order_lsu_holds_a_store_behind_a_load_waiting_for_its_place() {
        let (load, store) = store_after_a_waiting_load(true);
        assert!(store.start >= load.lsu_free, "{store:?} after {load:?}");
        let (_, store) = store_after_a_waiting_load(false);
        assert_eq!(store.start, 2, "otherwise a store does not wait for loads");
    }
}

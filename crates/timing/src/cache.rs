//! A set-associative cache with LRU or FIFO replacement, banks and MSHRs, timed by reservation: an
//! access made at cycle `t` learns at once when its data will be ready, because every line
//! records when its fill completes and every bank when it is next free. Lines are installed
//! when the miss is made (with their fill time), so a later access to a line still being
//! filled merges into the outstanding miss (an MSHR merge) and waits for the same fill.

use crate::config::{Allocate, CacheConfig, Replacement, WritePolicy};

#[derive(Clone, Copy, Debug, Default)]
struct Line {
    tag: u32,
    valid: bool,
    dirty: bool,
    /// Last use (for LRU), or its fill (for FIFO).
    used: u64,
    /// When the fill completes.
    ready: u64,
    /// Brought in by the prefetcher and not yet used.
    prefetched: bool,
}

/// Counters of one cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct CacheStats {
    /// Line requests.
    pub accesses: u64,
    /// Of them, writes.
    pub writes: u64,
    /// Requests whose line was present and filled.
    pub hits: u64,
    /// Requests that missed (including those merged into an outstanding miss).
    pub misses: u64,
    /// Of them, writes.
    pub write_misses: u64,
    /// Misses to a line whose fill was already outstanding.
    pub mshr_merges: u64,
    /// Valid lines replaced.
    pub evictions: u64,
    /// Dirty lines written back (write-back caches).
    pub writebacks: u64,
    /// Extra cycles requests waited for a busy bank.
    pub bank_conflicts: u64,
    /// Cycles requests waited for a free MSHR.
    pub mshr_stall_cycles: u64,
    /// Lines the prefetcher fetched (not counted as accesses or misses).
    pub prefetches: u64,
}

impl CacheStats {
    /// Add another cache's counters.
    pub fn add(&mut self, o: &CacheStats) {
        self.accesses += o.accesses;
        self.writes += o.writes;
        self.hits += o.hits;
        self.misses += o.misses;
        self.write_misses += o.write_misses;
        self.mshr_merges += o.mshr_merges;
        self.evictions += o.evictions;
        self.writebacks += o.writebacks;
        self.bank_conflicts += o.bank_conflicts;
        self.mshr_stall_cycles += o.mshr_stall_cycles;
        self.prefetches += o.prefetches;
    }

    /// The counts since `earlier` (a snapshot of the same cache).
    pub fn since(&self, earlier: &CacheStats) -> CacheStats {
        CacheStats {
            accesses: self.accesses - earlier.accesses,
            writes: self.writes - earlier.writes,
            hits: self.hits - earlier.hits,
            misses: self.misses - earlier.misses,
            write_misses: self.write_misses - earlier.write_misses,
            mshr_merges: self.mshr_merges - earlier.mshr_merges,
            evictions: self.evictions - earlier.evictions,
            writebacks: self.writebacks - earlier.writebacks,
            bank_conflicts: self.bank_conflicts - earlier.bank_conflicts,
            mshr_stall_cycles: self.mshr_stall_cycles - earlier.mshr_stall_cycles,
            prefetches: self.prefetches - earlier.prefetches,
        }
    }
}

/// A bounded set of requests in flight, as their completion cycles: a new request at `t`
/// starts at `t`, or, if `cap` are still in flight then, when the earliest of them completes
/// (that one leaves the set). The caller adds the new request's completion.
pub(crate) fn wait_for_slot(in_flight: &mut Vec<u64>, cap: usize, t: u64) -> u64 {
    in_flight.retain(|&d| d > t);
    if in_flight.len() < cap {
        return t;
    }
    let (k, &first) = in_flight
        .iter()
        .enumerate()
        .min_by_key(|(_, d)| **d)
        .expect("the cap is at least 1");
    in_flight.swap_remove(k);
    first
}

/// `x` folded into `bits` bits by XOR of its groups.
#[inline]
fn fold(mut x: u32, bits: u32, mask: u32) -> u32 {
    if bits == 0 {
        return 0;
    }
    let mut f = 0;
    while x != 0 {
        f ^= x & mask;
        x >>= bits;
    }
    f
}

/// A fill on its way: the line number, when it completes (`u64::MAX` until the caller says
/// with [`Cache::filled`]), and whether the prefetcher asked for it.
#[derive(Clone, Copy, Debug)]
struct Fill {
    idx: u32,
    done: u64,
    prefetched: bool,
}

/// What an access found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Present: data at the given cycle.
    Hit(u64),
    /// Absent: the caller fetches the line from the next level starting at `start` (after
    /// any wait for an MSHR), then calls [`Cache::filled`]; `victim` is a dirty line address
    /// to write back, if one was evicted.
    Miss { start: u64, victim: Option<u32> },
    /// Absent and not allocated (a write-through store miss): data goes to the next level
    /// at the given cycle.
    Bypass(u64),
}

/// One cache.
pub struct Cache {
    cfg: CacheConfig,
    sets: u32,
    line_shift: u32,
    lines: Vec<Line>,
    bank_free: Vec<u64>,
    /// Completion times of outstanding misses.
    mshr: Vec<u64>,
    /// The outstanding fills. An access that misses in the tags merges into its line's fill
    /// even if the line has since lost its way (an MSHR is looked up by address, not through
    /// the tags); with [`Allocate::Fill`] they are the lines still to be installed.
    fills: Vec<Fill>,
    /// Counters.
    pub stats: CacheStats,
    /// The last access missed or first used a prefetched line: the prefetcher should run.
    trigger: bool,
}

impl Cache {
    /// An empty cache.
    pub fn new(cfg: CacheConfig) -> Cache {
        let sets = cfg.sets().max(1);
        Cache {
            cfg,
            sets,
            line_shift: cfg.line.trailing_zeros(),
            lines: vec![Line::default(); (sets * cfg.ways) as usize],
            bank_free: vec![0; cfg.banks as usize],
            mshr: Vec::with_capacity(cfg.mshrs as usize),
            fills: Vec::with_capacity(cfg.mshrs as usize),
            stats: CacheStats::default(),
            trigger: false,
        }
    }

    /// The line address (byte address of the line's first byte) holding `addr`.
    #[inline]
    pub fn line_of(&self, addr: u32) -> u32 {
        addr >> self.line_shift << self.line_shift
    }

    /// Invalidate every line and forget outstanding misses, keeping the counters (a
    /// machine that resets its caches between kernel launches).
    pub fn empty(&mut self) {
        for l in &mut self.lines {
            *l = Line::default();
        }
        self.mshr.clear();
        self.fills.clear();
        self.trigger = false;
    }

    /// The set and tag of line number `idx`. With `hash`, the set index is the low bits
    /// XORed with every higher group of as many bits, so lines a multiple of the set stride
    /// apart (per-lane stacks, matrix columns) spread over the sets instead of fighting for
    /// one; the tag is the high bits either way, so the line is still known exactly.
    #[inline]
    fn place(&self, idx: u32) -> (usize, u32) {
        let bits = self.sets.trailing_zeros();
        let tag = idx >> bits;
        let low = idx & (self.sets - 1);
        let set = if self.cfg.hash {
            low ^ fold(tag, bits, self.sets - 1)
        } else {
            low
        };
        (set as usize, tag)
    }

    /// The byte address of the line in `set` with `tag` (the inverse of [`Cache::place`]).
    fn line_address(&self, set: usize, tag: u32) -> u32 {
        let bits = self.sets.trailing_zeros();
        let low = if self.cfg.hash {
            set as u32 ^ fold(tag, bits, self.sets - 1)
        } else {
            set as u32
        };
        ((tag << bits) | low) << self.line_shift
    }

    /// Cycles for a hit.
    pub fn hit_latency(&self) -> u64 {
        self.cfg.hit_latency as u64
    }

    /// Stores go through to the next level?
    pub fn write_through(&self) -> bool {
        self.cfg.write_policy == WritePolicy::WriteThrough
    }

    /// Line size in bytes.
    pub fn line_size(&self) -> u32 {
        self.cfg.line
    }

    /// Access the line `line` at cycle `t`: a read (`write` false) or a write. The bank is
    /// taken for one cycle; a busy bank delays the access.
    pub fn access(&mut self, line: u32, t: u64, write: bool) -> Outcome {
        let idx = line >> self.line_shift;
        let bank = (idx & (self.cfg.banks - 1)) as usize;
        let t0 = t.max(self.bank_free[bank]);
        self.stats.bank_conflicts += t0 - t;
        self.bank_free[bank] = t0 + 1;
        self.stats.accesses += 1;
        self.stats.writes += write as u64;
        self.install_fills(t0);
        let (set, tag) = self.place(idx);
        let ways = self.cfg.ways as usize;
        let base = set * ways;
        let hit_lat = self.cfg.hit_latency as u64;
        let wb = self.cfg.write_policy == WritePolicy::WriteBack;
        if let Some(l) = self.lines[base..base + ways]
            .iter_mut()
            .find(|l| l.valid && l.tag == tag)
        {
            if self.cfg.replacement == Replacement::Lru {
                l.used = t0;
            }
            if write && wb {
                l.dirty = true;
            }
            self.trigger = std::mem::take(&mut l.prefetched);
            if l.ready <= t0 {
                self.stats.hits += 1;
                return Outcome::Hit(t0 + hit_lat);
            }
            self.stats.misses += 1;
            self.stats.write_misses += write as u64;
            self.stats.mshr_merges += 1;
            return Outcome::Hit(l.ready + hit_lat);
        }
        self.stats.misses += 1;
        self.stats.write_misses += write as u64;
        if write && !wb {
            self.trigger = true;
            return Outcome::Bypass(t0 + hit_lat);
        }
        if let Some(f) = self.fills.iter_mut().find(|f| f.idx == idx) {
            // the line lost its way (or has none yet) but its fill is still on the way
            self.trigger = std::mem::take(&mut f.prefetched);
            self.stats.mshr_merges += 1;
            return Outcome::Hit(f.done.saturating_add(hit_lat));
        }
        self.trigger = true;
        // Allocate: wait for an MSHR, choose the victim.
        let start = wait_for_slot(&mut self.mshr, self.cfg.mshrs as usize, t0);
        self.stats.mshr_stall_cycles += start - t0;
        self.fills.push(Fill {
            idx,
            done: u64::MAX,
            prefetched: false,
        });
        let victim = match self.cfg.allocate {
            Allocate::Miss => self.allocate(set, tag, start, write && wb, false),
            Allocate::Fill => None,
        };
        Outcome::Miss { start, victim }
    }

    /// Forget the fills complete by `t`; with [`Allocate::Fill`], first install them, in the
    /// order they completed, each in the way the replacement policy gives up then.
    fn install_fills(&mut self, t: u64) {
        if !self.fills.iter().any(|f| f.done <= t) {
            return;
        }
        let mut fills = std::mem::take(&mut self.fills);
        fills.sort_by_key(|f| f.done);
        let n = fills.partition_point(|f| f.done <= t);
        if self.cfg.allocate == Allocate::Fill {
            let ways = self.cfg.ways as usize;
            for f in &fills[..n] {
                let (set, tag) = self.place(f.idx);
                if !self.lines[set * ways..(set + 1) * ways]
                    .iter()
                    .any(|l| l.valid && l.tag == tag)
                {
                    self.allocate(set, tag, f.done, false, f.prefetched);
                    self.set_ready(f.idx, f.done);
                }
            }
        }
        fills.drain(..n);
        self.fills = fills;
    }

    /// Line number `idx`'s fill completes at `done` (if the line holds a way).
    fn set_ready(&mut self, idx: u32, done: u64) {
        let (set, tag) = self.place(idx);
        let ways = self.cfg.ways as usize;
        if let Some(l) = self.lines[set * ways..(set + 1) * ways]
            .iter_mut()
            .find(|l| l.valid && l.tag == tag)
        {
            l.ready = done;
        }
    }

    /// Put line `tag` of `set` in its least recently used way at `at` (its fill still to
    /// come), counting the eviction; returns the address of a dirty victim to write back.
    fn allocate(
        &mut self,
        set: usize,
        tag: u32,
        at: u64,
        dirty: bool,
        prefetched: bool,
    ) -> Option<u32> {
        let ways = self.cfg.ways as usize;
        let base = set * ways;
        let v = (base..base + ways)
            .min_by_key(|&k| (self.lines[k].valid, self.lines[k].used))
            .expect("ways is at least 1");
        let old = self.lines[v];
        let mut victim = None;
        if old.valid {
            self.stats.evictions += 1;
            if old.dirty {
                self.stats.writebacks += 1;
                victim = Some(self.line_address(set, old.tag));
            }
        }
        self.lines[v] = Line {
            tag,
            valid: true,
            dirty,
            used: at,
            ready: u64::MAX,
            prefetched,
        };
        victim
    }

    /// A prefetch of `line` at `t`: if the line is absent and an MSHR is free at once, it is
    /// allocated as a miss would allocate it (LRU way, no bank or counter of a request) and
    /// `Some` tells the caller to fetch it and call [`Cache::filled`], as for a miss;
    /// otherwise nothing happens (a prefetch never waits and never delays a request).
    pub fn prefetch(&mut self, line: u32, t: u64) -> Option<Outcome> {
        self.install_fills(t);
        let idx = line >> self.line_shift;
        let (set, tag) = self.place(idx);
        let ways = self.cfg.ways as usize;
        let base = set * ways;
        if self.lines[base..base + ways]
            .iter()
            .any(|l| l.valid && l.tag == tag)
            || self.fills.iter().any(|f| f.idx == idx)
        {
            return None;
        }
        self.mshr.retain(|&d| d > t);
        if self.mshr.len() >= self.cfg.mshrs as usize {
            return None;
        }
        self.stats.prefetches += 1;
        self.fills.push(Fill {
            idx,
            done: u64::MAX,
            prefetched: true,
        });
        let victim = match self.cfg.allocate {
            Allocate::Miss => self.allocate(set, tag, t, false, true),
            Allocate::Fill => None,
        };
        Some(Outcome::Miss { start: t, victim })
    }

    /// Lines to prefetch now (tagged sequential prefetch): the configuration's `prefetch`
    /// if the last [`Cache::access`] missed or was the first use of a prefetched line, else 0.
    pub fn take_prefetch(&mut self) -> u32 {
        if std::mem::take(&mut self.trigger) {
            self.cfg.prefetch
        } else {
            0
        }
    }

    /// The fill of `line` (after a [`Outcome::Miss`]) completes at `done`; returns when the
    /// requester has its data.
    pub fn filled(&mut self, line: u32, done: u64) -> u64 {
        let idx = line >> self.line_shift;
        if self.cfg.allocate == Allocate::Miss {
            self.set_ready(idx, done);
        }
        if let Some(f) = self
            .fills
            .iter_mut()
            .find(|f| f.idx == idx && f.done == u64::MAX)
        {
            f.done = done;
        }
        self.mshr.push(done);
        done + self.cfg.hit_latency as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> CacheConfig {
        CacheConfig {
            enabled: true,
            size: 256,
            line: 32,
            ways: 2,
            banks: 1,
            mshrs: 2,
            hit_latency: 1,
            write_policy: WritePolicy::WriteThrough,
            hash: false,
            prefetch: 0,
            replacement: Replacement::Lru,
            allocate: Allocate::Miss,
        }
    }

    #[test]
    fn a_miss_merges_into_the_fill_of_a_line_that_lost_its_way() {
        // Set 0 of 2 ways: 0x000, 0x080 and 0x100 miss one after another; the third takes
        // 0x000's way while 0x000's fill is still on the way. 0x000 again then merges into that
        // fill (an MSHR is found by address) instead of fetching the line a second time.
        let mut c = Cache::new(CacheConfig {
            mshrs: 4,
            ..small()
        });
        for (k, a) in [0x000u32, 0x080, 0x100].iter().enumerate() {
            let Outcome::Miss { start, .. } = c.access(*a, k as u64, false) else {
                panic!("{a:#x} must miss")
            };
            c.filled(*a, start + 100);
        }
        assert_eq!(c.access(0x000, 3, false), Outcome::Hit(101));
        assert_eq!(c.stats.mshr_merges, 1);
        // once its fill is done, the evicted line is a miss like any other
        assert!(matches!(c.access(0x000, 200, false), Outcome::Miss { .. }));
    }

    #[test]
    fn fill_allocation_keeps_a_set_s_lines_until_the_fill_arrives() {
        // One way per set. 0x000 is filled at 10; 0x080 (same set) misses at 20, its fill
        // arriving at 120. Allocated at the miss, it evicts 0x000 at once; allocated at the
        // fill, 0x000 still hits until 120.
        let run = |allocate| {
            let mut c = Cache::new(CacheConfig {
                ways: 1,
                size: 128,
                allocate,
                ..small()
            });
            let Outcome::Miss { .. } = c.access(0x000, 0, false) else {
                panic!("cold")
            };
            c.filled(0x000, 10);
            let Outcome::Miss { start, .. } = c.access(0x080, 20, false) else {
                panic!("cold")
            };
            c.filled(0x080, start + 100);
            let between = c.access(0x000, 30, false);
            if let Outcome::Miss { start, .. } = between {
                c.filled(0x000, start + 100);
            }
            let merged = c.access(0x080, 40, false);
            let after = c.access(0x000, 130, false);
            (between, merged, after)
        };
        let (between, merged, after) = run(Allocate::Fill);
        assert_eq!(
            between,
            Outcome::Hit(31),
            "0x000 stays until 0x080 is installed"
        );
        assert_eq!(merged, Outcome::Hit(121), "0x080 merges into its fill");
        assert!(
            matches!(after, Outcome::Miss { .. }),
            "installed at 120: 0x000 is gone"
        );
        let (between, merged, _) = run(Allocate::Miss);
        assert!(
            matches!(between, Outcome::Miss { .. }),
            "evicted at the miss"
        );
        assert_eq!(merged, Outcome::Hit(121));
    }

    #[test]
    fn miss_then_hit_after_fill_and_merge_before() {
        let mut c = Cache::new(small());
        let Outcome::Miss { start, victim } = c.access(0x100, 0, false) else {
            panic!("first access must miss")
        };
        assert_eq!((start, victim), (0, None));
        assert_eq!(c.filled(0x100, 50), 51);
        assert_eq!(c.access(0x104 & !31, 10, false), Outcome::Hit(51), "merge");
        assert_eq!(c.access(0x100, 60, false), Outcome::Hit(61));
        assert_eq!(c.stats.hits, 1);
        assert_eq!(c.stats.misses, 2);
        assert_eq!(c.stats.mshr_merges, 1);
        assert_eq!(c.stats.hits + c.stats.misses, c.stats.accesses);
    }

    #[test]
    fn a_prefetch_allocates_once_never_waits_and_its_first_use_triggers_the_next() {
        let mut c = Cache::new(CacheConfig {
            prefetch: 1,
            ..small()
        });
        let Outcome::Miss { .. } = c.access(0x000, 0, false) else {
            panic!("cold miss")
        };
        c.filled(0x000, 50);
        assert_eq!(c.take_prefetch(), 1, "a miss triggers");
        assert_eq!(c.take_prefetch(), 0, "once");
        assert!(c.prefetch(0x020, 1).is_some());
        c.filled(0x020, 60);
        assert!(c.prefetch(0x020, 2).is_none(), "present: nothing to do");
        // Both MSHRs are busy until 50: a prefetch does not wait for one.
        assert!(c.prefetch(0x040, 3).is_none());
        assert_eq!(c.stats.prefetches, 1);
        assert_eq!(c.stats.accesses, 1, "prefetches are not accesses");
        // The first use of the prefetched line merges into its fill and triggers; the second
        // does not.
        assert_eq!(c.access(0x020, 10, false), Outcome::Hit(61));
        assert_eq!(c.take_prefetch(), 1);
        assert_eq!(c.access(0x020, 70, false), Outcome::Hit(71));
        assert_eq!(c.take_prefetch(), 0);
    }

    #[test]
    fn fifo_evicts_the_first_filled_way_even_if_just_used() {
        // Set 0 of 2 ways: 0x000, then 0x080, then 0x000 again (a hit), then 0x100.
        let run = |replacement| {
            let mut c = Cache::new(CacheConfig {
                replacement,
                ..small()
            });
            for (k, a) in [0x000u32, 0x080].iter().enumerate() {
                let Outcome::Miss { start, .. } = c.access(*a, k as u64 * 100, false) else {
                    panic!()
                };
                c.filled(*a, start + 10);
            }
            assert!(matches!(c.access(0x000, 300, false), Outcome::Hit(_)));
            let Outcome::Miss { start, .. } = c.access(0x100, 400, false) else {
                panic!()
            };
            c.filled(0x100, start + 10);
            // (one probe: a miss would allocate and evict again)
            matches!(c.access(0x080, 500, false), Outcome::Hit(_))
        };
        assert!(
            !run(Replacement::Lru),
            "LRU: 0x080 was the older use, and went"
        );
        assert!(
            run(Replacement::Fifo),
            "FIFO: 0x000 came first and went; 0x080 stays"
        );
    }

    #[test]
    fn lru_evicts_the_older_way_and_mshrs_limit_misses() {
        let mut c = Cache::new(small()); // 4 sets of 2 ways; set stride 128 bytes
        for (k, a) in [0x000u32, 0x080, 0x100].iter().enumerate() {
            match c.access(*a, k as u64 * 100, false) {
                Outcome::Miss { start, .. } => {
                    c.filled(*a, start + 10);
                }
                o => panic!("{o:?}"),
            }
        }
        assert_eq!(c.stats.evictions, 1);
        // 0x000 was the least recently used and is gone; 0x080 stays.
        assert!(matches!(c.access(0x080, 400, false), Outcome::Hit(_)));
        assert!(matches!(c.access(0x000, 500, false), Outcome::Miss { .. }));
        // Two MSHRs: a third outstanding miss waits for the first fill.
        let mut c = Cache::new(small());
        for a in [0x000u32, 0x020] {
            let Outcome::Miss { start, .. } = c.access(a, 0, false) else {
                panic!()
            };
            c.filled(a, start + 100);
        }
        let Outcome::Miss { start, .. } = c.access(0x040, 2, false) else {
            panic!()
        };
        assert_eq!(start, 100, "waits for an MSHR");
    }

    #[test]
    fn hashed_sets_spread_a_stride_of_the_set_size_and_victims_keep_their_address() {
        // Direct-mapped, 8 sets of 32-byte lines: lines 256 bytes apart share a set without
        // hashing.
        let stride: Vec<u32> = (0..4).map(|k| k * 256).collect();
        for hash in [false, true] {
            let mut c = Cache::new(CacheConfig {
                hash,
                ways: 1,
                write_policy: WritePolicy::WriteBack,
                ..small()
            });
            for (k, &a) in stride.iter().enumerate() {
                let Outcome::Miss { start, .. } = c.access(a, k as u64, true) else {
                    panic!()
                };
                c.filled(a, start + 1);
            }
            let evictions = c.stats.evictions;
            assert_eq!(evictions, if hash { 0 } else { 3 }, "hash {hash}");
            // Evicting each line again names its own address.
            let mut victims = Vec::new();
            for (k, &a) in stride.iter().enumerate() {
                if let Outcome::Miss { victim, start } = c.access(a + 0x1000, 10 + k as u64, false)
                {
                    victims.extend(victim);
                    c.filled(a + 0x1000, start + 1);
                }
            }
            victims.sort();
            let want: Vec<u32> = if hash {
                stride.clone()
            } else {
                vec![stride[3]]
            };
            assert_eq!(victims, want, "hash {hash}");
        }
    }

    #[test]
    fn write_back_dirty_victim_is_reported() {
        let mut cfg = small();
        cfg.write_policy = WritePolicy::WriteBack;
        cfg.ways = 1;
        let mut c = Cache::new(cfg);
        let Outcome::Miss { .. } = c.access(0x000, 0, true) else {
            panic!()
        };
        c.filled(0x000, 5);
        let Outcome::Miss { victim, .. } = c.access(0x100, 10, false) else {
            panic!()
        };
        assert_eq!(victim, Some(0x000));
        assert_eq!(c.stats.writebacks, 1);
    }
}

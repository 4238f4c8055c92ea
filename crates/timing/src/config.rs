//! The timing model's parameters — the sections `[pipeline]`, `[units.*]`, `[icache]`, `[l1]`,
//! `[l2]`, `[smem]` and `[dram]` of the one machine configuration file ([`TimingConfig`]) —
//! and the whole file ([`MachineConfig`]): the functional machine's keys, read by
//! `weft_simt::Config`, and these sections, split by `weft_config::split` so that errors keep
//! their line and column. Every key is optional with a documented default
//! (docs/configuration.md); unknown keys are errors and impossible values name their key and
//! the rule they break.

pub use crate::units::{unit_of, Unit, UnitConfig, UnitsConfig};
use serde::{Deserialize, Serialize};
use weft_config::{pow2, range, ConfigError, Part};
use weft_simt::{Config, Profile};

/// How a core's warp scheduler picks the warp that issues.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SchedPolicy {
    /// Loose round-robin: the first ready warp after the one that issued last.
    #[default]
    Lrr,
    /// Greedy-then-oldest: the warp that issued last while it is ready, otherwise the ready
    /// warp that started earliest.
    Gto,
    /// Two-level: round-robin over a small active set; a warp that waits on memory leaves
    /// it for the pending queue and the oldest pending warp takes its place.
    TwoLevel,
    /// Greedy-then-longest-waiting: the warp that issued last while it is ready, otherwise
    /// the ready warp that has waited longest (SimX's issue arbiter).
    GtoWait,
}

impl SchedPolicy {
    /// Name in the configuration file and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            SchedPolicy::Lrr => "lrr",
            SchedPolicy::Gto => "gto",
            SchedPolicy::TwoLevel => "two-level",
            SchedPolicy::GtoWait => "gto-wait",
        }
    }
}

/// The issue stage and the costs of control flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PipelineConfig {
    /// Scheduling policy.
    pub scheduler: SchedPolicy,
    /// Size of the two-level scheduler's active set.
    pub active_warps: usize,
    /// Cycles from fetch to issue of a warp's next instruction after its pc was redirected
    /// (a taken branch or a jump) — the front end refills.
    pub branch_latency: u32,
    /// Cycles before a newly activated warp can issue.
    pub spawn_latency: u32,
    /// Extra cycles when the divergence stack pushes an entry (a divergent branch).
    pub divergence_push: u32,
    /// Extra cycles when the divergence unit parks, joins or pops (reconvergence).
    pub divergence_pop: u32,
    /// Cycles for an access to the I/O page (console, exit word), uncached.
    pub io_latency: u32,
    /// The load/store unit merges a warp's lane accesses to one L1 line into one request;
    /// false sends one request per lane (the Vortex paper's L1: a 32-thread warp takes 32
    /// cycles even when it hits).
    pub coalesce: bool,
    /// With `coalesce`: lanes merge within blocks of `lanes × coalesce_lane_bytes` bytes (at
    /// most an L1 line), each block one request to the L1 — SimX's coalescer merges lanes
    /// within a `VX_CFG_LSU_LINE_SIZE = min(lanes × 4, line)` word and its D-cache takes one
    /// such word per cycle, writing each through on its own. 0: blocks are whole L1 lines.
    pub coalesce_lane_bytes: u32,
    /// Cycles between a warp's fetch of one instruction and of the next (SimX's round trip
    /// from the warp scheduler through the I-cache and decode back to the scheduler); each
    /// core fetches for one warp per cycle. 0: no separate front end — a warp's next
    /// instruction is ready as soon as its previous one issued, and a redirect costs
    /// `branch_latency` (weft's default).
    pub fetch_interval: u32,
    /// With a front end: cycles from an instruction's fetch to its earliest issue.
    pub fetch_to_issue: u32,
    /// With a front end: instructions a warp may have fetched and not yet issued (its
    /// instruction buffer).
    pub ibuffer: u32,
    /// With a front end: a control instruction (branch, jump, system call, warp control:
    /// tmc, wspawn, split, join, pred, bar, wsync) stops its warp's fetch until it has
    /// executed, as SimX's decoder stalls the warp; the next fetch is the cycle after.
    pub control_stops_fetch: bool,
    /// Cycles from issue until the unit starts: operand read and dispatch.
    pub issue_to_execute: u32,
    /// Cycles from a result leaving its unit until a dependent instruction can issue
    /// (writeback; commit releases the scoreboard).
    pub writeback: u32,
    /// Register-file banks (register number modulo banks): each pair of an instruction's
    /// source registers in one bank (x0 aside) costs one more cycle of operand read. 0: no
    /// bank conflicts.
    pub register_banks: u32,
    /// Warps served by one operand collector, which reads one instruction's operands at a
    /// time (one cycle, plus its bank conflicts); 0: operand reads never wait for each other.
    pub warps_per_collector: u32,
    /// Cycles more from issue to the operand collectors when a core has more than one (SimX's
    /// `Operands` hands each instruction to its warp's collector through a channel of its
    /// own, and the collectors' answers meet in an arbiter); 0 with one collector or none.
    pub collector_route: u32,
    /// Load instructions a core's load/store unit keeps in flight (hits and misses alike);
    /// another waits, in issue order, for the oldest. 0: no bound besides the caches' MSHRs.
    pub lsu_loads: u32,
    /// With `lsu_loads`: loads that may wait, in a queue, for a place among the loads in
    /// flight (SimX's dispatch and LSU input queues); with that many waiting, no memory
    /// instruction issues. 0: no queue — none issues while every place is taken.
    pub lsu_queue: u32,
    /// The load/store unit sends memory instructions in issue order, stores included: one
    /// that waits for a place among the loads in flight holds every later one, and the
    /// queue (`lsu_queue`) counts every memory instruction waiting (SimX's LSU takes its
    /// input queue's head only). False: stores never wait for loads.
    pub lsu_in_order: bool,
    /// Each kernel launch ([`crate::TimingModel::new_launch`], called by the hosts' runtimes)
    /// starts with empty caches and closed DRAM rows, as SimX resets its processor at every
    /// launch. False: caches stay warm from one launch to the next (weft's default).
    pub launch_resets_memory: bool,
    /// A run ends only once every instruction in flight has written back and its memory
    /// access is done (writes posted to DRAM excepted) — SimX ends a run when nothing is left
    /// in its pipelines. False: it ends when the last warp halts.
    pub end_waits_for_writeback: bool,
}

impl Default for PipelineConfig {
    fn default() -> Self {
        PipelineConfig {
            scheduler: SchedPolicy::Lrr,
            active_warps: 2,
            branch_latency: 2,
            spawn_latency: 4,
            divergence_push: 1,
            divergence_pop: 1,
            io_latency: 20,
            coalesce: true,
            coalesce_lane_bytes: 0,
            fetch_interval: 0,
            fetch_to_issue: 0,
            ibuffer: 4,
            control_stops_fetch: false,
            issue_to_execute: 0,
            writeback: 0,
            register_banks: 0,
            warps_per_collector: 0,
            collector_route: 0,
            lsu_loads: 0,
            lsu_queue: 0,
            lsu_in_order: false,
            launch_resets_memory: false,
            end_waits_for_writeback: false,
        }
    }
}

/// How stores are handled by a cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WritePolicy {
    /// Stores go to the next level; a store miss does not allocate (Vortex's L1).
    #[default]
    WriteThrough,
    /// Stores allocate and dirty the line; dirty lines are written back on eviction.
    WriteBack,
}

/// Which way of a set a miss replaces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Replacement {
    /// The least recently used.
    #[default]
    Lru,
    /// The one filled first (hits do not refresh a line; Vortex's caches).
    Fifo,
}

/// When a miss takes its way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Allocate {
    /// When it misses: the line holds a way while its fill is on the way.
    #[default]
    Miss,
    /// When its fill arrives (Vortex's caches: the victim is chosen as the fill is
    /// installed, so lines still being fetched evict nothing). Write-through caches only: a
    /// victim chosen then has nothing to write back.
    Fill,
}

/// A set-associative cache. (Each cache has its own defaults; a partial section in a file
/// takes the rest from them, because the file is merged over the defaults before it is read.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CacheConfig {
    /// Present? (Only the L2 may be switched off; an absent L2 sends L1 misses to DRAM.)
    pub enabled: bool,
    /// Capacity in bytes.
    pub size: u32,
    /// Line size in bytes.
    pub line: u32,
    /// Associativity.
    pub ways: u32,
    /// Banks (lines interleave over banks; each bank takes one request per cycle).
    pub banks: u32,
    /// Outstanding misses to distinct lines.
    pub mshrs: u32,
    /// Cycles for a hit.
    pub hit_latency: u32,
    /// Store handling.
    pub write_policy: WritePolicy,
    /// Hash the set index (XOR-fold the line number's high bits into it), so that lines a
    /// multiple of the set stride apart — per-lane stacks, matrix columns — do not all fall
    /// into one set. False: the set is the line number modulo the number of sets.
    pub hash: bool,
    /// Sequential prefetch (the I-cache only): on a miss, the next `prefetch` lines are
    /// fetched too, if absent and an MSHR is free. 0: none.
    pub prefetch: u32,
    /// Which way a miss replaces.
    pub replacement: Replacement,
    /// When a miss takes its way.
    pub allocate: Allocate,
}

impl CacheConfig {
    fn new(size: u32, line: u32, ways: u32, mshrs: u32, hit_latency: u32) -> CacheConfig {
        CacheConfig {
            enabled: true,
            size,
            line,
            ways,
            banks: 1,
            mshrs,
            hit_latency,
            write_policy: WritePolicy::WriteThrough,
            hash: true,
            prefetch: 0,
            replacement: Replacement::Lru,
            allocate: Allocate::Miss,
        }
    }

    /// The defaults of the L1 data cache: the Vortex paper's (16 KiB, 2-way, 256-byte lines,
    /// one request per cycle).
    pub fn default_l1() -> CacheConfig {
        CacheConfig::new(16 << 10, 256, 2, 16, 2)
    }

    /// The defaults of the instruction cache: 16 KiB, 2-way, 64-byte lines, and the next line
    /// prefetched (tagged sequential prefetch, as GPU front ends do), so straight-line code
    /// does not stall at every line boundary.
    pub fn default_icache() -> CacheConfig {
        CacheConfig {
            prefetch: 1,
            ..CacheConfig::new(16 << 10, 64, 2, 4, 1)
        }
    }

    /// The defaults of the shared L2 (off unless enabled).
    pub fn default_l2() -> CacheConfig {
        CacheConfig {
            enabled: false,
            banks: 4,
            ..CacheConfig::new(256 << 10, 256, 8, 64, 10)
        }
    }

    /// Number of sets.
    pub fn sets(&self) -> u32 {
        self.size / (self.line * self.ways)
    }

    fn validate(&self, name: &str) -> Result<(), ConfigError> {
        let key = |k: &str| format!("{name}.{k}");
        pow2(
            key("line"),
            self.line as u64,
            4,
            4096,
            "a power of two, 4..=4096",
        )?;
        pow2(
            key("ways"),
            self.ways as u64,
            1,
            64,
            "a power of two, 1..=64",
        )?;
        pow2(
            key("banks"),
            self.banks as u64,
            1,
            64,
            "a power of two, 1..=64",
        )?;
        range(key("mshrs"), self.mshrs as u64, 1, 1024, "1..=1024")?;
        if self.allocate == Allocate::Fill && self.write_policy == WritePolicy::WriteBack {
            return Err(ConfigError::Invalid {
                key: key("allocate"),
                rule: "\"miss\" in a write-back cache (a fill's victim could be dirty)",
            });
        }
        let most = if name == "icache" { 16 } else { 0 };
        range(
            key("prefetch"),
            self.prefetch as u64,
            0,
            most,
            if most == 0 {
                "0 (only the I-cache prefetches)"
            } else {
                "0..=16"
            },
        )?;
        let least = self.line as u64 * self.ways as u64;
        pow2(
            key("size"),
            self.size as u64,
            least,
            1 << 26,
            format!(
                "a power of two from {name}.line × {name}.ways = {} × {} = {least} (one set) \
                 to 64 MiB",
                self.line, self.ways
            ),
        )
    }
}

impl Default for CacheConfig {
    fn default() -> Self {
        CacheConfig::default_l1()
    }
}

/// Banked shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SmemConfig {
    /// Banks, word-interleaved (0 = one per lane).
    pub banks: u32,
    /// Cycles for a conflict-free access.
    pub latency: u32,
}

impl Default for SmemConfig {
    fn default() -> Self {
        SmemConfig {
            banks: 0,
            latency: 2,
        }
    }
}

/// DRAM.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DramConfig {
    /// Cycles from a request's start to its first byte.
    pub latency: u32,
    /// Bytes per cycle the channel moves (a fraction is allowed: 2.67 moves a 64-byte line
    /// in 24 cycles).
    pub bytes_per_cycle: f64,
    /// Requests in flight at once; more wait.
    pub max_outstanding: u32,
    /// Bytes of a row buffer (as addresses see them); 0: no row buffers, every access takes
    /// `latency`. With rows, `latency` is an access to a bank with no row open.
    pub row_size: u32,
    /// Banks, each with a row buffer; rows interleave over them.
    pub banks: u32,
    /// Cycles for an access to the row its bank has open.
    pub row_hit_latency: u32,
    /// Cycles for an access to a bank with another row open (close it, open this one).
    pub row_conflict_latency: u32,
    /// Cycles between two row openings in one bank (the row cycle time): an access to
    /// another row of a bank opened less long ago waits.
    pub row_cycle: u32,
    /// Pseudo-channels (HBM2): bank `b` belongs to pseudo-channel `b mod pseudo_channels`
    /// (their address bit sits lowest in the bank index), each with its own activation
    /// window and data bus.
    pub pseudo_channels: u32,
    /// Cycles of the four-activation window (tFAW): at most 4 row openings in any window
    /// this long in one pseudo-channel; 0: no window.
    pub activate_window: u32,
    /// Bytes per cycle one pseudo-channel's data bus moves (a request moves there and on
    /// the channel); 0: no bound besides the channel's.
    pub pseudo_channel_bytes_per_cycle: f64,
    /// Bytes every request moves at least (the memory interface's width: a 4-byte
    /// write-through store moves a whole burst); 0: just its bytes.
    pub burst: u32,
    /// Bytes per cycle each core's own port to memory moves (SimX's per-socket memory
    /// port, `L3_MEM_PORTS`): a core's requests pass its port in turn before the shared
    /// channel (`bytes_per_cycle`); 0: no ports, every core goes straight to the channel.
    pub port_bytes_per_cycle: f64,
    /// Memory ports the cores share when `port_bytes_per_cycle` is set: core `c` uses port
    /// `c mod ports` (SimX: `min(cores, PLATFORM_MEMORY_NUM_BANKS)`); 0: one per core.
    pub ports: u32,
    /// Data addresses `[start, end)` no cache holds (SimX's I/O range): each block of lanes
    /// a load or store touches there is a request of its own to DRAM. `[0, 0]`: none.
    pub uncached: [u32; 2],
}

impl Default for DramConfig {
    fn default() -> Self {
        DramConfig {
            latency: 100,
            bytes_per_cycle: 16.0,
            max_outstanding: 16,
            row_size: 0,
            banks: 16,
            row_hit_latency: 100,
            row_conflict_latency: 100,
            row_cycle: 1,
            pseudo_channels: 1,
            activate_window: 0,
            pseudo_channel_bytes_per_cycle: 0.0,
            burst: 0,
            port_bytes_per_cycle: 0.0,
            ports: 0,
            uncached: [0, 0],
        }
    }
}

/// Every parameter of the timing model: the timing sections of the machine file.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TimingConfig {
    /// Issue stage and control-flow costs.
    pub pipeline: PipelineConfig,
    /// Functional units.
    pub units: UnitsConfig,
    /// Per-core instruction cache.
    pub icache: CacheConfig,
    /// Per-core L1 data cache.
    pub l1: CacheConfig,
    /// The L2 shared by every core (off by default).
    pub l2: CacheConfig,
    /// Banked shared memory.
    pub smem: SmemConfig,
    /// DRAM.
    pub dram: DramConfig,
    /// Weft's own RTL core's clock (`rtlcore.rs`; the RTL lockstep's, not the pipelined
    /// model's).
    pub rtl_core: crate::rtlcore::RtlCoreConfig,
}

impl Default for TimingConfig {
    fn default() -> Self {
        TimingConfig {
            pipeline: PipelineConfig::default(),
            units: UnitsConfig::default(),
            icache: CacheConfig::default_icache(),
            l1: CacheConfig::default_l1(),
            l2: CacheConfig::default_l2(),
            smem: SmemConfig::default(),
            dram: DramConfig::default(),
            rtl_core: crate::rtlcore::RtlCoreConfig::default(),
        }
    }
}

impl TimingConfig {
    /// Read the timing sections from `table` (checked key by key, e.g. by
    /// `weft_config::split`) over the defaults, each section over its own, and validate.
    pub fn from_table(table: toml::Table) -> Result<TimingConfig, ConfigError> {
        let mut base = toml::Table::try_from(TimingConfig::default())
            .map_err(|e| ConfigError::Toml(e.to_string()))?;
        weft_config::merge(&mut base, table);
        let t: TimingConfig = toml::Value::Table(base)
            .try_into()
            .map_err(|e: toml::de::Error| ConfigError::Toml(e.to_string()))?;
        t.validate()?;
        Ok(t)
    }

    /// Check every value is usable.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let p = &self.pipeline;
        range(
            "pipeline.active_warps",
            p.active_warps as u64,
            1,
            weft_simt::config::MAX_WARPS as u64,
            "1..=32",
        )?;
        for (k, v) in [
            ("pipeline.branch_latency", p.branch_latency),
            ("pipeline.spawn_latency", p.spawn_latency),
            ("pipeline.divergence_push", p.divergence_push),
            ("pipeline.divergence_pop", p.divergence_pop),
            ("pipeline.io_latency", p.io_latency),
            ("pipeline.fetch_to_issue", p.fetch_to_issue),
            ("pipeline.issue_to_execute", p.issue_to_execute),
            ("pipeline.writeback", p.writeback),
            ("pipeline.collector_route", p.collector_route),
        ] {
            range(k, v as u64, 0, 1 << 20, "0..=2^20")?;
        }
        range(
            "pipeline.fetch_interval",
            p.fetch_interval as u64,
            0,
            1 << 10,
            "0..=1024",
        )?;
        range("pipeline.ibuffer", p.ibuffer as u64, 1, 64, "1..=64")?;
        range(
            "pipeline.register_banks",
            p.register_banks as u64,
            0,
            64,
            "0..=64",
        )?;
        range(
            "pipeline.warps_per_collector",
            p.warps_per_collector as u64,
            0,
            32,
            "0..=32",
        )?;
        range(
            "pipeline.lsu_loads",
            p.lsu_loads as u64,
            0,
            1024,
            "0..=1024",
        )?;
        range(
            "pipeline.coalesce_lane_bytes",
            p.coalesce_lane_bytes as u64,
            0,
            1 << 16,
            "0..=65536",
        )?;
        range(
            "pipeline.lsu_queue",
            p.lsu_queue as u64,
            0,
            1024,
            "0..=1024",
        )?;
        if p.control_stops_fetch && p.fetch_interval == 0 {
            return Err(ConfigError::Invalid {
                key: "pipeline.control_stops_fetch".into(),
                rule: "false without a front end (pipeline.fetch_interval = 0)",
            });
        }
        for (unit, c) in self.units.iter() {
            let key = |f: &str| format!("units.{}.{f}", unit.name());
            range(key("latency"), c.latency as u64, 1, 1 << 16, "1..=65536")?;
            range(key("interval"), c.interval as u64, 1, 1 << 16, "1..=65536")?;
            range(key("count"), c.count as u64, 1, 32, "1..=32")?;
            range(key("queue"), c.queue as u64, 0, 1024, "0..=1024")?;
            if let Some(pool) = c.shares {
                if pool == unit || self.units[pool].shares.is_some() {
                    return Err(ConfigError::Invalid {
                        key: key("shares"),
                        rule: "a unit that shares no other's instances (itself excluded)",
                    });
                }
            }
        }
        self.icache.validate("icache")?;
        self.l1.validate("l1")?;
        self.l2.validate("l2")?;
        if !self.icache.enabled || !self.l1.enabled {
            return Err(ConfigError::Range {
                key: if self.icache.enabled {
                    "l1.enabled"
                } else {
                    "icache.enabled"
                }
                .into(),
                value: 0,
                range: "true (only the L2 can be switched off)".into(),
            });
        }
        if self.l2.enabled && (self.l2.line < self.l1.line || self.l2.line < self.icache.line) {
            return Err(ConfigError::Range {
                key: "l2.line".into(),
                value: self.l2.line as u64,
                range: "at least l1.line and icache.line".into(),
            });
        }
        range(
            "smem.banks",
            self.smem.banks as u64,
            0,
            64,
            "0..=64 (0 = lanes)",
        )?;
        range(
            "smem.latency",
            self.smem.latency as u64,
            1,
            1 << 16,
            "1..=65536",
        )?;
        let d = &self.dram;
        range("dram.latency", d.latency as u64, 1, 1 << 20, "1..=2^20")?;
        if !(d.bytes_per_cycle >= 1.0 / 64.0 && d.bytes_per_cycle <= 65536.0) {
            return Err(ConfigError::Invalid {
                key: "dram.bytes_per_cycle".into(),
                rule: "a number of bytes from 1/64 to 65536",
            });
        }
        let p = d.port_bytes_per_cycle;
        if !(p == 0.0 || (1.0 / 64.0..=65536.0).contains(&p)) {
            return Err(ConfigError::Invalid {
                key: "dram.port_bytes_per_cycle".into(),
                rule: "0 (no ports) or a number of bytes from 1/64 to 65536",
            });
        }
        range("dram.ports", d.ports as u64, 0, 1024, "0..=1024")?;
        if d.uncached[0] > d.uncached[1] {
            return Err(ConfigError::Invalid {
                key: "dram.uncached".into(),
                rule: "[start, end] with start <= end",
            });
        }
        range(
            "dram.max_outstanding",
            d.max_outstanding as u64,
            1,
            4096,
            "1..=4096",
        )?;
        if d.row_size != 0 {
            pow2(
                "dram.row_size",
                d.row_size as u64,
                64,
                1 << 20,
                "0 (no row buffers) or a power of two from 64 to 1 MiB",
            )?;
        }
        range("dram.banks", d.banks as u64, 1, 1024, "1..=1024")?;
        range(
            "dram.row_hit_latency",
            d.row_hit_latency as u64,
            1,
            1 << 20,
            "1..=2^20",
        )?;
        range(
            "dram.row_conflict_latency",
            d.row_conflict_latency as u64,
            1,
            1 << 20,
            "1..=2^20",
        )?;
        range("dram.row_cycle", d.row_cycle as u64, 1, 1 << 20, "1..=2^20")?;
        range(
            "dram.activate_window",
            d.activate_window as u64,
            0,
            1 << 20,
            "0..=2^20",
        )?;
        range(
            "dram.pseudo_channels",
            d.pseudo_channels as u64,
            1,
            d.banks.max(1) as u64,
            "1..=dram.banks",
        )?;
        let q = d.pseudo_channel_bytes_per_cycle;
        if !(q == 0.0 || (1.0 / 64.0..=65536.0).contains(&q)) {
            return Err(ConfigError::Invalid {
                key: "dram.pseudo_channel_bytes_per_cycle".into(),
                rule: "0 (no bound) or a number of bytes from 1/64 to 65536",
            });
        }
        if d.burst != 0 {
            pow2(
                "dram.burst",
                d.burst as u64,
                1,
                4096,
                "0 or a power of two up to 4096",
            )?;
        }
        self.rtl_core.validate()?;
        Ok(())
    }
}

/// The whole machine configuration file: the functional machine's keys and the timing
/// model's sections. `weft run --config`, `weft sweep`, the host runtime and `libvortex.so`
/// read it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MachineConfig {
    /// The functional machine (`weft-simt`): shape, memory, profile, display, `timing`.
    pub machine: Config,
    /// The timing model's parameters.
    pub timing: TimingConfig,
}

impl MachineConfig {
    /// Parse a machine file (all keys optional; unknown keys are errors).
    pub fn from_toml(text: &str) -> Result<MachineConfig, ConfigError> {
        MachineConfig::from_toml_for(text, None)
    }

    /// Parse a machine file over the defaults of a profile (as
    /// [`Config::from_toml_for`]: `profile`, when given, wins over the file's own).
    pub fn from_toml_for(
        text: &str,
        profile: Option<Profile>,
    ) -> Result<MachineConfig, ConfigError> {
        let mut parts =
            weft_config::split(text, &[Part::of::<Config>(), Part::of::<TimingConfig>()])?;
        let timing = parts.pop().unwrap_or_default();
        let machine = Config::from_table_for(parts.pop().unwrap_or_default(), profile)?;
        let timing = TimingConfig::from_table(timing)?;
        Ok(MachineConfig { machine, timing })
    }

    /// The defaults of a profile (the timing model's are the same for every profile).
    pub fn for_profile(p: Profile) -> MachineConfig {
        MachineConfig {
            machine: Config::for_profile(p),
            timing: TimingConfig::default(),
        }
    }

    /// Check every value is usable.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.machine.validate()?;
        self.timing.validate()
    }
}

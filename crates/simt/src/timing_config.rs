//! The timing model's parameters: the sections `[pipeline]`, `[units.*]`, `[icache]`, `[l1]`,
//! `[l2]`, `[smem]` and `[dram]` of the one machine configuration file (with `timing = true`
//! at the top level to run the cycle-level model). They live beside the functional
//! configuration so one TOML file describes the whole machine; the `weft-timing` crate reads
//! them. Every key is optional with a documented default (docs/configuration.md); unknown keys
//! are errors and impossible values name their key.

use crate::config::{range, ConfigError};
use serde::{Deserialize, Serialize};

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
}

impl SchedPolicy {
    /// Name in the configuration file and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            SchedPolicy::Lrr => "lrr",
            SchedPolicy::Gto => "gto",
            SchedPolicy::TwoLevel => "two-level",
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
        }
    }
}

/// One kind of functional unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UnitConfig {
    /// Cycles from issue until the result can be read.
    pub latency: u32,
    /// Cycles between two issues to one instance (1 = fully pipelined).
    pub interval: u32,
    /// Instances per core.
    pub count: u32,
}

impl Default for UnitConfig {
    fn default() -> Self {
        UnitConfig::new(1, 1, 1)
    }
}

impl UnitConfig {
    const fn new(latency: u32, interval: u32, count: u32) -> UnitConfig {
        UnitConfig {
            latency,
            interval,
            count,
        }
    }
}

/// Every functional unit of a core.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UnitsConfig {
    /// Integer ALU, branches and jumps.
    pub alu: UnitConfig,
    /// Integer multiply.
    pub mul: UnitConfig,
    /// Integer divide and remainder.
    pub div: UnitConfig,
    /// Floating-point add, multiply, fused multiply-add, convert, compare, move.
    pub fpu: UnitConfig,
    /// Floating-point divide and square root.
    pub fdiv: UnitConfig,
    /// Load/store unit: address generation; the memory system adds its own time.
    pub lsu: UnitConfig,
    /// Special-function unit: CSRs, fences, system and SIMT warp-control instructions.
    pub sfu: UnitConfig,
}

impl Default for UnitsConfig {
    fn default() -> Self {
        UnitsConfig {
            alu: UnitConfig::new(1, 1, 1),
            mul: UnitConfig::new(3, 1, 1),
            div: UnitConfig::new(32, 32, 1),
            fpu: UnitConfig::new(4, 1, 1),
            fdiv: UnitConfig::new(16, 16, 1),
            lsu: UnitConfig::new(1, 1, 1),
            sfu: UnitConfig::new(2, 1, 1),
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
            "a power of two, 4..=4096".into(),
        )?;
        pow2(
            key("ways"),
            self.ways as u64,
            1,
            64,
            "a power of two, 1..=64".into(),
        )?;
        pow2(
            key("banks"),
            self.banks as u64,
            1,
            64,
            "a power of two, 1..=64".into(),
        )?;
        range(key("mshrs"), self.mshrs as u64, 1, 1024, "1..=1024")?;
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
                "a power of two from {name}.line × {name}.ways = {} × {} = {least} \
                 (one set) to 64 MiB",
                self.line, self.ways
            )
            .into(),
        )
    }
}

/// `v` is a power of two in `lo..=hi`, else the error naming `rule`.
fn pow2(
    key: String,
    v: u64,
    lo: u64,
    hi: u64,
    rule: std::borrow::Cow<'static, str>,
) -> Result<(), ConfigError> {
    if v < lo || v > hi || !v.is_power_of_two() {
        return Err(ConfigError::Range {
            key,
            value: v,
            range: rule,
        });
    }
    Ok(())
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DramConfig {
    /// Cycles from a request's start to its first byte.
    pub latency: u32,
    /// Bytes per cycle the channel moves.
    pub bytes_per_cycle: u32,
    /// Requests in flight at once; more wait.
    pub max_outstanding: u32,
}

impl Default for DramConfig {
    fn default() -> Self {
        DramConfig {
            latency: 100,
            bytes_per_cycle: 16,
            max_outstanding: 16,
        }
    }
}

impl Default for CacheConfig {
    fn default() -> Self {
        default_l1()
    }
}

/// The defaults of the L1 data cache: the Vortex paper's (16 KiB, 2-way, 256-byte lines, one
/// request per cycle).
pub fn default_l1() -> CacheConfig {
    CacheConfig::new(16 << 10, 256, 2, 16, 2)
}

/// The defaults of the instruction cache: 16 KiB, 2-way, 64-byte lines, and the next line
/// prefetched (tagged sequential prefetch, as GPU front ends do), so straight-line code does
/// not stall at every line boundary.
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

/// Check the timing sections of a configuration.
pub(crate) fn validate(c: &crate::Config) -> Result<(), ConfigError> {
    let p = &c.pipeline;
    range(
        "pipeline.active_warps",
        p.active_warps as u64,
        1,
        crate::config::MAX_WARPS as u64,
        "1..=32",
    )?;
    for (k, v) in [
        ("pipeline.branch_latency", p.branch_latency),
        ("pipeline.spawn_latency", p.spawn_latency),
        ("pipeline.divergence_push", p.divergence_push),
        ("pipeline.divergence_pop", p.divergence_pop),
        ("pipeline.io_latency", p.io_latency),
    ] {
        range(k, v as u64, 0, 1 << 20, "0..=2^20")?;
    }
    let u = &c.units;
    for (name, unit) in [
        ("units.alu", u.alu),
        ("units.mul", u.mul),
        ("units.div", u.div),
        ("units.fpu", u.fpu),
        ("units.fdiv", u.fdiv),
        ("units.lsu", u.lsu),
        ("units.sfu", u.sfu),
    ] {
        let key = |f: &str| format!("{name}.{f}");
        range(key("latency"), unit.latency as u64, 1, 1 << 16, "1..=65536")?;
        range(
            key("interval"),
            unit.interval as u64,
            1,
            1 << 16,
            "1..=65536",
        )?;
        range(key("count"), unit.count as u64, 1, 32, "1..=32")?;
    }
    c.icache.validate("icache")?;
    c.l1.validate("l1")?;
    c.l2.validate("l2")?;
    if !c.icache.enabled || !c.l1.enabled {
        return Err(ConfigError::Range {
            key: if c.icache.enabled {
                "l1.enabled"
            } else {
                "icache.enabled"
            }
            .into(),
            value: 0,
            range: "true (only the L2 can be switched off)".into(),
        });
    }
    if c.l2.enabled && (c.l2.line < c.l1.line || c.l2.line < c.icache.line) {
        return Err(ConfigError::Range {
            key: "l2.line".into(),
            value: c.l2.line as u64,
            range: "at least l1.line and icache.line".into(),
        });
    }
    range(
        "smem.banks",
        c.smem.banks as u64,
        0,
        64,
        "0..=64 (0 = lanes)",
    )?;
    range(
        "smem.latency",
        c.smem.latency as u64,
        1,
        1 << 16,
        "1..=65536",
    )?;
    range(
        "dram.latency",
        c.dram.latency as u64,
        1,
        1 << 20,
        "1..=2^20",
    )?;
    range(
        "dram.bytes_per_cycle",
        c.dram.bytes_per_cycle as u64,
        1,
        1 << 16,
        "1..=65536",
    )?;
    range(
        "dram.max_outstanding",
        c.dram.max_outstanding as u64,
        1,
        4096,
        "1..=4096",
    )?;
    Ok(())
}

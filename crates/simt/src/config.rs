//! The functional machine's configuration: cores × warps × lanes, divergence stack depth and
//! reconvergence mechanism, memory sizes, barriers, display timing and run bounds. Loaded from
//! TOML (every key optional) and validated with a clear message for absurd values. These are
//! the top-level keys and the `[display]`, `[dma]` and `[dxa]` sections of the one machine
//! file; its timing sections belong to `weft-timing` (`weft_timing::MachineConfig` reads the
//! whole file).

use serde::{Deserialize, Serialize};
pub use weft_config::ConfigError;
use weft_config::{range, Part};
pub use weft_devices::{DisplayConfig, DmaConfig, DxaConfig};

/// Largest number of lanes per warp (the thread mask is 32 bits).
pub const MAX_LANES: usize = 32;
/// Largest number of warps per core.
pub const MAX_WARPS: usize = 32;
/// Largest number of cores.
pub const MAX_CORES: usize = 256;

/// How a diverged warp finds its reconvergence point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReconvMode {
    /// Only explicit `converge` instructions reconverge (warp-core's model).
    Converge,
    /// `converge` instructions, and also the immediate post-dominator table: a group that
    /// reaches its branch's post-dominator reconverges there (the default).
    Table,
    /// Vortex fidelity: a divergent branch follows the last active lane; no auto-divergence
    /// (only split/join/pred). Wrong results for divergent code without split/join, as on Vortex.
    FollowLast,
}

impl ReconvMode {
    /// Every mode, in the order the docs list them.
    pub const ALL: [ReconvMode; 3] = [
        ReconvMode::Table,
        ReconvMode::Converge,
        ReconvMode::FollowLast,
    ];

    /// Name used in stats, the configuration file and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ReconvMode::Converge => "converge",
            ReconvMode::Table => "table",
            ReconvMode::FollowLast => "follow-last",
        }
    }

    /// The mode with this name.
    pub fn parse(s: &str) -> Option<ReconvMode> {
        Self::ALL.into_iter().find(|m| m.name() == s)
    }
}

/// Which machine conventions a program expects (memory map, console, exit, start-up).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    /// weft's own conventions (docs/isa.md §8).
    #[default]
    Weft,
    /// Vortex v3.0 standalone kernels (docs/vortex.md): Vortex's memory map, console ring
    /// buffers, exit word and defaults.
    Vortex,
}

impl Profile {
    /// Name used on the command line, in TOML and in stats.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Weft => "weft",
            Profile::Vortex => "vortex",
        }
    }

    /// Parse a profile name.
    pub fn parse(s: &str) -> Option<Profile> {
        match s {
            "weft" => Some(Profile::Weft),
            "vortex" => Some(Profile::Vortex),
            _ => None,
        }
    }
}

/// The whole machine configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Machine conventions (`weft` or `vortex`).
    pub profile: Profile,
    /// Vortex profile: the value every warp's `mscratch` holds at reset (the kernel-argument
    /// pointer).
    pub kernel_arg: u32,
    /// Number of cores.
    pub cores: usize,
    /// Warps per core.
    pub warps: usize,
    /// Lanes (threads) per warp.
    pub lanes: usize,
    /// Divergence stack entries per warp on chip.
    pub stack_depth: usize,
    /// Entries of each warp's divergence-stack spill area in memory, used past the on-chip
    /// ones (0: none; a push onto a full on-chip stack faults).
    pub stack_spill: usize,
    /// Reconvergence mechanism.
    pub reconv: ReconvMode,
    /// DRAM size in bytes (based at 0x8000_0000).
    pub dram_size: u32,
    /// Shared memory per core, bytes.
    pub local_mem_size: u32,
    /// Shared memory base address (`local_mem_base`).
    pub local_mem_base: u32,
    /// Barriers per core.
    pub barriers: usize,
    /// Stop the run after this many cycles (0 = the default bound of 10^10 cycles).
    pub max_cycles: u64,
    /// The run must end through the exit word (or HTIF `tohost`): every warp halting without
    /// it ends the run as [`RunEnd::NoExit`](crate::RunEnd::NoExit) instead of success.
    pub require_exit: bool,
    /// Display timing.
    pub display: DisplayConfig,
    /// DMA engines.
    pub dma: DmaConfig,
    /// Vortex's DXA copy engine.
    pub dxa: DxaConfig,
    /// Run the cycle-level timing model (`weft-timing`, whose parameters are the file's
    /// timing sections) instead of one warp-instruction per core per cycle.
    pub timing: bool,
    /// Warp-instructions a core issues from one warp before its round-robin moves on
    /// (functional model only; 1, the default, is one per cycle in rotation). A larger
    /// quantum changes only the order of warps' instructions, as QEMU's round-robin over
    /// translated blocks does: docs/engine.md § The scheduling quantum.
    pub quantum: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            profile: Profile::Weft,
            kernel_arg: 0,
            cores: 1,
            warps: 4,
            lanes: 8,
            stack_depth: 16,
            stack_spill: 1024,
            reconv: ReconvMode::Table,
            dram_size: 256 << 20,
            local_mem_size: 16 << 10,
            local_mem_base: 0xff00_0000,
            barriers: 16,
            max_cycles: 0,
            require_exit: false,
            display: DisplayConfig::default(),
            dma: DmaConfig::default(),
            dxa: DxaConfig::default(),
            timing: false,
            quantum: 1,
        }
    }
}

/// The largest scheduling quantum ([`Config::quantum`]).
pub const MAX_QUANTUM: u64 = 1 << 30;

/// The default bound on cycles when none is given.
pub const DEFAULT_MAX_CYCLES: u64 = 10_000_000_000;

impl Config {
    /// Parse TOML (all keys optional; unknown keys are errors — the timing sections too: a
    /// whole machine file is read by `weft_timing::MachineConfig`).
    pub fn from_toml(text: &str) -> Result<Config, ConfigError> {
        Config::from_toml_for(text, None)
    }

    /// The defaults of a profile: weft's, or Vortex's (1 core × 4 warps × 4 threads, 8
    /// barriers, shared memory at 0xFFFF_0000).
    pub fn for_profile(p: Profile) -> Config {
        p.defaults()
    }

    /// Parse TOML over the defaults of a profile: `profile` (when given) wins over the file's
    /// own `profile` key; keys the file leaves out take that profile's defaults.
    pub fn from_toml_for(text: &str, profile: Option<Profile>) -> Result<Config, ConfigError> {
        let mut tables = weft_config::split(text, &[Part::of::<Config>()])?;
        Config::from_table_for(tables.remove(0), profile)
    }

    /// Read this configuration's keys from `table` (already checked key by key, e.g. by
    /// [`weft_config::split`]) over the defaults of a profile, as [`Config::from_toml_for`]:
    /// keys the table leaves out take that profile's defaults; then validate.
    pub fn from_table_for(
        mut table: toml::Table,
        profile: Option<Profile>,
    ) -> Result<Config, ConfigError> {
        let p = match profile {
            Some(p) => p,
            None => match table.get("profile") {
                Some(toml::Value::String(s)) => Profile::parse(s).ok_or_else(|| {
                    ConfigError::Toml(format!("unknown profile '{s}' (expected weft or vortex)"))
                })?,
                Some(_) => return Err(ConfigError::Toml("profile must be a string".into())),
                None => Profile::Weft,
            },
        };
        table.insert("profile".into(), toml::Value::String(p.name().into()));
        let mut base = toml::Table::try_from(Config::for_profile(p))
            .map_err(|e| ConfigError::Toml(e.to_string()))?;
        weft_config::merge(&mut base, table);
        let c: Config = toml::Value::Table(base)
            .try_into()
            .map_err(|e: toml::de::Error| ConfigError::Toml(e.to_string()))?;
        c.validate()?;
        Ok(c)
    }

    /// Check every value is usable.
    pub fn validate(&self) -> Result<(), ConfigError> {
        range("cores", self.cores as u64, 1, MAX_CORES as u64, "1..=256")?;
        range("warps", self.warps as u64, 1, MAX_WARPS as u64, "1..=32")?;
        range("lanes", self.lanes as u64, 1, MAX_LANES as u64, "1..=32")?;
        range("stack_depth", self.stack_depth as u64, 1, 1024, "1..=1024")?;
        range(
            "stack_spill",
            self.stack_spill as u64,
            0,
            1 << 20,
            "0..=1048576",
        )?;
        range(
            "dram_size",
            self.dram_size as u64,
            4096,
            0x7f00_0000,
            "4096..=0x7f000000 bytes",
        )?;
        range(
            "local_mem_size",
            self.local_mem_size as u64,
            4,
            1 << 24,
            "4..=16 MiB",
        )?;
        range("barriers", self.barriers as u64, 1, 1024, "1..=1024")?;
        range(
            "display.cycles_per_line",
            self.display.cycles_per_line as u64,
            1,
            1 << 20,
            "1..=2^20",
        )?;
        range(
            "display.lines_per_frame",
            self.display.lines_per_frame as u64,
            2,
            1 << 16,
            "2..=65536",
        )?;
        range(
            "display.visible_lines",
            self.display.visible_lines as u64,
            1,
            self.display.lines_per_frame as u64 - 1,
            "1..lines_per_frame",
        )?;
        range(
            "display.pixels_per_line",
            self.display.pixels_per_line as u64,
            1,
            1 << 20,
            "1..=2^20",
        )?;
        range(
            "display.visible_pixels",
            self.display.visible_pixels as u64,
            1,
            self.display.pixels_per_line as u64,
            "1..=pixels_per_line",
        )?;
        range(
            "display.pixel_clock_hz",
            self.display.pixel_clock_hz as u64,
            1,
            u32::MAX as u64,
            "1..=4294967295",
        )?;
        range(
            "dma.setup_cycles",
            self.dma.setup_cycles as u64,
            0,
            1 << 20,
            "0..=2^20",
        )?;
        range(
            "dma.cycles_per_dword",
            self.dma.cycles_per_dword as u64,
            1,
            1 << 20,
            "1..=2^20",
        )?;
        range("dxa.units", self.dxa.units as u64, 0, 64, "0..=64")?;
        range(
            "dxa.latency",
            self.dxa.latency as u64,
            0,
            1 << 20,
            "0..=2^20",
        )?;
        range("dxa.inflight", self.dxa.inflight as u64, 1, 256, "1..=256")?;
        range(
            "dxa.issue_latency",
            self.dxa.issue_latency as u64,
            1,
            1 << 20,
            "1..=2^20",
        )?;
        range("quantum", self.quantum, 1, MAX_QUANTUM, "1..=2^30")?;
        if self.timing && self.quantum > 1 {
            return Err(ConfigError::Range {
                key: "quantum".into(),
                value: self.quantum,
                range: "1 under the timing model (its pipeline decides which warp issues)".into(),
            });
        }
        if !self.local_mem_size.is_multiple_of(4) {
            return Err(ConfigError::Range {
                key: "local_mem_size".into(),
                value: self.local_mem_size as u64,
                range: "a multiple of 4".into(),
            });
        }
        weft_mem::Memory::new(self.mem_config()).map_err(|e| ConfigError::Memory(e.to_string()))?;
        Ok(())
    }

    /// The memory layout this configuration implies.
    pub fn mem_config(&self) -> weft_mem::MemConfig {
        weft_mem::MemConfig {
            dram_base: weft_mem::DRAM_BASE,
            dram_size: self.dram_size,
            local_base: self.local_mem_base,
            local_size: self.local_mem_size,
            cores: self.cores,
            extra: self.profile.extra_regions(self),
            io_page: self.profile.io_page(),
        }
    }

    /// The mask with every lane of a warp set.
    pub fn full_mask(&self) -> u32 {
        if self.lanes >= 32 {
            u32::MAX
        } else {
            (1u32 << self.lanes) - 1
        }
    }

    /// The effective cycle bound.
    pub fn cycle_bound(&self) -> u64 {
        if self.max_cycles == 0 {
            DEFAULT_MAX_CYCLES
        } else {
            self.max_cycles
        }
    }
}

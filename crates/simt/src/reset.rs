//! Building a machine, loading programs into it, and restarting it: construction and reset
//! in one place (the cores as at reset, the devices of the I/O page, the decoded-code cache
//! with the executor's handlers, the profile's own reset).

use crate::config::{Config, ConfigError};
use crate::counters::Stats;
use crate::machine::{Barrier, Code, Core, Machine};
use crate::program::{LoadError, Program};
use crate::warp::Warp;
use weft_mem::Memory;

impl Machine {
    /// Build a machine and load `prog`: segments copied, warp 0 of every core reset to the
    /// entry with lane 0 active.
    pub fn new(cfg: Config, prog: &Program) -> Result<Machine, LoadError> {
        cfg.validate()?;
        let mut mem =
            Memory::new(cfg.mem_config()).map_err(|e| ConfigError::Memory(e.to_string()))?;
        let mut code = Code::new(cfg.lanes, crate::fast::handler_for);
        load_segments(&mut mem, &mut code, &cfg, prog)?;
        if !mem.is_dram(prog.entry) || !prog.entry.is_multiple_of(2) {
            return Err(LoadError::Entry(prog.entry));
        }
        mem.set_tohost(prog.tohost);
        mem.set_fromhost(prog.fromhost);
        code.set_reconv(prog.reconv.clone());
        code.fill(&mem);
        let cores = Self::reset_cores(&cfg, prog.entry);
        let stats = Stats::new(&cfg);
        let cfg_full = cfg.full_mask();
        let cfg_io = cfg.clone();
        let mut m = Machine {
            global_barriers: vec![Barrier::default(); cfg.profile.barrier_slots(&cfg)],
            cfg,
            cores,
            mem,
            code,
            cycle: 0,
            exit: None,
            fault: None,
            reservations: Vec::new(),
            console: Vec::new(),
            console_sink: None,
            observers: Vec::new(),
            symbols: prog.symbols.clone(),
            stats,
            full_mask: cfg_full,
            kmu: None,
            bus: crate::bus::io_page(&cfg_io),
            engine: None,
            accel_retry: 0,
            accel_cycles: 0,
            accel_misses: 0,
            accel_multi: false,
            accel_mem: None,
            launches: Default::default(),
            accel_cap: crate::accel::MULTI_CYCLES,
            accel_hold: false,
        };
        m.profile_reset()?;
        Ok(m)
    }

    /// Load another program image into the machine without touching the cores or the rest
    /// of memory (a host runtime loading a kernel module): its segments are written (BSS
    /// zeroed), its executable ranges decoded with its reconvergence-table entries, and its
    /// symbols added. The entry point is not used.
    pub fn load_module(&mut self, prog: &Program) -> Result<(), LoadError> {
        self.code.merge_reconv(&prog.reconv);
        let r = load_segments(&mut self.mem, &mut self.code, &self.cfg, prog);
        self.code.fill(&self.mem);
        r?;
        self.symbols
            .retain(|(_, a)| !prog.symbols.iter().any(|(_, b)| a == b));
        self.symbols.extend(prog.symbols.iter().cloned());
        Ok(())
    }

    /// Every core as at reset: warp 0 at `entry` with lane 0 active, the others idle.
    fn reset_cores(cfg: &Config, entry: u32) -> Vec<Core> {
        (0..cfg.cores)
            .map(|_| {
                let mut warps: Vec<Warp> = (0..cfg.warps)
                    .map(|_| Warp::new(cfg.stack_depth, cfg.stack_spill))
                    .collect();
                warps[0].start(entry, 1);
                Core {
                    warps,
                    instret_offset: 0,
                    cycle_offset: 0,
                    warp_done: 0,
                    spawn_pc: entry,
                    spawn_args: 0,
                    barriers: vec![Barrier::default(); cfg.profile.barrier_slots(cfg)],
                    next: 0,
                    quantum_left: 0,
                    hpm: [0; weft_isa::csr::HPM_LAST + 1],
                }
            })
            .collect()
    }

    /// Reset every core to start again at `entry` (warp 0, lane 0; registers, CSRs, stacks
    /// and barriers as at reset) while **memory is kept**, as is the console not yet taken,
    /// the cycle count and the statistics (they go on counting). The host runtime runs one
    /// launch per restart. An entry outside DRAM or not 4-byte aligned is refused.
    pub fn restart(&mut self, entry: u32) -> Result<(), LoadError> {
        if !self.mem.is_dram(entry) || !entry.is_multiple_of(4) {
            return Err(LoadError::Entry(entry));
        }
        let mut cores = Self::reset_cores(&self.cfg, entry);
        // The counters go on counting: each warp keeps its statistics.
        for (new, old) in cores.iter_mut().zip(&self.cores) {
            for (n, o) in new.warps.iter_mut().zip(&old.warps) {
                n.stats = o.stats.clone();
                (n.stack.spills, n.stack.fills) = (o.stack.spills, o.stack.fills);
            }
        }
        self.cores = cores;
        self.global_barriers = vec![Barrier::default(); self.cfg.profile.barrier_slots(&self.cfg)];
        self.reservations.clear();
        self.exit = None;
        self.fault = None;
        self.profile_reset()?;
        Ok(())
    }
}

/// Copy a program's segments into memory (zero-filling up to each segment's memory size) and
/// give its executable ranges to the decoded-instruction cache.
fn load_segments(
    mem: &mut Memory,
    code: &mut Code,
    cfg: &Config,
    prog: &Program,
) -> Result<(), LoadError> {
    for s in &prog.segments {
        let len = s.mem_size.max(s.data.len() as u32);
        let bad = |why: String| LoadError::Segment {
            addr: s.addr,
            len,
            why,
        };
        if s.addr.checked_add(len).is_none() {
            return Err(bad("it wraps past 4 GiB".into()));
        }
        if len > 0 && !(mem.is_dram(s.addr) && mem.is_dram(s.addr + len - 1)) {
            return Err(bad(format!(
                "DRAM is {:#010x}..{:#010x}",
                weft_mem::DRAM_BASE,
                weft_mem::DRAM_BASE as u64 + cfg.dram_size as u64
            )));
        }
        let mut data = s.data.clone();
        data.resize(len as usize, 0);
        mem.write_bytes(0, s.addr, &data)
            .map_err(|e| bad(e.to_string()))?;
        if s.exec {
            code.add_range(s.addr, len);
        }
    }
    Ok(())
}

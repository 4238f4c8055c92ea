//! The profile: every way the machine's conventions differ between weft's own and the
//! Vortex compatibility profile (docs/vortex.md), in one place. The rest of weft-simt asks
//! [`Profile`]'s questions here and never tests the profile itself. The Vortex parts these
//! rules use are under `vortex`: its memory map, barrier ids and extra CSRs, `vortex::kmu`
//! (the KMU and the CTA CSRs; its launch and dispatch are the `impl Machine` below) and
//! `vortex::vxbin` (images).

use crate::config::{Config, Profile};
use crate::machine::Machine;
use crate::program::LoadError;
use crate::vortex::kmu::{CtaCsrs, Kmu, KmuDcrs, KmuError, REENTRY_REWIND};
use crate::warp::WarpState;

impl Profile {
    fn vortex(self) -> bool {
        self == Profile::Vortex
    }

    /// The defaults of a machine of this profile.
    pub fn defaults(self) -> Config {
        match self {
            Profile::Weft => Config::default(),
            Profile::Vortex => crate::vortex::defaults(),
        }
    }

    /// Memory regions beyond DRAM and shared memory (Vortex: its I/O area and stacks).
    pub(crate) fn extra_regions(self, cfg: &Config) -> Vec<(u32, u32)> {
        match self {
            Profile::Weft => Vec::new(),
            Profile::Vortex => crate::vortex::extra_regions(cfg),
        }
    }

    /// Does the machine have weft's I/O page (the device bus's addresses are not memory)?
    pub(crate) fn io_page(self) -> bool {
        !self.vortex()
    }

    /// Barriers per core (and global barriers): the configured number, or under the Vortex
    /// profile one set per warp (a CTA slot each, `vortex::barrier_slots`).
    pub(crate) fn barrier_slots(self, cfg: &Config) -> usize {
        if self.vortex() {
            crate::vortex::barrier_slots(cfg)
        } else {
            cfg.barriers
        }
    }

    /// The flat barrier index of a `vx_bar` id (bit 31, global, is not part of it).
    pub(crate) fn barrier_index(self, id: u32, barriers: usize) -> u64 {
        if self.vortex() {
            crate::vortex::barrier_index(id, barriers)
        } else {
            (id & 0x7fff_ffff) as u64
        }
    }

    /// Does `wspawn` wait until its warp is the only active one of its core, with the count
    /// capped at the core's warps (Vortex), rather than start the warps at once?
    pub(crate) fn wspawn_waits(self) -> bool {
        self.vortex()
    }

    /// Do votes take a member mask in rs2 (weft's own profile; Vortex encodes rs2 = x0)?
    pub(crate) fn votes_take_member_mask(self) -> bool {
        !self.vortex()
    }

    /// Are there CTA CSRs and Vortex's extra counter numbers?
    pub(crate) fn cta_csrs(self) -> bool {
        self.vortex()
    }

    /// Is `mscratch` one per core (Vortex's `vx_spawn_threads` passes its arguments there)?
    pub(crate) fn mscratch_per_core(self) -> bool {
        self.vortex()
    }

    /// Is a run in which every warp halted a normal exit with the exit word's code?
    pub(crate) fn halt_is_exit(self) -> bool {
        self.vortex()
    }

    /// Is there a tensor core unit (Vortex's `wmma`, `wgmma`, `tcu.ld`)?
    pub(crate) fn has_tcu(self) -> bool {
        self.vortex()
    }
}

/// A CSR number the profile answers itself (Vortex counters weft does not keep): its value.
pub(crate) fn extra_csr(p: Profile, csr: u16) -> Option<u32> {
    if p.vortex() {
        crate::vortex::extra_csr(csr)
    } else {
        None
    }
}

impl Machine {
    /// Profile-specific reset: under Vortex, the console rings, `mscratch`, and the KMU as
    /// SimX's standalone runner leaves it (warp 0's CTA CSRs; `vortex/kmu.rs`).
    pub(crate) fn profile_reset(&mut self) -> Result<(), LoadError> {
        if !self.cfg.profile.vortex() {
            return Ok(());
        }
        use crate::vortex::{COUT_ADDR, COUT_RING, COUT_SLOTS};
        self.mem
            .set_cout_ring(COUT_ADDR, COUT_SLOTS, COUT_RING)
            .map_err(|e| LoadError::Config(crate::ConfigError::Memory(e.to_string())))?;
        self.kmu = Some(Box::new(crate::vortex::kmu::Kmu::standalone(&self.cfg)));
        let arg = self.cfg.kernel_arg;
        for core in &mut self.cores {
            for w in &mut core.warps {
                w.csr.mscratch = arg;
            }
        }
        Ok(())
    }

    /// The program's return code when every warp halted (Vortex: the exit word).
    pub(crate) fn halt_exit_code(&self) -> u32 {
        self.mem
            .load(0, crate::vortex::EXIT_CODE_ADDR, 4)
            .unwrap_or(0)
    }

    /// Launch a kernel as Vortex's KMU does (docs/vortex.md, "Hardware CTA launch"): every
    /// core is reset with all warps idle (memory kept, as [`Machine::restart`]), and from the
    /// next cycle on each core's dispatcher places the grid's CTAs on its free warps. The run
    /// ends when every CTA has run and every warp has halted.
    pub fn launch(&mut self, dcrs: &KmuDcrs) -> Result<(), KmuError> {
        if !self.cfg.profile.vortex() {
            return Err(KmuError::NotVortex);
        }
        dcrs.validate(&self.cfg)?;
        let entry = dcrs.startup_addr as u32;
        self.restart(entry)?;
        for core in &mut self.cores {
            for w in &mut core.warps {
                w.state = WarpState::Idle;
                w.mask = 0;
            }
            core.warp_done = 0;
        }
        self.kmu = Some(Box::new(Kmu::new(&self.cfg, *dcrs)));
        // The launch's counters start here and end with the run (`finish_run`).
        let now = self.counts();
        let kernel = (dcrs.kernel_entry as u32).max(1);
        self.launches.write(kernel, now);
        Ok(())
    }

    /// One dispatch step on every core (the run loop calls it each cycle while the KMU is
    /// busy): a core places at most one warp per cycle, as Vortex's scheduler does.
    pub(crate) fn dispatch_ctas(&mut self) {
        let Some(mut kmu) = self.kmu.take() else {
            return;
        };
        for c in 0..self.cores.len() {
            let active = self.cores[c].active_mask();
            let Some((w, mask, first)) = kmu.step(c, active) else {
                continue;
            };
            let warp = &mut self.cores[c].warps[w];
            let pc = if first {
                kmu.dcrs.startup_addr as u32
            } else {
                warp.pc.wrapping_sub(REENTRY_REWIND)
            };
            warp.start(pc, mask & self.full_mask);
            warp.csr.mscratch = kmu.dcrs.startup_arg as u32;
            self.cores[c].warp_done &= !(1 << w);
        }
        self.kmu = Some(kmu);
    }

    /// A warp halted: its CTA slot may be done (the KMU frees the slot's local memory).
    pub(crate) fn cta_warp_done(&mut self, c: usize, w: usize) {
        if let Some(k) = &mut self.kmu {
            k.warp_done(c, w);
        }
    }

    /// Is the KMU still handing out or placing CTAs?
    pub(crate) fn kmu_busy(&self) -> bool {
        self.kmu.as_ref().is_some_and(|k| k.busy())
    }

    /// The CTA CSRs of warp `w` of core `c`.
    pub(crate) fn cta_csrs(&self, c: usize, w: usize) -> CtaCsrs {
        self.kmu
            .as_ref()
            .and_then(|k| k.csrs.get(c)?.get(w).copied())
            .unwrap_or_default()
    }
}

//! Vortex v3.0's kernel management unit (KMU) and per-core CTA dispatch (docs/vortex.md,
//! "Hardware CTA launch"): the `VX_DCR_KMU_*` device configuration registers a host writes,
//! the grid walk that hands out one CTA at a time (cluster by cluster), each core's
//! dispatcher that places a CTA's warps on free warps one per cycle, gives the CTA its slice
//! of the core's local memory (a ring, reclaimed in order), and the CTA CSRs 0xCD0–0xCE1 each
//! dispatched warp reads. The behaviour follows SimX's `kmu/kmu.cpp` and `cta_dispatcher.cpp`
//! as documented there; the code is weft's own. One addition: the CTAs of a cluster all go
//! to the core that took its first (Vortex's DXA multicast and `vx_dxa.h` require the
//! members to share a core; SimX hands each CTA to whichever core asks next).

use crate::config::Config;
use crate::program::LoadError;

/// DCR numbers (Vortex's `VX_types.toml`, `[dcr_kmu]`).
pub mod dcr {
    pub const STARTUP_ADDR0: u32 = 0x010;
    pub const STARTUP_ADDR1: u32 = 0x011;
    pub const KERNEL_ENTRY0: u32 = 0x012;
    pub const KERNEL_ENTRY1: u32 = 0x013;
    pub const STARTUP_ARG0: u32 = 0x014;
    pub const STARTUP_ARG1: u32 = 0x015;
    pub const BLOCK_DIM_X: u32 = 0x016;
    pub const BLOCK_DIM_Y: u32 = 0x017;
    pub const BLOCK_DIM_Z: u32 = 0x018;
    pub const GRID_DIM_X: u32 = 0x019;
    pub const GRID_DIM_Y: u32 = 0x01A;
    pub const GRID_DIM_Z: u32 = 0x01B;
    pub const LMEM_SIZE: u32 = 0x01C;
    pub const BLOCK_SIZE: u32 = 0x01D;
    pub const WARP_STEP_X: u32 = 0x01E;
    pub const WARP_STEP_Y: u32 = 0x01F;
    pub const WARP_STEP_Z: u32 = 0x020;
    pub const CLUSTER_DIM_X: u32 = 0x021;
    pub const CLUSTER_DIM_Y: u32 = 0x022;
    pub const CLUSTER_DIM_Z: u32 = 0x023;
    /// First and one-past-last KMU DCR.
    pub const BEGIN: u32 = 0x010;
    pub const END: u32 = 0x024;
}

/// CTA CSR numbers (Vortex's `VX_types.toml`, `[csr_cta]`).
pub mod csr {
    pub const CTA_ID: u16 = 0xCD0;
    pub const CTA_RANK: u16 = 0xCD1;
    pub const CTA_SIZE: u16 = 0xCD2;
    pub const THREAD_ID_X: u16 = 0xCD3;
    pub const THREAD_ID_Y: u16 = 0xCD4;
    pub const THREAD_ID_Z: u16 = 0xCD5;
    pub const BLOCK_ID_X: u16 = 0xCD6;
    pub const BLOCK_ID_Y: u16 = 0xCD7;
    pub const BLOCK_ID_Z: u16 = 0xCD8;
    pub const BLOCK_DIM_X: u16 = 0xCD9;
    pub const BLOCK_DIM_Y: u16 = 0xCDA;
    pub const BLOCK_DIM_Z: u16 = 0xCDB;
    pub const GRID_DIM_X: u16 = 0xCDC;
    pub const GRID_DIM_Y: u16 = 0xCDD;
    pub const GRID_DIM_Z: u16 = 0xCDE;
    pub const LMEM_ADDR: u16 = 0xCDF;
    pub const CLUSTER_SIZE: u16 = 0xCE0;
    pub const ENTRY: u16 = 0xCE1;
}

/// Local-memory allocations are rounded up to this (Vortex's `MEM_BLOCK_SIZE`, the L1 line).
pub const LMEM_BLOCK: u32 = 64;

/// Bytes a re-used warp rewinds from where it halted to re-enter the kernel's per-CTA
/// dispatch window (Vortex's `vx_start.S`: `csrr s11, cta_entry; csrr a0, mscratch; jalr;
/// wsync; tmc x0`, five 4-byte instructions).
pub const REENTRY_REWIND: u32 = 20;

/// The KMU's registers: the kernel a launch runs and its grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KmuDcrs {
    /// Where a warp's first CTA of a launch starts (the image's start-up code).
    pub startup_addr: u64,
    /// The kernel function (read back through the `cta_entry` CSR).
    pub kernel_entry: u64,
    /// The kernel-argument pointer (each dispatched warp's `mscratch`).
    pub startup_arg: u64,
    pub block_dim: [u32; 3],
    pub grid_dim: [u32; 3],
    /// Local memory per CTA, bytes.
    pub lmem_size: u32,
    /// Threads per CTA.
    pub block_size: u32,
    /// How far the thread index advances from one warp of a CTA to the next.
    pub warp_step: [u32; 3],
    pub cluster_dim: [u32; 3],
}

impl Default for KmuDcrs {
    /// SimX's reset values: every dimension 1, everything else 0.
    fn default() -> KmuDcrs {
        KmuDcrs {
            startup_addr: 0,
            kernel_entry: 0,
            startup_arg: 0,
            block_dim: [1; 3],
            grid_dim: [1; 3],
            lmem_size: 0,
            block_size: 0,
            warp_step: [1; 3],
            cluster_dim: [1; 3],
        }
    }
}

/// Why a DCR access or a launch is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KmuError {
    #[error("DCR {0:#05x} is not a KMU register")]
    UnknownDcr(u32),
    #[error("hardware CTA launch needs the Vortex profile")]
    NotVortex,
    #[error("launch refused: {0}")]
    Launch(String),
    #[error("{0}")]
    Load(#[from] LoadError),
}

fn set_lo(v: &mut u64, x: u32) {
    *v = *v & !0xffff_ffff | x as u64;
}

fn set_hi(v: &mut u64, x: u32) {
    *v = *v & 0xffff_ffff | (x as u64) << 32;
}

impl KmuDcrs {
    /// Write one KMU DCR.
    pub fn write(&mut self, addr: u32, value: u32) -> Result<(), KmuError> {
        match addr {
            dcr::STARTUP_ADDR0 => set_lo(&mut self.startup_addr, value),
            dcr::STARTUP_ADDR1 => set_hi(&mut self.startup_addr, value),
            dcr::KERNEL_ENTRY0 => set_lo(&mut self.kernel_entry, value),
            dcr::KERNEL_ENTRY1 => set_hi(&mut self.kernel_entry, value),
            dcr::STARTUP_ARG0 => set_lo(&mut self.startup_arg, value),
            dcr::STARTUP_ARG1 => set_hi(&mut self.startup_arg, value),
            dcr::BLOCK_DIM_X..=dcr::BLOCK_DIM_Z => {
                self.block_dim[(addr - dcr::BLOCK_DIM_X) as usize] = value
            }
            dcr::GRID_DIM_X..=dcr::GRID_DIM_Z => {
                self.grid_dim[(addr - dcr::GRID_DIM_X) as usize] = value
            }
            dcr::LMEM_SIZE => self.lmem_size = value,
            dcr::BLOCK_SIZE => self.block_size = value,
            dcr::WARP_STEP_X..=dcr::WARP_STEP_Z => {
                self.warp_step[(addr - dcr::WARP_STEP_X) as usize] = value
            }
            dcr::CLUSTER_DIM_X..=dcr::CLUSTER_DIM_Z => {
                self.cluster_dim[(addr - dcr::CLUSTER_DIM_X) as usize] = value
            }
            _ => return Err(KmuError::UnknownDcr(addr)),
        }
        Ok(())
    }

    /// Read one KMU DCR back.
    pub fn read(&self, addr: u32) -> Result<u32, KmuError> {
        Ok(match addr {
            dcr::STARTUP_ADDR0 => self.startup_addr as u32,
            dcr::STARTUP_ADDR1 => (self.startup_addr >> 32) as u32,
            dcr::KERNEL_ENTRY0 => self.kernel_entry as u32,
            dcr::KERNEL_ENTRY1 => (self.kernel_entry >> 32) as u32,
            dcr::STARTUP_ARG0 => self.startup_arg as u32,
            dcr::STARTUP_ARG1 => (self.startup_arg >> 32) as u32,
            dcr::BLOCK_DIM_X..=dcr::BLOCK_DIM_Z => {
                self.block_dim[(addr - dcr::BLOCK_DIM_X) as usize]
            }
            dcr::GRID_DIM_X..=dcr::GRID_DIM_Z => self.grid_dim[(addr - dcr::GRID_DIM_X) as usize],
            dcr::LMEM_SIZE => self.lmem_size,
            dcr::BLOCK_SIZE => self.block_size,
            dcr::WARP_STEP_X..=dcr::WARP_STEP_Z => {
                self.warp_step[(addr - dcr::WARP_STEP_X) as usize]
            }
            dcr::CLUSTER_DIM_X..=dcr::CLUSTER_DIM_Z => {
                self.cluster_dim[(addr - dcr::CLUSTER_DIM_X) as usize]
            }
            _ => return Err(KmuError::UnknownDcr(addr)),
        })
    }

    /// The launch SimX's standalone runner programs for a program at `entry`: one CTA of one
    /// thread (warp 0 of the first core, lane 0).
    pub fn standalone(entry: u32, lanes: u32) -> KmuDcrs {
        KmuDcrs {
            startup_addr: entry as u64,
            block_size: 1,
            warp_step: [lanes, 0, 0],
            ..KmuDcrs::default()
        }
    }

    /// The registers for a launch of `grid` × `block` threads of the kernel at `entry` with
    /// start-up code at `startup`, argument pointer `arg` and `lmem` bytes of local memory per
    /// CTA, on a machine with `lanes` threads per warp: block size and warp steps as Vortex's
    /// runtime computes them, clusters of one CTA.
    pub fn launch(
        startup: u32,
        entry: u32,
        arg: u32,
        grid: [u32; 3],
        block: [u32; 3],
        lmem: u32,
        lanes: u32,
    ) -> KmuDcrs {
        KmuDcrs {
            startup_addr: startup as u64,
            kernel_entry: entry as u64,
            startup_arg: arg as u64,
            block_dim: block,
            grid_dim: grid,
            lmem_size: lmem,
            block_size: block.iter().product(),
            warp_step: warp_step(lanes, block),
            cluster_dim: [1; 3],
        }
    }

    /// Warps one CTA needs on a machine with `lanes` threads per warp.
    pub fn warps_per_cta(&self, lanes: u32) -> u32 {
        self.block_size.div_ceil(lanes.max(1))
    }

    /// Check a launch can run to completion on `cfg` (SimX would hang or abort otherwise).
    pub fn validate(&self, cfg: &Config) -> Result<(), KmuError> {
        let bad = |why: String| Err(KmuError::Launch(why));
        if self.startup_addr > u32::MAX as u64 || self.kernel_entry > u32::MAX as u64 {
            return bad("a 64-bit address on a 32-bit machine".into());
        }
        if self.startup_arg > u32::MAX as u64 {
            return bad("a 64-bit kernel argument on a 32-bit machine".into());
        }
        if self.block_dim.contains(&0) {
            return bad(format!("block dimension {:?} has a 0", self.block_dim));
        }
        let warps = self.warps_per_cta(cfg.lanes as u32);
        if warps as usize > cfg.warps {
            return bad(format!(
                "a CTA of {} threads needs {warps} warps; a core has {}",
                self.block_size, cfg.warps
            ));
        }
        let k: u64 = self.cluster_dim.iter().map(|&d| d as u64).product();
        let span = aligned(self.lmem_size) as u64 * k.max(1);
        if span > cfg.local_mem_size as u64 {
            return bad(format!(
                "a cluster of {k} CTAs needs {span} bytes of local memory; a core has {}",
                cfg.local_mem_size
            ));
        }
        for a in 0..3 {
            if self.cluster_dim[a] != 0
                && self.grid_dim[a] != 0
                && !self.grid_dim[a].is_multiple_of(self.cluster_dim[a])
            {
                return bad(format!(
                    "grid dimension {:?} is not a multiple of the cluster dimension {:?}",
                    self.grid_dim, self.cluster_dim
                ));
            }
        }
        Ok(())
    }
}

/// How far a CTA's thread index moves from one warp to the next (x, y, z) for `lanes`
/// threads per warp in a block of `block` threads: a warp's worth of threads in row-major
/// order, split into the block's dimensions (the carry is added by the dispatcher).
pub fn warp_step(lanes: u32, block: [u32; 3]) -> [u32; 3] {
    let [bx, by, bz] = block.map(|d| d.max(1));
    [lanes % bx, lanes / bx % by, lanes / (bx * by) % bz]
}

fn aligned(bytes: u32) -> u32 {
    bytes.div_ceil(LMEM_BLOCK).saturating_mul(LMEM_BLOCK)
}

/// The CTA CSRs of one warp.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CtaCsrs {
    /// The CTA's slot on its core (0 … warps − 1): `cta_id`, the barrier slot.
    pub cta_id: u32,
    /// This warp's index in its CTA.
    pub rank: u32,
    /// Warps in the CTA.
    pub size: u32,
    /// Lane 0's thread index.
    pub thread_idx: [u32; 3],
    pub block_idx: [u32; 3],
    pub block_dim: [u32; 3],
    pub grid_dim: [u32; 3],
    pub lmem_addr: u32,
    pub cluster_size: u32,
    pub entry: u32,
}

impl CtaCsrs {
    /// Thread index of `lane` (x, y, z), carrying lane 0's index across the block's rows.
    pub fn thread_id(&self, lane: u32) -> [u32; 3] {
        let [bx, by, _] = self.block_dim;
        let x = self.thread_idx[0].wrapping_add(lane);
        let y = self.thread_idx[1].wrapping_add(x.checked_div(bx).unwrap_or(0));
        let z = self.thread_idx[2].wrapping_add(y.checked_div(by).unwrap_or(0));
        [
            x.checked_rem(bx).unwrap_or(x),
            y.checked_rem(by).unwrap_or(y),
            z,
        ]
    }

    /// The value of CTA CSR `n` for `lane`, or `None` if `n` is not one.
    pub fn read(&self, n: u16, lane: u32) -> Option<u32> {
        Some(match n {
            csr::CTA_ID => self.cta_id,
            csr::CTA_RANK => self.rank,
            csr::CTA_SIZE => self.size,
            csr::THREAD_ID_X..=csr::THREAD_ID_Z => {
                self.thread_id(lane)[(n - csr::THREAD_ID_X) as usize]
            }
            csr::BLOCK_ID_X..=csr::BLOCK_ID_Z => self.block_idx[(n - csr::BLOCK_ID_X) as usize],
            csr::BLOCK_DIM_X..=csr::BLOCK_DIM_Z => self.block_dim[(n - csr::BLOCK_DIM_X) as usize],
            csr::GRID_DIM_X..=csr::GRID_DIM_Z => self.grid_dim[(n - csr::GRID_DIM_X) as usize],
            csr::LMEM_ADDR => self.lmem_addr,
            csr::CLUSTER_SIZE => self.cluster_size,
            csr::ENTRY => self.entry,
            _ => return None,
        })
    }
}

/// One CTA handed out by the KMU.
#[derive(Clone, Copy, Debug)]
struct Cta {
    block_idx: [u32; 3],
    first_of_cluster: bool,
}

/// A CTA being placed warp by warp on a core.
#[derive(Clone, Copy, Debug)]
struct Placing {
    cta: Cta,
    slot: u32,
    size: u32,
    rank: u32,
    threads_left: u32,
    thread_idx: [u32; 3],
    lmem_addr: u32,
}

/// One core's CTA dispatcher.
#[derive(Clone, Debug)]
struct Dispatcher {
    /// Per CTA slot: warps still running, local-memory bytes held.
    slot_warps: Vec<u32>,
    slot_lmem: Vec<u32>,
    /// Per warp: its CTA slot while it runs one.
    warp_slot: Vec<Option<u32>>,
    /// Per warp: has it started a CTA of this launch (then it re-enters instead).
    warp_used: Vec<bool>,
    /// Slots are claimed and freed in order: oldest live, next to claim.
    head: usize,
    tail: usize,
    /// The local-memory ring: next offset, free bytes.
    lmem_tail: u32,
    lmem_free: u32,
    placing: Option<Placing>,
    pending: Option<Cta>,
}

impl Dispatcher {
    fn new(cfg: &Config) -> Dispatcher {
        Dispatcher {
            slot_warps: vec![0; cfg.warps],
            slot_lmem: vec![0; cfg.warps],
            warp_slot: vec![None; cfg.warps],
            warp_used: vec![false; cfg.warps],
            head: 0,
            tail: 0,
            lmem_tail: 0,
            lmem_free: cfg.local_mem_size,
            placing: None,
            pending: None,
        }
    }

    /// A warp halted: its CTA slot loses a warp; finished slots at the head free their
    /// local memory, in order.
    fn warp_done(&mut self, w: usize) {
        let Some(slot) = self.warp_slot[w].take() else {
            return;
        };
        let s = slot as usize;
        self.slot_warps[s] = self.slot_warps[s].saturating_sub(1);
        if self.slot_warps[s] == 0 && s == self.head {
            let n = self.slot_warps.len();
            loop {
                self.lmem_free += std::mem::take(&mut self.slot_lmem[self.head]);
                self.head = (self.head + 1) % n;
                if self.head == self.tail || self.slot_warps[self.head] != 0 {
                    break;
                }
            }
        }
    }
}

/// The KMU's grid walk and every core's dispatcher for the current launch.
#[derive(Clone, Debug)]
pub(crate) struct Kmu {
    pub(crate) dcrs: KmuDcrs,
    /// CTAs remain to be handed out.
    running: bool,
    origin: [u32; 3],
    offset: [u32; 3],
    /// The core placing the cluster being handed out (clusters of more than one CTA): the
    /// cluster's other CTAs go to it alone, so that they share its local memory and barriers.
    cluster_core: Option<usize>,
    cores: Vec<Dispatcher>,
    /// CTA CSRs, per core, per warp.
    pub(crate) csrs: Vec<Vec<CtaCsrs>>,
    lanes: u32,
    lmem_base: u32,
    lmem_capacity: u32,
}

impl Kmu {
    /// Warp `w` of core `c` halted: its CTA slot may be done (its local memory is freed).
    pub(crate) fn warp_done(&mut self, c: usize, w: usize) {
        self.cores[c].warp_done(w);
    }

    /// The state for a launch of `dcrs` (not yet started: `running` as SimX's `start`).
    pub(crate) fn new(cfg: &Config, dcrs: KmuDcrs) -> Kmu {
        let running =
            dcrs.block_size > 0 && !dcrs.grid_dim.contains(&0) && !dcrs.cluster_dim.contains(&0);
        Kmu {
            dcrs,
            running,
            origin: [0; 3],
            offset: [0; 3],
            cluster_core: None,
            cores: (0..cfg.cores).map(|_| Dispatcher::new(cfg)).collect(),
            csrs: vec![vec![CtaCsrs::default(); cfg.warps]; cfg.cores],
            lanes: cfg.lanes as u32,
            lmem_base: cfg.local_mem_base,
            lmem_capacity: cfg.local_mem_size,
        }
    }

    /// The state of a standalone run (no launch): warp 0 of every core holds the CTA SimX's
    /// standalone runner gives its single thread (one CTA of one thread, every dimension 1,
    /// no local memory, kernel entry 0); the other warps' CTA CSRs read 0.
    pub(crate) fn standalone(cfg: &Config) -> Kmu {
        let mut k = Kmu::new(cfg, KmuDcrs::standalone(0, cfg.lanes as u32));
        k.running = false;
        for core in &mut k.csrs {
            core[0] = CtaCsrs {
                size: 1,
                block_dim: [1; 3],
                grid_dim: [1; 3],
                cluster_size: 1,
                ..CtaCsrs::default()
            };
        }
        k
    }

    /// CTAs remain to be handed out or placed.
    pub(crate) fn busy(&self) -> bool {
        self.running
            || self
                .cores
                .iter()
                .any(|d| d.placing.is_some() || d.pending.is_some())
    }

    /// The next CTA of the grid: clusters fill first (x, then y, then z), then the cluster
    /// origin advances in x, y, z order.
    fn next_cta(&mut self) -> Option<Cta> {
        if !self.running {
            return None;
        }
        let cta = Cta {
            block_idx: [0, 1, 2].map(|a| self.origin[a] + self.offset[a]),
            first_of_cluster: self.offset == [0; 3],
        };
        let (cd, gd) = (self.dcrs.cluster_dim, self.dcrs.grid_dim);
        for (off, &c) in self.offset.iter_mut().zip(&cd) {
            *off += 1;
            if *off < c {
                return Some(cta);
            }
            *off = 0;
        }
        for ((org, &c), &g) in self.origin.iter_mut().zip(&cd).zip(&gd) {
            *org += c;
            if *org < g {
                return Some(cta);
            }
            *org = 0;
        }
        self.running = false;
        Some(cta)
    }

    /// One dispatch step of core `c` whose started warps are `active`: at most one warp of a
    /// CTA is placed. Returns the warp, its lanes (the CTA's remaining threads, up to a full
    /// warp), and whether it starts at the start-up address (its first CTA of the launch)
    /// or re-enters.
    pub(crate) fn step(&mut self, c: usize, active: u32) -> Option<(usize, u32, bool)> {
        if self.cores[c].placing.is_none() {
            if self.cores[c].pending.is_none() {
                if self.cluster_core.is_some_and(|o| o != c) {
                    return None;
                }
                let cta = self.next_cta()?;
                // The cluster stays on this core until its last CTA is handed out.
                let k = self.dcrs.cluster_dim.iter().product::<u32>();
                self.cluster_core = (k > 1 && self.offset != [0; 3]).then_some(c);
                self.cores[c].pending = Some(cta);
            }
            let cta = self.cores[c].pending?;
            let (size_each, cap) = (aligned(self.dcrs.lmem_size), self.lmem_capacity);
            let k = self.dcrs.cluster_dim.iter().product::<u32>().max(1);
            let d = &mut self.cores[c];
            if d.slot_warps[d.tail] != 0 {
                return None;
            }
            // A CTA's memory is contiguous, and so is a cluster's (its first CTA reserves
            // the whole span): an allocation that would straddle the end wraps to 0 and
            // pays for the skipped tail.
            let span = if cta.first_of_cluster {
                size_each.saturating_mul(k)
            } else {
                size_each
            };
            let wraps = size_each > 0 && d.lmem_tail as u64 + span as u64 > cap as u64;
            let cost = size_each + if wraps { cap - d.lmem_tail } else { 0 };
            if d.lmem_free < cost {
                return None;
            }
            d.pending = None;
            let mut lmem_addr = 0;
            if size_each > 0 {
                if wraps {
                    d.lmem_tail = 0;
                }
                lmem_addr = self.lmem_base.wrapping_add(d.lmem_tail);
                d.lmem_tail = (d.lmem_tail + size_each) % cap.max(1);
                d.lmem_free -= cost;
            }
            let slot = d.tail;
            let size = self.dcrs.warps_per_cta(self.lanes);
            d.tail = (d.tail + 1) % d.slot_warps.len();
            d.slot_lmem[slot] = cost;
            d.slot_warps[slot] = size;
            d.placing = Some(Placing {
                cta,
                slot: slot as u32,
                size,
                rank: 0,
                threads_left: self.dcrs.block_size,
                thread_idx: [0; 3],
                lmem_addr,
            });
        }
        let d = &mut self.cores[c];
        let w = (0..d.warp_used.len()).find(|&w| active >> w & 1 == 0)?;
        let p = d.placing.as_mut()?;
        let csrs = CtaCsrs {
            cta_id: p.slot,
            rank: p.rank,
            size: p.size,
            thread_idx: p.thread_idx,
            block_idx: p.cta.block_idx,
            block_dim: self.dcrs.block_dim,
            grid_dim: self.dcrs.grid_dim,
            lmem_addr: p.lmem_addr,
            cluster_size: self.dcrs.cluster_dim.iter().product(),
            entry: self.dcrs.kernel_entry as u32,
        };
        let n = p.threads_left.min(self.lanes);
        p.threads_left -= n;
        let mask = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
        // The next warp's thread index: add the step, carrying into y and z.
        let (bd, ws) = (self.dcrs.block_dim, self.dcrs.warp_step);
        let nx = p.thread_idx[0] + ws[0];
        let cx = nx >= bd[0];
        p.thread_idx[0] = if cx { nx - bd[0] } else { nx };
        let ny = p.thread_idx[1] + ws[1] + cx as u32;
        let cy = ny >= bd[1];
        p.thread_idx[1] = if cy { ny - bd[1] } else { ny };
        p.thread_idx[2] += ws[2] + cy as u32;
        p.rank += 1;
        if p.rank >= p.size {
            d.placing = None;
        }
        let first = !d.warp_used[w];
        d.warp_used[w] = true;
        d.warp_slot[w] = Some(csrs.cta_id);
        self.csrs[c][w] = csrs;
        Some((w, mask, first))
    }
}

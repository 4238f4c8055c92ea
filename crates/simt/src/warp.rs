//! A warp's architectural state: one pc and thread mask, per-lane integer and float registers
//! (stored register-major, `x[reg][lane]`, so one instruction's lane loop walks contiguous
//! memory), per-lane fcsr, the divergence and IPDOM stacks, and the per-warp CSRs.

use crate::config::MAX_LANES;
use crate::divergence::{CallStack, DivStack};
use crate::ipdom::IpdomEntry;

/// Registers of every lane for one register number.
pub type LaneRegs = [u32; MAX_LANES];

/// What a warp is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarpState {
    /// Not started, or halted.
    Idle,
    /// Issuing instructions.
    Running,
    /// Waiting at a barrier (core-local id, or a global one when `global`).
    Barrier {
        /// Barrier id.
        id: u32,
        /// True for a cross-core barrier.
        global: bool,
    },
    /// Stopped at its `break_pc`; changing `break_pc` resumes it.
    Breakpoint,
    /// Vortex profile: a `wspawn` (at `at`, already retired) waiting until this is the only
    /// active warp of its core; then warps 1 … `count` − 1 start at `target` and this warp
    /// runs on. As in Vortex, the `wspawn` issues and counts once.
    SpawnWait {
        /// Number of warps to have running (capped at the core's warps).
        count: u32,
        /// Where the spawned warps start.
        target: u32,
        /// Address of the waiting `wspawn`.
        at: u32,
    },
    /// Halted by a fault (code and pc are in its CSRs).
    Faulted,
}

/// Per-warp CSRs (the ones that are state, not views).
#[derive(Clone, Debug, Default)]
pub struct WarpCsrs {
    /// The writable bits of `mstatus` (`trap::mstatus::WRITABLE`; reads add MPP and SD).
    pub mstatus: u32,
    pub mie: u32,
    pub mip: u32,
    pub mtvec: u32,
    pub mscratch: u32,
    pub mepc: u32,
    pub mcause: u32,
    pub mtval: u32,
    pub medeleg: u32,
    pub mideleg: u32,
    /// Watchdog mode (bits 1:0, [`watchdog::MODE`]) and the sticky expired bit (31,
    /// [`watchdog::EXPIRED`]).
    pub watchdog: u32,
    pub watchdog_limit: u32,
    /// Cycle of the last watchdog write (the kick).
    pub watchdog_kick: u64,
    pub break_pc: u32,
    pub fault_code: u32,
    pub fault_pc: u32,
    pub fault_addr: u32,
    /// High half of the cycle counter latched by the last local read of cycle_lo.
    pub cycle_hi_latch: u32,
    /// The warp observed through the cross-warp window.
    pub xwarp: u32,
    /// `pmpcfg0`–`pmpcfg3`: PMP entries 0–15, a byte each (`csr::pmp_cfg`).
    pub pmpcfg: [u32; 4],
    /// `pmpaddr0`–`pmpaddr15`.
    pub pmpaddr: [u32; 16],
}

/// Per-warp counters.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct WarpStats {
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    pub divergences: u64,
    pub reconvergences: u64,
    pub max_divergence_depth: u64,
    pub barrier_waits: u64,
}

/// One warp.
#[derive(Clone, Debug)]
pub struct Warp {
    pub pc: u32,
    /// Active lanes of the current group.
    pub mask: u32,
    pub state: WarpState,
    pub x: [LaneRegs; 32],
    pub f: [LaneRegs; 32],
    pub frm: [u8; MAX_LANES],
    pub fflags: [u8; MAX_LANES],
    /// LR reservation per lane (address), valid where `resv_mask` has the lane.
    pub resv: [u32; MAX_LANES],
    pub resv_mask: u32,
    pub stack: DivStack,
    pub ipdom: Vec<IpdomEntry>,
    /// The activations the current group is in: a linking `jal`/`jalr` enters one, a return
    /// leaves it.
    pub calls: CallStack,
    pub csr: WarpCsrs,
    pub stats: WarpStats,
    /// Vortex's tensor core: this warp's sparse-metadata store (`tcu.rs`).
    pub tcu_meta: Vec<u32>,
}

impl Warp {
    /// What `fflags`, `frm` or `fcsr` (`csr`, one of the three) reads on lane `l`.
    pub fn float_csr(&self, l: usize, csr: u16) -> u32 {
        use weft_isa::csr as n;
        match csr {
            n::FFLAGS => self.fflags[l] as u32,
            n::FRM => self.frm[l] as u32,
            _ => (self.frm[l] as u32) << 5 | self.fflags[l] as u32,
        }
    }

    /// Continue as `next` says: its lanes at its pc.
    pub(crate) fn go(&mut self, next: crate::divergence::Next) {
        self.mask = next.mask;
        self.pc = next.pc;
    }

    /// Count the divergence stack's depth in the warp's deepest (before each issue).
    #[inline]
    pub(crate) fn note_divergence_depth(&mut self) {
        let d = self.stack.len() as u64;
        if d > self.stats.max_divergence_depth {
            self.stats.max_divergence_depth = d;
        }
    }

    /// Before issue, for a warp with open entries: a group about to issue at an entry's table
    /// point in that entry's activation arrives there (parks, and the next group runs or the
    /// entry pops). Repeats until the group that will issue is at no point.
    #[inline]
    pub(crate) fn reconverge_before_issue(&mut self) {
        while let Some(k) = self.stack.point_at(self.pc, &self.calls) {
            self.stats.reconvergences += 1;
            let pc = self.pc;
            match self.stack.arrive(k, self.mask, pc, pc, &mut self.calls) {
                Some(next) => self.go(next),
                None => unreachable!("an entry with parked lanes pops to them"),
            }
        }
    }

    /// A fresh, idle warp.
    pub fn new(stack_depth: usize, stack_spill: usize) -> Warp {
        Warp {
            pc: 0,
            mask: 0,
            state: WarpState::Idle,
            x: [[0; MAX_LANES]; 32],
            f: [[0; MAX_LANES]; 32],
            frm: [0; MAX_LANES],
            fflags: [0; MAX_LANES],
            resv: [0; MAX_LANES],
            resv_mask: 0,
            stack: DivStack::new(stack_depth, stack_spill),
            ipdom: Vec::new(),
            calls: CallStack::default(),
            csr: WarpCsrs {
                mstatus: crate::trap::mstatus::FS_INITIAL,
                ..WarpCsrs::default()
            },
            stats: WarpStats::default(),
            tcu_meta: Vec::new(),
        }
    }

    /// Start (or restart) at `pc` with `mask`: clears the divergence state, keeps registers.
    pub fn start(&mut self, pc: u32, mask: u32) {
        self.pc = pc;
        self.mask = mask;
        self.state = WarpState::Running;
        self.stack.clear();
        self.ipdom.clear();
        self.calls.reset();
        self.resv_mask = 0;
    }

    /// The value of integer register `r` in the last active lane (Vortex's rule for
    /// warp-uniform operands; weft uses it for warp-level CSR writes too).
    #[inline]
    pub fn uniform(&self, r: u8) -> u32 {
        let lane = crate::lane::LaneMask(self.mask).last().unwrap_or(0);
        self.x[r as usize][lane]
    }

    /// True if the warp can issue.
    #[inline]
    pub fn is_running(&self) -> bool {
        self.state == WarpState::Running
    }
}

/// The `watchdog` CSR's fields (docs/isa.md §4.5) and the `mie` bit of its interrupt.
pub mod watchdog {
    /// Mode field: 0 off, [`HARD`] or [`SOFT`].
    pub const MODE: u32 = 3;
    /// Mode HARD: expiry faults with WATCHDOG.
    pub const HARD: u32 = 1;
    /// Mode SOFT: expiry sets [`EXPIRED`] (and interrupts if enabled).
    pub const SOFT: u32 = 2;
    /// Sticky expired bit.
    pub const EXPIRED: u32 = 1 << 31;
    /// The bits a write keeps.
    pub const WRITABLE: u32 = EXPIRED | MODE;
    /// `mie` bit that enables the SOFT-mode interrupt.
    pub const MIE_BIT: u32 = 16;
}

//! Vortex v3.0's memory map and default machine (`VX_config.h`, `VX_types.h`): where programs
//! are linked, the low I/O area with the console rings and the exit word, the device heap,
//! the per-hart stacks and the local memory, and the RAM regions a Vortex machine maps.

use crate::config::{Config, Profile};

/// Where programs are linked.
pub const STARTUP_ADDR: u32 = 0x8000_0000;
/// Start of the low I/O area (the console rings live here).
pub const IO_BASE_ADDR: u32 = 0x40;
/// Start of the device heap (`USER_BASE_ADDR`).
pub const USER_BASE_ADDR: u32 = 0x0001_0000;
/// Console ring buffers: base, slots (one per hart, modulo) and bytes per ring.
pub const COUT_ADDR: u32 = IO_BASE_ADDR;
/// Number of console rings.
pub const COUT_SLOTS: u32 = 64;
/// Bytes per console ring.
pub const COUT_RING: u32 = 512;
/// The word a kernel's return code is stored in (`IO_EXIT_CODE`): after the rings' `wr`,
/// `rd`, `data` and `lost` arrays, plus 8.
pub const EXIT_CODE_ADDR: u32 = COUT_ADDR + COUT_SLOTS * (12 + COUT_RING) + 8;
/// Top of hart 0's stack; hart *h*'s stack pointer starts at `STACK_BASE_ADDR − (h << 13)`.
pub const STACK_BASE_ADDR: u32 = 0xFFFF_0000;
/// log2 of the stack bytes per hart.
pub const STACK_LOG2_SIZE: u32 = 13;
/// Shared (local) memory base; 16 KiB per core.
pub const LMEM_BASE_ADDR: u32 = 0xFFFF_0000;

/// Vortex's default machine.
pub(crate) fn defaults() -> Config {
    Config {
        profile: Profile::Vortex,
        cores: 1,
        warps: 4,
        lanes: 4,
        barriers: 8,
        local_mem_base: LMEM_BASE_ADDR,
        local_mem_size: 16 << 10,
        ..Config::default()
    }
}

/// The RAM regions besides DRAM: the low area from 0x40 up to DRAM (console rings, exit
/// word, heap; sparse), the hart stacks just below 0xFFFF_0000, and the top of the address
/// space above the local memory (weft's I/O page is not mapped under this profile).
/// Addresses 0–0x3F stay unmapped so a null-pointer access faults.
pub(crate) fn extra_regions(cfg: &Config) -> Vec<(u32, u32)> {
    let harts = (cfg.cores * cfg.warps * cfg.lanes) as u64;
    let stack = (harts << STACK_LOG2_SIZE).min(STACK_BASE_ADDR as u64) as u32;
    let mut r = vec![
        (IO_BASE_ADDR, STARTUP_ADDR - IO_BASE_ADDR),
        (STACK_BASE_ADDR - stack, stack),
    ];
    // SimX maps everything that is not I/O or local memory as global memory: code that
    // never sets `sp` (Vortex's regression test `basic`) stores just below 4 GiB.
    let top = cfg.local_mem_base as u64 + cfg.local_mem_size as u64;
    if cfg.local_mem_base >= STACK_BASE_ADDR && top < 1 << 32 {
        r.push((top as u32, ((1u64 << 32) - top) as u32));
    }
    r
}

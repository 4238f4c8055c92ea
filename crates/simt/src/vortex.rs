//! The Vortex compatibility profile (docs/vortex.md): the conventions a Vortex v3.0
//! standalone kernel relies on — its memory map (low I/O area and heap, per-hart stacks below
//! 0xFFFF_0000, shared memory at 0xFFFF_0000), the per-hart console ring buffers at 0x40, the
//! exit word at 0x8348, `mscratch` as the kernel-argument pointer, Vortex's performance-counter
//! CSR numbers, and Vortex's default machine (1 core × 4 warps × 4 threads, 8 barriers).

use crate::config::{Config, Profile};
use crate::machine::{LoadError, Machine};

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
pub fn defaults() -> Config {
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
/// word, heap; sparse) and the hart stacks just below 0xFFFF_0000. Addresses 0–0x3F stay
/// unmapped so a null-pointer access faults.
pub fn extra_regions(cfg: &Config) -> Vec<(u32, u32)> {
    let harts = (cfg.cores * cfg.warps * cfg.lanes) as u64;
    let stack = (harts << STACK_LOG2_SIZE).min(STACK_BASE_ADDR as u64) as u32;
    vec![
        (IO_BASE_ADDR, STARTUP_ADDR - IO_BASE_ADDR),
        (STACK_BASE_ADDR - stack, stack),
    ]
}

/// Profile-specific reset: console rings and `mscratch`.
pub(crate) fn reset(m: &mut Machine) -> Result<(), LoadError> {
    m.mem
        .set_cout_ring(COUT_ADDR, COUT_SLOTS, COUT_RING)
        .map_err(|e| LoadError::Config(crate::ConfigError::Memory(e.to_string())))?;
    let arg = m.cfg.kernel_arg;
    for core in &mut m.cores {
        for w in &mut core.warps {
            w.csr.mscratch = arg;
        }
    }
    Ok(())
}

/// The program's return code (the exit word).
pub(crate) fn exit_code(m: &Machine) -> u32 {
    m.mem.load(0, EXIT_CODE_ADDR, 4).unwrap_or(0)
}

/// Vortex CSRs weft has no state for: the reserved machine-performance-monitor counter
/// (0xB01/0xB81) and the class counters (0xB03–0xB1F and their high halves 0xB83–0xB9F),
/// which read 0 in the functional model. `None` for every other number.
pub(crate) fn extra_csr(csr: u16) -> Option<u32> {
    match csr {
        0xB01 | 0xB81 | 0xB03..=0xB1F | 0xB83..=0xB9F => Some(0),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_word_is_where_vortex_puts_it() {
        assert_eq!(EXIT_CODE_ADDR, 0x8348);
    }

    #[test]
    fn default_memory_is_valid() {
        let c = defaults();
        c.validate().unwrap();
        let r = extra_regions(&c);
        assert_eq!(r[1], (0xFFFF_0000 - 16 * 8192, 16 * 8192));
    }
}

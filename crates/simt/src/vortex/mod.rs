//! The Vortex compatibility profile (docs/vortex.md): the conventions a Vortex v3.0
//! standalone kernel relies on — its memory map (low I/O area and heap, per-hart stacks below
//! 0xFFFF_0000, shared memory at 0xFFFF_0000), the per-hart console ring buffers at 0x40, the
//! exit word at 0x8348, `mscratch` as the kernel-argument pointer, Vortex's performance-counter
//! CSR numbers, and Vortex's default machine (1 core × 4 warps × 4 threads, 8 barriers).
//! Everything of Vortex lives under this module: the memory map and default machine
//! (`map`, re-exported here), the kernel management unit and CTA dispatch ([`kmu`]), the
//! `.vxbin` image format ([`vxbin`]), and here the profile's rules as functions of plain
//! values. The machine asks `profile.rs` (the one place that tests the profile), which uses
//! these; nothing here names the machine.

pub mod kmu;
mod map;
pub mod vxbin;

pub use map::*;

/// Barriers per core under this profile: `warps × barriers` (Vortex's barrier unit has
/// `NUM_BARRIERS` per CTA slot, and a core has one CTA slot per warp).
pub(crate) fn barrier_slots(cfg: &crate::Config) -> usize {
    cfg.warps * cfg.barriers
}

/// Vortex's barrier id decoding (`bar_decode_id` in SimX's `types.h`): bits 7:0 are the CTA
/// slot (the local group), bits 30:8 the barrier number within it; the flat index is
/// `slot × barriers + number`. Bit 31 (global) is not part of the index.
pub fn barrier_index(id: u32, barriers: usize) -> u64 {
    let slot = (id & 0xff) as u64;
    let number = (id >> 8 & 0x7f_ffff) as u64;
    slot * barriers as u64 + number
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
    fn barrier_ids_decode_as_slot_and_number() {
        // vx_barrier.h: id = (number << 8) + local group; 8 barriers per slot.
        assert_eq!(barrier_index(0x000, 8), 0);
        assert_eq!(barrier_index(0x001, 8), 8);
        assert_eq!(barrier_index(0x700, 8), 7);
        assert_eq!(barrier_index(0x701, 8), 15);
        assert_eq!(barrier_index(0x8000_0302, 8), 19);
        let c = crate::Config::for_profile(crate::config::Profile::Vortex);
        assert_eq!(barrier_slots(&c), 32);
    }

    #[test]
    fn default_memory_is_valid() {
        let c = crate::Config::for_profile(crate::config::Profile::Vortex);
        c.validate().unwrap();
        let r = extra_regions(&c);
        assert_eq!(r[1], (0xFFFF_0000 - 16 * 8192, 16 * 8192));
    }
}

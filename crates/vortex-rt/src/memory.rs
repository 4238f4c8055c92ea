//! A device's memory as the host hands it out: the heap from Vortex's `USER_BASE_ADDR` to
//! DRAM (weft-runtime's first-fit allocator, 64-byte blocks as Vortex's cache lines), and
//! reservations at fixed addresses (a kernel image in DRAM, a buffer in the I/O area).

use crate::error::{VxError, VxResult};
use weft_runtime::alloc::Allocator;

/// Vortex's `VX_MEM_USER_BASE_ADDR`: the device heap starts here.
pub const USER_BASE: u32 = 0x0001_0000;
/// The heap ends below DRAM (where kernel images are linked).
pub const HEAP_END: u32 = 0x8000_0000;
/// Vortex's cache line: the granule of allocations and of `VX_CAPS_CACHE_LINE_SIZE`.
pub const LINE: u32 = 64;

/// A block of device memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub addr: u32,
    pub size: u32,
    /// Reserved at a fixed address (not from the heap).
    pub reserved: bool,
}

impl Region {
    /// The device address of `[offset, offset + len)` within the region.
    pub fn at(&self, offset: u64, len: u64) -> VxResult<u32> {
        if offset.checked_add(len).is_none_or(|e| e > self.size as u64) {
            return Err(VxError::Invalid(format!(
                "{len} bytes at offset {offset} of a {}-byte buffer",
                self.size
            )));
        }
        Ok(self.addr + offset as u32)
    }
}

/// The heap and the reservations of one device.
pub struct DeviceMemory {
    heap: Allocator,
    reserved: Vec<(u32, u32)>,
}

impl Default for DeviceMemory {
    fn default() -> Self {
        DeviceMemory {
            heap: Allocator::new(USER_BASE, HEAP_END),
            reserved: Vec::new(),
        }
    }
}

impl DeviceMemory {
    /// `size` bytes from the heap.
    pub fn alloc(&mut self, size: u64) -> VxResult<Region> {
        if size == 0 {
            return Err(VxError::Invalid("a buffer of 0 bytes".into()));
        }
        let s = u32::try_from(size).map_err(|_| VxError::OutOfMemory(size))?;
        let addr = self.heap.alloc(s).ok_or(VxError::OutOfMemory(size))?;
        Ok(Region {
            addr,
            size: s,
            reserved: false,
        })
    }

    /// `[addr, addr + size)`, which must lie outside the heap and every other reservation.
    pub fn reserve(&mut self, addr: u64, size: u64) -> VxResult<Region> {
        let bad = || VxError::Invalid(format!("reserve {size} bytes at {addr:#x}"));
        let a = u32::try_from(addr).map_err(|_| bad())?;
        let s = u32::try_from(size).map_err(|_| bad())?;
        let end = a.checked_add(s).ok_or_else(bad)?;
        if s == 0 || (a < HEAP_END && end > USER_BASE) {
            return Err(bad());
        }
        if self.reserved.iter().any(|&(b, n)| a < b + n && b < end) {
            return Err(VxError::Invalid(format!(
                "{a:#x}+{s} overlaps a reservation"
            )));
        }
        self.reserved.push((a, s));
        Ok(Region {
            addr: a,
            size: s,
            reserved: true,
        })
    }

    /// Give a region back.
    pub fn free(&mut self, r: Region) -> VxResult<()> {
        let ok = if r.reserved {
            let n = self.reserved.len();
            self.reserved.retain(|&(a, _)| a != r.addr);
            self.reserved.len() < n
        } else {
            self.heap.free(r.addr)
        };
        ok.then_some(())
            .ok_or_else(|| VxError::Invalid(format!("no buffer at {:#x}", r.addr)))
    }

    /// Heap bytes free and in use.
    pub fn info(&self) -> (u64, u64) {
        let free = self.heap.free_bytes();
        (free, (HEAP_END - USER_BASE) as u64 - free)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reservations_stay_out_of_the_heap_and_of_each_other() {
        let mut m = DeviceMemory::default();
        assert!(m.reserve(0x40, 64).is_ok(), "the I/O area is reservable");
        assert!(m.reserve(0x8000_0000, 0x1000).is_ok());
        assert!(m.reserve(0x8000_0800, 16).is_err(), "overlap");
        assert!(m.reserve(0x2_0000, 16).is_err(), "inside the heap");
        assert!(m.reserve(0x1_0000_0000, 16).is_err(), "beyond 32 bits");
        let r = m.alloc(100).unwrap();
        assert_eq!(r.addr, USER_BASE);
        assert_eq!(m.info().1, 128, "whole 64-byte lines");
        m.free(r).unwrap();
        assert!(m.free(r).is_err(), "twice");
        assert_eq!(m.info().1, 0);
    }
}

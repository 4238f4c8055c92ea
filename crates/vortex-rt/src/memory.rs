//! A device's memory as the host hands it out, at the addresses Vortex's own runtime would
//! choose: its page allocator (`sw/common/mem_alloc.h`, described below; the code is weft's).
//! Device addresses matter beyond correctness: they decide which cache sets, DRAM rows and
//! banks a kernel touches, and whether an access is cached at all (Vortex's I/O range,
//! `0x40`–`0x10000`, is not), so a host program linked with weft's `libvortex.so` must see
//! the buffers, and the launch's argument slot, where SimX's runtime puts them.
//!
//! The heap is a list of **pages** in address order. An allocation (rounded up to a 64-byte
//! cache line) takes, in the first page that has one, the smallest free block that fits
//! (among blocks of one size, the one freed first), splitting it; when no page has room, a new
//! page of the size rounded up to 4 KiB is made at the first gap that holds it, walking the
//! pages in address order from `USER_BASE`. A reservation at a fixed address is a page of
//! its own (its size rounded up to 4 KiB), anywhere it overlaps no page, even below
//! `USER_BASE` — and the gap walk then goes on from its end, which is how Vortex places a
//! launch's arguments after a buffer reserved in the I/O range (the `io_addr` test: at
//! `0x1040`). Freeing merges a block with its free neighbours and drops a page left empty.

use crate::error::{VxError, VxResult};

/// Vortex's `VX_MEM_USER_BASE_ADDR`: the device heap starts here.
pub const USER_BASE: u32 = 0x0001_0000;
/// The heap ends below DRAM (where kernel images are linked): a new page ends at most here.
pub const HEAP_END: u32 = 0x8000_0000;
/// Vortex's cache line: the granule of allocations and of `VX_CAPS_CACHE_LINE_SIZE`.
pub const LINE: u32 = 64;
/// Vortex's `RAM_PAGE_SIZE`: the granule of pages.
pub const PAGE: u64 = 4096;

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

/// One page: its free blocks in Vortex's size order (largest first; a block freed joins
/// before the blocks of its size) and its blocks in use, each `(address, bytes)`.
struct Page {
    addr: u64,
    size: u64,
    free: Vec<(u64, u64)>,
    used: Vec<(u64, u64)>,
}

impl Page {
    fn new(addr: u64, size: u64) -> Page {
        Page {
            addr,
            size,
            free: vec![(addr, size)],
            used: Vec::new(),
        }
    }

    /// The smallest free block of at least `size` bytes (the last of them in size order).
    fn fit(&self, size: u64) -> Option<usize> {
        let n = self.free.iter().take_while(|b| b.1 >= size).count();
        n.checked_sub(1)
    }

    fn insert_free(&mut self, b: (u64, u64)) {
        let at = self.free.iter().take_while(|f| f.1 > b.1).count();
        self.free.insert(at, b);
    }

    /// Take `size` bytes from free block `i`; the rest stays free.
    fn take(&mut self, i: usize, size: u64) -> u64 {
        let (addr, have) = self.free.remove(i);
        if have > size {
            self.insert_free((addr + size, have - size));
        }
        self.used.push((addr, size));
        addr
    }

    /// Give back the block at `addr`, merged with the free blocks it touches.
    fn release(&mut self, addr: u64) -> bool {
        let Some(i) = self.used.iter().position(|b| b.0 == addr) else {
            return false;
        };
        let (mut a, mut s) = self.used.swap_remove(i);
        if let Some(p) = self.free.iter().position(|f| f.0 + f.1 == a) {
            let (pa, ps) = self.free.remove(p);
            (a, s) = (pa, ps + s);
        }
        if let Some(n) = self.free.iter().position(|f| f.0 == a + s) {
            s += self.free.remove(n).1;
        }
        self.insert_free((a, s));
        true
    }
}

/// The pages of one device.
#[derive(Default)]
pub struct DeviceMemory {
    pages: Vec<Page>,
}

fn round_up(n: u64, to: u64) -> u64 {
    n.div_ceil(to) * to
}

impl DeviceMemory {
    /// Where a new page of `size` bytes goes: the first gap in the walk over the pages.
    fn next_gap(&self, size: u64) -> Option<u64> {
        let mut end = USER_BASE as u64;
        for p in &self.pages {
            if end + size <= p.addr {
                return Some(end);
            }
            end = p.addr + p.size;
        }
        (end + size <= HEAP_END as u64).then_some(end)
    }

    fn add_page(&mut self, p: Page) -> usize {
        let at = self.pages.iter().take_while(|q| q.addr < p.addr).count();
        self.pages.insert(at, p);
        at
    }

    /// `size` bytes from the heap.
    pub fn alloc(&mut self, size: u64) -> VxResult<Region> {
        if size == 0 {
            return Err(VxError::Invalid("a buffer of 0 bytes".into()));
        }
        let s = u32::try_from(size).map_err(|_| VxError::OutOfMemory(size))?;
        let need = round_up(size, LINE as u64);
        let found = self
            .pages
            .iter()
            .enumerate()
            .find_map(|(k, p)| p.fit(need).map(|i| (k, i)));
        let (k, i) = match found {
            Some(f) => f,
            None => {
                let bytes = round_up(need, PAGE);
                let at = self.next_gap(bytes).ok_or(VxError::OutOfMemory(size))?;
                (self.add_page(Page::new(at, bytes)), 0)
            }
        };
        let addr = self.pages[k].take(i, need) as u32;
        Ok(Region {
            addr,
            size: s,
            reserved: false,
        })
    }

    /// `[addr, addr + size)` at that address: a page of its own (whole 4 KiB pages), which
    /// must overlap no other page.
    pub fn reserve(&mut self, addr: u64, size: u64) -> VxResult<Region> {
        let bad = |why: &str| VxError::Invalid(format!("reserve {size} bytes at {addr:#x}: {why}"));
        if size == 0 {
            return Err(bad("no bytes"));
        }
        let bytes = round_up(round_up(size, LINE as u64), PAGE);
        let s = u32::try_from(size).map_err(|_| bad("more than 32 bits"))?;
        if addr.checked_add(bytes).is_none_or(|e| e > 1 << 32) {
            return Err(bad("beyond 32 bits"));
        }
        if let Some(p) = self
            .pages
            .iter()
            .find(|p| addr < p.addr + p.size && p.addr < addr + bytes)
        {
            return Err(bad(&format!(
                "overlaps [{:#x}, {:#x})",
                p.addr,
                p.addr + p.size
            )));
        }
        let k = self.add_page(Page::new(addr, bytes));
        self.pages[k].take(0, bytes);
        Ok(Region {
            addr: addr as u32,
            size: s,
            reserved: true,
        })
    }

    /// Give a region back.
    pub fn free(&mut self, r: Region) -> VxResult<()> {
        let a = r.addr as u64;
        let k = self
            .pages
            .iter_mut()
            .position(|p| a >= p.addr && a < p.addr + p.size && p.release(a))
            .ok_or_else(|| VxError::Invalid(format!("no buffer at {:#x}", r.addr)))?;
        if self.pages[k].used.is_empty() {
            self.pages.remove(k);
        }
        Ok(())
    }

    /// Heap bytes free and in use (reservations count as in use, in whole pages).
    pub fn info(&self) -> (u64, u64) {
        let used: u64 = self.pages.iter().flat_map(|p| &p.used).map(|b| b.1).sum();
        let total = (HEAP_END - USER_BASE) as u64;
        (total.saturating_sub(used), used)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addrs(m: &mut DeviceMemory, sizes: &[u64]) -> Vec<u32> {
        sizes.iter().map(|&s| m.alloc(s).unwrap().addr).collect()
    }

    #[test]
    fn reservations_overlap_no_page() {
        let mut m = DeviceMemory::default();
        assert!(m.reserve(0x40, 64).is_ok(), "the I/O area is reservable");
        assert!(m.reserve(0x8000_0000, 0x1000).is_ok());
        assert!(m.reserve(0x8000_0800, 16).is_err(), "overlap");
        assert!(
            m.reserve(0x800, 16).is_err(),
            "inside the I/O page reserved above"
        );
        assert!(m.reserve(0xFFFF_F000, 0x2000).is_err(), "beyond 32 bits");
        let r = m.alloc(100).unwrap();
        assert_eq!(
            r.addr, 0x1040,
            "the walk goes on from the reserved page's end"
        );
        m.free(r).unwrap();
        assert!(m.free(r).is_err(), "twice");
    }

    #[test]
    fn buffers_share_a_page_and_a_page_sized_block_takes_a_new_one() {
        // Vortex's sgemm2 at 16 × 16: A, B, C of 1 KiB, then the launch's 4 KiB argument slot.
        let mut m = DeviceMemory::default();
        let a = addrs(&mut m, &[1024, 1024, 1024, 4096]);
        assert_eq!(a, [0x10000, 0x10400, 0x10800, 0x11000]);
        assert_eq!(m.info().1, 3 * 1024 + 4096);
        // A 100-byte buffer takes two lines of the first page's last kilobyte.
        assert_eq!(m.alloc(100).unwrap().addr, 0x10C00);
        assert_eq!(m.alloc(64).unwrap().addr, 0x10C80);
    }

    #[test]
    fn the_smallest_block_that_fits_and_merging_on_free() {
        let mut m = DeviceMemory::default();
        let r: Vec<Region> = [64u64, 256, 64, 128, 64]
            .iter()
            .map(|&s| m.alloc(s).unwrap())
            .collect();
        assert_eq!(r[4].addr, 0x10000 + 512);
        // Free the 256- and the 128-byte blocks: a 100-byte request takes the 128 one.
        m.free(r[1]).unwrap();
        m.free(r[3]).unwrap();
        assert_eq!(m.alloc(100).unwrap().addr, r[3].addr);
        // Freeing r[0] and r[2] merges them with r[1]'s block: 64 + 256 + 64 bytes at 0x10000.
        m.free(r[0]).unwrap();
        m.free(r[2]).unwrap();
        assert_eq!(m.alloc(384).unwrap().addr, 0x10000);
    }

    #[test]
    fn an_empty_page_goes_away() {
        let mut m = DeviceMemory::default();
        let a = m.alloc(8192).unwrap();
        let b = m.alloc(64).unwrap();
        assert_eq!((a.addr, b.addr), (0x10000, 0x12000));
        m.free(a).unwrap();
        assert_eq!(
            m.alloc(64).unwrap().addr,
            0x12040,
            "a page with room comes first"
        );
        assert_eq!(
            m.alloc(4096).unwrap().addr,
            0x10000,
            "a new page in the gap"
        );
        assert_eq!(m.info().1, 128 + 4096);
    }
}

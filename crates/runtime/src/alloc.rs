//! Device-memory allocation for the host: a first-fit free list over one DRAM range, 64-byte
//! aligned blocks, neighbours merged on free.

/// A free list over `[lo, hi)`.
#[derive(Clone, Debug)]
pub struct Allocator {
    /// Free ranges (start, length), sorted by start, never adjacent.
    free: Vec<(u32, u32)>,
    /// Allocated blocks (start, length).
    used: Vec<(u32, u32)>,
}

/// Alignment of every block.
pub const ALIGN: u32 = 64;

impl Allocator {
    /// All of `[lo, hi)` free (`lo` rounded up to the alignment).
    pub fn new(lo: u32, hi: u32) -> Allocator {
        let lo = lo.div_ceil(ALIGN) * ALIGN;
        Allocator {
            free: if hi > lo { vec![(lo, hi - lo)] } else { vec![] },
            used: Vec::new(),
        }
    }

    /// A block of at least `bytes` (at least one alignment unit); `None` when no free range
    /// is large enough.
    pub fn alloc(&mut self, bytes: u32) -> Option<u32> {
        let len = bytes.max(1).checked_next_multiple_of(ALIGN)?;
        let i = self.free.iter().position(|&(_, l)| l >= len)?;
        let (start, l) = self.free[i];
        if l == len {
            self.free.remove(i);
        } else {
            self.free[i] = (start + len, l - len);
        }
        let k = self.used.partition_point(|&(s, _)| s < start);
        self.used.insert(k, (start, len));
        Some(start)
    }

    /// Free the block that starts at `addr`; false if there is none.
    pub fn free(&mut self, addr: u32) -> bool {
        let Ok(k) = self.used.binary_search_by_key(&addr, |&(s, _)| s) else {
            return false;
        };
        let (start, len) = self.used.remove(k);
        let i = self.free.partition_point(|&(s, _)| s < start);
        self.free.insert(i, (start, len));
        // merge with the next, then the previous
        if i + 1 < self.free.len() && self.free[i].0 + self.free[i].1 == self.free[i + 1].0 {
            self.free[i].1 += self.free[i + 1].1;
            self.free.remove(i + 1);
        }
        if i > 0 && self.free[i - 1].0 + self.free[i - 1].1 == self.free[i].0 {
            self.free[i - 1].1 += self.free[i].1;
            self.free.remove(i);
        }
        true
    }

    /// The allocated block containing `[addr, addr + len)`, if any.
    pub fn block_of(&self, addr: u32, len: u32) -> Option<(u32, u32)> {
        let k = self.used.partition_point(|&(s, _)| s <= addr);
        let (s, l) = *self.used.get(k.checked_sub(1)?)?;
        (addr as u64 + len as u64 <= s as u64 + l as u64).then_some((s, l))
    }

    /// Bytes free in all.
    pub fn free_bytes(&self) -> u64 {
        self.free.iter().map(|&(_, l)| l as u64).sum()
    }

    /// The largest free block.
    pub fn largest_free(&self) -> u32 {
        self.free.iter().map(|&(_, l)| l).max().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_fit_aligns_and_merges() {
        let mut a = Allocator::new(0x1001, 0x2000);
        let x = a.alloc(10).unwrap();
        let y = a.alloc(100).unwrap();
        let z = a.alloc(64).unwrap();
        assert_eq!((x, y, z), (0x1040, 0x1080, 0x1100));
        assert!(a.free(y));
        assert!(!a.free(y), "double free");
        assert_eq!(a.alloc(128), Some(0x1080), "the hole is reused");
        assert!(a.free(x) && a.free(0x1080) && a.free(z));
        assert_eq!(a.free_bytes(), 0x2000 - 0x1040);
        assert_eq!(a.largest_free(), 0x2000 - 0x1040, "all merged back");
        assert_eq!(a.alloc(0x10000), None);
        let w = a.alloc(64).unwrap();
        assert_eq!(a.block_of(w + 10, 54), Some((w, 64)));
        assert_eq!(a.block_of(w + 10, 55), None);
    }
}

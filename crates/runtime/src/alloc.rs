//! Device-memory allocation for the host: a first-fit free list over one DRAM range, 64-byte
//! aligned blocks, neighbours merged on free. Each block has an owner: the host program's
//! buffers, or the runtime's own blocks (a queued launch's argument block), which no host call
//! can free or copy into — not even through a stale handle whose address the block reused.

/// Who a block belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// A buffer of the host program.
    Host,
    /// The runtime's own (an argument block).
    Runtime,
}

/// A free list over `[lo, hi)`.
#[derive(Clone, Debug)]
pub struct Allocator {
    /// Free ranges (start, length), sorted by start, never adjacent.
    free: Vec<(u32, u32)>,
    /// Allocated blocks (start, length, owner), sorted by start.
    used: Vec<(u32, u32, Owner)>,
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

    /// A host block of at least `bytes` (at least one alignment unit); `None` when no free
    /// range is large enough.
    pub fn alloc(&mut self, bytes: u32) -> Option<u32> {
        self.alloc_as(bytes, Owner::Host)
    }

    /// [`Allocator::alloc`] for `owner`.
    pub fn alloc_as(&mut self, bytes: u32, owner: Owner) -> Option<u32> {
        let len = bytes.max(1).checked_next_multiple_of(ALIGN)?;
        let i = self.free.iter().position(|&(_, l)| l >= len)?;
        let (start, l) = self.free[i];
        if l == len {
            self.free.remove(i);
        } else {
            self.free[i] = (start + len, l - len);
        }
        let k = self.used.partition_point(|&(s, _, _)| s < start);
        self.used.insert(k, (start, len, owner));
        Some(start)
    }

    /// Free the host block that starts at `addr`; false if there is none.
    pub fn free(&mut self, addr: u32) -> bool {
        self.free_as(addr, Owner::Host)
    }

    /// Free `owner`'s block that starts at `addr`; false if there is none.
    pub fn free_as(&mut self, addr: u32, owner: Owner) -> bool {
        let Ok(k) = self.used.binary_search_by_key(&addr, |&(s, _, _)| s) else {
            return false;
        };
        if self.used[k].2 != owner {
            return false;
        }
        let (start, len, _) = self.used.remove(k);
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

    /// The host block containing `[addr, addr + len)`, if any.
    pub fn block_of(&self, addr: u32, len: u32) -> Option<(u32, u32)> {
        let k = self.used.partition_point(|&(s, _, _)| s <= addr);
        let (s, l, owner) = *self.used.get(k.checked_sub(1)?)?;
        (owner == Owner::Host && addr as u64 + len as u64 <= s as u64 + l as u64).then_some((s, l))
    }

    /// Move the bottom of the range up to `lo` (rounded up to the alignment), if no block
    /// lies below it (a device taking more of the low memory for its own use); false, and
    /// nothing changed, if one does.
    pub fn raise_floor(&mut self, lo: u32) -> bool {
        let lo = lo.div_ceil(ALIGN).saturating_mul(ALIGN);
        if self.used.first().is_some_and(|&(s, _, _)| s < lo) {
            return false;
        }
        self.free.retain_mut(|(s, l)| {
            let end = *s as u64 + *l as u64;
            if *s < lo {
                *l = end.saturating_sub(lo as u64) as u32;
                *s = lo;
            }
            *l > 0
        });
        true
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
        // The runtime's blocks: neither freed nor found through a host call.
        let r = a.alloc_as(8, Owner::Runtime).unwrap();
        assert_eq!(a.block_of(r, 4), None);
        assert!(!a.free(r));
        assert!(a.free_as(r, Owner::Runtime));
        assert!(!a.free_as(r, Owner::Runtime), "double free");
    }

    #[test]
    fn the_floor_rises_only_over_free_memory() {
        let mut a = Allocator::new(0x1000, 0x2000);
        assert!(a.raise_floor(0x1001));
        assert_eq!(a.alloc(8), Some(0x1040), "the floor is aligned up");
        assert!(!a.raise_floor(0x1080), "a block lies below the new floor");
        assert!(
            a.raise_floor(0x1040),
            "a floor at the block's start is fine"
        );
        assert!(a.free(0x1040));
        assert!(a.raise_floor(0x1f00));
        assert_eq!(a.free_bytes(), 0x100);
        assert_eq!(a.alloc(0x100), Some(0x1f00));
        assert!(a.raise_floor(0x1f00) && !a.raise_floor(0x1f40));
    }
}

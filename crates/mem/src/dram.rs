//! Sparse DRAM: 64 KiB pages allocated on first write, so a large configured DRAM costs host
//! memory only for what a program touches. Unwritten memory reads as zero.

const PAGE_BITS: u32 = 16;
const PAGE: usize = 1 << PAGE_BITS;

/// Bytes of a DRAM page (host memory is allocated a page at a time).
pub const PAGE_BYTES: u32 = PAGE as u32;

/// Sparse byte-addressed memory of a fixed size.
#[derive(Clone, Debug)]
pub struct Dram {
    pages: Vec<Option<Box<[u8]>>>,
    size: u32,
}

impl Dram {
    /// DRAM of `size` bytes, all zero, no host memory used yet.
    pub fn new(size: u32) -> Dram {
        let n = (size as usize).div_ceil(PAGE);
        Dram {
            pages: vec![None; n],
            size,
        }
    }

    /// Read 1, 2 or 4 bytes at `off` (the caller checked `off + size <= len`).
    #[inline]
    pub fn read(&self, off: u32, size: u32) -> u32 {
        let (p, o) = ((off >> PAGE_BITS) as usize, (off as usize) & (PAGE - 1));
        if o + size as usize <= PAGE {
            match &self.pages[p] {
                None => 0,
                Some(pg) => match size {
                    1 => pg[o] as u32,
                    2 => u16::from_le_bytes(word(&pg[o..o + 2])) as u32,
                    _ => u32::from_le_bytes(word(&pg[o..o + 4])),
                },
            }
        } else {
            (0..size).fold(0, |acc, i| acc | (self.read(off + i, 1) << (8 * i)))
        }
    }

    /// Write the low `size` bytes of `val` at `off`.
    #[inline]
    pub fn write(&mut self, off: u32, size: u32, val: u32) {
        let (p, o) = ((off >> PAGE_BITS) as usize, (off as usize) & (PAGE - 1));
        if o + size as usize <= PAGE {
            let pg = self.pages[p].get_or_insert_with(|| vec![0u8; PAGE].into_boxed_slice());
            let b = val.to_le_bytes();
            match size {
                1 => pg[o] = b[0],
                2 => pg[o..o + 2].copy_from_slice(&b[..2]),
                _ => pg[o..o + 4].copy_from_slice(&b),
            }
        } else {
            for i in 0..size {
                self.write(off + i, 1, val >> (8 * i));
            }
        }
    }

    /// An aligned word read, if its page exists (`None` means zero or a slow case).
    #[inline(always)]
    pub fn read_word_aligned(&self, off: u32) -> u32 {
        match &self.pages[(off >> PAGE_BITS) as usize] {
            Some(pg) => {
                let o = (off as usize) & (PAGE - 4);
                u32::from_le_bytes(word(&pg[o..o + 4]))
            }
            None => 0,
        }
    }

    /// Consecutive aligned words from `off` into `out`, when they lie in one page (false
    /// otherwise, nothing read).
    pub fn read_words(&self, off: u32, out: &mut [u32]) -> bool {
        let o = (off as usize) & (PAGE - 1);
        if off & 3 != 0 || o + 4 * out.len() > PAGE {
            return false;
        }
        let n = 4 * out.len();
        match &self.pages[(off >> PAGE_BITS) as usize] {
            Some(pg) => {
                for (w, b) in out.iter_mut().zip(pg[o..o + n].chunks_exact(4)) {
                    *w = u32::from_le_bytes(word(b));
                }
            }
            None => out.fill(0),
        }
        true
    }

    /// Consecutive aligned words from `off`, when they lie in one page (false otherwise,
    /// nothing written).
    pub fn write_words(&mut self, off: u32, vals: &[u32]) -> bool {
        let o = (off as usize) & (PAGE - 1);
        if off & 3 != 0 || o + 4 * vals.len() > PAGE {
            return false;
        }
        let pg = self.pages[(off >> PAGE_BITS) as usize]
            .get_or_insert_with(|| vec![0u8; PAGE].into_boxed_slice());
        for (b, v) in pg[o..o + 4 * vals.len()].chunks_exact_mut(4).zip(vals) {
            b.copy_from_slice(&v.to_le_bytes());
        }
        true
    }

    /// An aligned word write.
    #[inline(always)]
    pub fn write_word_aligned(&mut self, off: u32, val: u32) {
        let pg = self.pages[(off >> PAGE_BITS) as usize]
            .get_or_insert_with(|| vec![0u8; PAGE].into_boxed_slice());
        let o = (off as usize) & (PAGE - 4);
        pg[o..o + 4].copy_from_slice(&val.to_le_bytes());
    }

    /// The host address of the allocated page holding offset `off` (`None`: not allocated
    /// yet, it reads as zero). A page, once allocated, stays at that address as long as the
    /// `Dram` lives.
    pub fn page_ptr(&mut self, off: u32) -> Option<*mut u8> {
        self.pages
            .get_mut((off >> PAGE_BITS) as usize)?
            .as_mut()
            .map(|pg| pg.as_mut_ptr())
    }

    /// Size in bytes.
    pub fn len(&self) -> u32 {
        self.size
    }

    /// True for a zero-size DRAM.
    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// The offset of the first byte at which `self` and `other` differ (unwritten pages read
    /// as zero), or `None` if they hold the same bytes.
    pub fn first_difference(&self, other: &Dram) -> Option<u32> {
        let zero = [0u8; PAGE];
        let n = self.pages.len().max(other.pages.len());
        for p in 0..n {
            let a = self.pages.get(p).and_then(|x| x.as_deref());
            let b = other.pages.get(p).and_then(|x| x.as_deref());
            if a.is_none() && b.is_none() {
                continue;
            }
            let (a, b) = (a.unwrap_or(&zero), b.unwrap_or(&zero));
            if let Some(o) = a.iter().zip(b).position(|(x, y)| x != y) {
                return Some((p * PAGE + o) as u32);
            }
        }
        None
    }

    /// Host bytes in use.
    pub fn resident_bytes(&self) -> usize {
        self.pages.iter().filter(|p| p.is_some()).count() * PAGE
    }
}

/// The `N` bytes of `s` (which has exactly `N`) as an array: one bounds check and one host
/// load, where indexing each byte checks and loads each.
#[inline(always)]
pub(crate) fn word<const N: usize>(s: &[u8]) -> [u8; N] {
    s.try_into().expect("a slice of N bytes")
}

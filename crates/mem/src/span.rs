//! Byte ranges of the 32-bit address space: the one place that decides whether an access lies
//! inside a region or touches another range (a reserved word, the decoded code, the HTIF
//! words). Every such check uses the access's whole byte range, first byte to last — never
//! its first byte alone, which misses a misaligned access that starts below a range and runs
//! into it, or one that starts inside a region and runs off its end.

/// The bytes `start .. start + len` (the end may lie past 2³²: nothing wraps).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// Number of bytes.
    pub len: u32,
}

impl Span {
    /// The `len` bytes from `start`.
    #[inline(always)]
    pub const fn new(start: u32, len: u32) -> Span {
        Span { start, len }
    }

    /// One past the last byte.
    #[inline(always)]
    pub const fn end(self) -> u64 {
        self.start as u64 + self.len as u64
    }

    /// Do the two ranges share a byte?
    #[inline(always)]
    pub const fn overlaps(self, o: Span) -> bool {
        self.len != 0
            && o.len != 0
            && (self.start as u64) < o.end()
            && (o.start as u64) < self.end()
    }

    /// Is every byte of `o` inside this range? (An empty `o` is.)
    #[inline(always)]
    pub const fn contains(self, o: Span) -> bool {
        o.len == 0 || (o.start >= self.start && o.end() <= self.end())
    }

    /// The bytes the two ranges share, if any.
    pub fn intersect(self, o: Span) -> Option<Span> {
        let start = self.start.max(o.start);
        let end = self.end().min(o.end());
        ((start as u64) < end).then(|| Span::new(start, (end - start as u64) as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The same questions answered byte by byte.
    fn bytes(s: Span) -> std::collections::BTreeSet<u64> {
        (s.start as u64..s.end()).collect()
    }

    proptest! {
        #[test]
        fn agrees_with_byte_sets(a in 0u32..64, al in 0u32..12, b in 0u32..64, bl in 0u32..12,
                                 base in prop::sample::select(vec![0u32, 0x8000_0000, 0xffff_ffc0])) {
            let (x, y) = (Span::new(base.wrapping_add(a), al), Span::new(base.wrapping_add(b), bl));
            let (bx, by) = (bytes(x), bytes(y));
            prop_assert_eq!(x.overlaps(y), !bx.is_disjoint(&by));
            prop_assert_eq!(x.contains(y), by.is_subset(&bx));
            let shared: std::collections::BTreeSet<u64> = bx.intersection(&by).copied().collect();
            prop_assert_eq!(x.intersect(y).map(bytes).unwrap_or_default(), shared);
        }
    }

    #[test]
    fn an_access_from_below_runs_into_the_range() {
        let word = Span::new(0x1000, 4);
        for (addr, size, touches) in [
            (0x0ffe, 2, false),
            (0x0ffe, 4, true),
            (0x0fff, 2, true),
            (0x1003, 1, true),
            (0x1004, 4, false),
        ] {
            assert_eq!(
                Span::new(addr, size).overlaps(word),
                touches,
                "{addr:#x}+{size}"
            );
        }
        assert!(
            !Span::new(0, 4097).contains(Span::new(4096, 4)),
            "a word past the end"
        );
        assert!(Span::new(0, 4097).contains(Span::new(4096, 1)));
    }
}

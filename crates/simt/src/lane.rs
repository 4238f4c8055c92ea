//! Lane masks: the lanes of a warp that take part in an instruction, and the idioms on them
//! written once (iterate, first and last lane, a per-lane predicate as a mask).

/// A set of lanes: bit *l* is lane *l*.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaneMask(pub u32);

impl LaneMask {
    /// The lanes, lowest first.
    #[inline(always)]
    pub fn iter(self) -> impl Iterator<Item = usize> {
        lanes(self.0)
    }

    /// The lowest lane.
    #[inline]
    pub fn first(self) -> Option<usize> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as usize)
    }

    /// The highest lane (Vortex's "last active lane").
    #[inline]
    pub fn last(self) -> Option<usize> {
        (self.0 != 0).then(|| 31 - self.0.leading_zeros() as usize)
    }

    /// The lanes of this set for which `f(lane)` holds.
    #[inline]
    pub fn select(self, f: impl Fn(usize) -> bool) -> LaneMask {
        LaneMask(self.iter().fold(0, |m, l| m | (f(l) as u32) << l))
    }
}

/// The lanes of `mask`, lowest first.
#[inline(always)]
pub fn lanes(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let l = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(l)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterate_first_last_select() {
        let m = LaneMask(0b1010_0100);
        assert_eq!(m.iter().collect::<Vec<_>>(), vec![2, 5, 7]);
        assert_eq!((m.first(), m.last()), (Some(2), Some(7)));
        assert_eq!(LaneMask(0).first(), None);
        assert_eq!(LaneMask(0).last(), None);
        assert_eq!(LaneMask(u32::MAX).last(), Some(31));
        assert_eq!(m.select(|l| l > 4), LaneMask(0b1010_0000));
    }
}

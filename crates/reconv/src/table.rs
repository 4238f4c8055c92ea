//! The reconvergence table: for every conditional branch (and `diverge`), the pc at which its
//! diverged lanes reconverge — the first instruction of the branch's immediate post-dominator
//! block — or [`Reconv::AtExit`] when that post-dominator is the function's exit.
//!
//! This is exactly what the `.weft.reconv` section holds (see [`crate::section`]) and what the
//! divergence unit consults.

use std::collections::BTreeMap;

/// The raw section value meaning [`Reconv::AtExit`]. It is odd, so it can never be the pc of
/// an instruction (RISC-V instructions are at least 2-byte aligned).
pub const AT_EXIT: u32 = 0xFFFF_FFFF;

/// Where the lanes that diverged at a branch reconverge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reconv {
    /// When a group reaches this pc (at the branch's call depth).
    At(u32),
    /// The branch's immediate post-dominator is the function's exit: the groups reconverge
    /// when they leave the function (return below the branch's call depth, tail call, halt).
    AtExit,
}

impl Reconv {
    /// The section encoding: the pc, or [`AT_EXIT`].
    pub fn to_raw(self) -> u32 {
        match self {
            Reconv::At(pc) => pc,
            Reconv::AtExit => AT_EXIT,
        }
    }

    /// Decode a section value ([`AT_EXIT`] is [`Reconv::AtExit`], anything else a pc).
    pub fn from_raw(raw: u32) -> Reconv {
        if raw == AT_EXIT {
            Reconv::AtExit
        } else {
            Reconv::At(raw)
        }
    }

    /// The reconvergence pc, if it is not the function exit.
    pub fn pc(self) -> Option<u32> {
        match self {
            Reconv::At(pc) => Some(pc),
            Reconv::AtExit => None,
        }
    }
}

impl std::fmt::Display for Reconv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reconv::At(pc) => write!(f, "{pc:#010x}"),
            Reconv::AtExit => f.write_str("exit"),
        }
    }
}

/// A sorted map from branch pc to its reconvergence point.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReconvTable {
    entries: BTreeMap<u32, Reconv>,
}

impl ReconvTable {
    /// An empty table.
    pub fn new() -> ReconvTable {
        ReconvTable::default()
    }

    /// Record the reconvergence point of the branch at `branch_pc`; returns the previous one.
    pub fn insert(&mut self, branch_pc: u32, reconv: Reconv) -> Option<Reconv> {
        self.entries.insert(branch_pc, reconv)
    }

    /// The reconvergence point of the branch at `branch_pc`, if the table has one.
    pub fn get(&self, branch_pc: u32) -> Option<Reconv> {
        self.entries.get(&branch_pc).copied()
    }

    /// Number of branches in the table.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the table has no branch.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in increasing branch-pc order.
    pub fn iter(&self) -> impl Iterator<Item = (u32, Reconv)> + '_ {
        self.entries.iter().map(|(&pc, &r)| (pc, r))
    }
}

impl FromIterator<(u32, Reconv)> for ReconvTable {
    fn from_iter<I: IntoIterator<Item = (u32, Reconv)>>(iter: I) -> ReconvTable {
        ReconvTable {
            entries: iter.into_iter().collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_encoding() {
        assert_eq!(Reconv::At(0x8000_0010).to_raw(), 0x8000_0010);
        assert_eq!(Reconv::AtExit.to_raw(), AT_EXIT);
        assert_eq!(Reconv::from_raw(AT_EXIT), Reconv::AtExit);
        assert_eq!(Reconv::from_raw(4), Reconv::At(4));
        assert_eq!(Reconv::AtExit.pc(), None);
    }

    #[test]
    fn lookup_and_order() {
        let t: ReconvTable = [(8, Reconv::AtExit), (0, Reconv::At(4))]
            .into_iter()
            .collect();
        assert_eq!(t.get(0), Some(Reconv::At(4)));
        assert_eq!(t.get(8), Some(Reconv::AtExit));
        assert_eq!(t.get(4), None);
        assert_eq!(t.iter().map(|(pc, _)| pc).collect::<Vec<_>>(), vec![0, 8]);
        assert_eq!(t.len(), 2);
    }
}

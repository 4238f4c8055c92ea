//! The front end and the operand stage, where a machine such as SimX spends most of an
//! instruction's cycles before it executes (docs/timing.md, "The front end"):
//!
//! - each warp fetches one instruction at a time, `fetch_interval` cycles apart (the round
//!   trip from the warp scheduler through the I-cache and decode), through a core-wide fetch
//!   port that serves one warp per cycle ([`FetchPort`]); a warp holds at most `ibuffer`
//!   fetched instructions it has not issued ([`IssueRing`]);
//! - a control instruction ([`stops_fetch`]) stops its warp's fetch until it has executed;
//! - an instruction reads its operands in an operand collector shared by a group of warps,
//!   one instruction at a time, one cycle plus one per pair of source registers in one
//!   register bank ([`bank_conflicts`]).
//!
//! All of it is off by default (`pipeline.fetch_interval = 0`, no banks, no collectors).

use weft_isa::{Class, Op};
use weft_simt::record::Operands;

/// A core's fetch port: the cycles already given to a warp's fetch. A fetch wanted at cycle
/// `c` takes the first free cycle from `c` on. The reservations live in a ring indexed by
/// cycle, so old ones are overwritten as time goes on.
#[derive(Clone, Debug)]
pub(crate) struct FetchPort {
    taken: Vec<u64>,
}

/// Cycles of reservations the ring remembers.
const PORT_RING: usize = 1024;

impl FetchPort {
    pub(crate) fn new() -> FetchPort {
        FetchPort {
            taken: vec![u64::MAX; PORT_RING],
        }
    }

    /// Reserve the first free cycle at or after `want`.
    pub(crate) fn reserve(&mut self, want: u64) -> u64 {
        let mut c = want;
        while self.taken[c as usize % PORT_RING] == c {
            c += 1;
        }
        self.taken[c as usize % PORT_RING] = c;
        c
    }
}

/// The issue cycles of a warp's last instructions, to bound its fetch by its instruction
/// buffer: instruction k + `ibuffer` cannot be fetched before instruction k issued.
#[derive(Clone, Debug)]
pub(crate) struct IssueRing {
    issued: [u64; IssueRing::MAX],
    count: usize,
}

impl IssueRing {
    /// The largest instruction buffer (`pipeline.ibuffer`'s limit).
    pub(crate) const MAX: usize = 64;

    pub(crate) fn new() -> IssueRing {
        IssueRing {
            issued: [0; IssueRing::MAX],
            count: 0,
        }
    }

    /// Record an issue at `now`; returns the earliest cycle the warp's next fetch may take
    /// with a buffer of `ibuffer` instructions.
    pub(crate) fn push(&mut self, now: u64, ibuffer: usize) -> u64 {
        self.issued[self.count % IssueRing::MAX] = now;
        self.count += 1;
        // The next instruction is number `count`; it needs instruction count − ibuffer issued.
        if self.count < ibuffer {
            return 0;
        }
        self.issued[(self.count - ibuffer) % IssueRing::MAX]
    }
}

/// Does `op` stop its warp's fetch until it has executed? Branches and jumps (the next pc is
/// known then), system instructions, and Vortex's warp control — the instructions SimX's
/// decoder marks as stalling the warp. (`bar.arrive` with a destination does not wait, as in
/// SimX; vote, shuffle, wgather and fences do not stop fetch.) The tensor core's macro-ops
/// (`wmma`, `wmma.sp`, `wgmma`) stop it too, until their last micro-op issues.
pub(crate) fn stops_fetch(op: Op) -> bool {
    match op.class() {
        Class::Branch | Class::Jump | Class::System => true,
        Class::Simt => matches!(
            op,
            Op::VxTmc
                | Op::VxWspawn
                | Op::VxSplit
                | Op::VxJoin
                | Op::VxBar
                | Op::VxPred
                | Op::VxWsync
                | Op::Converge
                | Op::Diverge
                | Op::VxWmma
                | Op::VxWmmaSp
                | Op::VxWgmma
        ),
        _ => false,
    }
}

/// Pairs of `ops`' source registers in one bank (register number modulo `banks`, integer
/// and float registers alike; the operands leave x0 out); 0 without banks.
pub(crate) fn bank_conflicts(ops: &Operands, banks: u32) -> u64 {
    if banks == 0 {
        return 0;
    }
    let srcs = ops.sources();
    let mut n = 0;
    for (i, a) in srcs.iter().enumerate() {
        for b in &srcs[i + 1..] {
            if a.1 as u32 % banks == b.1 as u32 % banks {
                n += 1;
            }
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_port_gives_each_cycle_once() {
        let mut p = FetchPort::new();
        assert_eq!(p.reserve(10), 10);
        assert_eq!(p.reserve(10), 11);
        assert_eq!(p.reserve(9), 9);
        assert_eq!(p.reserve(9), 12);
        // Far later, the ring's old entries do not count.
        assert_eq!(p.reserve(10 + PORT_RING as u64), 10 + PORT_RING as u64);
    }

    #[test]
    fn the_buffer_bounds_fetch_by_older_issues() {
        let mut r = IssueRing::new();
        assert_eq!(r.push(5, 2), 0);
        assert_eq!(r.push(9, 2), 5, "the third fetch waits for the first issue");
        assert_eq!(r.push(20, 2), 9);
    }
}

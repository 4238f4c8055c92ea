//! The time of one DXA copy as SimX's engine (`sim/simx/dxa/dxa_core.cpp`, one worker) moves
//! it: the copy is a list of pieces (the writer's 64-byte-or-smaller runs, [`crate::dxa::plan`]);
//! each cycle the worker first writes (one shared-memory write per cycle, the pieces in order,
//! a piece repeated for each multicast target, the head piece waiting for its global read),
//! then reads (one global line read per cycle for the next piece, while fewer than `window`
//! pieces are read and not yet written — `VX_CFG_DXA_MAX_INFLIGHT`; a piece past the array's
//! end reads nothing and is ready the next cycle). Every piece with a global source reads its
//! line, even one the previous piece read (SimX counts those as `gmem_dedup` but reads them
//! again). The copy ends the cycle after its last write (when that write reaches the local
//! memory and SimX releases the barrier).
//!
//! What a read takes is the caller's: a fixed latency in the functional model
//! ([`Pipe::run`]), the timing model's memory system under the timing model
//! ([`Pipe::step`] once per cycle, the reads issued at the current cycle).

use std::collections::VecDeque;

/// One copy in flight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pipe {
    /// Per piece: the global line it reads (`None`: past the array's end, no read).
    reads: Vec<Option<u32>>,
    /// Writes per piece (multicast targets).
    targets: u32,
    /// Pieces read and not yet written, at most.
    window: usize,
    /// The next piece to read.
    next: usize,
    /// When each piece read and not yet written has its data, in order.
    ready: VecDeque<u64>,
    /// Writes of the head piece done.
    written: u32,
    /// Cycle of the last write.
    last_write: u64,
    /// The first cycle it may read or write.
    from: u64,
    /// When it ended.
    done: Option<u64>,
}

impl Pipe {
    /// A copy of `reads.len()` pieces, each written `targets` times, with at most `window`
    /// pieces read and not yet written, working from cycle `from` on. A copy of no pieces
    /// ends at `from`.
    pub fn new(reads: Vec<Option<u32>>, targets: u32, window: u32, from: u64) -> Pipe {
        let done = (reads.is_empty() || targets == 0).then_some(from);
        Pipe {
            reads,
            targets: targets.max(1),
            window: window.max(1) as usize,
            next: 0,
            ready: VecDeque::new(),
            written: 0,
            last_write: 0,
            from,
            done,
        }
    }

    /// The cycle it ended (the cycle after its last write), once it has.
    pub fn done(&self) -> Option<u64> {
        self.done
    }

    /// Global line reads it makes (pieces with a global source).
    pub fn line_reads(&self) -> usize {
        self.reads.iter().filter(|r| r.is_some()).count()
    }

    /// Cycle `now`'s work: a write if the head piece's data is there, then a read if a
    /// place is free; `read(line, now)` is when a read of `line` issued now has its data.
    /// Called for the cycles [`Pipe::next_event`] names, in order.
    pub fn step(&mut self, now: u64, read: &mut dyn FnMut(u32, u64) -> u64) {
        if self.done.is_some() || now < self.from {
            return;
        }
        if self.ready.front().is_some_and(|&r| r <= now) {
            self.written += 1;
            self.last_write = now;
            if self.written == self.targets {
                self.written = 0;
                self.ready.pop_front();
            }
        }
        if self.next < self.reads.len() && self.ready.len() < self.window {
            let at = match self.reads[self.next] {
                Some(line) => read(line, now).max(now + 1),
                None => now + 1,
            };
            self.ready.push_back(at);
            self.next += 1;
        }
        if self.next == self.reads.len() && self.ready.is_empty() {
            self.done = Some(self.last_write + 1);
        }
    }

    /// The next cycle after `now` at which [`Pipe::step`] has work (`u64::MAX`: none, it
    /// ended).
    pub fn next_event(&self, now: u64) -> u64 {
        if self.done.is_some() {
            return u64::MAX;
        }
        if now + 1 < self.from {
            return self.from;
        }
        let can_read = self.next < self.reads.len() && self.ready.len() < self.window;
        match self.ready.front() {
            _ if can_read => now + 1,
            Some(&r) => r.max(now + 1),
            None => now + 1,
        }
    }

    /// Run it from cycle `now` (or its first cycle, if later) to its end with every read
    /// taking `latency` cycles (the functional model's cost: no memory system in between);
    /// returns the end.
    pub fn run(&mut self, now: u64, latency: u64) -> u64 {
        let mut t = now.max(self.from);
        while self.done.is_none() {
            self.step(t, &mut |_, at| at + latency);
            t = self.next_event(t);
        }
        self.done.unwrap_or(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_piece_is_its_read_then_a_write_per_target() {
        // Read at 11 (the cycle after the worker starts), data at 11 + 20, four writes
        // 31..34, the end the cycle after the last.
        let mut p = Pipe::new(vec![Some(0x100)], 4, 8, 11);
        assert_eq!(p.run(0, 20), 35);
    }

    #[test]
    fn reads_overlap_up_to_the_window_and_writes_drain_one_a_cycle() {
        // 16 pieces, latency 20, window 8: reads at 0..7, data at 20..27, written at 20..27;
        // each write frees a place, so read 8 goes out at 20 (the cycle of write 0) … read 15
        // at 27, data 40..47, written 40..47; the end at 48.
        let mut p = Pipe::new(vec![Some(0); 16], 1, 8, 0);
        assert_eq!(p.run(0, 20), 48);
        // An unbounded window: the reads back to back, the writes right behind them.
        let mut q = Pipe::new(vec![Some(0); 16], 1, 64, 0);
        assert_eq!(q.run(0, 20), 15 + 20 + 1);
    }

    #[test]
    fn a_piece_past_the_end_reads_nothing_and_a_slow_read_holds_the_pieces_behind_it() {
        let mut p = Pipe::new(vec![None, None], 1, 8, 5);
        assert_eq!(p.run(0, 100), 5 + 2 + 1, "ready the cycle after their turn");
        // The second read is slow: the third piece (ready earlier) waits behind it.
        let mut q = Pipe::new(vec![Some(0), Some(64), None], 1, 8, 0);
        let mut t = 0;
        while q.done().is_none() {
            q.step(t, &mut |line, at| at + if line == 64 { 50 } else { 3 });
            t = q.next_event(t);
        }
        // The second read's data at 51, written then; the third piece at 52; the end at 53.
        assert_eq!(q.done(), Some(53));
        assert_eq!(q.line_reads(), 2);
        // Paced for two cycles (reads at 0 and 1, data at 3 and 4), then run on from cycle 10
        // with reads of 20 cycles: the two pieces are written at 10 and 11, the third (past
        // the end) is taken at 10 and written at 12, the fourth reads at 11, its data and
        // write at 31; the end at 32.
        let mut r = Pipe::new(vec![Some(0), Some(64), None, Some(128)], 1, 8, 0);
        for t in 0..2 {
            r.step(t, &mut |_, at| at + 3);
        }
        assert_eq!(r.run(10, 20), 11 + 20 + 1);
    }

    #[test]
    fn nothing_to_copy_ends_at_once() {
        assert_eq!(Pipe::new(Vec::new(), 1, 8, 9).run(0, 20), 9);
    }
}

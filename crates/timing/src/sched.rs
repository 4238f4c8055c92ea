//! Warp scheduling: the order in which a core's scheduler considers its warps each cycle
//! under each policy — loose round-robin, greedy-then-oldest, greedy-then-longest-waiting
//! (SimX's issue arbiter) and two-level (an active set fed from a pending queue) — and the
//! pick of the warp that issues.

use crate::config::SchedPolicy;
use crate::{Check, CoreT, TimingModel, Why};
use weft_simt::Machine;

impl TimingModel {
    /// The warp core `c` issues at `now`, or why none.
    pub(crate) fn pick(
        &mut self,
        m: &mut Machine,
        c: usize,
        now: u64,
    ) -> Result<usize, (Why, u64)> {
        let n = self.cores[c].warps.len();
        let mut first: Option<Why> = None;
        let mut until = u64::MAX;
        let mut any_started = false;
        match self.policy {
            SchedPolicy::TwoLevel => return self.pick_two_level(m, c, now),
            SchedPolicy::GtoWait => return self.pick_longest_waiting(m, c, now),
            _ => {}
        }
        for k in 0..n {
            let core = &self.cores[c];
            let w = match self.policy {
                SchedPolicy::Gto if k == 0 => core.last,
                SchedPolicy::Gto => {
                    // The k-th oldest warp other than the last one.
                    let mut seen = 0;
                    let mut pick = core.last;
                    for &a in &core.age {
                        if a != core.last {
                            seen += 1;
                            if seen == k {
                                pick = a;
                                break;
                            }
                        }
                    }
                    pick
                }
                _ => {
                    let w = core.last + 1 + k;
                    if w >= n {
                        w - n
                    } else {
                        w
                    }
                }
            };
            match self.check(m, c, w, now) {
                Check::Ready => return Ok(w),
                Check::Blocked(why, t) => {
                    any_started = true;
                    first.get_or_insert(why);
                    until = until.min(t);
                }
                Check::NotStarted => {}
            }
        }
        if any_started {
            Err((first.unwrap_or(Why::Idle), until))
        } else {
            Err((Why::Idle, u64::MAX))
        }
    }

    /// Greedy, then the longest waiting: the warp that issued last while it can, otherwise
    /// the warp whose instruction has been ready (fetched, its registers free) the longest —
    /// a warp waiting only for its unit ages too — lowest index first among equals. This is
    /// SimX's GTO arbiter, whose age counts the cycles a warp asked and was not granted.
    fn pick_longest_waiting(
        &mut self,
        m: &mut Machine,
        c: usize,
        now: u64,
    ) -> Result<usize, (Why, u64)> {
        let n = self.cores[c].warps.len();
        let last = self.cores[c].last;
        let mut first: Option<Why> = None;
        let mut until = u64::MAX;
        let mut any_started = false;
        let mut best: Option<(u64, usize)> = None;
        for k in 0..n {
            // The last warp first (greedy), then the others in index order.
            let w = if k == 0 {
                last
            } else if k <= last {
                k - 1
            } else {
                k
            };
            match self.check(m, c, w, now) {
                Check::Ready if w == last => return Ok(w),
                Check::Ready => {
                    let t = &self.cores[c].warps[w];
                    let since = t.next.map_or(0, |n| n.until).max(t.fetch_ready);
                    if best.is_none_or(|(s, b)| since < s || (since == s && w < b)) {
                        best = Some((since, w));
                    }
                }
                Check::Blocked(why, t) => {
                    any_started = true;
                    first.get_or_insert(why);
                    until = until.min(t);
                }
                Check::NotStarted => {}
            }
        }
        match best {
            Some((_, w)) => Ok(w),
            None if any_started => Err((first.unwrap_or(Why::Idle), until)),
            None => Err((Why::Idle, u64::MAX)),
        }
    }

    /// Two-level scheduling: round-robin over the active set; a warp found waiting on memory
    /// or a barrier, or not started, trades places with the front of the pending queue.
    fn pick_two_level(&mut self, m: &mut Machine, c: usize, now: u64) -> Result<usize, (Why, u64)> {
        let n = self.cores[c].warps.len();
        let mut promotions = 0;
        let mut order = std::mem::take(&mut self.order);
        self.schedule_order(c, &mut order);
        let mut first: Option<Why> = None;
        let mut until = u64::MAX;
        let mut any_started = false;
        let mut k = 0;
        let mut picked = None;
        while k < order.len() {
            let w = order[k];
            k += 1;
            let demote = match self.check(m, c, w, now) {
                Check::Ready => {
                    picked = Some(w);
                    break;
                }
                Check::Blocked(why, t) => {
                    any_started = true;
                    first.get_or_insert(why);
                    until = until.min(t);
                    matches!(why, Why::Memory | Why::Barrier)
                }
                Check::NotStarted => true,
            };
            if demote && promotions < n {
                promotions += 1;
                if let Some(p) = self.demote(c, w) {
                    order.push(p);
                }
            }
        }
        self.order = order;
        match picked {
            Some(w) => Ok(w),
            None if any_started => Err((first.unwrap_or(Why::Idle), until)),
            None => Err((Why::Idle, u64::MAX)),
        }
    }

    /// The two-level scheduler's order this cycle: its active set (filled from the pending
    /// queue), round-robin from after the warp that issued last.
    fn schedule_order(&mut self, c: usize, order: &mut Vec<usize>) {
        let core = &mut self.cores[c];
        let n = core.warps.len();
        order.clear();
        if core.active.is_empty() && core.pending.is_empty() {
            core.pending.extend(0..n);
        }
        while core.active.len() < self.active_warps {
            match core.pending.pop_front() {
                Some(w) => core.active.push(w),
                None => break,
            }
        }
        let a = core.active.len();
        let start = core
            .active
            .iter()
            .position(|&w| w == core.last)
            .map_or(0, |p| p + 1);
        order.extend((0..a).map(|k| core.active[(start + k) % a]));
    }

    /// Two-level: move warp `w` from the active set to the back of the pending queue, and
    /// the front of the queue into the active set; returns the warp promoted.
    fn demote(&mut self, c: usize, w: usize) -> Option<usize> {
        let core = &mut self.cores[c];
        let pos = core.active.iter().position(|&x| x == w)?;
        let p = core.pending.pop_front()?;
        core.active[pos] = p;
        core.pending.push_back(w);
        Some(p)
    }
}

/// Order a core's warps by start cycle (then index), for greedy-then-oldest.
pub(crate) fn sort_by_age(core: &mut CoreT) {
    let warps = &core.warps;
    core.age.sort_by_key(|&w| (warps[w].started, w));
}

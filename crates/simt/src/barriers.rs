//! Barriers: the blocking `bar` (weft's and Vortex's) and Vortex's asynchronous barriers
//! (`bar.arrive` / `bar.wait`, custom-0 funct3 6), over one table per core plus one for
//! global (cross-core) barriers, and the completion of announced transactions (a DXA copy's).
//!
//! A barrier completes when as many warps as its count have arrived (for a global barrier:
//! as many cores), and no announced transaction (`expect_tx`) is outstanding. Completing
//! wakes every warp waiting at it — blocked in `bar` or in `bar.wait` alike, as SimX keeps one
//! wait set per barrier — and advances its phase. `bar.arrive` counts the warp without
//! blocking it and returns the phase's low bit; `bar.wait p` blocks while the phase's low bit
//! is still `p`. For a global barrier a core arrives once all its started warps have arrived,
//! and the phase that `bar.arrive`/`bar.wait` see is the core's own slot of the same index,
//! advanced on every core when the global barrier completes.

use crate::machine::Issue;
use crate::warp::WarpState;
use weft_isa::FaultCode;

/// `expect_tx`: bit 31 of `bar.arrive`'s count operand.
const EXPECT_TX: u32 = 1 << 31;

impl Issue<'_> {
    /// Check a barrier access: the index exists and the count is possible.
    fn check_barrier(&self, id: u32, count: u32, global: bool) -> Result<(), FaultCode> {
        let limit = if global {
            self.m.cfg.cores
        } else {
            self.m.cfg.warps
        } as u32;
        if id as usize >= self.m.global_barriers.len() || count == 0 || count > limit {
            return Err(FaultCode::BarrierFault);
        }
        Ok(())
    }

    /// Arrive at barrier `id` (an index into the core's, or the global, barrier table) and
    /// wait for it (`bar`); releases everyone when the count is reached.
    pub(crate) fn barrier(
        &mut self,
        c: usize,
        w: usize,
        id: u32,
        count: u32,
        global: bool,
    ) -> Result<(), FaultCode> {
        self.check_barrier(id, count, global)?;
        let me = if global { c } else { w };
        let b = if global {
            &mut self.m.global_barriers[id as usize]
        } else {
            &mut self.m.cores[c].barriers[id as usize]
        };
        b.arrived[me / 64] |= 1 << (me % 64);
        b.count = count;
        let release = b.arrivals() >= count && b.events == 0;
        if release {
            b.arrived = [0; 4];
        }
        self.m.cores[c].warps[w].stats.barrier_waits += 1;
        if release {
            self.m.complete_barrier(c, id, global);
        } else {
            self.m.cores[c].warps[w].state = WarpState::Barrier { id, global };
        }
        Ok(())
    }

    /// `bar.arrive` (Vortex's asynchronous barrier): count warp `w` of core `c` at barrier
    /// `id` without blocking it, or with bit 31 of `count` set announce that many more
    /// transactions (`expect_tx`). Returns the low bit of the phase before the arrival.
    pub(crate) fn barrier_arrive(
        &mut self,
        c: usize,
        w: usize,
        id: u32,
        count: u32,
        global: bool,
    ) -> Result<u32, FaultCode> {
        if count & EXPECT_TX != 0 {
            let slot = self
                .m
                .cores
                .get_mut(c)
                .and_then(|k| k.barriers.get_mut(id as usize))
                .ok_or(FaultCode::BarrierFault)?;
            let phase = slot.phase & 1;
            slot.events = slot.events.saturating_add(count & !EXPECT_TX);
            return Ok(phase);
        }
        self.check_barrier(id, count, global)?;
        let started = self.m.cores[c].active_mask().count_ones();
        let slot = &mut self.m.cores[c].barriers[id as usize];
        let phase = slot.phase & 1;
        slot.arrived[w / 64] |= 1 << (w % 64);
        if !global {
            slot.count = count;
            if slot.arrivals() >= count && slot.events == 0 {
                slot.arrived = [0; 4];
                self.m.complete_barrier(c, id, false);
            }
            return Ok(phase);
        }
        // Global: the core arrives when all its started warps have.
        if slot.arrivals() < started || slot.events != 0 {
            return Ok(phase);
        }
        slot.arrived = [0; 4];
        let g = &mut self.m.global_barriers[id as usize];
        g.arrived[c / 64] |= 1 << (c % 64);
        g.count = count;
        if g.arrivals() >= count {
            g.arrived = [0; 4];
            self.m.complete_barrier(c, id, true);
        }
        Ok(phase)
    }

    /// `bar.wait` (`bar.arrive` with rd = x0): block warp `w` of core `c` while the low bit of
    /// barrier `id`'s phase is `phase`'s.
    pub(crate) fn barrier_wait(
        &mut self,
        c: usize,
        w: usize,
        id: u32,
        phase: u32,
        global: bool,
    ) -> Result<(), FaultCode> {
        let slot = self.m.cores[c]
            .barriers
            .get(id as usize)
            .ok_or(FaultCode::BarrierFault)?;
        if slot.phase & 1 == phase & 1 {
            let warp = &mut self.m.cores[c].warps[w];
            warp.stats.barrier_waits += 1;
            warp.state = WarpState::Barrier { id, global };
        }
        Ok(())
    }
}

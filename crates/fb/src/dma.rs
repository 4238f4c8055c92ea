//! The 4-slot scatter-gather DMA engine between a core-local memory and the framebuffer.
//!
//! Software interface (register indices; a core maps them onto its own bus):
//! - registers `2i` and `2i+1` (i = 0..4) are slot i's `DMA_CMD` and `DMA_FB_ADDR`;
//!   `DMA_CMD` bits 0–15 = local dword address, bits 16–27 = transfer count in dwords,
//!   bit 31 = direction (1 = framebuffer → local, 0 = local → framebuffer), bits 28–30 ignored;
//! - register 8 ([`DMA_STATUS_REG`]): writing `n` (1..=4) starts slots `0..n` in order;
//!   writing 0 does nothing; reading returns the number of slots not yet finished (non-zero
//!   while busy).
//!
//! The engine knows nothing about the memories at either end: [`DmaEngine::tick_with`] hands
//! each dword move to a closure, and [`DmaEngine::write_reg_with`] lets the host check a
//! triggered slot's ranges (the SIMT cores use byte addresses in DRAM for the far end;
//! [`DmaEngine::tick`] and [`DmaEngine::write_reg`] are the Shader Processor's dword-addressed
//! [`Framebuffer`] and local `[u32]`). [`DmaEngine::pending`] lists the slots not yet done,
//! with how far the current one has got (race checking, and a timing model's view of the work).
//!
//! Timing: each slot costs `setup_cycles`, then one dword moves every `cycles_per_dword`
//! cycles. Data moves one dword at a time as [`DmaEngine::tick`] is called, so a core that
//! touches a buffer while the engine works on it sees the partial state (the seed's "silent
//! memory collisions"). Slot registers are latched when the transfer is triggered; rewriting
//! them while busy affects only the next trigger. All ranges are checked at trigger time.

use crate::Framebuffer;
use std::collections::VecDeque;
use thiserror::Error;

/// Number of scatter-gather slots.
pub const DMA_SLOTS: usize = 4;
/// Number of configuration registers (two per slot).
pub const DMA_REGS: usize = 2 * DMA_SLOTS;
/// Index of the trigger/status register, one past the configuration registers.
pub const DMA_STATUS_REG: usize = DMA_REGS;

/// Errors a DMA trigger can raise (the engine itself never fails once started).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DmaError {
    /// The trigger register was written while a previous batch was still running.
    #[error("DMA triggered while busy")]
    Busy,
    /// The slot count written to the trigger register is larger than 4.
    #[error("DMA slot count {0} is not 0..=4")]
    BadCount(u32),
    /// A slot's local range leaves the local memory.
    #[error(
        "DMA slot {slot}: local range 0x{addr:04X}+{count} leaves the {len}-dword local memory"
    )]
    LocalRange {
        /// Slot number.
        slot: usize,
        /// Local start address.
        addr: u32,
        /// Dword count.
        count: u32,
        /// Local memory size.
        len: usize,
    },
    /// A slot's framebuffer range leaves the framebuffer.
    #[error("DMA slot {slot}: framebuffer range 0x{addr:08X}+{count} leaves the {len}-dword framebuffer")]
    FbRange {
        /// Slot number.
        slot: usize,
        /// Framebuffer start address.
        addr: u32,
        /// Dword count.
        count: u32,
        /// Framebuffer size.
        len: usize,
    },
    /// A register index outside 0..=8.
    #[error("no DMA register {0}")]
    NoRegister(usize),
    /// A slot's far range is refused by the host (not mapped, misaligned…).
    #[error("DMA slot {slot}: far range 0x{addr:08X}+{count} dwords {why}")]
    FarRange {
        /// Slot number.
        slot: usize,
        /// Far start address as written.
        addr: u32,
        /// Dword count.
        count: u32,
        /// What is wrong with it.
        why: String,
    },
}

/// Cycle costs of the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DmaTiming {
    /// Cycles spent on each slot before its first dword moves (far-memory latency).
    pub setup_cycles: u32,
    /// Cycles per dword moved (at least 1).
    pub cycles_per_dword: u32,
}

impl Default for DmaTiming {
    fn default() -> Self {
        DmaTiming {
            setup_cycles: 8,
            cycles_per_dword: 1,
        }
    }
}

/// Counters kept by the engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DmaStats {
    /// Trigger writes that started work.
    pub triggers: u64,
    /// Slots completed.
    pub transfers: u64,
    /// Dwords moved framebuffer → local.
    pub dwords_in: u64,
    /// Dwords moved local → framebuffer.
    pub dwords_out: u64,
    /// Cycles (ticks) during which the engine was busy.
    pub busy_cycles: u64,
}

/// One latched slot: what a `DMA_CMD`/`DMA_FB_ADDR` pair said when the batch was triggered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transfer {
    /// The slot (0..4) it came from.
    pub slot: usize,
    /// Local dword address (`DMA_CMD` bits 0–15).
    pub local: u32,
    /// Far address as written (`DMA_FB_ADDR`); its unit is the host's (dwords for the
    /// [`Framebuffer`], bytes for the SIMT cores).
    pub fb: u32,
    /// Dwords to move (`DMA_CMD` bits 16–27).
    pub count: u32,
    /// Direction: far → local (`DMA_CMD` bit 31 set).
    pub to_local: bool,
}

impl Transfer {
    /// Decode slot `slot`'s register pair.
    pub fn decode(slot: usize, cmd: u32, fb: u32) -> Self {
        Transfer {
            slot,
            local: cmd & 0xFFFF,
            fb,
            count: (cmd >> 16) & 0xFFF,
            to_local: cmd & 0x8000_0000 != 0,
        }
    }
}

/// The DMA engine: configuration registers, a queue of latched slots, and progress.
#[derive(Clone, Debug)]
pub struct DmaEngine {
    regs: [u32; DMA_REGS],
    queue: VecDeque<Transfer>,
    setup_left: u32,
    wait_left: u32,
    done: u32,
    timing: DmaTiming,
    stats: DmaStats,
}

impl DmaEngine {
    /// An idle engine with zeroed registers.
    pub fn new(timing: DmaTiming) -> Self {
        DmaEngine {
            regs: [0; DMA_REGS],
            queue: VecDeque::with_capacity(DMA_SLOTS),
            setup_left: 0,
            wait_left: 0,
            done: 0,
            timing: DmaTiming {
                setup_cycles: timing.setup_cycles,
                cycles_per_dword: timing.cycles_per_dword.max(1),
            },
            stats: DmaStats::default(),
        }
    }

    /// The timing in use.
    pub fn timing(&self) -> DmaTiming {
        self.timing
    }

    /// Counters so far.
    pub fn stats(&self) -> DmaStats {
        self.stats
    }

    /// Whether slots remain to be done.
    pub fn busy(&self) -> bool {
        !self.queue.is_empty()
    }

    /// Read register `idx` (0..=8). Register 8 returns the number of unfinished slots.
    pub fn read_reg(&self, idx: usize) -> Result<u32, DmaError> {
        match idx {
            i if i < DMA_REGS => Ok(self.regs[i]),
            DMA_STATUS_REG => Ok(self.queue.len() as u32),
            i => Err(DmaError::NoRegister(i)),
        }
    }

    /// Write register `idx` (0..=8). Writing register 8 triggers; `local_len` and `fb_len`
    /// bound the ranges the triggered slots may touch (dwords of a local `[u32]` and of a
    /// [`Framebuffer`]).
    pub fn write_reg(
        &mut self,
        idx: usize,
        value: u32,
        local_len: usize,
        fb_len: usize,
    ) -> Result<(), DmaError> {
        self.write_reg_with(idx, value, |t| {
            if u64::from(t.local) + u64::from(t.count) > local_len as u64 {
                return Err(DmaError::LocalRange {
                    slot: t.slot,
                    addr: t.local,
                    count: t.count,
                    len: local_len,
                });
            }
            if u64::from(t.fb) + u64::from(t.count) > fb_len as u64 {
                return Err(DmaError::FbRange {
                    slot: t.slot,
                    addr: t.fb,
                    count: t.count,
                    len: fb_len,
                });
            }
            Ok(())
        })
    }

    /// Write register `idx` (0..=8); a trigger (register 8) asks `check` about each slot it
    /// starts, and starts none if any is refused.
    pub fn write_reg_with(
        &mut self,
        idx: usize,
        value: u32,
        check: impl Fn(&Transfer) -> Result<(), DmaError>,
    ) -> Result<(), DmaError> {
        match idx {
            i if i < DMA_REGS => {
                self.regs[i] = value;
                Ok(())
            }
            DMA_STATUS_REG => self.trigger(value, check),
            i => Err(DmaError::NoRegister(i)),
        }
    }

    fn trigger(
        &mut self,
        n: u32,
        check: impl Fn(&Transfer) -> Result<(), DmaError>,
    ) -> Result<(), DmaError> {
        if self.busy() {
            return Err(DmaError::Busy);
        }
        if n as usize > DMA_SLOTS {
            return Err(DmaError::BadCount(n));
        }
        let mut batch = [None; DMA_SLOTS];
        for (slot, entry) in batch.iter_mut().enumerate().take(n as usize) {
            let t = Transfer::decode(slot, self.regs[2 * slot], self.regs[2 * slot + 1]);
            check(&t)?;
            *entry = Some(t);
        }
        self.queue.extend(batch.into_iter().flatten());
        if n > 0 {
            self.stats.triggers += 1;
            self.setup_left = self.timing.setup_cycles;
            self.wait_left = 0;
            self.done = 0;
        }
        Ok(())
    }

    /// The slots not yet finished, in the order they run, each with the dwords of it already
    /// moved (only the first can have started).
    pub fn pending(&self) -> impl Iterator<Item = (Transfer, u32)> + '_ {
        self.queue
            .iter()
            .enumerate()
            .map(|(k, t)| (*t, if k == 0 { self.done } else { 0 }))
    }

    /// Dwords still to move over all pending slots.
    pub fn pending_dwords(&self) -> u64 {
        self.pending()
            .map(|(t, done)| u64::from(t.count - done.min(t.count)))
            .sum()
    }

    /// Advance one cycle, moving at most one dword between `local` and `fb`.
    pub fn tick(&mut self, local: &mut [u32], fb: &mut Framebuffer) {
        self.tick_with(|t, i| {
            let l = (t.local + i) as usize;
            let f = u64::from(t.fb) + u64::from(i);
            if t.to_local {
                if let (Ok(v), Some(dst)) = (fb.read(f), local.get_mut(l)) {
                    *dst = v;
                }
            } else if let Some(&v) = local.get(l) {
                // Range was checked at trigger time; a failure here cannot happen.
                let _ = fb.write(f, v);
            }
        });
    }

    /// Advance one cycle; when a dword is due, `mv(transfer, i)` moves dword `i` of the
    /// current slot (the caller knows where its two ends are).
    pub fn tick_with(&mut self, mv: impl FnOnce(&Transfer, u32)) {
        let Some(&t) = self.queue.front() else {
            return;
        };
        self.stats.busy_cycles += 1;
        if self.setup_left > 0 {
            self.setup_left -= 1;
            return;
        }
        if self.wait_left > 0 {
            self.wait_left -= 1;
            return;
        }
        if self.done < t.count {
            mv(&t, self.done);
            if t.to_local {
                self.stats.dwords_in += 1;
            } else {
                self.stats.dwords_out += 1;
            }
            self.done += 1;
            self.wait_left = self.timing.cycles_per_dword - 1;
        }
        if self.done >= t.count {
            self.finish_slot();
        }
    }

    /// Move up to `max` dwords of the current slot at once, ignoring the engine's own
    /// timing (for a host that paces the engine itself, e.g. by its DRAM model). Slots that
    /// complete are retired; returns the dwords moved.
    pub fn advance_with(&mut self, max: u32, mut mv: impl FnMut(&Transfer, u32)) -> u32 {
        let mut moved = 0;
        while moved < max {
            let Some(&t) = self.queue.front() else {
                break;
            };
            if self.done < t.count {
                mv(&t, self.done);
                if t.to_local {
                    self.stats.dwords_in += 1;
                } else {
                    self.stats.dwords_out += 1;
                }
                self.done += 1;
                moved += 1;
            }
            if self.done >= t.count {
                self.finish_slot();
            }
        }
        if !self.queue.is_empty() || moved > 0 {
            self.stats.busy_cycles += 1;
        }
        moved
    }

    fn finish_slot(&mut self) {
        self.queue.pop_front();
        self.stats.transfers += 1;
        self.done = 0;
        self.wait_left = 0;
        self.setup_left = self.timing.setup_cycles;
    }

    /// Run until idle (for hosts that do not model time). Returns the ticks taken.
    pub fn drain(&mut self, local: &mut [u32], fb: &mut Framebuffer) -> u64 {
        let mut ticks = 0;
        while self.busy() {
            self.tick(local, fb);
            ticks += 1;
        }
        ticks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(local: u32, count: u32, to_local: bool) -> u32 {
        local | (count << 16) | if to_local { 1 << 31 } else { 0 }
    }

    #[test]
    fn out_then_in_with_timing() {
        let mut fb = Framebuffer::new(8, 4).unwrap();
        let mut local = vec![0u32; 64];
        for (i, v) in local.iter_mut().enumerate() {
            *v = i as u32 * 3;
        }
        let timing = DmaTiming {
            setup_cycles: 2,
            cycles_per_dword: 3,
        };
        let mut dma = DmaEngine::new(timing);
        dma.write_reg(0, cmd(10, 4, false), 64, fb.len()).unwrap();
        dma.write_reg(1, 5, 64, fb.len()).unwrap();
        dma.write_reg(2, cmd(40, 2, true), 64, fb.len()).unwrap();
        dma.write_reg(3, 6, 64, fb.len()).unwrap();
        assert_eq!(dma.read_reg(8).unwrap(), 0);
        dma.write_reg(8, 2, 64, fb.len()).unwrap();
        assert_eq!(dma.read_reg(8).unwrap(), 2);
        assert_eq!(dma.write_reg(8, 1, 64, fb.len()), Err(DmaError::Busy));
        let ticks = dma.drain(&mut local, &mut fb);
        // Slot 0: 2 setup + 4 dwords * 3; slot 1: 2 setup + 2 * 3, minus the trailing waits.
        assert_eq!(ticks, (2 + 4 * 3 - 2) + (2 + 2 * 3 - 2));
        assert_eq!(&fb.pixels()[5..9], &[30, 33, 36, 39]);
        assert_eq!(&local[40..42], &[33, 36]);
        let s = dma.stats();
        assert_eq!(
            (s.triggers, s.transfers, s.dwords_in, s.dwords_out),
            (1, 2, 2, 4)
        );
        assert_eq!(s.busy_cycles, ticks);
    }

    #[test]
    fn ranges_and_counts_are_checked() {
        let fb = Framebuffer::new(4, 4).unwrap();
        let mut dma = DmaEngine::new(DmaTiming::default());
        dma.write_reg(0, cmd(60, 5, false), 64, fb.len()).unwrap();
        assert!(matches!(
            dma.write_reg(8, 1, 64, fb.len()),
            Err(DmaError::LocalRange { slot: 0, .. })
        ));
        dma.write_reg(0, cmd(0, 5, true), 64, fb.len()).unwrap();
        dma.write_reg(1, 12, 64, fb.len()).unwrap();
        assert!(matches!(
            dma.write_reg(8, 1, 64, fb.len()),
            Err(DmaError::FbRange { slot: 0, .. })
        ));
        assert_eq!(
            dma.write_reg(8, 5, 64, fb.len()),
            Err(DmaError::BadCount(5))
        );
        assert_eq!(
            dma.write_reg(9, 0, 64, fb.len()),
            Err(DmaError::NoRegister(9))
        );
        dma.write_reg(8, 0, 64, fb.len()).unwrap();
        assert!(!dma.busy());
    }

    #[test]
    fn zero_count_slot_completes() {
        let mut fb = Framebuffer::new(4, 4).unwrap();
        let mut local = vec![0u32; 8];
        let mut dma = DmaEngine::new(DmaTiming {
            setup_cycles: 0,
            cycles_per_dword: 1,
        });
        dma.write_reg(8, 1, 8, fb.len()).unwrap();
        assert!(dma.busy());
        assert_eq!(dma.drain(&mut local, &mut fb), 1);
        assert_eq!(dma.stats().transfers, 1);
    }

    #[test]
    fn partial_state_is_visible_while_busy() {
        let mut fb = Framebuffer::new(4, 1).unwrap();
        fb.pixels_mut().copy_from_slice(&[1, 2, 3, 4]);
        let mut local = vec![0u32; 4];
        let mut dma = DmaEngine::new(DmaTiming {
            setup_cycles: 1,
            cycles_per_dword: 1,
        });
        dma.write_reg(0, cmd(0, 4, true), 4, 4).unwrap();
        dma.write_reg(8, 1, 4, 4).unwrap();
        dma.tick(&mut local, &mut fb); // setup
        dma.tick(&mut local, &mut fb);
        dma.tick(&mut local, &mut fb);
        assert_eq!(local, vec![1, 2, 0, 0]);
        assert!(dma.busy());
        dma.drain(&mut local, &mut fb);
        assert_eq!(local, vec![1, 2, 3, 4]);
    }

    #[test]
    fn pending_lists_slots_and_progress_and_advance_paces_externally() {
        let mut local = [0u32; 16];
        let far: Vec<u32> = (100..116).collect();
        let mut dma = DmaEngine::new(DmaTiming {
            setup_cycles: 0,
            cycles_per_dword: 1,
        });
        dma.write_reg(0, cmd(0, 3, true), 16, 16).unwrap();
        dma.write_reg(1, 4, 16, 16).unwrap();
        dma.write_reg(2, cmd(8, 2, true), 16, 16).unwrap();
        dma.write_reg(3, 0, 16, 16).unwrap();
        dma.write_reg(8, 2, 16, 16).unwrap();
        let p: Vec<_> = dma.pending().collect();
        assert_eq!(p.len(), 2);
        assert_eq!(
            (p[0].0.slot, p[0].0.local, p[0].0.count, p[0].1),
            (0, 0, 3, 0)
        );
        assert_eq!((p[1].0.slot, p[1].0.local, p[1].0.fb), (1, 8, 0));
        assert_eq!(dma.pending_dwords(), 5);
        let mut mv = |t: &Transfer, i: u32| {
            local[(t.local + i) as usize] = far[(t.fb + i) as usize];
        };
        assert_eq!(dma.advance_with(2, &mut mv), 2);
        assert_eq!(dma.pending().next().unwrap().1, 2);
        assert_eq!(dma.pending_dwords(), 3);
        assert_eq!(dma.advance_with(10, &mut mv), 3);
        assert!(!dma.busy());
        assert_eq!(&local[0..3], &[104, 105, 106]);
        assert_eq!(&local[8..10], &[100, 101]);
        assert_eq!(dma.stats().transfers, 2);
    }

    #[test]
    fn a_refused_slot_starts_nothing() {
        let mut dma = DmaEngine::new(DmaTiming::default());
        dma.write_reg(2, cmd(0, 1, false), 8, 8).unwrap();
        let r = dma.write_reg_with(8, 2, |t| {
            if t.slot == 1 {
                Err(DmaError::FarRange {
                    slot: 1,
                    addr: t.fb,
                    count: t.count,
                    why: "is refused".into(),
                })
            } else {
                Ok(())
            }
        });
        assert!(matches!(r, Err(DmaError::FarRange { slot: 1, .. })));
        assert!(!dma.busy());
    }
}

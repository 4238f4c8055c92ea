//! Each core's DMA engine, after the Shader Processor v2a's (the `weft-fb` engine): four
//! slots, each a `DMA_CMD` (bits 0–15 the dword index into the core's shared memory, bits
//! 16–27 the count of dwords, bit 31 the direction: 1 = global → shared) and a `DMA_ADDR`
//! (a word-aligned byte address in DRAM); writing n to `DMA_STATUS` runs slots 0..n in order,
//! reading it gives the slots not yet done (non-zero = busy). The engine moves words while the
//! warps run; a warp that touches a range in flight sees whatever has moved so far, silently,
//! as in the seed — `--check-races` ([`RaceChecker`]) reports it.
//!
//! Pacing: by default the engine advances itself at the start of every cycle (`[dma]`
//! setup_cycles, cycles_per_dword) inside `Machine::begin_cycle`. A timing model that
//! charges DMA to its DRAM takes over with [`Machine::set_dma_paced`] and then moves words
//! with [`Machine::dma_advance`] as its memory system grants bandwidth, looking at the work
//! left with [`Machine::dma_pending`] (docs/display.md, "The seam for the timing model").

use crate::machine::{Machine, Observer};
use crate::record::{AccessKind, StepRecord};
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;
use weft_fb::{DmaEngine, DmaError, DmaTiming, Transfer};

/// One pending slot, in machine addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DmaSlot {
    /// Core whose engine it is.
    pub core: usize,
    /// Slot number (0..4).
    pub slot: usize,
    /// Which trigger of that engine started it (1 = the first).
    pub batch: u64,
    /// Direction: global → shared.
    pub to_local: bool,
    /// Shared-memory byte range `[start, end)`.
    pub local: (u32, u32),
    /// DRAM byte range `[start, end)`.
    pub global: (u32, u32),
    /// Bytes of it already moved.
    pub bytes_done: u32,
}

impl DmaSlot {
    /// Bytes still to move.
    pub fn bytes_left(&self) -> u32 {
        (self.local.1 - self.local.0) - self.bytes_done
    }

    /// The range this slot writes.
    pub fn destination(&self) -> (u32, u32) {
        if self.to_local {
            self.local
        } else {
            self.global
        }
    }
}

impl fmt::Display for DmaSlot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b) = if self.to_local {
            (self.global, self.local)
        } else {
            (self.local, self.global)
        };
        write!(
            f,
            "DMA slot {} of core {} ({:#010x}..{:#010x} -> {:#010x}..{:#010x})",
            self.slot, self.core, a.0, a.1, b.0, b.1
        )
    }
}

/// The engines of all cores and their pacing.
pub struct Dmas {
    pub(crate) engines: Vec<DmaEngine>,
    /// A driver moves the words ([`Machine::dma_advance`]), not the engines' own timing.
    pub(crate) paced: bool,
}

impl Dmas {
    /// One idle engine per core.
    pub fn new(cores: usize, setup_cycles: u32, cycles_per_dword: u32) -> Dmas {
        let t = DmaTiming {
            setup_cycles,
            cycles_per_dword,
        };
        Dmas {
            engines: (0..cores).map(|_| DmaEngine::new(t)).collect(),
            paced: false,
        }
    }

    /// Is any engine busy?
    pub fn any_busy(&self) -> bool {
        self.engines.iter().any(|e| e.busy())
    }
}

impl Machine {
    /// The slots core `c`'s engine has not finished, in the order they run.
    pub fn dma_pending(&self, c: usize) -> Vec<DmaSlot> {
        let Some(e) = self.io.dma.engines.get(c) else {
            return Vec::new();
        };
        let batch = e.stats().triggers;
        e.pending()
            .map(|(t, done)| self.slot_of(c, batch, &t, done))
            .collect()
    }

    fn slot_of(&self, c: usize, batch: u64, t: &Transfer, done: u32) -> DmaSlot {
        let local = self.cfg.local_mem_base.wrapping_add(4 * t.local);
        DmaSlot {
            core: c,
            slot: t.slot,
            batch,
            to_local: t.to_local,
            local: (local, local.wrapping_add(4 * t.count)),
            global: (t.fb, t.fb.wrapping_add(4 * t.count)),
            bytes_done: 4 * done,
        }
    }

    /// Is core `c`'s DMA engine busy (cheap, unlike [`Machine::dma_pending`])?
    pub fn dma_busy(&self, c: usize) -> bool {
        self.io.dma.engines.get(c).is_some_and(|e| e.busy())
    }

    /// DMA counters of core `c`.
    pub fn dma_stats(&self, c: usize) -> weft_fb::DmaStats {
        self.io
            .dma
            .engines
            .get(c)
            .map(|e| e.stats())
            .unwrap_or_default()
    }

    /// Hand the DMA engines' pacing to the caller (true) or back to their own timing.
    /// While paced, nothing moves except through [`Machine::dma_advance`].
    pub fn set_dma_paced(&mut self, paced: bool) {
        // Everything up to now happens under the old pacing.
        self.io_advance();
        self.io.dma.paced = paced;
        self.io.next_event = self.io.next_event.min(self.cycle + 1);
    }

    /// Move up to `max_words` words of core `c`'s current DMA work now (for a paced
    /// engine); returns how many moved.
    pub fn dma_advance(&mut self, c: usize, max_words: u32) -> u32 {
        let (mem, code) = (&mut self.mem, &mut self.code);
        let base = self.cfg.local_mem_base;
        match self.io.dma.engines.get_mut(c) {
            Some(e) => e.advance_with(max_words, |t, i| move_word(mem, code, base, c, t, i)),
            None => 0,
        }
    }

    /// Advance every busy engine by one cycle of its own timing.
    pub(crate) fn dma_tick(&mut self) {
        let (mem, code) = (&mut self.mem, &mut self.code);
        let base = self.cfg.local_mem_base;
        for (c, e) in self.io.dma.engines.iter_mut().enumerate() {
            if e.busy() {
                e.tick_with(|t, i| move_word(mem, code, base, c, t, i));
            }
        }
    }

    /// Write register `reg` (0..=8) of core `c`'s engine.
    pub(crate) fn dma_write(&mut self, c: usize, reg: usize, v: u32) -> Result<(), DmaError> {
        let (local_size, mem) = (self.cfg.local_mem_size, &self.mem);
        self.io.dma.engines[c].write_reg_with(reg, v, |t| {
            if (t.local as u64 + t.count as u64) * 4 > local_size as u64 {
                return Err(DmaError::LocalRange {
                    slot: t.slot,
                    addr: t.local,
                    count: t.count,
                    len: local_size as usize / 4,
                });
            }
            let end = t.fb as u64 + 4 * t.count as u64;
            let why = if !t.fb.is_multiple_of(4) {
                Some("is not word-aligned")
            } else if t.count > 0
                && (end > 1 << 32 || !mem.is_dram(t.fb) || !mem.is_dram((end - 1) as u32))
            {
                Some("is not inside DRAM")
            } else {
                None
            };
            match why {
                Some(why) => Err(DmaError::FarRange {
                    slot: t.slot,
                    addr: t.fb,
                    count: t.count,
                    why: why.into(),
                }),
                None => Ok(()),
            }
        })
    }
}

/// Move word `i` of transfer `t` of core `c` (ranges were checked at the trigger).
fn move_word<H: Copy>(
    mem: &mut weft_mem::Memory,
    code: &mut crate::code::CodeCache<H>,
    local_base: u32,
    c: usize,
    t: &Transfer,
    i: u32,
) {
    let local = local_base.wrapping_add(4 * (t.local + i));
    let global = t.fb.wrapping_add(4 * i);
    let (from, to) = if t.to_local {
        (global, local)
    } else {
        (local, global)
    };
    if let Ok(v) = mem.load(c, from, 4) {
        let _ = mem.store(c, to, 4, v);
        if !t.to_local {
            code.invalidate(to, 4);
        }
    }
}

/// One overlap `--check-races` found: a warp's access to a range a DMA slot had in flight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    /// Core of the warp.
    pub core: usize,
    /// The warp.
    pub warp: usize,
    /// Its instruction's pc.
    pub pc: u32,
    /// The instruction, as text.
    pub inst: String,
    /// What the lane did (load, store, AMO).
    pub kind: AccessKind,
    /// The first overlapping byte address.
    pub addr: u32,
    /// The slot.
    pub slot: DmaSlot,
    /// The cycle of the first occurrence.
    pub cycle: u64,
    /// How many warp-instructions hit this same (instruction, warp, slot).
    pub count: u64,
}

impl fmt::Display for Race {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            AccessKind::Load => "loaded from",
            AccessKind::Store => "stored to",
            AccessKind::Amo => "did an atomic on",
        };
        write!(
            f,
            "race: core {} warp {} pc {:#010x} `{}` {} {:#010x} while {} was in flight (cycle {}, {} time{})",
            self.core,
            self.warp,
            self.pc,
            self.inst,
            what,
            self.addr,
            self.slot,
            self.cycle,
            self.count,
            if self.count == 1 { "" } else { "s" }
        )
    }
}

/// The races found so far, shared between the checker and whoever reads them.
pub type RaceLog = Rc<RefCell<Vec<Race>>>;

/// The `--check-races` observer: after each warp-instruction, every lane access that
/// overlaps a pending DMA slot is a race if it could see or disturb the transfer: a store or
/// AMO to either of the slot's ranges, or a load from the range it writes. (Shared-memory
/// ranges only clash on the slot's own core.) Each distinct (core, warp, pc, slot, trigger)
/// is kept once, with a count.
pub struct RaceChecker {
    log: RaceLog,
}

impl RaceChecker {
    /// A checker and the log it fills.
    pub fn new() -> (RaceChecker, RaceLog) {
        let log: RaceLog = Rc::default();
        (RaceChecker { log: log.clone() }, log)
    }
}

fn overlaps(a: u32, size: u32, r: (u32, u32)) -> bool {
    (a as u64) < r.1 as u64 && (r.0 as u64) < a as u64 + size as u64 && r.0 < r.1
}

impl Observer for RaceChecker {
    fn step(&mut self, m: &Machine, r: &StepRecord) {
        if r.mem.is_empty() || !m.io.dma.any_busy() {
            return;
        }
        for c in 0..m.io.dma.engines.len() {
            for slot in m.dma_pending(c) {
                let hit = r.mem.iter().find(|a| {
                    let size = a.size as u32;
                    let local = c == r.core && overlaps(a.addr, size, slot.local);
                    let global = overlaps(a.addr, size, slot.global);
                    match a.kind {
                        AccessKind::Load if slot.to_local => local,
                        AccessKind::Load => global,
                        _ => local || global,
                    }
                });
                let Some(a) = hit else { continue };
                let mut log = self.log.borrow_mut();
                let same = log.iter_mut().find(|x| {
                    x.core == r.core
                        && x.warp == r.warp
                        && x.pc == r.pc
                        && x.slot.core == c
                        && x.slot.slot == slot.slot
                        && x.slot.batch == slot.batch
                });
                match same {
                    Some(x) => x.count += 1,
                    None => log.push(Race {
                        core: r.core,
                        warp: r.warp,
                        pc: r.pc,
                        inst: r.inst.text(Some(r.pc)),
                        kind: a.kind,
                        addr: a.addr,
                        slot,
                        cycle: r.cycle,
                        count: 1,
                    }),
                }
            }
        }
    }
}

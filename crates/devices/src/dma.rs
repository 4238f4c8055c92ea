//! Each core's DMA engine, after the Shader Processor v2a's (the `weft-fb` engine): four
//! slots, each a `DMA_CMD` (bits 0–15 the dword index into the core's shared memory, bits
//! 16–27 the count of dwords, bit 31 the direction: 1 = global → shared) and a `DMA_ADDR`
//! (a word-aligned byte address in DRAM); writing n to `DMA_STATUS` runs slots 0..n in order,
//! reading it gives the slots not yet done (non-zero = busy). The engine moves words while the
//! warps run; a warp that touches a range in flight sees whatever has moved so far, silently,
//! as in the seed — `--check-races` (weft-simt's `RaceChecker`) reports it.
//!
//! Pacing: by default the engine advances itself at the start of every cycle (`[dma]`
//! setup_cycles, cycles_per_dword) as a bus device. A timing model that charges DMA to its
//! DRAM takes over with [`Dmas::set_paced`] (`Machine::set_dma_paced`) and then moves words
//! with [`Dmas::advance_paced`] (`Machine::dma_advance`) as its memory system grants
//! bandwidth, looking at the work left with [`Dmas::pending`] (docs/display.md, "The seam
//! for the timing model"). Each core reaches its own engine at the same bus addresses.

use crate::{Access, BusDevice, Ctx, Invalidate, Reg};
use serde::{Deserialize, Serialize};
use std::fmt;
use weft_fb::{DmaEngine, DmaError, DmaTiming, Transfer};
use weft_mem::Memory;

/// Each core's DMA engine (docs/display.md): its cost in the functional model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DmaConfig {
    /// Cycles before a slot's first dword moves.
    pub setup_cycles: u32,
    /// Cycles per dword moved (at least 1).
    pub cycles_per_dword: u32,
}

impl Default for DmaConfig {
    fn default() -> Self {
        DmaConfig {
            setup_cycles: 8,
            cycles_per_dword: 1,
        }
    }
}

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
    engines: Vec<DmaEngine>,
    /// A driver moves the words ([`Dmas::advance_paced`]), not the engines' own timing.
    paced: bool,
    /// While self-paced and busy: the cycle of the next tick.
    next_tick: u64,
    /// Shared memory: base address and size in bytes.
    local_base: u32,
    local_size: u32,
}

/// `DMA_STATUS`'s index in [`REGS`].
const STATUS: usize = 8;

macro_rules! slot_regs {
    ($($i:literal),*) => {
        [$(
            Reg {
                name: concat!("DMA_CMD", $i),
                offset: 8 * $i,
                access: Access::ReadWrite,
                doc: "bits 0-15 shared dword index, 16-27 dword count, 31 global -> shared",
            },
            Reg {
                name: concat!("DMA_ADDR", $i),
                offset: 8 * $i + 4,
                access: Access::ReadWrite,
                doc: "word-aligned DRAM byte address",
            },
        )*]
    };
}

const SLOTS: [Reg; 8] = slot_regs!(0, 1, 2, 3);

/// The engine's registers (index = the engine's register number).
pub const REGS: &[Reg] = &[
    SLOTS[0],
    SLOTS[1],
    SLOTS[2],
    SLOTS[3],
    SLOTS[4],
    SLOTS[5],
    SLOTS[6],
    SLOTS[7],
    Reg {
        name: "DMA_STATUS",
        offset: 0x20,
        access: Access::ReadWrite,
        doc: "write n: run slots 0..n; read: slots left",
    },
];

impl Dmas {
    /// One idle engine per core, over shared memory at `local_base` of `local_size` bytes.
    pub fn new(cores: usize, cfg: DmaConfig, local_base: u32, local_size: u32) -> Dmas {
        let t = DmaTiming {
            setup_cycles: cfg.setup_cycles,
            cycles_per_dword: cfg.cycles_per_dword,
        };
        Dmas {
            engines: (0..cores).map(|_| DmaEngine::new(t)).collect(),
            paced: false,
            next_tick: 0,
            local_base,
            local_size,
        }
    }

    /// Is any engine busy?
    pub fn any_busy(&self) -> bool {
        self.engines.iter().any(|e| e.busy())
    }

    /// Number of engines (one per core).
    pub fn len(&self) -> usize {
        self.engines.len()
    }

    /// No engines at all?
    pub fn is_empty(&self) -> bool {
        self.engines.is_empty()
    }

    /// The slots core `c`'s engine has not finished, in the order they run.
    pub fn pending(&self, c: usize) -> Vec<DmaSlot> {
        let Some(e) = self.engines.get(c) else {
            return Vec::new();
        };
        let batch = e.stats().triggers;
        e.pending()
            .map(|(t, done)| self.slot_of(c, batch, &t, done))
            .collect()
    }

    fn slot_of(&self, c: usize, batch: u64, t: &Transfer, done: u32) -> DmaSlot {
        let local = self.local_base.wrapping_add(4 * t.local);
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

    /// Is core `c`'s engine busy (cheap, unlike [`Dmas::pending`])?
    pub fn busy(&self, c: usize) -> bool {
        self.engines.get(c).is_some_and(|e| e.busy())
    }

    /// Counters of core `c`'s engine.
    pub fn stats(&self, c: usize) -> weft_fb::DmaStats {
        self.engines.get(c).map(|e| e.stats()).unwrap_or_default()
    }

    /// Hand the pacing to the caller (true) or back to the engines' own timing from cycle
    /// `from` on. While paced, nothing moves except through [`Dmas::advance_paced`].
    pub fn set_paced(&mut self, paced: bool, from: u64) {
        self.paced = paced;
        self.next_tick = from;
    }

    /// Move up to `max_words` words of core `c`'s current work now (for a paced engine);
    /// returns how many moved.
    pub fn advance_paced(
        &mut self,
        c: usize,
        max_words: u32,
        mem: &mut Memory,
        code: &mut dyn Invalidate,
    ) -> u32 {
        let base = self.local_base;
        match self.engines.get_mut(c) {
            Some(e) => e.advance_with(max_words, |t, i| move_word(mem, code, base, c, t, i)),
            None => 0,
        }
    }

    /// Write register `reg` (0..=8) of core `c`'s engine.
    fn write(&mut self, c: usize, reg: usize, v: u32, mem: &Memory) -> Result<(), DmaError> {
        let local_size = self.local_size;
        self.engines[c].write_reg_with(reg, v, |t| {
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

impl BusDevice for Dmas {
    fn name(&self) -> &'static str {
        "dma"
    }

    fn regs(&self) -> &'static [Reg] {
        REGS
    }

    fn load(&self, _now: u64, core: usize, reg: usize) -> u32 {
        self.engines[core].read_reg(reg).unwrap_or(0)
    }

    fn store(
        &mut self,
        now: u64,
        core: usize,
        reg: usize,
        v: u32,
        mem: &Memory,
    ) -> Result<bool, String> {
        self.write(core, reg, v, mem).map_err(|e| e.to_string())?;
        if reg == STATUS {
            // The engine works from the next cycle on.
            self.next_tick = now + 1;
        }
        Ok(reg == STATUS)
    }

    fn next_event(&self) -> u64 {
        if !self.paced && self.any_busy() {
            self.next_tick
        } else {
            u64::MAX
        }
    }

    /// One cycle of every busy engine's own timing.
    fn advance(&mut self, t: u64, ctx: &mut Ctx) {
        let base = self.local_base;
        let (mem, code) = (&mut *ctx.mem, &mut *ctx.code);
        for (c, e) in self.engines.iter_mut().enumerate() {
            if e.busy() {
                e.tick_with(|tr, i| move_word(mem, code, base, c, tr, i));
            }
        }
        self.next_tick = t + 1;
    }
}

/// Move word `i` of transfer `t` of core `c` (ranges were checked at the trigger).
fn move_word(
    mem: &mut Memory,
    code: &mut dyn Invalidate,
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

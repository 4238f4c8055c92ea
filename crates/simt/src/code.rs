//! The decoded-instruction cache: one slot per halfword of the program's executable range
//! (instructions are 2 or 4 bytes long and 2-byte aligned with the C extension), each decoded
//! once at load with its reconvergence-table entry attached. A store into the range
//! invalidates every slot whose instruction (up to 4 bytes from the slot) it writes a byte of,
//! so self-modifying code still sees the new bytes (stronger than `fence.i` requires). A
//! slot also remembers for which lane classes ([`LaneClass`]) a block engine refused to start
//! a block there.

use crate::divergence::Reconv;
use std::collections::HashMap;
use weft_isa::{FaultCode, Inst, Op};
use weft_mem::{Memory, Span};

/// Chooses the handler `H` of an operation for warps of a lane count (the machine gives
/// `fast::handler_for`: the cache holds whatever routine its executor runs, and depends on
/// no executor).
pub(crate) type Select<H> = fn(&Inst, usize) -> H;

/// A decoded-cache slot's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SlotState {
    /// Not decoded yet (or invalidated by a store).
    Empty,
    /// Holds a valid instruction.
    Valid,
    /// The bytes do not decode.
    Illegal,
    /// A 4-byte instruction runs past the end of readable memory.
    Unreadable,
}

/// Which of a warp's lanes are active, as far as a block engine's translations differ: every
/// lane, some, or exactly one (a *scalar* warp: `main`'s code). Code one class cannot run in
/// blocks (a loop whose lanes disagree at once) may run well in another, so an engine's
/// refusal ([`crate::engine::PrivateRun::refuse`]) holds for one class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneClass {
    /// Every lane of the warp active (and more than one).
    All,
    /// Several lanes active, not all.
    Some,
    /// Exactly one lane active.
    One,
}

impl LaneClass {
    /// The class of a warp of `lanes` lanes with `mask` active.
    #[inline]
    pub fn of(lanes: usize, mask: u32) -> LaneClass {
        let full = if lanes >= 32 {
            u32::MAX
        } else {
            (1u32 << lanes) - 1
        };
        if mask.count_ones() == 1 {
            LaneClass::One
        } else if mask == full {
            LaneClass::All
        } else {
            LaneClass::Some
        }
    }

    /// The class's bit in a decoded slot's refusals.
    #[inline]
    pub(crate) fn bit(self) -> u8 {
        1 << self as u8
    }
}

#[derive(Clone, Copy)]
pub(crate) struct Slot<H> {
    pub inst: Inst,
    /// Whether the word has been decoded, and how that went.
    pub state: SlotState,
    pub reconv: Reconv,
    /// The routine that executes this instruction, specialised for the lane count.
    pub handler: H,
    /// The lane classes (`LaneClass::bit`) for which a block engine has said no block of
    /// it starts here (`accel.rs`); forgotten with the slot.
    pub no_block: u8,
}

impl<H> std::fmt::Debug for Slot<H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Slot({}, state {:?}, {:?})",
            self.inst, self.state, self.reconv
        )
    }
}

#[derive(Clone, Debug)]
pub(crate) struct CodeCache<H> {
    lo: u32,
    slots: Vec<Slot<H>>,
    reconv: HashMap<u32, Reconv>,
    lanes: usize,
    select: Select<H>,
    empty: Slot<H>,
    /// Bumped whenever decoded code may change (see [`CodeCache::generation`]).
    generation: u64,
}

impl<H: Copy> CodeCache<H> {
    /// An empty cache for warps of `lanes` lanes, whose slots get their handler from
    /// `select`.
    pub fn new(lanes: usize, select: Select<H>) -> CodeCache<H> {
        let inst = Inst::new(Op::Addi);
        let empty = Slot {
            inst,
            state: SlotState::Empty,
            reconv: Reconv::None,
            handler: select(&inst, lanes),
            no_block: 0,
        };
        CodeCache {
            lo: 0,
            slots: Vec::new(),
            reconv: HashMap::new(),
            lanes,
            select,
            empty,
            generation: 0,
        }
    }

    /// Cover `[addr, addr + len)` (ranges are merged into one span).
    pub fn add_range(&mut self, addr: u32, len: u32) {
        let (lo, hi) = if self.slots.is_empty() {
            (addr & !1, addr.saturating_add(len))
        } else {
            let hi = self.lo + 2 * self.slots.len() as u32;
            ((addr & !1).min(self.lo), addr.saturating_add(len).max(hi))
        };
        self.lo = lo;
        self.generation += 1;
        self.slots = vec![self.empty; (hi - lo).div_ceil(2) as usize];
    }

    pub fn set_reconv(&mut self, r: HashMap<u32, Reconv>) {
        self.reconv = r;
    }

    /// Add reconvergence-table entries (a module loaded beside the program); the slots take
    /// them when next decoded.
    pub fn merge_reconv(&mut self, r: &HashMap<u32, Reconv>) {
        self.reconv.extend(r.iter().map(|(&k, &v)| (k, v)));
    }

    /// Decode every slot now.
    pub fn fill(&mut self, mem: &Memory) {
        self.generation += 1;
        for i in 0..self.slots.len() {
            let pc = self.lo + 2 * i as u32;
            self.slots[i] = self.decode_at(mem, pc);
        }
    }

    #[cold]
    #[inline(never)]
    fn decode_at(&self, mem: &Memory, pc: u32) -> Slot<H> {
        let reconv = self.reconv.get(&pc).copied().unwrap_or(Reconv::None);
        let bad = |state| Slot {
            state,
            reconv,
            ..self.empty
        };
        let Ok(h) = mem.load(0, pc, 2) else {
            return bad(SlotState::Unreadable);
        };
        let word = if Inst::len_of(h as u16) == 2 {
            Ok(h)
        } else {
            mem.load(0, pc, 4)
        };
        match word.map(Inst::decode_exec) {
            Ok(Ok(inst)) => Slot {
                inst,
                state: SlotState::Valid,
                reconv,
                handler: (self.select)(&inst, self.lanes),
                no_block: 0,
            },
            Ok(Err(_)) => bad(SlotState::Illegal),
            Err(_) => bad(SlotState::Unreadable),
        }
    }

    #[cold]
    fn result(s: Slot<H>) -> Result<Slot<H>, FaultCode> {
        match s.state {
            SlotState::Valid => Ok(s),
            SlotState::Unreadable => Err(FaultCode::FetchFault),
            _ => Err(FaultCode::IllegalInstruction),
        }
    }

    /// The instruction at `pc`.
    #[inline(always)]
    pub fn fetch(&mut self, mem: &Memory, pc: u32) -> Result<Slot<H>, FaultCode> {
        if pc & 1 != 0 {
            return Err(FaultCode::FetchFault);
        }
        let i = (pc.wrapping_sub(self.lo) / 2) as usize;
        if let Some(s) = self.slots.get(i) {
            if s.state == SlotState::Valid {
                return Ok(*s);
            }
            if s.state != SlotState::Empty {
                return Self::result(*s);
            }
            let s = self.decode_at(mem, pc);
            self.slots[i] = s;
            return Self::result(s);
        }
        if !mem.is_dram(pc) {
            return Err(FaultCode::FetchFault);
        }
        Self::result(self.decode_at(mem, pc))
    }

    /// Remember that no block engine block starts at `pc` for warps of lane class `class`
    /// (until the slot is forgotten).
    pub fn set_no_block(&mut self, pc: u32, class: LaneClass) {
        let i = (pc.wrapping_sub(self.lo) / 2) as usize;
        if let Some(s) = self.slots.get_mut(i) {
            s.no_block |= class.bit();
        }
    }

    /// A number that changes whenever a slot is forgotten or the range changes: what was
    /// translated from the cache under another generation may be stale.
    #[inline(always)]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The decoded range. Every store path's "outside code" test is an overlap with it, on
    /// the store's whole byte range (not its first address, which misses an aligned word
    /// that begins below code starting at 2 mod 4).
    #[inline(always)]
    pub fn span(&self) -> Span {
        Span::new(self.lo, 2 * self.slots.len() as u32)
    }

    /// Is `addr` inside the decoded range (a pc the cache holds a slot for)?
    #[inline(always)]
    pub fn covers(&self, addr: u32) -> bool {
        (addr.wrapping_sub(self.lo) as u64) < 2 * self.slots.len() as u64
    }

    /// A store touched `addr..addr+size`: forget every slot whose instruction it may have
    /// written a byte of: the halfwords it writes, and the one before the first (a 4-byte
    /// instruction there runs into it). The store may start below the decoded range.
    #[inline]
    pub fn invalidate(&mut self, addr: u32, size: u32) {
        let code = Span::new(self.lo, 2 * self.slots.len() as u32);
        if let Some(hit) = Span::new(addr, size).intersect(code) {
            let first = ((hit.start - self.lo) / 2).saturating_sub(1) as usize;
            let last = ((hit.end() - 1 - self.lo as u64) / 2) as usize;
            self.generation += 1;
            for s in &mut self.slots[first..=last] {
                s.state = SlotState::Empty;
            }
        }
    }
}

/// What a block engine may ask of the decoded-code cache, whatever its handler type.
pub trait CodeView {
    /// The decoded instruction at `pc`, if it decodes.
    fn fetch_inst(&mut self, mem: &Memory, pc: u32) -> Option<Inst>;
    /// Is `addr` inside the decoded range?
    fn covers(&self, addr: u32) -> bool;
    /// Changes whenever decoded code may have changed.
    fn generation(&self) -> u64;
    /// No block starts at `pc` for warps of lane class `class`.
    fn set_no_block(&mut self, pc: u32, class: LaneClass);
    /// The decoded range.
    fn span(&self) -> Span;
}

impl<H: Copy> CodeView for CodeCache<H> {
    fn fetch_inst(&mut self, mem: &Memory, pc: u32) -> Option<Inst> {
        self.fetch(mem, pc).ok().map(|s| s.inst)
    }
    fn covers(&self, addr: u32) -> bool {
        CodeCache::covers(self, addr)
    }
    fn generation(&self) -> u64 {
        CodeCache::generation(self)
    }
    fn set_no_block(&mut self, pc: u32, class: LaneClass) {
        CodeCache::set_no_block(self, pc, class)
    }
    fn span(&self) -> Span {
        CodeCache::span(self)
    }
}

impl<H: Copy> weft_devices::Invalidate for CodeCache<H> {
    fn invalidate(&mut self, addr: u32, size: u32) {
        CodeCache::invalidate(self, addr, size);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_forgets_exactly_the_slots_whose_four_bytes_it_writes_a_byte_of() {
        // Code at 0x100..0x120, a slot per halfword; stores of 1, 2 and 4 bytes at every
        // address around it, the answer checked byte by byte: a slot holds an instruction of
        // up to 4 bytes, so a store into the next halfword may change it too.
        let (lo, halves) = (0x100u32, 16u32);
        for addr in lo - 8..lo + 2 * halves + 8 {
            for size in [1, 2, 4] {
                let mut c = CodeCache::new(1, |_: &Inst, _| ());
                c.add_range(lo, 2 * halves);
                for s in &mut c.slots {
                    s.state = SlotState::Valid;
                }
                c.invalidate(addr, size);
                for k in 0..halves {
                    let word = lo + 2 * k;
                    let reach = (word + 4).min(lo + 2 * halves);
                    let written = (addr..addr + size).any(|b| (word..reach).contains(&b));
                    assert_eq!(
                        c.slots[k as usize].state == SlotState::Empty,
                        written,
                        "store of {size} at {addr:#x}, word {word:#x}"
                    );
                }
            }
        }
    }
}

//! The decoded-instruction cache: every word of the program's executable range decoded once
//! at load, with its reconvergence-table entry attached. Stores into the range invalidate the
//! slot, so self-modifying code still sees the new word (stronger than `fence.i` requires).

use crate::divergence::Reconv;
use crate::exec::Issue;
use crate::trap::Trap;
use std::collections::HashMap;
use weft_isa::{FaultCode, Inst, Op};
use weft_mem::{Memory, Span};

/// Executes one warp-instruction (the slot's instruction, in the [`Issue`]).
pub(crate) type Handler = fn(&mut Issue<'_>) -> Result<(), Trap>;

/// Chooses the handler of an operation for warps of a lane count (`fast::handler_for`; the
/// cache is given it, so that it depends on no executor).
pub(crate) type Select = fn(Op, usize) -> Handler;

/// A decoded-cache slot's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SlotState {
    /// Not decoded yet (or invalidated by a store).
    Empty,
    /// Holds a valid instruction.
    Valid,
    /// The word does not decode.
    Illegal,
}

#[derive(Clone, Copy)]
pub(crate) struct Slot {
    pub inst: Inst,
    /// Whether the word has been decoded, and how that went.
    pub state: SlotState,
    pub reconv: Reconv,
    /// The routine that executes this instruction, specialised for the lane count.
    pub handler: Handler,
}

impl std::fmt::Debug for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Slot({}, state {:?}, {:?})",
            self.inst, self.state, self.reconv
        )
    }
}

#[derive(Clone, Debug)]
pub(crate) struct CodeCache {
    lo: u32,
    slots: Vec<Slot>,
    reconv: HashMap<u32, Reconv>,
    lanes: usize,
    select: Select,
    empty: Slot,
}

impl CodeCache {
    /// An empty cache for warps of `lanes` lanes, whose slots get their handler from
    /// `select`.
    pub fn new(lanes: usize, select: Select) -> CodeCache {
        let inst = Inst::new(Op::Addi);
        let empty = Slot {
            inst,
            state: SlotState::Empty,
            reconv: Reconv::None,
            handler: select(Op::Addi, lanes),
        };
        CodeCache {
            lo: 0,
            slots: Vec::new(),
            reconv: HashMap::new(),
            lanes,
            select,
            empty,
        }
    }

    /// Cover `[addr, addr + len)` (ranges are merged into one span).
    pub fn add_range(&mut self, addr: u32, len: u32) {
        let (lo, hi) = if self.slots.is_empty() {
            (addr & !3, addr.saturating_add(len))
        } else {
            let hi = self.lo + 4 * self.slots.len() as u32;
            ((addr & !3).min(self.lo), addr.saturating_add(len).max(hi))
        };
        self.lo = lo;
        self.slots = vec![self.empty; (hi - lo).div_ceil(4) as usize];
    }

    pub fn set_reconv(&mut self, r: HashMap<u32, Reconv>) {
        self.reconv = r;
    }

    /// Decode every slot now.
    pub fn fill(&mut self, mem: &Memory) {
        for i in 0..self.slots.len() {
            let pc = self.lo + 4 * i as u32;
            self.slots[i] = self.decode_at(mem, pc);
        }
    }

    fn decode_at(&self, mem: &Memory, pc: u32) -> Slot {
        let reconv = self.reconv.get(&pc).copied().unwrap_or(Reconv::None);
        match mem.load(0, pc, 4).ok().map(Inst::decode_exec) {
            Some(Ok(inst)) => Slot {
                inst,
                state: SlotState::Valid,
                reconv,
                handler: (self.select)(inst.op, self.lanes),
            },
            _ => Slot {
                state: SlotState::Illegal,
                reconv,
                ..self.empty
            },
        }
    }

    /// The instruction at `pc`.
    #[inline(always)]
    pub fn fetch(&mut self, mem: &Memory, pc: u32) -> Result<Slot, FaultCode> {
        if pc & 3 != 0 {
            return Err(FaultCode::FetchFault);
        }
        let i = (pc.wrapping_sub(self.lo) / 4) as usize;
        if let Some(s) = self.slots.get(i) {
            if s.state == SlotState::Valid {
                return Ok(*s);
            }
            if s.state == SlotState::Illegal {
                return Err(FaultCode::IllegalInstruction);
            }
            let s = self.decode_at(mem, pc);
            self.slots[i] = s;
            return if s.state == SlotState::Valid {
                Ok(s)
            } else {
                Err(FaultCode::IllegalInstruction)
            };
        }
        if !mem.is_dram(pc) {
            return Err(FaultCode::FetchFault);
        }
        let s = self.decode_at(mem, pc);
        if s.state == SlotState::Valid {
            Ok(s)
        } else {
            Err(FaultCode::IllegalInstruction)
        }
    }

    /// Is `addr` inside the decoded range (so a store there must invalidate)?
    #[inline(always)]
    pub fn covers(&self, addr: u32) -> bool {
        (addr.wrapping_sub(self.lo) as u64) < 4 * self.slots.len() as u64
    }

    /// A store touched `addr..addr+size`: forget every decoded word it wrote a byte of (it
    /// may start below the decoded range and run into it).
    #[inline]
    pub fn invalidate(&mut self, addr: u32, size: u32) {
        let code = Span::new(self.lo, 4 * self.slots.len() as u32);
        if let Some(hit) = Span::new(addr, size).intersect(code) {
            let first = ((hit.start - self.lo) / 4) as usize;
            let last = ((hit.end() - 1 - self.lo as u64) / 4) as usize;
            for s in &mut self.slots[first..=last] {
                s.state = SlotState::Empty;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_forgets_exactly_the_words_it_writes_a_byte_of() {
        // Code at 0x100..0x120; stores of 1, 2 and 4 bytes at every address around it, the
        // answer checked byte by byte.
        let (lo, words) = (0x100u32, 8u32);
        for addr in lo - 8..lo + 4 * words + 8 {
            for size in [1, 2, 4] {
                let mut c = CodeCache::new(1, crate::fast::handler_for);
                c.add_range(lo, 4 * words);
                for s in &mut c.slots {
                    s.state = SlotState::Valid;
                }
                c.invalidate(addr, size);
                for k in 0..words {
                    let word = lo + 4 * k;
                    let written = (addr..addr + size).any(|b| (word..word + 4).contains(&b));
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

//! The `--check-races` observer: warps touching ranges a DMA slot has in flight.

use crate::machine::{Machine, Observer};
use crate::record::{AccessKind, StepRecord};
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;
use weft_devices::DmaSlot;

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
        let dmas = m.dmas();
        if r.mem.is_empty() || !dmas.any_busy() {
            return;
        }
        for c in 0..dmas.len() {
            for slot in dmas.pending(c) {
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

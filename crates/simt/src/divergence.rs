//! The divergence unit: weft's per-warp divergence stack and the warp's call stack of
//! activations (`docs/isa.md` §5–6).
//!
//! Everything here is pure bookkeeping on masks and pcs: the executor tells it that a branch
//! or `jalr` split the warp, that the running group reached a reconvergence point, or that it
//! halted, and the stack answers with the group the warp runs next.
//!
//! The model in one paragraph. An entry stands for one *region*: the lanes that diverged at a
//! branch and will meet again at one reconvergence point, in one activation (one call of one
//! function — recursion and later calls of the same function are other activations). Its
//! `saved_mask` is partitioned into the lanes *running* (the warp's current group, or groups of
//! entries above it), *waiting* groups (each with the pc it starts at) and *parked* lanes (they
//! reached the point). Table entries are keyed by (activation, point): a second branch of the
//! same region that reconverges at the same point adds its waiting group to the same entry
//! instead of pushing, so a loop with any number of exits uses one entry. When the running
//! group reaches the point (or halts), the next waiting group runs; when none is left the entry
//! pops and the parked lanes go on together.
//!
//! The stack's entries live on chip up to `stack_depth` (the on-chip size); past it the bottom
//! entries **spill** to the warp's spill area in memory (`stack_spill` entries), as GPUs of the
//! immediate-post-dominator kind spill their reconvergence stack to local memory, and come
//! back (**fill**) when the entries above them have popped. The rules are the same wherever an
//! entry is; only the traffic differs: each step's bytes moved to and from the spill area are
//! in [`DivStack::traffic`] for the timing model to charge. Only a full spill area faults.

use weft_isa::{FaultCode, Inst, Op};

/// What the divergence unit did during the step (several can happen in one step: a group
/// can arrive at a point before issuing and the instruction then split the warp).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DivEvents(pub u8);

impl DivEvents {
    /// A new entry was pushed.
    pub const PUSH: u8 = 1;
    /// A waiting group joined an open entry (a loop coming round, another exit of a region).
    pub const JOIN: u8 = 2;
    /// A group parked at a reconvergence point and another group started.
    pub const PARK: u8 = 4;
    /// An entry popped: its lanes go on together.
    pub const POP: u8 = 8;
    /// The running group halted.
    pub const HALT: u8 = 16;
    /// An entry went from the on-chip stack to the spill area.
    pub const SPILL: u8 = 32;
    /// An entry came back from the spill area.
    pub const FILL: u8 = 64;

    /// True if `flag` happened.
    pub fn has(self, flag: u8) -> bool {
        self.0 & flag != 0
    }

    /// The events' names, in a fixed order.
    pub fn names(self) -> Vec<&'static str> {
        [
            (Self::PUSH, "push"),
            (Self::JOIN, "join"),
            (Self::PARK, "park"),
            (Self::POP, "pop"),
            (Self::HALT, "halt"),
            (Self::SPILL, "spill"),
            (Self::FILL, "fill"),
        ]
        .iter()
        .filter(|(f, _)| self.has(*f))
        .map(|(_, n)| *n)
        .collect()
    }
}

/// Where an entry reconverges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reconv {
    /// Only an explicit `converge` naming the entry's source closes it (converge mode,
    /// `diverge`, and branches without a table entry).
    None,
    /// At this pc, in the entry's activation (a branch's immediate post-dominator, or the
    /// return point of a divergent indirect call).
    At(u32),
    /// At a return from the entry's activation (the post-dominator is the function's exit).
    AtExit,
}

/// True for a return: `jalr x0, off(ra)` or `jalr x0, off(t0)`.
#[inline]
pub(crate) fn is_return(i: &Inst) -> bool {
    i.rd == 0 && (i.rs1 == 1 || i.rs1 == 5)
}

/// What `jal`/`jalr` `i` does to the call stack: a jump that links enters an activation, a
/// return leaves one, any other jump neither (the one rule for the interpreter's `control.rs`
/// and the block engine's scalar translations, `engine::is_scalar_jump`).
#[inline]
pub fn call_effect(i: &Inst) -> CallEffect {
    if i.rd != 0 {
        CallEffect::Call
    } else if i.op == Op::Jalr && is_return(i) {
        CallEffect::Return
    } else {
        CallEffect::None
    }
}

/// What a `jal`/`jalr` does to the warp's call stack ([`CallStack::apply`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallEffect {
    /// Neither a call nor a return (a plain or indirect jump).
    None = 0,
    /// It links: a call, which enters a new activation.
    Call = 1,
    /// A return (`jalr x0, off(ra)` or `jalr x0, off(t0)`): back to the caller's activation.
    Return = 2,
}

/// The warp's call stack: one activation id per open call, the innermost last. Ids are never
/// reused, so two calls of one function at the same depth are told apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallStack {
    ids: Vec<u64>,
    next: u64,
}

impl Default for CallStack {
    fn default() -> Self {
        CallStack {
            ids: vec![0],
            next: 1,
        }
    }
}

impl CallStack {
    /// The current activation.
    #[inline]
    pub fn current(&self) -> u64 {
        self.ids[self.ids.len() - 1]
    }

    /// Call depth: 0 at reset.
    #[inline]
    pub fn depth(&self) -> u32 {
        (self.ids.len() - 1) as u32
    }

    /// A linking `jal`/`jalr`: enter a new activation.
    #[inline]
    pub fn call(&mut self) {
        self.ids.push(self.next);
        self.next += 1;
    }

    /// A return: back to the caller's activation (never below the root).
    #[inline]
    pub fn ret(&mut self) {
        if self.ids.len() > 1 {
            self.ids.pop();
        }
    }

    /// A jump's effect on the call stack ([`call_effect`]).
    #[inline]
    pub fn apply(&mut self, e: CallEffect) {
        match e {
            CallEffect::Call => self.call(),
            CallEffect::Return => self.ret(),
            CallEffect::None => {}
        }
    }

    /// The `call_depth` CSR's write: the call stack becomes `depth` deep. The activations up
    /// to the smaller of the two depths stay, deeper ones close, and depths past the old one
    /// are new activations (as if entered by calls): a context switch (the device runtime's
    /// fibers) restores the depth it saved without a return or a call of its own.
    pub fn set_depth(&mut self, depth: u32) {
        let len = depth as usize + 1;
        self.ids.truncate(len);
        while self.ids.len() < len {
            self.call();
        }
    }

    /// Back to the root activation (warp start).
    pub fn reset(&mut self) {
        self.ids.truncate(1);
        self.ids[0] = self.next;
        self.next += 1;
    }

    /// The activation chain, root first.
    pub fn chain(&self) -> &[u64] {
        &self.ids
    }

    /// Restore a chain saved in an entry (the group being resumed was there).
    fn restore(&mut self, chain: &[u64]) {
        // Ids are never reused, so the innermost id names the whole chain.
        if chain.last() != self.ids.last() {
            self.ids.clear();
            self.ids.extend_from_slice(chain);
        }
    }
}

/// A group of lanes and where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// Where the lanes start.
    pub pc: u32,
    /// The lanes.
    pub mask: u32,
}

/// One divergence stack entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Every lane of the region; the mask the warp continues with when the entry pops.
    pub saved_mask: u32,
    /// Groups that have not run yet, the next to run last.
    pub waiting: Vec<Group>,
    /// Lanes that reached the reconvergence point.
    pub parked_mask: u32,
    /// Where the parked lanes go on when the entry pops.
    pub resume_pc: u32,
    /// The branch (or `diverge`, or `jalr`) that created the entry.
    pub source_pc: u32,
    /// Where the region reconverges.
    pub reconv: Reconv,
    /// The activation chain at the branch (root first); the last id is the entry's activation.
    pub frames: Vec<u64>,
}

impl Entry {
    /// The entry's activation.
    pub fn frame(&self) -> u64 {
        self.frames[self.frames.len() - 1]
    }

    /// The call depth at the branch.
    pub fn depth(&self) -> u32 {
        (self.frames.len() - 1) as u32
    }

    /// Lanes of every waiting group.
    pub fn pending_mask(&self) -> u32 {
        self.waiting.iter().fold(0, |m, g| m | g.mask)
    }

    /// Add a waiting group, joining a group that starts at the same pc.
    fn add_waiting(&mut self, g: Group) {
        match self.waiting.iter_mut().find(|w| w.pc == g.pc) {
            Some(w) => w.mask |= g.mask,
            None => self.waiting.push(g),
        }
    }

    /// Lanes of `g` that start at the entry's own point are parked at once; others wait.
    fn place(&mut self, g: Group) {
        if self.reconv == Reconv::At(g.pc) {
            self.parked_mask |= g.mask;
            self.resume_pc = g.pc;
        } else {
            self.add_waiting(g);
        }
    }
}

/// Where a run of a diverged warp that leaves reconvergence to the interpreter must stop
/// ([`DivStack::stops`]; a block engine's `PrivateRun::stops`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stops {
    /// No instruction at these pcs may run.
    pub points: Vec<u32>,
    /// No return may run.
    pub at_exit: bool,
}

/// What the warp does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Next {
    /// The new active mask.
    pub mask: u32,
    /// The new pc.
    pub pc: u32,
}

/// What a split did to the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitOutcome {
    /// A new entry was pushed.
    Pushed,
    /// The waiting group joined an open entry (a loop coming round, or another exit of the
    /// same region).
    Joined,
}

/// Bytes an entry takes in the spill area: saved and parked masks, resume pc, point, source
/// pc, activation and one waiting group (pc and mask), in a 32-byte slot.
pub const SPILL_ENTRY_BYTES: u32 = 32;
/// Bytes of each further waiting group of a spilled entry.
pub const SPILL_GROUP_BYTES: u32 = 8;

/// Bytes moved between the on-chip stack and the spill area (since the last reset).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StackTraffic {
    /// Written to the spill area: entries spilled, and spilled entries updated in place.
    pub to_memory: u32,
    /// Read from it: entries filled back, and spilled entries read to be updated.
    pub from_memory: u32,
}

/// A warp's divergence stack. Popped entries stay allocated below `slots` and are reused by
/// the next push, so a warp that diverges and reconverges in a loop allocates nothing.
#[derive(Clone, Debug, Default)]
pub struct DivStack {
    /// Entry slots; the first `len` are the open entries, bottom first.
    slots: Vec<Entry>,
    len: usize,
    /// A filter of the open entries' table points (bit `(pc >> 2) & 63` of each `At(pc)`):
    /// before every issue of a diverged warp, [`DivStack::point_at`] rejects most pcs with one
    /// test instead of a scan.
    points: u64,
    /// Entries on chip at most.
    depth_limit: usize,
    /// Entries the spill area holds.
    spill_limit: usize,
    /// The bottom `spilled` open entries are in the spill area (the top is always on chip).
    spilled: usize,
    max_seen: usize,
    /// What happened since the last reset: `record::DivEvents` flags (push, join, park, pop,
    /// halt, spill, fill), for the step record.
    pub events: u8,
    /// Spill-area traffic since the last reset (with `events`).
    pub traffic: StackTraffic,
    /// Entries spilled and filled since the warp was made (restarts carry them on).
    pub spills: u64,
    pub fills: u64,
}

impl DivStack {
    /// An empty stack of `depth_limit` entries on chip and a spill area of `spill_limit`.
    pub fn new(depth_limit: usize, spill_limit: usize) -> DivStack {
        DivStack {
            slots: Vec::new(),
            len: 0,
            points: 0,
            depth_limit,
            spill_limit,
            spilled: 0,
            max_seen: 0,
            events: 0,
            traffic: StackTraffic::default(),
            spills: 0,
            fills: 0,
        }
    }

    /// Open entries in the spill area (the bottom ones).
    pub fn spilled(&self) -> usize {
        self.spilled
    }

    /// Is there room for one more entry, on chip or in the spill area?
    fn full(&self) -> bool {
        self.len >= self.depth_limit + self.spill_limit
    }

    /// Bytes entry `k` takes in the spill area.
    fn entry_bytes(&self, k: usize) -> u32 {
        let groups = self.slots[k].waiting.len().saturating_sub(1) as u32;
        SPILL_ENTRY_BYTES + SPILL_GROUP_BYTES * groups
    }

    /// Entry `k` was read and changed: if it is in the spill area, that is a read and a write
    /// there.
    fn touched(&mut self, k: usize) {
        if k < self.spilled {
            let b = self.entry_bytes(k);
            self.traffic.from_memory = self.traffic.from_memory.saturating_add(b);
            self.traffic.to_memory = self.traffic.to_memory.saturating_add(b);
        }
    }

    /// Entries `from..` lose the lanes `lanes` (a group that left their regions); spilled
    /// ones that change are updated in the spill area.
    fn leave(&mut self, from: usize, lanes: u32) {
        for k in from..self.len {
            let e = &mut self.slots[k];
            if e.saved_mask & lanes != 0 {
                e.saved_mask &= !lanes;
                self.touched(k);
            }
        }
    }

    /// The top entry is in the spill area (the entries above it popped): bring it back.
    fn fill(&mut self) {
        if self.len > 0 && self.spilled >= self.len {
            self.spilled = self.len - 1;
            let b = self.entry_bytes(self.spilled);
            self.traffic.from_memory = self.traffic.from_memory.saturating_add(b);
            self.fills += 1;
            self.events |= DivEvents::FILL;
        }
    }

    /// Number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no entry is open.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The open entries.
    #[inline]
    fn open(&self) -> &[Entry] {
        &self.slots[..self.len]
    }

    /// Open a new entry (reusing a popped one's storage) and return it.
    fn push_entry(
        &mut self,
        saved_mask: u32,
        source_pc: u32,
        reconv: Reconv,
        calls: &CallStack,
    ) -> &mut Entry {
        // On chip is full: the bottom entry on chip goes to the spill area.
        if self.len - self.spilled >= self.depth_limit {
            let b = self.entry_bytes(self.spilled);
            self.traffic.to_memory = self.traffic.to_memory.saturating_add(b);
            self.spilled += 1;
            self.spills += 1;
            self.events |= DivEvents::SPILL;
        }
        if self.len == self.slots.len() {
            self.slots.push(Entry {
                saved_mask: 0,
                waiting: Vec::new(),
                parked_mask: 0,
                resume_pc: 0,
                source_pc: 0,
                reconv: Reconv::None,
                frames: Vec::new(),
            });
        }
        if let Reconv::At(p) = reconv {
            self.points |= Self::point_bit(p);
        }
        let e = &mut self.slots[self.len];
        self.len += 1;
        self.max_seen = self.max_seen.max(self.len);
        self.events |= DivEvents::PUSH;
        e.saved_mask = saved_mask;
        e.waiting.clear();
        e.parked_mask = 0;
        e.resume_pc = 0;
        e.source_pc = source_pc;
        e.reconv = reconv;
        e.frames.clear();
        e.frames.extend_from_slice(calls.chain());
        e
    }

    /// Deepest the stack has been.
    pub fn max_depth(&self) -> usize {
        self.max_seen
    }

    /// The top entry.
    pub fn top(&self) -> Option<&Entry> {
        self.open().last()
    }

    /// All entries, bottom first.
    pub fn entries(&self) -> &[Entry] {
        self.open()
    }

    /// Drop every entry (warp restart).
    pub fn clear(&mut self) {
        self.len = 0;
        self.spilled = 0;
        self.points = 0;
    }

    /// The filter bit of a table point.
    #[inline(always)]
    fn point_bit(pc: u32) -> u64 {
        1 << ((pc >> 2) & 63)
    }

    /// Close the top entries down to `len` open ones (a new top in the spill area is filled
    /// back).
    fn truncate(&mut self, len: usize) {
        self.len = len;
        self.points = self.open().iter().fold(0, |m, e| match e.reconv {
            Reconv::At(p) => m | Self::point_bit(p),
            _ => m,
        });
        self.fill();
    }

    /// Lanes waiting or parked anywhere on the stack, with the pcs they wait at.
    pub fn stranded(&self) -> Vec<Group> {
        let mut v = Vec::new();
        for e in self.open() {
            v.extend(e.waiting.iter().copied());
            if e.parked_mask != 0 {
                v.push(Group {
                    pc: e.resume_pc,
                    mask: e.parked_mask,
                });
            }
        }
        v
    }

    /// The running group (`active`) splits at `source_pc`: `first` runs now, `second` waits.
    /// `reconv` is where the two meet; `calls` is the warp's call stack.
    ///
    /// - A table point (`At`, `AtExit`): if an entry of this activation already reconverges
    ///   there, `second` joins it (leaving any entries above, which it will no longer reach);
    ///   otherwise a new entry is pushed.
    /// - `Reconv::None`: if an entry created by this same instruction in this activation is
    ///   on the stack (a loop coming round), `second` joins it (leaving the entries above);
    ///   otherwise push.
    ///
    /// A full stack (on chip and spill area) faults with DIVERGE_OVERFLOW; nothing is
    /// dropped.
    pub fn split(
        &mut self,
        source_pc: u32,
        active: u32,
        second: Group,
        reconv: Reconv,
        calls: &CallStack,
    ) -> Result<SplitOutcome, FaultCode> {
        let frame = calls.current();
        let open = self.open();
        let found = match reconv {
            Reconv::None => open.iter().rposition(|e| {
                e.source_pc == source_pc && e.reconv == Reconv::None && e.frame() == frame
            }),
            _ => open
                .iter()
                .rposition(|e| e.reconv == reconv && e.frame() == frame),
        };
        if let Some(k) = found {
            self.leave(k + 1, second.mask);
            self.slots[k].place(second);
            self.touched(k);
            self.events |= DivEvents::JOIN;
            return Ok(SplitOutcome::Joined);
        }
        if self.full() {
            return Err(FaultCode::DivergeOverflow);
        }
        self.push_entry(active, source_pc, reconv, calls)
            .place(second);
        Ok(SplitOutcome::Pushed)
    }

    /// `diverge` at `pc`: lanes of `active` in `pred` continue at `pc + 4`, the others wait at
    /// `label` in a new entry that only a `converge` naming this `diverge` closes. An empty
    /// predicate faults with DIVERGE_EMPTY.
    pub fn diverge(
        &mut self,
        pc: u32,
        active: u32,
        pred: u32,
        label: u32,
        calls: &CallStack,
    ) -> Result<Next, FaultCode> {
        let go = active & pred;
        if go == 0 {
            return Err(FaultCode::DivergeEmpty);
        }
        let wait = active & !go;
        if wait != 0 {
            if self.full() {
                return Err(FaultCode::DivergeOverflow);
            }
            self.push_entry(active, pc, Reconv::None, calls)
                .waiting
                .push(Group {
                    pc: label,
                    mask: wait,
                });
        }
        Ok(Next {
            mask: go,
            pc: pc.wrapping_add(4),
        })
    }

    /// Where a diverged group may reconverge: the table points of the open entries, in any
    /// activation (before it issues there: `point_at`), and whether an open entry
    /// reconverges at a return ([`Reconv::AtExit`]: `exit_point`).
    pub fn stops(&self) -> Stops {
        let mut s = Stops::default();
        for e in self.open() {
            match e.reconv {
                Reconv::At(pc) => s.points.push(pc),
                Reconv::AtExit => s.at_exit = true,
                Reconv::None => {}
            }
        }
        s
    }

    /// The entry, if any, whose table point the running group reaches by issuing at `pc` in
    /// the current activation.
    #[inline]
    pub fn point_at(&self, pc: u32, calls: &CallStack) -> Option<usize> {
        if self.points & Self::point_bit(pc) == 0 {
            return None;
        }
        let frame = calls.current();
        self.open()
            .iter()
            .rposition(|e| e.reconv == Reconv::At(pc) && e.frame() == frame)
    }

    /// The entry, if any, that a return from the current activation reaches.
    pub fn exit_point(&self, calls: &CallStack) -> Option<usize> {
        let frame = calls.current();
        self.open()
            .iter()
            .rposition(|e| e.reconv == Reconv::AtExit && e.frame() == frame)
    }

    /// The entry `converge` naming `source_pc` acts on: the topmost entry of the current
    /// activation made by that instruction, wherever it is on the stack.
    pub fn converge_target(&self, source_pc: u32, calls: &CallStack) -> Option<usize> {
        let frame = calls.current();
        self.open()
            .iter()
            .rposition(|e| e.source_pc == source_pc && e.frame() == frame)
    }

    /// The running group `current` reached entry `k`'s reconvergence point at `at_pc`; the
    /// lanes will go on at `resume_pc` when the entry pops. Groups of the entry waiting at
    /// `at_pc` are already there and park too. Entries above `k` lose `current` (it has left
    /// their regions). Returns the group that runs next (restoring `calls` to its activation).
    pub fn arrive(
        &mut self,
        k: usize,
        current: u32,
        at_pc: u32,
        resume_pc: u32,
        calls: &mut CallStack,
    ) -> Option<Next> {
        self.leave(k + 1, current);
        self.touched(k);
        let e = &mut self.slots[k];
        e.parked_mask |= current;
        e.resume_pc = resume_pc;
        let mut i = 0;
        while i < e.waiting.len() {
            if e.waiting[i].pc == at_pc {
                e.parked_mask |= e.waiting.remove(i).mask;
            } else {
                i += 1;
            }
        }
        self.schedule(calls)
    }

    /// The current group (`current` lanes) has halted: it leaves every entry. Returns the
    /// group that runs next, or `None` when no lanes are left.
    pub fn retire(&mut self, current: u32, calls: &mut CallStack) -> Option<Next> {
        self.events |= DivEvents::HALT;
        for k in 0..self.len {
            let e = &mut self.slots[k];
            let held = e.saved_mask | e.parked_mask | e.pending_mask();
            if held & current == 0 {
                continue;
            }
            e.saved_mask &= !current;
            e.parked_mask &= !current;
            for g in &mut e.waiting {
                g.mask &= !current;
            }
            e.waiting.retain(|g| g.mask != 0);
            self.touched(k);
        }
        self.schedule(calls)
    }

    /// The top entry has no running lanes: run its next waiting group, or pop it and let its
    /// parked lanes go on; an entry left with no lanes at all is dropped. An entry whose only
    /// lanes are the group about to run is dropped too: nothing is left to wait for.
    fn schedule(&mut self, calls: &mut CallStack) -> Option<Next> {
        loop {
            let top = self.len.checked_sub(1)?;
            let e = &mut self.slots[top];
            if let Some(g) = e.waiting.pop() {
                calls.restore(&e.frames);
                self.events |= DivEvents::PARK;
                if e.saved_mask == g.mask {
                    self.truncate(top);
                    self.events |= DivEvents::POP;
                }
                return Some(Next {
                    mask: g.mask,
                    pc: g.pc,
                });
            }
            self.truncate(top);
            let e = &self.slots[top];
            self.events |= DivEvents::POP;
            debug_assert_eq!(e.parked_mask, e.saved_mask);
            if e.parked_mask != 0 {
                calls.restore(&e.frames);
                return Some(Next {
                    mask: e.parked_mask,
                    pc: e.resume_pc,
                });
            }
        }
    }
}

/// The divergence unit's view of a reconvergence table.
pub(crate) fn reconv_map(
    table: &weft_reconv::ReconvTable,
) -> std::collections::HashMap<u32, Reconv> {
    table
        .iter()
        .map(|(pc, r)| {
            let r = match r {
                weft_reconv::Reconv::At(p) => Reconv::At(p),
                weft_reconv::Reconv::AtExit => Reconv::AtExit,
            };
            (pc, r)
        })
        .collect()
}

#[cfg(test)]
mod tests;

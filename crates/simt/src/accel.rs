//! The hook for a faster functional engine (docs/engine.md): a [`BlockEngine`] (the
//! Cranelift translator of `weft-jit`) runs runs of *warp-private* instructions — integer ALU
//! and M-extension ops, `lui`/`auipc`, uniform conditional branches and plain `jal x0` —
//! many at a time, and this module decides when that is indistinguishable from the
//! interpreter's one warp-instruction per core per cycle, and books the cycles and statistics
//! exactly as single steps would.
//!
//! Word loads and stores (`lw`/`sw`, and `flw`/`fsw` while the float state is Dirty) may run
//! in blocks too, through [`MemPort`] (`mem_port.rs`), which takes exactly the interpreter's
//! direct path or refuses; and float operations ([`is_block_float`]) under guards the engine
//! checks on every active lane, exiting before the instruction when one fails. An engine
//! counts the offers of code it is not ready to run itself ([`BlockEngine::offer`]), so
//! that cold code costs no attempt.
//!
//! The rule (a *super-step*): exactly one warp runs in the whole machine, with no breakpoint
//! and no watchdog armed, and not at a pc where it reconverges (a diverged warp runs up to
//! the first place where it may: `PrivateRun::stops`); the KMU is idle; no observer is
//! attached. Then each cycle issues one instruction of that warp, so `n` private instructions
//! are `n` cycles, bounded so that the run stays before the next I/O event and the cycle
//! bound. With several running warps (all quiet as above), a super-step of T cycles gives
//! each warp exactly its round-robin share of T, its word accesses recorded and refused where
//! they meet another warp's in the step (`multi_super_step`, `step_mem.rs`). Everything
//! else — other memory accesses, CSRs, divergent branches, SIMT instructions, faults — is
//! left to the interpreter, which is the one source of truth for it. Under a scheduling
//! quantum (`Config::quantum` > 1) the warp holding each core's quantum runs alone for what
//! is left of it (`quantum_super_step`, at the end).

use crate::engine::{
    is_block_float, is_block_memory, is_private, is_scalar_csr, is_scalar_jump, is_scalar_memory,
    BlockEngine, EngineCounts, LaneClass, Offer, PrivateRun,
};
use crate::machine::Machine;
use crate::mem_port::MemPort;
use crate::step_mem::StepMem;
use crate::warp::{watchdog, Warp};
use weft_isa::Op;

/// Failed attempts in a row after which the wait between attempts stops growing (2^8 − 1
/// cycles).
const BACKOFF_STEPS: u32 = 8;

/// The same after attempts over several warps (up to 16,383 cycles apart).
const MULTI_BACKOFF_STEPS: u32 = 14;

impl Machine {
    /// Use `e` for warp-private instruction runs from now on (`None`: the interpreter only).
    pub fn set_engine(&mut self, e: Option<Box<dyn BlockEngine>>) {
        self.engine = e;
    }

    /// Cycles run in super-steps so far (not part of the report: the engines must agree on
    /// it; this tells how much the block engine did).
    pub fn super_step_cycles(&self) -> u64 {
        self.accel_cycles
    }

    /// The engine's name: `interp` or the block engine's.
    pub fn engine_name(&self) -> &'static str {
        self.engine.as_ref().map_or("interp", |e| e.name())
    }

    /// The block engine's counts (zero without one).
    pub fn engine_counts(&self) -> EngineCounts {
        self.engine
            .as_ref()
            .map_or_else(EngineCounts::default, |e| e.counts())
    }

    /// Try a super-step at the current cycle (after `begin_cycle`): returns the cycles it
    /// covered (0: none, the cycle is the interpreter's). Attempts that fail in a row are
    /// spaced out (1, 3, 7 … up to 255 cycles apart), so code with no block to run pays next
    /// to nothing for them; a success tries again at once, and so does an engine warming up
    /// to a block ([`PrivateRun::warming`]).
    #[inline(always)]
    pub(crate) fn super_step(&mut self, bound: u64) -> u64 {
        if self.cycle < self.accel_retry {
            return 0;
        }
        let n = self.try_super_step(bound);
        let multi = std::mem::take(&mut self.accel_multi);
        if n == u64::MAX {
            return 0;
        }
        if n == 0 {
            // Attempts over several warps cost more: they may wait longer.
            let cap = if multi {
                MULTI_BACKOFF_STEPS
            } else {
                BACKOFF_STEPS
            };
            self.accel_misses = (self.accel_misses + 1).min(cap);
            self.accel_retry = self.cycle + (1 << self.accel_misses) - 1;
        } else {
            self.accel_misses = 0;
            self.accel_hold = false;
        }
        n
    }

    #[inline(never)]
    fn try_super_step(&mut self, bound: u64) -> u64 {
        if self.engine.is_none() || !self.observers.is_empty() {
            return 0;
        }
        if self.cfg.quantum > 1 {
            return self.quantum_super_step(bound);
        }
        let (c, w) = match self.quiet_running_warps() {
            Some(Running::One(c, w)) => (c, w),
            Some(Running::Many) => {
                // Only if some warp is at code the engine would run (each offer counted).
                let (mut skip, mut running) = (u64::MAX, 0);
                let mut attempt = false;
                for c in 0..self.cores.len() {
                    for w in 0..self.cores[c].warps.len() {
                        if !self.cores[c].warps[w].is_running() {
                            continue;
                        }
                        running += 1;
                        match self.offer(c, w) {
                            Offer::Attempt => attempt = true,
                            Offer::Counted(n) => skip = skip.min(n),
                        }
                    }
                }
                if !attempt {
                    // Issued in turn, a warp runs its straight run in about `running` times
                    // its cycles: ask again when the first may be at its next block start.
                    self.accel_retry = self.cycle + skip.saturating_mul(running);
                    return u64::MAX;
                }
                let list = self
                    .cores
                    .iter()
                    .enumerate()
                    .flat_map(|(c, core)| {
                        core.warps
                            .iter()
                            .enumerate()
                            .filter(|(_, w)| w.is_running())
                            .map(move |(w, _)| (c, w))
                    })
                    .collect();
                return self.multi_super_step(bound, list, u64::MAX);
            }
            None => return 0,
        };
        self.single_super_step(c, w, bound, u64::MAX)
    }

    /// A super-step of warp `w` of core `c` alone, of at most `limit` cycles: no other warp
    /// issues in them (it is the only one running, or it holds its core's quantum and no
    /// other core runs a warp). The cycles it covered, or 0, or `u64::MAX` (none, and no
    /// back-off: the engine counted an offer).
    fn single_super_step(&mut self, c: usize, w: usize, bound: u64, limit: u64) -> u64 {
        // An engine only counting an offer here first, then the common refusal, at the cost
        // of a decoded-cache lookup.
        if let Offer::Counted(skip) = self.offer(c, w) {
            self.accel_retry = self.cycle + skip.min(limit);
            return u64::MAX;
        }
        let (pc, class) = {
            let warp = &self.cores[c].warps[w];
            if at_point(warp) {
                return 0;
            }
            (warp.pc, LaneClass::of(self.cfg.lanes, warp.mask))
        };
        let one = class == LaneClass::One;
        // Calls and returns run in scalar translations and in those of a full warp.
        let jumps = class != LaneClass::Some;
        match self.code.fetch(&self.mem, pc) {
            Ok(s)
                if (is_private(&s.inst)
                    || is_block_memory(&s.inst)
                    || is_block_float(&s.inst)
                    || (jumps && is_scalar_jump(&s.inst))
                    || (one && (is_scalar_memory(&s.inst) || is_scalar_csr(&s.inst))))
                    && s.no_block & class.bit() == 0 => {}
            _ => return 0,
        }
        let now = self.cycle;
        let io = if self.bus.next_event() > now {
            self.bus.next_event() - now
        } else {
            1
        };
        let budget = bound.saturating_sub(now).min(io).min(limit);
        if budget == 0 {
            return 0;
        }
        let Some(engine) = self.engine.as_mut() else {
            return 0;
        };
        let lanes = self.cfg.lanes;
        let warp = &mut self.cores[c].warps[w];
        let mut run = PrivateRun {
            warp,
            lanes,
            budget,
            warming: false,
            skip: 0,
            code: &mut self.code,
            mem: &mut self.mem,
            stats: &mut self.stats,
            reservations: !self.reservations.is_empty(),
            deferred: None,
            step: None,
        };
        let n = engine.run(&mut run).min(budget);
        if n == 0 {
            // u64::MAX: no cycle covered, and no back-off either (the next attempt after the
            // straight run the engine counted, which the interpreter is about to run).
            if run.warming {
                self.accel_retry = self.cycle + run.skip;
                return u64::MAX;
            }
            return 0;
        }
        let warp = &mut self.cores[c].warps[w];
        warp.note_divergence_depth();
        warp.stats.warp_instructions += n;
        warp.stats.thread_instructions += n * warp.mask.count_ones() as u64;
        self.cores[c].next = w + 1;
        self.cycle += n;
        self.accel_cycles += n;
        n
    }

    /// The engine's [`BlockEngine::offer`] for warp `w` of core `c`.
    fn offer(&mut self, c: usize, w: usize) -> Offer {
        let warp = &self.cores[c].warps[w];
        let (pc, mask) = (warp.pc, warp.mask);
        match self.engine.as_mut() {
            Some(e) => e.offer(pc, self.cfg.lanes, mask),
            None => Offer::Attempt,
        }
    }

    /// The running warps of the machine, if at least one runs, the KMU is idle and none has
    /// anything to check before issue but reconvergence (no breakpoint or watchdog).
    fn quiet_running_warps(&mut self) -> Option<Running> {
        if self.kmu_busy() {
            return None;
        }
        let mut one = None;
        let mut count = 0;
        for (c, core) in self.cores.iter().enumerate() {
            for (w, warp) in core.warps.iter().enumerate() {
                if !warp.is_running() {
                    continue;
                }
                count += 1;
                if count > 1 {
                    // A failure with several warps running waits as long as one over them.
                    self.accel_multi = true;
                }
                if !quiet(warp) {
                    return None;
                }
                one.get_or_insert((c, w));
            }
        }
        match (one, count) {
            (Some((c, w)), 1) => Some(Running::One(c, w)),
            (Some(_), _) => Some(Running::Many),
            (None, _) => None,
        }
    }

    /// Are the next [`MULTI_AHEAD`] instructions from `pc` (following plain jumps, calls and
    /// backward branches, which loops take, past forward ones) ones a super-step over several
    /// warps may run, up to an indirect jump (a return: where it goes is known only then)?
    /// `full`: the warp's lanes are all active (its translations run calls and returns).
    fn private_ahead(&mut self, mut pc: u32, full: bool) -> bool {
        for _ in 0..MULTI_AHEAD {
            let Ok(s) = self.code.fetch(&self.mem, pc) else {
                return false;
            };
            let i = s.inst;
            if full && is_scalar_jump(&i) && i.op == Op::Jalr {
                return true;
            }
            if !(is_private(&i)
                || is_block_float(&i)
                || is_block_memory(&i)
                || (full && is_scalar_jump(&i)))
            {
                return false;
            }
            let next = pc.wrapping_add(i.len());
            pc = match i.op {
                Op::Jal => pc.wrapping_add(i.imm as u32),
                Op::Beq | Op::Bne | Op::Blt | Op::Bge | Op::Bltu | Op::Bgeu if i.imm < 0 => {
                    pc.wrapping_add(i.imm as u32)
                }
                _ => next,
            };
        }
        true
    }

    /// A super-step over several running warps (docs/engine.md § Super-steps over several
    /// warps): T cycles in which each core issues its running warps in rotation, warp `i` of
    /// a core with `k` of them (in rotation order from the core's pointer) exactly
    /// ⌈(T − i)/k⌉ instructions. Only instructions no other warp can observe run: private
    /// ones, and word accesses no other warp's access of the step meets (the port records
    /// them and refuses the first that would, `step_mem.rs`), so issuing a warp's share at
    /// once computes what the interleaving does. Each warp runs its share of a T; a warp that
    /// stops short lowers T, and the warps that went beyond their share of the lower T are
    /// restored from a snapshot of their registers, their stores undone, and run again (their
    /// counts were held back), until every warp ran exactly its share, or T is too short and
    /// everything is taken back.
    fn multi_super_step(&mut self, bound: u64, list: Vec<(usize, usize)>, limit: u64) -> u64 {
        self.accel_multi = true;
        if list.len() > MULTI_WARPS {
            return 0;
        }
        // A cheap look ahead first: every warp must have a run of instructions that can go
        // in such a step ahead of it, or the attempt would not pay for its snapshots.
        for &(c, w) in &list {
            if at_point(&self.cores[c].warps[w]) {
                return 0;
            }
            let warp = &self.cores[c].warps[w];
            let (pc, full) = (
                warp.pc,
                LaneClass::of(self.cfg.lanes, warp.mask) == LaneClass::All,
            );
            if !self.private_ahead(pc, full) {
                return 0;
            }
        }
        let now = self.cycle;
        let io = if self.bus.next_event() > now {
            self.bus.next_event() - now
        } else {
            1
        };
        let short = MULTI_SHORT * list.len() as u64;
        let t = bound
            .saturating_sub(now)
            .min(io)
            .min(self.accel_cap.max(2 * short))
            .min(limit);
        if t < short {
            return 0;
        }
        // Each warp's rotation position and its core's running warps.
        let mut shares: Vec<Share> = Vec::with_capacity(list.len());
        for &(c, w) in &list {
            // The list is in (core, warp) order: the core's running warps in index order.
            let on_core = list.iter().filter(|x| x.0 == c).map(|x| x.1);
            let k = on_core.clone().count();
            let next = self.cores[c].next;
            let first = on_core.clone().position(|x| x >= next).unwrap_or(0);
            let at = on_core.clone().position(|x| x == w).unwrap_or(0);
            let k = k as u64;
            let pos = (at as u64 + k - first as u64) % k;
            shares.push(Share {
                c,
                w,
                k,
                pos,
                ran: None,
                snap: None,
                counts: Vec::new(),
            });
        }
        let mut step = match self.accel_mem.take() {
            Some(s) => s,
            None => {
                let cfg = self.mem.config();
                Box::new(StepMem::new(cfg.dram_base, cfg.dram_size))
            }
        };
        step.begin(shares.len());
        let t = self.run_shares(&mut shares, &mut step, t, short);
        if t == 0 {
            // Take everything back: each warp's stores (they touch different words, so in
            // any order of warps) and registers.
            for (i, s) in shares.iter().enumerate() {
                if let Some(snap) = &s.snap {
                    step.undo(i, &mut self.mem);
                    snap.restore(&mut self.cores[s.c].warps[s.w]);
                }
            }
            self.accel_mem = Some(step);
            // Even while the engine warms up to a block (counting offers), the next attempt
            // waits: these cost snapshots and runs. And it tries fewer cycles: what the warps
            // ran before one stopped short (warps meeting in memory, most likely) was wasted.
            self.accel_cap = (self.accel_cap / 4).max(2 * short);
            self.accel_hold = true;
            return 0;
        }
        // Book what T cycles of single issues would have.
        for (i, s) in shares.iter().enumerate() {
            let n = s.share(t);
            let warp = &mut self.cores[s.c].warps[s.w];
            if n > 0 {
                warp.note_divergence_depth();
            }
            warp.stats.warp_instructions += n;
            warp.stats.thread_instructions += n * warp.mask.count_ones() as u64;
            for &(op, m) in &s.counts {
                self.stats.count_n(op, m);
            }
            self.stats.loads += step.loads[i];
            self.stats.stores += step.stores[i];
            // The core's last issue, in cycle T − 1, was its warp at position (T − 1) mod k.
            if (t - 1) % s.k == s.pos {
                self.cores[s.c].next = s.w + 1;
            }
        }
        self.accel_mem = Some(step);
        self.accel_cap = (self.accel_cap * 2).min(MULTI_CYCLES);
        self.accel_hold = false;
        self.cycle += t;
        self.accel_cycles += t;
        t
    }

    /// Run every warp's share of `t` cycles, lowering `t` while a warp stops short and running
    /// again the warps that went beyond their share of it: the `t` at which every warp ran
    /// exactly its share, or 0 (give up: the caller takes back what ran) when it falls below
    /// `short` or after [`MULTI_ROUNDS`] rounds.
    fn run_shares(
        &mut self,
        shares: &mut [Share],
        step: &mut StepMem,
        mut t: u64,
        short: u64,
    ) -> u64 {
        let lanes = self.cfg.lanes;
        let reservations = !self.reservations.is_empty();
        let mut rounds = 0;
        loop {
            let mut settled = true;
            rounds += 1;
            for (i, s) in shares.iter_mut().enumerate() {
                let target = s.share(t);
                if s.ran == Some(target) {
                    continue;
                }
                settled = false;
                let warp = &mut self.cores[s.c].warps[s.w];
                match &s.snap {
                    Some(snap) => {
                        // The other warps read and wrote none of the words it wrote: its
                        // stores can be taken back alone.
                        step.undo(i, &mut self.mem);
                        snap.restore(warp);
                    }
                    None => s.snap = Some(Snapshot::of(warp, lanes)),
                }
                s.counts.clear();
                if target == 0 {
                    s.ran = Some(0);
                    continue;
                }
                // The engine runs what it has blocks for; the interpreter issues what it has
                // none for (a pc no block starts at, the rest of a share smaller than the next
                // block) while the instructions cannot trap or branch apart, and word accesses
                // through the same port.
                let mut n = 0;
                while n < target {
                    let Some(engine) = self.engine.as_mut() else {
                        break;
                    };
                    let mut run = PrivateRun {
                        warp: &mut self.cores[s.c].warps[s.w],
                        lanes,
                        budget: target - n,
                        warming: false,
                        skip: 0,
                        code: &mut self.code,
                        mem: &mut self.mem,
                        stats: &mut self.stats,
                        reservations,
                        deferred: Some(&mut s.counts),
                        step: Some((&mut *step, i)),
                    };
                    n += engine.run(&mut run).min(target - n);
                    // Then the interpreter, up to and including the next branch or jump, or up
                    // to a translated block (the engine is offered block starts, not every pc
                    // of a straight run it has no block for: offers make blocks hot).
                    let mut stuck = false;
                    while n < target {
                        // Code outside the decoded range is fetched from memory, which another
                        // warp may store into: such a fetch is no part of a step.
                        if !self.code.covers(self.cores[s.c].warps[s.w].pc) {
                            stuck = true;
                            break;
                        }
                        let op = match self.execute_private(s.c, s.w) {
                            Some(op) => Some(op),
                            None => self.execute_memory(s.c, s.w, step, i),
                        };
                        let Some(op) = op else {
                            stuck = true;
                            break;
                        };
                        s.counts.push((op, 1));
                        n += 1;
                        let warp = &self.cores[s.c].warps[s.w];
                        if matches!(
                            op,
                            Op::Beq | Op::Bne | Op::Blt | Op::Bge | Op::Bltu | Op::Bgeu | Op::Jal
                        ) || self
                            .engine
                            .as_ref()
                            .is_some_and(|e| e.has_block(warp.pc, lanes, warp.mask))
                        {
                            break;
                        }
                    }
                    if stuck {
                        break;
                    }
                }
                if n < target {
                    t = t.min(s.k * n + s.pos);
                }
                s.ran = Some(n);
                if t < short {
                    return 0;
                }
            }
            if settled {
                return t;
            }
            // T falls in every round that does not settle; a few rounds usually do. A short
            // step (the warps soon reach other boundaries) would not pay for its snapshots
            // and runs: give up.
            if rounds > MULTI_ROUNDS {
                return 0;
            }
        }
    }

    /// A word load or store (`is_block_memory`) of warp `w` of core `c` through the memory
    /// port of a super-step over several warps, for a pc no block covers: `Some(op)` if it
    /// ran, `None` (nothing changed) if the port refused it or it is not one.
    fn execute_memory(&mut self, c: usize, w: usize, step: &mut StepMem, who: usize) -> Option<Op> {
        use crate::trap::mstatus::FS;
        let warp = &mut self.cores[c].warps[w];
        let pc = warp.pc;
        let i = self.code.fetch(&self.mem, pc).ok()?.inst;
        if !is_block_memory(&i) || at_point(warp) {
            return None;
        }
        let fp = matches!(i.op, Op::Flw | Op::Fsw);
        if fp && warp.csr.mstatus & FS != FS {
            return None;
        }
        let mut addrs = [0u32; 32];
        for l in crate::lane::lanes(warp.mask) {
            addrs[l] = warp.x[i.rs1 as usize][l].wrapping_add(i.imm as u32);
        }
        let mut port = MemPort {
            mem: &mut self.mem,
            code: self.code.span(),
            stats: &mut self.stats,
            reservations: !self.reservations.is_empty(),
            mask: warp.mask,
            step: Some((step, who)),
        };
        let (rd, rs2) = (i.rd as usize, i.rs2 as usize);
        match i.op {
            Op::Lw | Op::Flw => {
                let mut out = [0u32; 32];
                if !port.load_words(&addrs, &mut out) {
                    return None;
                }
                let mask = warp.mask;
                let r = if fp {
                    Some(&mut warp.f[rd])
                } else {
                    (rd != 0).then_some(&mut warp.x[rd])
                };
                if let Some(r) = r {
                    for l in crate::lane::lanes(mask) {
                        r[l] = out[l];
                    }
                }
            }
            _ => {
                let mut vals = [0u32; 32];
                let src = if fp { &warp.f[rs2] } else { &warp.x[rs2] };
                vals.copy_from_slice(&src[..]);
                if !port.store_words(&addrs, &vals) {
                    return None;
                }
            }
        }
        warp.pc = pc.wrapping_add(i.len());
        Some(i.op)
    }
}

// Super-steps under a scheduling quantum (docs/engine.md § The scheduling quantum). With
// `quantum` = q > 1 a core issues from the warp that issued last until it has issued q in a
// row or cannot issue, then moves on round-robin (`Machine::pick`). While a warp holds its
// core's quantum, the core's other warps issue nothing, so a super-step may run the holder of
// each core for what is left of its quantum: alone when one core has running warps (the
// block engine's fastest path, with its direct memory accesses), else one warp per core
// through the super-step over several warps (above), whose rotation of one warp per core
// issues it every cycle. The cycles, statistics and the quantum left are booked exactly as
// the interpreter's picks would have.
impl Machine {
    /// The warp core `c` issues next and how many issues in a row its quantum still gives it
    /// (what `pick` would do, without doing it); `None` if no warp of the core can issue.
    fn quantum_holder(&self, c: usize) -> Option<(usize, u64)> {
        let core = &self.cores[c];
        if core.quantum_left > 0 && core.warps[core.next - 1].is_running() {
            return Some((core.next - 1, core.quantum_left));
        }
        let n = core.warps.len();
        (0..n)
            .map(|i| (core.next + i) % n)
            .find(|&w| core.warps[w].is_running())
            .map(|w| (w, self.cfg.quantum))
    }

    /// A super-step of the warps holding their cores' quanta (see the comment above), or 0
    /// (the interpreter's cycle), or `u64::MAX` (none, no back-off), as `try_super_step`.
    fn quantum_super_step(&mut self, bound: u64) -> u64 {
        if self.kmu_busy() {
            return 0;
        }
        let mut holders = Vec::new();
        for c in 0..self.cores.len() {
            if let Some((w, left)) = self.quantum_holder(c) {
                if !quiet(&self.cores[c].warps[w]) {
                    return 0;
                }
                holders.push((c, w, left));
            }
        }
        let n = match holders[..] {
            [] => return 0,
            [(c, w, left)] => self.single_super_step(c, w, bound, left),
            _ => {
                self.accel_multi = true;
                let (mut skip, mut attempt) = (u64::MAX, false);
                for &(c, w, _) in &holders {
                    match self.offer(c, w) {
                        Offer::Attempt => attempt = true,
                        Offer::Counted(n) => skip = skip.min(n),
                    }
                }
                let limit = holders.iter().map(|h| h.2).min().unwrap_or(0);
                if !attempt {
                    self.accel_retry = self.cycle + skip.min(limit);
                    return u64::MAX;
                }
                let list = holders.iter().map(|&(c, w, _)| (c, w)).collect();
                self.multi_super_step(bound, list, limit)
            }
        };
        if n != 0 && n != u64::MAX {
            // Every holder issued in each of the n cycles (one warp per core).
            for &(c, w, left) in &holders {
                let core = &mut self.cores[c];
                core.next = w + 1;
                core.quantum_left = left - n;
            }
        }
        n
    }
}

/// Most cycles a super-step over several warps covers: a warp that ran beyond its share of
/// a lower T runs again from its snapshot, so long steps would waste more.
pub(crate) const MULTI_CYCLES: u64 = 1 << 16;

/// Instructions a warp must have ahead of it, none a memory access, for an attempt over
/// several warps.
const MULTI_AHEAD: usize = 16;

/// Cycles per warp below which a super-step over several warps is not worth its cost.
const MULTI_SHORT: u64 = 64;

/// Rounds of re-running before a super-step over several warps gives up.
const MULTI_ROUNDS: u32 = 8;

/// Most warps a super-step over several warps takes (snapshots cost 8 KiB a warp).
const MULTI_WARPS: usize = 64;

// The memory records of a step number its warps in a byte.
const _: () = assert!(MULTI_WARPS <= crate::step_mem::MAX_WARPS);

/// May a super-step run this warp: has it nothing to check before issue but reconvergence
/// (no breakpoint or watchdog)? A diverged warp may run in one up to the first pc where it
/// could reconverge ([`crate::engine::PrivateRun::stops`], [`at_point`]).
fn quiet(warp: &Warp) -> bool {
    warp.csr.break_pc == 0 && warp.csr.watchdog & watchdog::MODE == 0
}

/// Is warp `warp` diverged and at a pc where its running group reconverges before it issues
/// (where only the interpreter may go on)?
pub(crate) fn at_point(warp: &Warp) -> bool {
    !warp.stack.is_empty() && warp.stack.point_at(warp.pc, &warp.calls).is_some()
}

/// The running warps of a machine where a super-step may happen.
enum Running {
    One(usize, usize),
    Many,
}

/// One warp's part in a super-step over several warps.
struct Share {
    c: usize,
    w: usize,
    /// Running warps on its core, and its position in their rotation.
    k: u64,
    pos: u64,
    /// Instructions it ran (from its snapshot), if it ran.
    ran: Option<u64>,
    snap: Option<Snapshot>,
    counts: Vec<(Op, u64)>,
}

impl Share {
    /// Instructions it issues in `t` cycles.
    fn share(&self, t: u64) -> u64 {
        if t <= self.pos {
            0
        } else {
            (t - self.pos).div_ceil(self.k)
        }
    }
}

/// What a block, or an instruction `Machine::execute_private` runs, can change in a warp:
/// registers, pc and float flags (the mask, CSRs and the divergence state never change).
/// Only the machine's lanes are kept (a warp's registers are 32 lanes wide).
struct Snapshot {
    pc: u32,
    lanes: usize,
    /// `x[r][..lanes]` for every r, then `f[r][..lanes]`.
    regs: Vec<u32>,
    fflags: [u8; crate::config::MAX_LANES],
    /// The call stack (block engines run calls and returns).
    calls: crate::divergence::CallStack,
}

impl Snapshot {
    fn of(w: &Warp, lanes: usize) -> Snapshot {
        let mut regs = Vec::with_capacity(64 * lanes);
        for r in w.x.iter().chain(w.f.iter()) {
            regs.extend_from_slice(&r[..lanes]);
        }
        Snapshot {
            pc: w.pc,
            lanes,
            regs,
            fflags: w.fflags,
            calls: w.calls.clone(),
        }
    }

    fn restore(&self, w: &mut Warp) {
        w.pc = self.pc;
        for (r, saved) in
            w.x.iter_mut()
                .chain(w.f.iter_mut())
                .zip(self.regs.chunks_exact(self.lanes))
        {
            r[..self.lanes].copy_from_slice(saved);
        }
        w.fflags = self.fflags;
        w.calls.clone_from(&self.calls);
    }
}

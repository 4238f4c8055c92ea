//! The hook for a faster functional engine (docs/engine.md): a [`BlockEngine`] (the
//! Cranelift translator of `weft-jit`) runs runs of *warp-private* instructions — integer ALU
//! and M-extension ops, `lui`/`auipc`, uniform conditional branches and plain `jal x0` —
//! many at a time, and this module decides when that is indistinguishable from the
//! interpreter's one warp-instruction per core per cycle, and books the cycles and statistics
//! exactly as single steps would.
//!
//! Word loads and stores (`lw`/`sw`, and `flw`/`fsw` while the float state is Dirty) may run
//! in blocks too, through [`MemPort`], which takes exactly the interpreter's direct path or
//! refuses; and float operations ([`is_block_float`]) under guards the engine checks on every
//! active lane, exiting before the instruction when one fails.
//!
//! The rule (a *super-step*): exactly one warp runs in the whole machine, with no divergence
//! entries open, no breakpoint and no watchdog armed; the KMU is idle; no observer is
//! attached. Then each cycle issues one instruction of that warp, so `n` private instructions
//! are `n` cycles, bounded so that the run stays before the next I/O event and the cycle
//! bound. Everything else — memory, CSRs, divergent branches, SIMT instructions, faults — is
//! left to the interpreter, which is the one source of truth for it.

use crate::code::CodeCache;
use crate::machine::Machine;
use crate::stats::Stats;
use crate::warp::{watchdog, Warp};
use weft_isa::{Inst, Op};
use weft_mem::Memory;

/// A faster engine for warp-private instruction runs.
pub trait BlockEngine {
    /// Its name (`jit`).
    fn name(&self) -> &'static str;

    /// Run instructions of `run.warp` from its pc, at most `run.budget()` of them, only ones
    /// for which [`is_private`] holds, and for conditional branches only when every active
    /// lane agrees. Leaves the warp's pc at the first instruction not run, counts each
    /// instruction run with [`PrivateRun::count`], and returns how many it ran (0 if it
    /// cannot run the first). The warp's mask never changes.
    fn run(&mut self, run: &mut PrivateRun<'_>) -> u64;
}

/// Can a block engine run `i` (given, for a conditional branch, that the active lanes agree)?
/// The one list of warp-private instructions: they change only the warp's own registers and
/// pc, cannot fault, and nothing else can observe when they run.
pub fn is_private(i: &Inst) -> bool {
    use Op::*;
    match i.op {
        Lui | Auipc | Addi | Slti | Sltiu | Xori | Ori | Andi | Slli | Srli | Srai | Add | Sub
        | Sll | Slt | Sltu | Xor | Srl | Sra | Or | And | Mul | Mulh | Mulhu | Mulhsu | Div
        | Divu | Rem | Remu => true,
        // A branch to an odd target faults when taken; a linking jal enters an activation.
        Beq | Bne | Blt | Bge | Bltu | Bgeu => i.imm & 1 == 0,
        Jal => i.rd == 0 && i.imm & 1 == 0,
        _ => false,
    }
}

/// Can a block engine run `i` as a memory access of the warp (a super-step runs one warp
/// alone, so nothing else can see when it happens)? Only through [`MemPort`], which does
/// the access when every active lane takes the interpreter's direct path and refuses
/// otherwise: `lw` and `sw`, and `flw` and `fsw` while the float state is Dirty
/// ([`PrivateRun::float_dirty`]).
pub fn is_block_memory(i: &Inst) -> bool {
    matches!(i.op, Op::Lw | Op::Sw | Op::Flw | Op::Fsw)
}

/// Can a block engine run the float instruction `i` — under guards it checks on every active
/// lane before the instruction, exiting before it when one fails (docs/engine.md): the float
/// state is Dirty ([`PrivateRun::float_dirty`]); a rounding operation uses round-to-nearest-
/// even (static, or dynamic with every active lane's `frm` = 0); no input is a NaN; and the
/// flags the instruction could raise on a lane are already set in that lane's `fflags`.
/// Under them the host's IEEE result is the interpreter's and `fflags` does not change.
pub fn is_block_float(i: &Inst) -> bool {
    use Op::*;
    match i.op {
        FaddS | FsubS | FmulS | FdivS | FsqrtS | FmaddS | FmsubS | FnmsubS | FnmaddS | FcvtSW
        | FcvtSWu => matches!(i.rm, 0 | 7),
        // 0 RNE, 1 RTZ, 2 RDN, 3 RUP: each a host rounding to an integral value.
        FcvtWS | FcvtWuS => matches!(i.rm, 0..=3 | 7),
        FsgnjS | FsgnjnS | FsgnjxS | FminS | FmaxS | FeqS | FltS | FleS | FmvXW | FmvWX => true,
        _ => false,
    }
}

/// The memory side of a [`PrivateRun`]: word loads and stores of the warp's active lanes,
/// done only when every lane takes the direct path the interpreter would take (an aligned
/// word of plain DRAM; for stores also outside decoded code, not the HTIF words, with no LR
/// reservation open), counted as the interpreter counts them. Anything else is refused
/// before any lane is touched, and the interpreter executes the instruction.
pub struct MemPort<'a> {
    mem: &'a mut Memory,
    code: &'a CodeCache,
    stats: &'a mut Stats,
    reservations: bool,
    mask: u32,
}

impl MemPort<'_> {
    /// `lw`: each active lane reads the word at `addrs[l]` into `out[l]`. False (nothing
    /// read) if some lane needs the interpreter.
    pub fn load_words(&mut self, addrs: &[u32; 32], out: &mut [u32; 32]) -> bool {
        let m = self.mask;
        if let Some(n) = consecutive(m, addrs) {
            if self.mem.load_words_fast(addrs[0], &mut out[..n]) {
                self.stats.loads += n as u64;
                return true;
            }
        }
        for l in crate::lane::lanes(m) {
            match self.mem.load_word_fast(addrs[l]) {
                Some(v) => out[l] = v,
                None => return false,
            }
        }
        self.stats.loads += m.count_ones() as u64;
        true
    }

    /// `sw`: each active lane writes `vals[l]` to `addrs[l]`. False (nothing written) if some
    /// lane needs the interpreter.
    pub fn store_words(&mut self, addrs: &[u32; 32], vals: &[u32; 32]) -> bool {
        let m = self.mask;
        if self.reservations {
            return false;
        }
        if let Some(n) = consecutive(m, addrs) {
            let outside = !self
                .code
                .overlaps(weft_mem::Span::new(addrs[0], 4 * n as u32));
            if outside && self.mem.store_words_fast(addrs[0], &vals[..n]) {
                self.stats.stores += n as u64;
                return true;
            }
        }
        let direct = !self.reservations
            && crate::lane::lanes(m)
                .all(|l| self.mem.store_word_is_fast(addrs[l]) && !self.code.covers(addrs[l]));
        if !direct {
            return false;
        }
        for l in crate::lane::lanes(m) {
            self.mem.store_word_fast(addrs[l], vals[l]);
        }
        self.stats.stores += m.count_ones() as u64;
        true
    }
}

/// If the active lanes are lanes 0 … n − 1 and lane `l` addresses `addrs[0] + 4·l` (the
/// common case: each lane its own word of an array), `Some(n)`.
fn consecutive(mask: u32, addrs: &[u32; 32]) -> Option<usize> {
    let n = mask.trailing_ones() as usize;
    if n == 0 || (n < 32 && mask >> n != 0) {
        return None;
    }
    let a = addrs[0];
    (1..n)
        .all(|l| addrs[l] == a.wrapping_add(4 * l as u32))
        .then_some(n)
}

/// What a block engine may touch while it runs one warp.
pub struct PrivateRun<'a> {
    /// The warp (registers, pc, mask).
    pub warp: &'a mut Warp,
    /// Lanes per warp.
    pub lanes: usize,
    budget: u64,
    /// The engine will have a block here soon: ask again without waiting.
    warming: bool,
    code: &'a mut CodeCache,
    mem: &'a mut Memory,
    stats: &'a mut Stats,
    reservations: bool,
}

impl PrivateRun<'_> {
    /// At most this many instructions may run.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// The decoded instruction at `pc`, if it decodes.
    pub fn fetch(&mut self, pc: u32) -> Option<Inst> {
        self.code.fetch(self.mem, pc).ok().map(|s| s.inst)
    }

    /// Changes whenever decoded code may have changed (a store into code, a module loaded):
    /// translations made under another generation are stale.
    pub fn code_generation(&self) -> u64 {
        self.code.generation()
    }

    /// Say that no block of this engine starts at `pc` (the machine stops offering it, until
    /// the code there changes).
    pub fn refuse(&mut self, pc: u32) {
        self.code.set_no_block(pc);
    }

    /// The warp and the memory port, to run a block that accesses memory.
    pub fn parts(&mut self) -> (&mut Warp, MemPort<'_>) {
        let mask = self.warp.mask;
        (
            self.warp,
            MemPort {
                mem: self.mem,
                code: self.code,
                stats: self.stats,
                reservations: self.reservations,
                mask,
            },
        )
    }

    /// Is the float state Dirty (`mstatus.FS` = 3)? Then a float instruction changes no
    /// `mstatus` bit (the interpreter sets Dirty on every one, and faults while it is Off).
    pub fn float_dirty(&self) -> bool {
        use crate::trap::mstatus::FS;
        self.warp.csr.mstatus & FS == FS
    }

    /// Say that a block may start here once the code is hot (the machine offers it again at
    /// once instead of spacing out its attempts).
    pub fn warming(&mut self) {
        self.warming = true;
    }

    /// Count `n` executions of `op` in the statistics.
    pub fn count(&mut self, op: Op, n: u64) {
        self.stats.count_n(op, n);
    }
}

/// Failed attempts in a row after which the wait between attempts stops growing (2^8 − 1
/// cycles).
const BACKOFF_STEPS: u32 = 8;

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
        if n == u64::MAX {
            return 0;
        }
        if n == 0 {
            self.accel_misses = (self.accel_misses + 1).min(BACKOFF_STEPS);
            self.accel_retry = self.cycle + (1 << self.accel_misses) - 1;
        } else {
            self.accel_misses = 0;
        }
        n
    }

    #[inline(never)]
    fn try_super_step(&mut self, bound: u64) -> u64 {
        if self.engine.is_none() || !self.observers.is_empty() {
            return 0;
        }
        let Some((c, w)) = self.sole_private_warp() else {
            return 0;
        };
        // The common refusal first, at the cost of a decoded-cache lookup.
        let pc = self.cores[c].warps[w].pc;
        match self.code.fetch(&self.mem, pc) {
            Ok(s)
                if (is_private(&s.inst) || is_block_memory(&s.inst) || is_block_float(&s.inst))
                    && !s.no_block => {}
            _ => return 0,
        }
        let now = self.cycle;
        let io = if self.io.next_event > now {
            self.io.next_event - now
        } else {
            1
        };
        let budget = bound.saturating_sub(now).min(io);
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
            code: &mut self.code,
            mem: &mut self.mem,
            stats: &mut self.stats,
            reservations: !self.reservations.is_empty(),
        };
        let n = engine.run(&mut run).min(budget);
        if n == 0 {
            // u64::MAX: no cycle covered, and no back-off either.
            return if run.warming { u64::MAX } else { 0 };
        }
        let warp = &mut self.cores[c].warps[w];
        warp.stats.warp_instructions += n;
        warp.stats.thread_instructions += n * warp.mask.count_ones() as u64;
        self.cores[c].next = w + 1;
        self.cycle += n;
        self.accel_cycles += n;
        n
    }

    /// The one running warp of the machine, if exactly one runs, the KMU is idle and the
    /// warp has nothing to check before issue (no divergence entry, breakpoint or watchdog).
    fn sole_private_warp(&self) -> Option<(usize, usize)> {
        if self.kmu_busy() {
            return None;
        }
        let mut found = None;
        for (c, core) in self.cores.iter().enumerate() {
            for (w, warp) in core.warps.iter().enumerate() {
                if warp.is_running() {
                    if found.is_some() {
                        return None;
                    }
                    found = Some((c, w));
                }
            }
        }
        let (c, w) = found?;
        let warp = &self.cores[c].warps[w];
        let quiet = warp.stack.is_empty()
            && warp.csr.break_pc == 0
            && warp.csr.watchdog & watchdog::MODE == 0;
        quiet.then_some((c, w))
    }
}

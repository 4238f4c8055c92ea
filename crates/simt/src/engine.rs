//! The interface of a faster functional engine (docs/engine.md): the [`BlockEngine`] trait a
//! block engine (the Cranelift translator of `weft-jit`) implements, what it may touch while
//! it runs one warp ([`PrivateRun`], with its memory port [`MemPort`]), and the one list of
//! what it may run ([`is_private`], [`is_block_memory`], [`is_block_float`], where no lane
//! splits [`is_scalar_jump`], and on one active lane [`is_scalar_memory`] and
//! [`is_scalar_csr_read`]), and where a diverged warp must stop ([`Stops`]). When the machine
//! hands a warp to it is `accel.rs`'s business (super-steps).

use crate::code::CodeView;
pub use crate::code::LaneClass;
use crate::counters::Stats;
pub use crate::divergence::{call_effect, CallEffect, CallStack, Stops};
pub use crate::mem_port::MemPort;
use crate::step_mem::StepMem;
use crate::warp::Warp;
use weft_isa::{Class, Inst, Op};
use weft_mem::Memory;
/// Bytes of a page of [`MemPort::direct_page`].
pub use weft_mem::DRAM_PAGE_BYTES as DIRECT_PAGE_BYTES;

/// A faster engine for warp-private instruction runs.
pub trait BlockEngine {
    /// Its name (`jit`).
    fn name(&self) -> &'static str;

    /// Run instructions of `run.warp` from its pc, at most `run.budget()` of them, only ones
    /// for which [`is_private`] holds (or the accesses of [`is_block_memory`] and, with one
    /// active lane, [`is_scalar_memory`], through `run`'s memory port, and the float
    /// operations of [`is_block_float`] under their guards, the jumps of [`is_scalar_jump`]
    /// where every active lane goes to the same target, and, with one active lane, the
    /// reads of [`is_scalar_csr_read`] with [`PrivateRun::float_csrs`]' values), and for
    /// conditional branches only when every active lane agrees. Leaves the warp's pc at the
    /// first instruction not run, counts each instruction run with [`PrivateRun::count`], and
    /// returns how many it ran (0 if it cannot run the first). The warp's mask never changes.
    fn run(&mut self, run: &mut PrivateRun<'_>) -> u64;

    /// Does a translated block start at `pc` for a warp of `lanes` lanes with `mask` active?
    /// (A super-step over several warps, issuing instructions in the interpreter, hands the
    /// warp back to the engine there.)
    fn has_block(&self, _pc: u32, _lanes: usize, _mask: u32) -> bool {
        false
    }

    /// A cheap look before a super-step is attempted for a warp at `pc` of `lanes` lanes with
    /// `mask` active: the engine may count the offer itself and say it has nothing to run
    /// there yet ([`Offer::Counted`]), sparing the attempt (for several warps, snapshots and
    /// records) that would only count it.
    fn offer(&mut self, _pc: u32, _lanes: usize, _mask: u32) -> Offer {
        Offer::Attempt
    }

    /// What the engine has done so far (all zero for one that does not translate).
    fn counts(&self) -> EngineCounts {
        EngineCounts::default()
    }
}

/// A block engine's own counts ([`BlockEngine::counts`]), which depend only on the program
/// and configuration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineCounts {
    /// Regions translated.
    pub translated: u64,
    /// Translations dropped because their calls ran too little (`weft-jit`'s probation).
    pub dropped: u64,
    /// Translations that failed to compile (run on the interpreter instead).
    pub failed: u64,
    /// Word loads and stores (warp-instructions) the engine did on its own direct path
    /// ([`MemPort::direct_page`]) rather than through the port.
    pub direct: u64,
    /// Warp-instructions run in scalar translations (a warp with exactly one active lane:
    /// the region specialised to that lane; docs/engine.md). A super-step over several
    /// warps that is taken back counts what it ran too.
    pub scalar: u64,
}

/// What a block engine says of a warp at a pc ([`BlockEngine::offer`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// Attempt a super-step (the engine has a block there, or must look).
    Attempt,
    /// Nothing to run there yet: the offer was counted; ask again after this many cycles
    /// (the straight run from the pc, which the interpreter is about to issue).
    Counted(u64),
}

/// Can a block engine run `i` (given, for a conditional branch, that the active lanes agree)?
/// The one list of warp-private instructions: they change only the warp's own registers and
/// pc, cannot fault, and nothing else can observe when they run.
pub fn is_private(i: &Inst) -> bool {
    // The integer classes of the instruction table (their ops have fast handlers: fast.rs's
    // test holds it); a branch to an odd target faults when taken; a linking jal enters an
    // activation.
    match i.op.class() {
        Class::Alu | Class::Mul | Class::Div => true,
        Class::Branch => i.imm & 1 == 0,
        _ => i.op == Op::Jal && i.rd == 0 && i.imm & 1 == 0,
    }
}

/// Can a block engine run `i` as a memory access of the warp (a super-step runs one warp
/// alone, so nothing else can see when it happens; or several, whose accesses the port
/// records and keeps apart)? Only through [`MemPort`], which does the access when every
/// active lane takes the interpreter's direct path and refuses otherwise: `lw` and `sw`,
/// and `flw` and `fsw` while the float state is Dirty ([`PrivateRun::float_dirty`]).
pub fn is_block_memory(i: &Inst) -> bool {
    matches!(i.op, Op::Lw | Op::Sw | Op::Flw | Op::Fsw)
}

/// Can a block engine run `i` on a warp with exactly one active lane (a scalar translation)
/// — a byte or halfword load or store (`lb`, `lbu`, `lh`, `lhu`, `sb`, `sh`) — on a page
/// [`MemPort::direct_page`] gives (aligned; for a store a page with no decoded code, no HTIF
/// word and no LR reservation open, where the interpreter's store has no effect but the
/// write), exiting before it otherwise for the interpreter to execute it? Counted with
/// [`MemPort::count_direct`] as the interpreter counts it.
pub fn is_scalar_memory(i: &Inst) -> bool {
    matches!(i.op, Op::Lb | Op::Lbu | Op::Lh | Op::Lhu | Op::Sb | Op::Sh)
}

/// Can a block engine run `i` — a `jal` that links (a call) or a `jalr` (a call, a return or
/// another indirect jump; `c.jal`, `c.jalr` and `c.jr` among them) — where every active lane
/// goes to the same target (always, with one active lane), writing the link (`pc` + the
/// instruction's length) to `rd` and applying [`call_effect`] to the warp's call stack
/// ([`CallStack::apply`]), as the interpreter does? No lane splits then; a return that may
/// close a divergent region is one the engine must stop before ([`PrivateRun::stops`]); the
/// target (`jalr`'s `(rs1 + imm) & !1`) is never misaligned where the C extension is on.
pub fn is_scalar_jump(i: &Inst) -> bool {
    match i.op {
        Op::Jal => i.imm & 1 == 0,
        Op::Jalr => true,
        _ => false,
    }
}

/// The CSRs [`is_scalar_csr_read`] reads, in the order of [`PrivateRun::float_csrs`]'
/// values: `fflags`, `frm`, `fcsr`.
pub const SCALAR_CSRS: [u16; 3] = [
    weft_isa::csr::FFLAGS,
    weft_isa::csr::FRM,
    weft_isa::csr::FCSR,
];

/// Can a block engine run `i` on a warp with exactly one active lane — a read of `fflags`,
/// `frm` or `fcsr` that writes nothing (`frflags`, `frrm`, `frcsr`: `csrrs`/`csrrc` with
/// `rs1` = x0, `csrrsi`/`csrrci` with a zero immediate; soft-float routines read the rounding
/// mode so) — writing the value [`PrivateRun::float_csrs`] gives to `rd`, while the float
/// state is Dirty (then the read changes no `mstatus` bit; otherwise the engine exits before
/// it for the interpreter)? Nothing a block engine runs changes those CSRs: its float
/// operations run only where they raise no new flag.
pub fn is_scalar_csr_read(i: &Inst) -> bool {
    matches!(i.op, Op::Csrrs | Op::Csrrc | Op::Csrrsi | Op::Csrrci)
        && i.rs1 == 0
        && SCALAR_CSRS.contains(&(i.imm as u16))
}

/// Can a block engine run `i` on a warp with exactly one active lane — a `csrrs` or
/// `csrrsi` that sets bits of `fflags` (`csrs fflags, rs`, `csrsi fflags, 16`: soft-float
/// routines raise their exceptions so), reading the old value to `rd` — while the float state
/// is Dirty (the write then changes no `mstatus` bit; otherwise the engine exits before it)?
/// It only adds flags, so a float operation a block engine checked against the lane's flags
/// before it stays exact after it (its guards see the flags as they were: at worst the
/// engine exits where the interpreter would not have needed to). The engine keeps the new
/// flags where [`PrivateRun::float_csrs`] put them for reads and writes them to the warp.
pub fn is_scalar_csr_set(i: &Inst) -> bool {
    matches!(i.op, Op::Csrrs | Op::Csrrsi) && i.rs1 != 0 && i.imm as u16 == weft_isa::csr::FFLAGS
}

/// Is `i` a float CSR instruction a scalar translation runs ([`is_scalar_csr_read`],
/// [`is_scalar_csr_set`])?
pub fn is_scalar_csr(i: &Inst) -> bool {
    is_scalar_csr_read(i) || is_scalar_csr_set(i)
}

/// Can a block engine run the float instruction `i` — under guards it checks on every active
/// lane before the instruction, exiting before it when one fails (docs/engine.md): the float
/// state is Dirty ([`PrivateRun::float_dirty`]); a rounding operation uses round-to-nearest-
/// even (static, or dynamic with every active lane's `frm` = 0); no input is a NaN; and the
/// flags the instruction could raise on a lane are already set in that lane's `fflags` (NX
/// only where the result is not proven exact: weft-jit's `float.rs`).
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

/// What a block engine may touch while it runs one warp.
pub struct PrivateRun<'a> {
    /// The warp (registers, pc, mask).
    pub warp: &'a mut Warp,
    /// Lanes per warp.
    pub lanes: usize,
    pub(crate) budget: u64,
    /// The engine will have a block here soon: ask again without waiting (or after `skip`
    /// cycles, the straight run it starts).
    pub(crate) warming: bool,
    pub(crate) skip: u64,
    pub(crate) code: &'a mut dyn CodeView,
    pub(crate) mem: &'a mut Memory,
    pub(crate) stats: &'a mut Stats,
    pub(crate) reservations: bool,
    /// Operation counts held back (a super-step over several warps may undo a warp's run);
    /// `None`: counted at once.
    pub(crate) deferred: Option<&'a mut Vec<(Op, u64)>>,
    /// In a super-step over several warps: the step's memory records and this warp's index.
    pub(crate) step: Option<(&'a mut StepMem, usize)>,
}

impl PrivateRun<'_> {
    /// At most this many instructions may run.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// The decoded instruction at `pc`, if it decodes.
    pub fn fetch(&mut self, pc: u32) -> Option<Inst> {
        // Only decoded code: what lies outside is decoded afresh at each fetch (a store there
        // is no code invalidation), so no translation of it could be kept.
        let i = self.code.fetch_inst(self.mem, pc)?;
        (self.code.covers(pc) && self.code.covers(pc.wrapping_add(i.len() - 1))).then_some(i)
    }

    /// Changes whenever decoded code may have changed (a store into code, a module loaded):
    /// translations made under another generation are stale.
    pub fn code_generation(&self) -> u64 {
        self.code.generation()
    }

    /// Say that no block of this engine starts at `pc` for warps of this warp's lane class
    /// (the machine stops offering it to them, until the code there changes).
    pub fn refuse(&mut self, pc: u32) {
        let class = LaneClass::of(self.lanes, self.warp.mask);
        self.code.set_no_block(pc, class);
    }

    /// The warp and the memory port, to run a block that accesses memory.
    pub fn parts(&mut self) -> (&mut Warp, MemPort<'_>) {
        let mask = self.warp.mask;
        (
            self.warp,
            MemPort {
                mem: self.mem,
                code: self.code.span(),
                stats: self.stats,
                reservations: self.reservations,
                mask,
                step: self.step.as_mut().map(|(s, w)| (&mut **s, *w)),
            },
        )
    }

    /// May the engine's own direct memory path be used in this run (the warp runs alone, not
    /// in a super-step over several warps: [`MemPort::direct_page`] can give pages)? Then a
    /// translation made now is worth its direct path.
    pub fn direct_memory(&self) -> bool {
        self.step.is_none()
    }

    /// Where the run must stop if the warp is diverged (its divergence stack has open
    /// entries): before any pc of `points` (every entry's table point, where the interpreter
    /// reconverges a group before it issues), and, if `at_exit`, before any return (which
    /// may close an entry). `None` for a warp that is not diverged.
    pub fn stops(&self) -> Option<Stops> {
        (!self.warp.stack.is_empty()).then(|| self.warp.stack.stops())
    }

    /// What `fflags`, `frm` and `fcsr` ([`SCALAR_CSRS`]) read for the warp's lowest active
    /// lane ([`Warp::float_csr`], what `csr.rs` reads), if the float state is Dirty (a read
    /// changes nothing then); `None` otherwise.
    pub fn float_csrs(&self) -> Option<[u32; 3]> {
        let l = self.warp.mask.trailing_zeros() as usize % 32;
        self.float_dirty()
            .then(|| SCALAR_CSRS.map(|c| self.warp.float_csr(l, c)))
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

    /// Say that a block may start here once the code is hot, and that it is the start of a
    /// straight run of `n` instructions (none of which starts a block of its own): with one
    /// warp running, the machine offers the engine the pc after them, `n` cycles on, instead
    /// of every pc in between.
    pub fn warming_for(&mut self, n: u64) {
        self.warming = true;
        self.skip = n;
    }

    /// Count `n` executions of `op` in the statistics.
    pub fn count(&mut self, op: Op, n: u64) {
        match &mut self.deferred {
            Some(d) => d.push((op, n)),
            None => self.stats.count_n(op, n),
        }
    }
}

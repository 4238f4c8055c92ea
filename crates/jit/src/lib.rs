//! weft-jit: a block engine for weft's functional model (docs/engine.md). It translates
//! regions — loops and their arms — of warp-private instructions (`weft_simt::is_private`)
//! with Cranelift into host code that runs every lane of a warp at once on SIMD registers,
//! and plugs into a [`Machine`](weft_simt::Machine) as its [`BlockEngine`]: the machine
//! decides when a run of such instructions may go at once (a super-step,
//! `weft_simt::accel`), this crate only computes what the interpreter would, lane for lane.
//! A warp with exactly one active lane runs *scalar translations* (`Kind::Lane`: the region
//! specialised to one lane, the lane a parameter), others translations over every lane,
//! blending with the mask where some are off. Translations are kept per (pc, kind) and
//! dropped whenever the
//! decoded-instruction cache changes (self-modifying code, `fence.i`, modules loaded), or
//! one by one when their calls run too little (probation).

mod abi;
mod emit;
mod float;
mod helpers;
mod int;
mod memory;
mod plan;
mod shape;
mod translate;

use cranelift_codegen::settings::{self, Configurable};
use cranelift_jit::{JITBuilder, JITModule};
use std::collections::HashMap;
use std::mem::ManuallyDrop;
use translate::{
    exit_parts, Block, BlockFn, Kind, MemCtx, Plan, Term, ENV_DYN_RNE, ENV_FS_DIRTY, MAX_BLOCK,
    MAX_REGION, MAX_REGION_BLOCKS,
};

use weft_isa::Op;
use weft_simt::{
    is_block_float, is_block_memory, is_private, is_scalar_csr, is_scalar_jump, is_scalar_memory,
    BlockEngine, CallStack, EngineCounts, MemPort, Offer, PrivateRun, Stops,
};

use helpers::HELPERS;
pub use translate::is_branch;

/// Shortest block worth a call into translated code, unless it loops on itself: shorter
/// runs are left to the interpreter, which is as fast on them (measured: a 4-instruction
/// block between float loads in sgemm's inner loop was no faster translated).
const MIN_BLOCK: u64 = 8;

/// Calls into a translation entered at a pc before the engine judges whether it pays.
const PROBATION: u32 = 256;

/// Fewest instructions a call must run on average to keep its translation (a call and
/// return cost about what the interpreter spends on a few instructions).
const MIN_RUN: u64 = 4;

/// Translations made before the module is rebuilt (its code memory freed).
const MAX_TRANSLATIONS: usize = 8192;

/// A hasher for translation keys (a pc and a kind): one multiply, instead of SipHash on the
/// path taken at every block exit.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// Translation index key: the pc and the kind of translation.
fn key(pc: u32, kind: Kind) -> u64 {
    (pc as u64) << 2 | kind as u64
}

type Index = HashMap<u64, Entry, std::hash::BuildHasherDefault<KeyHasher>>;

/// A set of translation keys.
type KeySet = std::collections::HashSet<u64, std::hash::BuildHasherDefault<KeyHasher>>;

/// Offers of a block start before the engine looks at the region there (× the vectors per
/// register; 1: translate at once, the eager engine); how long it then waits is
/// [`wait_offers`].
const HOT: u32 = 64;

/// How many times more offers a region that does not loop needs (it saves less per
/// execution: each is a call into translated code and back).
const STRAIGHT: u32 = 4;

/// Offers of a region of `len` instructions (at `nvec` vectors per register in the
/// translation, `warp_vec` in the warp the interpreter runs, registers
/// `in_memory` or in SSA values: [`translate::registers_in_memory`]) before it is
/// translated: the classic break-even rule — translate once the interpreter has spent in it
/// about half of what translating it costs, so that code that then stops running cost at most
/// about 3× what the interpreter alone would have, and code that goes on running soon repays
/// its translation. The estimates were measured on the project's VM (docs/performance.md):
/// translation about 0.5 ms plus 40 µs per instruction with the registers in memory (whose
/// code does not grow with the vectors: lane-wise runs are loops over them), and
/// (40 + 25 × vectors) µs in SSA values, most of it register allocation; the interpreter
/// about (25 + 4 × vectors) ns per warp-instruction. About 2,500 offers for a 7-instruction
/// loop at 8 lanes, 1,000 at 32.
fn hot_offers(len: u32, nvec: usize, warp_vec: usize, in_memory: bool) -> u32 {
    let (len, v) = (u64::from(len.max(1)), nvec as u64);
    let per_inst = if in_memory {
        40_000
    } else {
        40_000 + 25_000 * v
    };
    let compile_ns = 500_000 + len * per_inst;
    let interp_ns = len * (25 + 4 * warp_vec as u64);
    (compile_ns / interp_ns / 2).clamp(u64::from(HOT), 1 << 20) as u32
}

/// What the index knows of a block start.
#[derive(Clone, Copy)]
enum Entry {
    /// Offered this many times, not translated yet; the straight-line instructions from here
    /// (offers wait until they have run: [`PrivateRun::warming_for`]).
    Cold(u32, u8),
    /// Offered this many times (the first number), waiting for as many offers as the
    /// second ([`wait_offers`]) before it is translated; the straight-line instructions from
    /// here.
    Wait(u32, u32, u8),
    /// Translated: the index into `blocks`, the block of that region starting here, and
    /// while on probation the calls entering here and the instructions they ran
    /// ([`Jit::on_probation`]).
    Block(usize, usize, u32, u32),
    /// No block starts here.
    Never,
}

/// One translated region.
struct Translated {
    func: BlockFn,
    /// Each block's instructions in a whole execution, and their operations.
    blocks: Vec<(u64, Vec<Op>)>,
    /// Each block's loads and stores (word, byte and halfword: those with a direct path)
    /// among its first `j` instructions, for `j` from 0 to its whole body ([`memory_prefix`]).
    mem: Vec<Vec<[u64; 2]>>,
    /// Each block's first and last pc, and whether it ends in a return.
    ranges: Vec<(u32, u32, bool)>,
    /// Executions of each block in the current engine run not yet added to the statistics
    /// (`Jit::book`): the code counts them itself, here, at every start of one (an
    /// incomplete one is taken back when the code returns).
    counts: Vec<u64>,
    /// It is among the engine's touched translations (it ran in this engine run).
    touched: bool,
}

impl Translated {
    /// The blocks (bit `k`: block `k`) a diverged warp that must stop at `stops` may not
    /// run: those with an instruction at a point, and those ending in a return while some
    /// entry closes at returns.
    fn stop_blocks(&self, stops: &Stops) -> u32 {
        let mut bits = 0;
        for (k, &(a, b, ret)) in self.ranges.iter().enumerate() {
            if (ret && stops.at_exit) || stops.points.iter().any(|p| (a..=b).contains(p)) {
                bits |= 1 << k;
            }
        }
        bits
    }
}

/// The Cranelift block engine.
pub struct Jit {
    /// Taken out only by `Drop` (its code memory is freed by hand).
    module: ManuallyDrop<JITModule>,
    cx: translate::Contexts,
    /// (pc, kind) → what is known of the block there.
    index: Index,
    blocks: Vec<Translated>,
    generation: u64,
    /// Regions translated, dropped after probation, and failed to compile (they run on the
    /// interpreter).
    counts: EngineCounts,
    /// Offers before a block is translated.
    hot: u32,
    /// Host features switched off (tests).
    features_off: Vec<&'static str>,
    /// The target without the e-graph pass, for large regions ([`plan::SMALL_REGION`]).
    quick: cranelift_codegen::isa::OwnedTargetIsa,
    /// Shortest block translated unless it loops on itself.
    min_block: u64,
    /// The translations a run has executions of not yet booked (`Jit::book`), kept to
    /// reuse its storage.
    touched: Vec<usize>,
    /// The keys of every pc (each halfword) inside translated blocks on loops, with the kind
    /// of translation they belong to ([`Plan::loop_ranges`]): a pc inside one, with no block
    /// of its own, is about to reach one. (A set, not the list of ranges: the engine asks at
    /// every offer it declines, and diverge.c's 79 regions made a scan of the list half of
    /// the engine's own time: `weft run` 4.2 s → 3.5 s.)
    loops: KeySet,
    /// The memory context of runs, kept between them (taken by each run).
    ctx: Option<Box<MemCtx>>,
}

/// A Cranelift target for this host with `features_off` switched off, optimising (`speed`:
/// the e-graph pass) or not (`none`).
fn host_isa(
    features_off: &[&'static str],
    opt_level: &str,
) -> Result<cranelift_codegen::isa::OwnedTargetIsa, String> {
    let mut flags = settings::builder();
    for (k, v) in [
        ("use_colocated_libcalls", "false"),
        ("is_pic", "false"),
        ("opt_level", opt_level),
        // The IR is checked by the tests (and the verifier costs a third of compile time).
        (
            "enable_verifier",
            if cfg!(debug_assertions) {
                "true"
            } else {
                "false"
            },
        ),
    ] {
        flags.set(k, v).map_err(|e| e.to_string())?;
    }
    let mut isa = cranelift_native::builder()
        .map_err(|e| format!("no Cranelift back end for this host: {e}"))?;
    for f in features_off {
        isa.set(f, "false").map_err(|e| format!("{f}: {e}"))?;
    }
    isa.finish(settings::Flags::new(flags))
        .map_err(|e| e.to_string())
}

fn new_module(features_off: &[&'static str]) -> Result<JITModule, String> {
    let isa = host_isa(features_off, "speed")?;
    let mut builder = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
    // Where the host lacks an instruction, Cranelift calls these by their C names (the JIT
    // does not find the C library's on its own): Rust's, each correctly rounded.
    builder.symbol("fmaf", host_fmaf as *const u8);
    builder.symbol("ceilf", host_ceilf as *const u8);
    builder.symbol("floorf", host_floorf as *const u8);
    builder.symbol("truncf", host_truncf as *const u8);
    builder.symbol("nearbyintf", host_nearbyintf as *const u8);
    Ok(JITModule::new(builder))
}

extern "C" fn host_fmaf(a: f32, b: f32, c: f32) -> f32 {
    a.mul_add(b, c)
}

extern "C" fn host_ceilf(a: f32) -> f32 {
    a.ceil()
}

extern "C" fn host_floorf(a: f32) -> f32 {
    a.floor()
}

extern "C" fn host_truncf(a: f32) -> f32 {
    a.trunc()
}

extern "C" fn host_nearbyintf(a: f32) -> f32 {
    a.round_ties_even()
}

impl Jit {
    /// A block engine for this host, or why there is none (no Cranelift back end).
    pub fn new() -> Result<Jit, String> {
        Jit::with_features_off(&[])
    }

    /// Like [`Jit::eager`], with host features the code may use switched off by their
    /// Cranelift names (`has_fma`, `has_avx` … on x86-64), for tests of the fallback paths:
    /// without `has_fma`, a fused multiply-add becomes four calls to the C library's
    /// correctly rounded `fmaf`.
    pub fn eager_with_features_off(features: &[&'static str]) -> Result<Jit, String> {
        let mut j = Jit::with_features_off(features)?;
        j.hot = 1;
        j.min_block = 1;
        Ok(j)
    }

    fn with_features_off(features: &[&'static str]) -> Result<Jit, String> {
        let module = new_module(features)?;
        let quick = host_isa(features, "none")?;
        Ok(Jit {
            features_off: features.to_vec(),
            quick,
            cx: translate::Contexts::default(),
            module: ManuallyDrop::new(module),
            index: Index::default(),
            blocks: Vec::new(),
            generation: u64::MAX,
            counts: EngineCounts::default(),
            hot: HOT,
            min_block: MIN_BLOCK,
            loops: KeySet::default(),
            touched: Vec::new(),
            ctx: None,
        })
    }

    /// A block engine that translates every block, however short, the first time it is
    /// offered (for tests and campaigns: the most code through the translator).
    pub fn eager() -> Result<Jit, String> {
        let mut j = Jit::new()?;
        j.hot = 1;
        j.min_block = 1;
        Ok(j)
    }

    /// Is a block engine available on this host?
    pub fn available() -> bool {
        cranelift_native::builder().is_ok()
    }

    /// Forget every translation (and free their code when there are many).
    fn flush(&mut self) {
        self.index.clear();
        self.loops.clear();
        if self.blocks.len() >= MAX_TRANSLATIONS {
            if let Ok(fresh) = new_module(&self.features_off) {
                self.blocks.clear();
                let old = std::mem::replace(&mut *self.module, fresh);
                // SAFETY: no function of the old module is referenced any more (the index
                // and the blocks that held them are gone).
                unsafe { old.free_memory() };
            }
        }
    }

    /// The basic block starting at `pc` (empty if its first instruction cannot run in one)
    /// for a translation of `kind` (only a scalar one runs byte and halfword accesses and
    /// float CSR reads; a scalar one and a full one end at calls and returns:
    /// [`Term::Call`]).
    fn block(run: &mut PrivateRun<'_>, pc: u32, room: usize, kind: Kind) -> Block {
        let jumps = kind != Kind::Masked;
        let mut body = Vec::new();
        let mut at = pc;
        let term = loop {
            if body.len() + 1 >= room.min(MAX_BLOCK) {
                break Term::Fall(at);
            }
            let Some(i) = run.fetch(at).filter(|i| {
                is_private(i)
                    || is_block_memory(i)
                    || is_block_float(i)
                    || (jumps && is_scalar_jump(i))
                    || (kind == Kind::Lane && (is_scalar_memory(i) || is_scalar_csr(i)))
            }) else {
                break Term::Fall(at);
            };
            if is_branch(i.op) {
                break Term::Branch(i, at);
            }
            if jumps && is_scalar_jump(&i) && !is_private(&i) {
                break Term::Call(i, at, jump_target(&body, &i, at));
            }
            if i.op == Op::Jal {
                break Term::Jump(at.wrapping_add(i.imm as u32));
            }
            body.push((at, i));
            at = at.wrapping_add(i.len());
        };
        Block {
            pc,
            body,
            term,
            callee: false,
        }
    }

    /// The region starting at `pc` — its basic block and those reached from it through
    /// jumps and branches, breadth first, up to [`MAX_REGION_BLOCKS`] blocks and
    /// [`MAX_REGION`] instructions; in a scalar translation first without entering callees
    /// (a call leads to its return site), then into them with the room left — or `None`
    /// if its first instruction is not private, or it is shorter than `min_block` and has
    /// neither a loop nor a call or return.
    fn plan(run: &mut PrivateRun<'_>, pc: u32, min_block: u64, kind: Kind) -> Option<Plan> {
        let first = Self::block(run, pc, MAX_BLOCK, kind);
        if first.len() == 0 {
            return None;
        }
        let mut plan = Plan {
            blocks: vec![first],
        };
        for into_callees in [false, true] {
            let mut next = 0;
            while next < plan.blocks.len() && plan.blocks.len() < MAX_REGION_BLOCKS {
                let from = &plan.blocks[next];
                // A call's target is the callee's code; what the caller's code reaches (its
                // return site among it) stays the caller's.
                let call = match from.term {
                    Term::Call(_, _, t) => t,
                    _ => None,
                };
                let callee = from.callee;
                for t in plan.successors(next) {
                    let room = MAX_REGION.saturating_sub(plan.len() as usize);
                    if plan.index_of(t).is_some()
                        || plan.blocks.len() >= MAX_REGION_BLOCKS
                        || room < 2
                        || (call == Some(t) && !into_callees)
                    {
                        continue;
                    }
                    let mut b = Self::block(run, t, room, kind);
                    b.callee = callee || call == Some(t);
                    if b.len() > 0 {
                        plan.blocks.push(b);
                    }
                }
                next += 1;
            }
        }
        plan.keep_loop_of_entry();
        // A call or return leaves the region for the next one without leaving the engine: a
        // short region ending in one is worth its call.
        let chains = plan.blocks.iter().any(|b| matches!(b.term, Term::Call(..)));
        (plan.len() >= min_block.max(1) || plan.loops() || chains).then_some(plan)
    }

    /// Add the executions of the blocks of translations `touched` to the statistics (each
    /// block's operations × its executions), and the loads and stores among them that the
    /// helpers did not do (`ctx`'s counts; `partial` more ran in incomplete executions) as
    /// the direct path's.
    fn book(
        &mut self,
        run: &mut PrivateRun<'_>,
        touched: &[usize],
        ctx: &MemCtx,
        partial: [u64; 2],
    ) {
        let mut mem = partial;
        for &k in touched {
            let t = &mut self.blocks[k];
            t.touched = false;
            for (b, (_, ops)) in t.blocks.iter().enumerate() {
                let n = std::mem::take(&mut t.counts[b]);
                if n > 0 {
                    for &op in ops {
                        run.count(op, n);
                    }
                    let [l, s] = t.mem[b].last().expect("the whole body's");
                    mem[0] += n * l;
                    mem[1] += n * s;
                }
            }
        }
        let direct = [mem[0] - ctx.helper_loads, mem[1] - ctx.helper_stores];
        if direct != [0, 0] {
            run.parts().1.count_direct(direct[0], direct[1]);
            self.counts.direct += direct[0] + direct[1];
        }
    }

    /// No block starts at `pc`: inside a translated loop, the warp reaches its start within a
    /// few instructions (ask again at once); elsewhere, never offer it again.
    fn decline(&self, run: &mut PrivateRun<'_>, pc: u32, kind: Kind) {
        if in_loop(&self.loops, kind, pc) {
            run.warming();
        } else {
            run.refuse(pc);
        }
    }

    /// Count a call of the translation entered at `pc` that ran `ran` instructions: after
    /// [`PROBATION`] calls, one that ran fewer than [`MIN_RUN`] instructions a call on
    /// average is dropped and the pc refused (until its code changes) — a loop head whose
    /// lanes disagree at once every time (a divergent `if` at the top of a loop) costs a
    /// call and a return each time for nothing.
    fn on_probation(&mut self, run: &mut PrivateRun<'_>, pc: u32, kind: Kind, ran: u64) {
        let Some(e) = self.index.get_mut(&key(pc, kind)) else {
            return;
        };
        let Entry::Block(_, _, calls, total) = e else {
            return;
        };
        if *calls >= PROBATION {
            return;
        }
        *calls += 1;
        *total = total.saturating_add(ran.min(u64::from(u32::MAX)) as u32);
        if *calls == PROBATION && u64::from(*total) < u64::from(PROBATION) * MIN_RUN {
            *e = Entry::Never;
            run.refuse(pc);
            self.counts.dropped += 1;
        }
    }

    /// Offers of a block start before the engine looks at the region there. Translation
    /// costs grow with the vectors per register, the interpreter's cost per warp-instruction
    /// much less (its lane loops are vectorised): wide warps wait for more offers (and then
    /// for the region's size and mask: `wait_offers`).
    fn offers_before_looking(&self, lanes: usize, kind: Kind) -> u32 {
        if self.hot <= 1 {
            1
        } else {
            self.hot * vectors(lanes, kind) as u32
        }
    }

    /// Translate the region at `pc` and index it there (or, if it cannot be translated,
    /// remember that and decline the offer).
    fn translate_here(&mut self, run: &mut PrivateRun<'_>, pc: u32, kind: Kind) -> Option<usize> {
        let k = self.translate(run, pc, kind);
        self.index.insert(
            key(pc, kind),
            k.map_or(Entry::Never, |k| Entry::Block(k, 0, 0, 0)),
        );
        if k.is_none() {
            self.decline(run, pc, kind);
        }
        k
    }

    fn translate(&mut self, run: &mut PrivateRun<'_>, pc: u32, kind: Kind) -> Option<usize> {
        let plan = Self::plan(run, pc, self.min_block, kind)?;
        for (first, last) in plan.loop_ranges() {
            self.loops
                .extend((first..=last).step_by(2).map(|pc| key(pc, kind)));
        }
        let nvec = vectors(run.lanes, kind);
        let quick = translate::is_large(&plan).then_some(&*self.quick);
        let r = translate::compile(
            &mut self.module,
            quick,
            &mut self.cx,
            &plan,
            nvec,
            kind,
            HELPERS,
            run.direct_memory(),
        );
        match r {
            Ok(func) => {
                self.counts.translated += 1;
                self.blocks.push(Translated {
                    func,
                    blocks: plan.blocks.iter().map(|b| (b.len(), b.ops())).collect(),
                    mem: plan.blocks.iter().map(|b| memory_prefix(&b.body)).collect(),
                    ranges: plan
                        .blocks
                        .iter()
                        .map(|b| {
                            let (first, last) = b.range();
                            (first, last, b.term.is_return())
                        })
                        .collect(),
                    counts: vec![0; plan.blocks.len()],
                    touched: false,
                });
                let k = self.blocks.len() - 1;
                // Every block start of the region enters it there (unless it has its own).
                for (j, b) in plan.blocks.iter().enumerate().skip(1) {
                    let e = self.index.entry(key(b.pc, kind)).or_insert(Entry::Never);
                    if !matches!(e, Entry::Block(..)) {
                        *e = Entry::Block(k, j, 0, 0);
                    }
                }
                Some(k)
            }
            Err(_) => {
                self.counts.failed += 1;
                None
            }
        }
    }
}

/// Offers a region waits for before it is translated: [`hot_offers`] for its size (an offer
/// at a loop's entry is about one pass through the loop), 3× as many if the translation
/// blends with a lane mask (measured 2–4× slower to compile: each result loads the old value
/// and selects, each branch condition looks at the mask), and [`STRAIGHT`] times as many if
/// it does not loop.
fn wait_offers(plan: &Plan, kind: Kind, lanes: usize) -> u32 {
    let mask = if kind == Kind::Masked { 3 } else { 1 };
    let straight = if plan.loops() { 1 } else { STRAIGHT };
    let nvec = vectors(lanes, kind);
    let in_memory = translate::registers_in_memory(plan, nvec);
    hot_offers(plan.len() as u32, nvec, lanes.div_ceil(4), in_memory)
        .saturating_mul(mask * straight)
}

/// Vectors per register in a translation of `kind` for a warp of `lanes` lanes (one in a
/// scalar translation).
fn vectors(lanes: usize, kind: Kind) -> usize {
    if kind == Kind::Lane {
        1
    } else {
        lanes.div_ceil(4)
    }
}

/// The target of the jump `i` at `at` ending a block with `body`, if it is known when
/// translating: a `jal`'s, or a `jalr`'s through the register the `auipc` just before it
/// set (`auipc ra, …; jalr ra, …(ra)`, how compilers call a function out of `jal`'s reach).
fn jump_target(body: &[(u32, weft_isa::Inst)], i: &weft_isa::Inst, at: u32) -> Option<u32> {
    match i.op {
        Op::Jal => Some(at.wrapping_add(i.imm as u32)),
        _ => match body.last() {
            Some(&(p, a)) if a.op == Op::Auipc && a.rd == i.rs1 && a.rd != 0 => {
                Some(p.wrapping_add(a.imm as u32).wrapping_add(i.imm as u32) & !1)
            }
            _ => None,
        },
    }
}

/// The loads and stores (those a translation does on its direct path or through a helper:
/// `weft_simt::is_block_memory`, `weft_simt::is_scalar_memory`; a store has no destination)
/// among the first `j` instructions of `body`, for each `j` from 0 to the whole body.
fn memory_prefix(body: &[(u32, weft_isa::Inst)]) -> Vec<[u64; 2]> {
    let mut n = [0u64; 2];
    let mut v = vec![n];
    for (_, i) in body {
        if is_block_memory(i) || is_scalar_memory(i) {
            n[usize::from(shape::operands(i).0.is_none())] += 1;
        }
        v.push(n);
    }
    v
}

/// Is `pc` inside one of the blocks on loops of translations of `kind`?
fn in_loop(loops: &KeySet, kind: Kind, pc: u32) -> bool {
    loops.contains(&key(pc, kind))
}

/// The float environment of a run (it cannot change inside blocks: their float operations
/// add no flag, and `frm` and `mstatus` change only in CSR instructions): each lane's
/// `fflags` (all flags for an inactive lane: its guards never matter; in a scalar
/// translation, whose lanes all stand for the one active lane, that lane's in every lane),
/// then whether the float state is Dirty and whether every active lane's `frm` is RNE.
fn float_env(run: &PrivateRun<'_>, kind: Kind) -> [u32; 33] {
    let mut env = [0x1fu32; 33];
    let w = &*run.warp;
    let mut rne = true;
    let one = w.mask.trailing_zeros() as usize;
    for (l, e) in env[..32].iter_mut().enumerate() {
        if kind == Kind::Lane {
            *e = w.fflags[one] as u32;
            rne = w.frm[one] == 0;
        } else if w.mask >> l & 1 != 0 {
            *e = w.fflags[l] as u32;
            rne &= w.frm[l] == 0;
        }
    }
    env[32] = if run.float_dirty() { ENV_FS_DIRTY } else { 0 } | if rne { ENV_DYN_RNE } else { 0 };
    env
}

impl Drop for Jit {
    fn drop(&mut self) {
        // SAFETY: the module is not used again; no translated function outlives the engine
        // (they are called only from `run`).
        unsafe { ManuallyDrop::take(&mut self.module).free_memory() };
    }
}

impl BlockEngine for Jit {
    fn name(&self) -> &'static str {
        "jit"
    }

    fn has_block(&self, pc: u32, lanes: usize, mask: u32) -> bool {
        let kind = Kind::of(lanes, mask);
        matches!(self.index.get(&key(pc, kind)), Some(Entry::Block(..)))
    }

    fn counts(&self) -> EngineCounts {
        self.counts
    }

    fn offer(&mut self, pc: u32, lanes: usize, mask: u32) -> Offer {
        let kind = Kind::of(lanes, mask);
        let hot = self.offers_before_looking(lanes, kind);
        // Counting a cold block start here is what `run` would do (without the generation
        // check: a rewrite of code only makes an offer count that should not have, and the
        // next `run` forgets every entry).
        match self.index.get_mut(&key(pc, kind)) {
            Some(Entry::Cold(n, len)) if *n + 1 < hot => {
                *n += 1;
                Offer::Counted(u64::from(*len))
            }
            Some(Entry::Wait(n, target, len)) if *n + 1 < *target => {
                *n += 1;
                Offer::Counted(u64::from(*len))
            }
            _ => Offer::Attempt,
        }
    }

    fn run(&mut self, run: &mut PrivateRun<'_>) -> u64 {
        if run.code_generation() != self.generation {
            self.flush();
            self.generation = run.code_generation();
        }
        let mask = run.warp.mask;
        let kind = Kind::of(run.lanes, mask);
        // Built when a translation first runs (most calls only count an offer).
        let mut lane_masks: Option<[u32; 32]> = None;
        let mut env: Option<[u32; 33]> = None;
        let min_block = self.min_block;
        let budget = run.budget();
        let mut done = 0u64;
        let hot = self.offers_before_looking(run.lanes, kind);
        // The memory context, kept between runs: the new tag leaves the run no page window
        // (the port decides anew) without clearing them.
        let mut ctx = self.ctx.take().unwrap_or_default();
        ctx.next_run();
        ctx.lane = mask.trailing_zeros() % 32;
        if let (Kind::Lane, Some(csrs)) = (kind, run.float_csrs()) {
            ctx.csrs = csrs;
            ctx.csrs_ok = 1;
        }
        // A diverged warp runs only translations clear of where it may reconverge.
        let stops = run.stops();
        // Translations with executions not yet booked (the engine's buffer, empty between
        // runs).
        let mut touched = std::mem::take(&mut self.touched);
        // Loads and stores of incomplete executions (`Jit::book`).
        let mut partial = [0u64; 2];
        loop {
            let pc = run.warp.pc;
            let entry = match self.index.entry(key(pc, kind)) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(v) => {
                    let straight = Self::block(run, pc, MAX_BLOCK, kind).len().clamp(1, 255);
                    v.insert(Entry::Cold(0, straight as u8))
                }
            };
            let (k, at) = match *entry {
                Entry::Block(k, at, ..) => (k, at),
                Entry::Never => {
                    self.decline(run, pc, kind);
                    break;
                }
                Entry::Cold(n, len) if n + 1 < hot => {
                    *entry = Entry::Cold(n + 1, len);
                    run.warming_for(len as u64);
                    break;
                }
                Entry::Wait(n, target, len) if n + 1 < target => {
                    *entry = Entry::Wait(n + 1, target, len);
                    run.warming_for(len as u64);
                    break;
                }
                Entry::Cold(..) | Entry::Wait(..) if hot > 1 && in_loop(&self.loops, kind, pc) => {
                    // Inside a translated loop but not at one of its block starts (an exit
                    // before an instruction the interpreter had to run): the warp reaches a
                    // block start within a few instructions; another region here would
                    // translate the same loop again.
                    self.index.insert(key(pc, kind), Entry::Never);
                    self.decline(run, pc, kind);
                    break;
                }
                Entry::Cold(n, len) if hot > 1 => {
                    // Hot enough to look at the region: no region (the decline is
                    // remembered), or one whose translation must pay for itself first.
                    let Some(plan) = Self::plan(run, pc, min_block, kind) else {
                        self.index.insert(key(pc, kind), Entry::Never);
                        self.decline(run, pc, kind);
                        break;
                    };
                    let target = wait_offers(&plan, kind, run.lanes);
                    if n + 1 < target {
                        self.index
                            .insert(key(pc, kind), Entry::Wait(n + 1, target, len));
                        run.warming_for(len as u64);
                        break;
                    }
                    match self.translate_here(run, pc, kind) {
                        Some(k) => (k, 0),
                        None => break,
                    }
                }
                Entry::Cold(..) | Entry::Wait(..) => match self.translate_here(run, pc, kind) {
                    Some(k) => (k, 0),
                    None => break,
                },
            };
            let t = &self.blocks[k];
            let left = budget - done;
            if left < t.blocks[at].0 {
                break;
            }
            ctx.stop_blocks = stops.as_ref().map_or(0, |s| t.stop_blocks(s));
            if ctx.stop_blocks >> at & 1 != 0 {
                break;
            }
            let t = &mut self.blocks[k];
            if !t.touched {
                t.touched = true;
                touched.push(k);
            }
            ctx.counts = t.counts.as_mut_ptr();
            let exit;
            let func = t.func;
            let env = *env.get_or_insert_with(|| float_env(run, kind));
            lane_masks.get_or_insert_with(|| {
                std::array::from_fn(|l| if mask >> l & 1 != 0 { u32::MAX } else { 0 })
            });
            {
                let (warp, mut port) = run.parts();
                ctx.calls = (&mut warp.calls as *mut CallStack).cast();
                ctx.base = port.dram_base();
                ctx.port = (&mut port as *mut MemPort<'_>).cast();
                ctx.x = warp.x.as_mut_ptr().cast::<u32>();
                ctx.f = warp.f.as_mut_ptr().cast::<u32>();
                // A scalar translation's registers are the lane's words.
                let lane = if kind == Kind::Lane {
                    ctx.lane as usize
                } else {
                    0
                };
                // SAFETY: the function reads and writes the 32 × 32 integer and float
                // register words of the warp (in a scalar translation, the lane's word of
                // each, from the lane's word of register 0: inside the files), reads 32 mask
                // words and 33 environment words, adds to the counters of the translation's
                // blocks (`ctx.counts`), writes a memory access's addresses and the budget
                // left to the context, hands `ctx` (with the port, the
                // register files and the warp's call stack, which the function does not
                // touch otherwise) to the helpers, and reads and writes words of the pages
                // in `ctx`'s windows, which the port allowed and which stay where they are
                // while the memory is borrowed by this run, as it was built to.
                exit = unsafe {
                    func(
                        ctx.x.add(lane),
                        ctx.f.add(lane),
                        lane_masks.as_ref().expect("built above").as_ptr(),
                        left as i64,
                        (&mut *ctx as *mut MemCtx).cast(),
                        env.as_ptr(),
                        at as i64,
                    )
                } as u64;
            }
            let t = &mut self.blocks[k];
            let (next, stop, part, extra) = exit_parts(exit);
            // What the executions begun took from the budget (whole blocks, booked per
            // operation at the end of the run, all executions at once) …
            let mut ran = (left as i64 - ctx.left) as u64;
            if part > 0 {
                // … but for an incomplete one, taken back: only `extra` of its
                // instructions ran, counted one by one.
                let (len, ops) = &t.blocks[part - 1];
                t.counts[part - 1] -= 1;
                ran = ran - len + extra as u64;
                for &op in &ops[..extra] {
                    run.count(op, 1);
                }
                let [l, s] = t.mem[part - 1][extra];
                partial[0] += l;
                partial[1] += s;
            }
            done += ran;
            if kind == Kind::Lane {
                self.counts.scalar += ran;
            }
            run.warp.pc = next;
            if self.hot > 1 {
                self.on_probation(run, pc, kind, ran);
            }
            if stop || ran == 0 {
                break;
            }
        }
        if kind == Kind::Lane && ctx.csrs_ok != 0 {
            // The flags a `csrs fflags` in the code set (`translate.rs`), to the warp (nothing
            // reads the warp's flags during the run: the float environment and the CSR words
            // were taken from it at the start).
            let fflags = translate::csr_slot(weft_isa::csr::FFLAGS) as usize;
            run.warp.fflags[ctx.lane as usize] = ctx.csrs[fflags] as u8;
        }
        self.book(run, &touched, &ctx, partial);
        touched.clear();
        self.touched = touched;
        self.ctx = Some(ctx);
        done
    }
}

//! Jump-table resolution: the targets of a `jalr x0, 0(rs1)` that is a compiled `switch`.
//!
//! A dense `switch` compiles (clang and gcc, every optimisation level, code not PIC) to
//!
//! ```text
//! bltu  K, idx, default      # bounds check (any of several shapes, often one block earlier)
//! slli  t, idx, 2
//! lui   b, %hi(TABLE)        # or auipc; then addi b, b, %lo(TABLE)
//! add   t, t, b
//! lw    t, 0(t)
//! jr    t
//! ```
//!
//! with `TABLE` in read-only data holding absolute case addresses — or, from gcc with
//! `-mcmodel=medany`, offsets `case − TABLE` that the code adds to `TABLE` after the `lw`. [`resolve`] recognises it by
//! symbolic evaluation, not by matching instruction sequences: it runs the instructions of
//! the jump's block, and of its *straight-line predecessors* (a block whose only entry is one
//! known edge from the block before it), over a small value domain — constants, opaque
//! values with an identity (plus an offset), a value shifted left, a table address
//! `base + (index << 2)`, a word loaded from such an address, and the flag of an
//! `sltiu`/`sltu` — and it forwards word stores to reloads of the same stack slot, so the
//! reloads of `-O0` code keep the index's identity. Conditional branches between the blocks
//! of the walk give the bounds check: the edge the walk follows tells whether `idx <u N` holds.
//!
//! The base (and a bounds-check constant) may also come from before the walk — a loop
//! invariant that the compiler hoisted into the prologue. Such a register is a constant only
//! if every definition that reaches the walk's first instruction computes the same constant
//! within its own block; [`live_in_constant`] checks this on the instruction-level graph.
//! Because that graph contains the resolved jumps' own edges, the check runs twice: once
//! optimistically to find candidates, then again on the graph with every candidate's edges
//! (a superset of the final graph), dropping the candidates whose assumptions fail.
//!
//! Calls are assumed to follow the calling convention (they clobber `ra`, `t0`–`t6`,
//! `a0`–`a7` and memory, and preserve the rest).

use weft_isa::table::Class;
use weft_isa::{Inst, Op};

/// The index of the instruction at `pc` among `pcs` (sorted), if one starts there.
pub(crate) fn index_in(pcs: &[u32], pc: u32) -> Option<usize> {
    pcs.binary_search(&pc).ok()
}

/// A range of initialised memory the analysis may read jump tables from.
#[derive(Clone, Copy, Debug)]
pub struct DataRegion<'a> {
    /// Address of the first byte.
    pub base: u32,
    /// The bytes.
    pub bytes: &'a [u8],
}

/// Readable memory: a list of regions (overlaps are allowed; the first match wins).
#[derive(Clone, Debug, Default)]
pub struct Memory<'a> {
    regions: Vec<DataRegion<'a>>,
    /// Every 4-aligned word value found at a 4-aligned address whose value is itself
    /// 2-aligned (a possible code address, with compressed code), sorted, without duplicates.
    addresses: Vec<u32>,
}

impl<'a> Memory<'a> {
    /// Memory made of `regions`.
    pub fn new(regions: Vec<DataRegion<'a>>) -> Memory<'a> {
        let mut m = Memory {
            regions,
            addresses: Vec::new(),
        };
        let mut a: Vec<u32> = m.aligned_words().filter(|w| w.is_multiple_of(2)).collect();
        a.sort_unstable();
        a.dedup();
        m.addresses = a;
        m
    }

    /// The aligned words stored in memory whose values lie in `lo..hi`, in increasing order:
    /// the addresses in that range that a jump table could send control to.
    pub fn addresses_in(&self, lo: u32, hi: u32) -> &[u32] {
        let a = self.addresses.partition_point(|&w| w < lo);
        let b = self.addresses.partition_point(|&w| w < hi);
        &self.addresses[a..b.max(a)]
    }

    /// The little-endian word at `addr`, if all four bytes are in one region.
    pub fn word(&self, addr: u32) -> Option<u32> {
        self.regions.iter().find_map(|r| {
            let off = usize::try_from(addr.checked_sub(r.base)?).ok()?;
            let b = r.bytes.get(off..off.checked_add(4)?)?;
            Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        })
    }

    /// Every word at a 4-aligned address of every region.
    fn aligned_words(&self) -> impl Iterator<Item = u32> + '_ {
        self.regions.iter().flat_map(|r| {
            let first = (r.base.wrapping_add(3) & !3).wrapping_sub(r.base) as usize;
            r.bytes
                .get(first.min(r.bytes.len())..)
                .unwrap_or(&[])
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        })
    }
}

/// A resolved jump table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JumpTable {
    /// The `jalr`'s pc.
    pub pc: u32,
    /// Address of the table's first word.
    pub table: u32,
    /// The entry count from a bounds check, when one was found (otherwise the table ended at
    /// the first word that is not an address in the function).
    pub bound: Option<u32>,
    /// For a table of offsets (gcc with `-mcmodel=medany` stores `case − table`): the address
    /// each word is added to. `None`: the words are absolute addresses.
    pub relative_to: Option<u32>,
    /// The case addresses the table's words give, in table order (duplicates for shared
    /// cases).
    pub entries: Vec<u32>,
}

impl JumpTable {
    /// The distinct targets, in increasing order.
    pub fn targets(&self) -> Vec<u32> {
        let mut t = self.entries.clone();
        t.sort_unstable();
        t.dedup();
        t
    }
}

/// Most entries read from a table without a bounds check, or allowed by one.
pub const MAX_ENTRIES: u32 = 1 << 16;

/// True for `jalr x0, …` that is not a return through `ra` or `t0`: a candidate jump table.
pub fn is_candidate(inst: &Inst) -> bool {
    inst.op == Op::Jalr && inst.rd == 0 && inst.rs1 != 1 && inst.rs1 != 5
}

/// True when `inst` may write integer register `r` (conservative: any `d` operand).
fn writes(inst: &Inst, r: u8) -> bool {
    r != 0 && inst.rd == r && inst.op.entry().args.contains('d')
}

const CALLER_SAVED: [u8; 15] = [1, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17, 28, 29, 30];

/// A base: a constant, or a register's value on entry to the walk plus an offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Base {
    Const(u32),
    Reg(u8, u32),
}

/// Symbolic values. `Sym(id, off)` is an unknown value plus `off`; ids `0..32` are the
/// registers on entry to the walk, higher ids fresh unknowns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Val {
    Const(u32),
    Sym(u32, u32),
    /// `(Sym(id, off)) << sh`.
    Scaled(u32, u32, u32),
    /// `base + (Sym(id, off) << 2)`.
    Addr(Base, u32, u32),
    /// The word at `base + (Sym(id, off) << 2)`.
    Entry(Base, u32, u32),
    /// The word at `base + (Sym(id, off) << 2)` plus `add` (a table of offsets).
    RelEntry(Base, u32, u32, Base),
    /// `Sym(id, off) <u k`.
    Flag(u32, u32, Base),
}

impl Val {
    fn base(self) -> Option<Base> {
        match self {
            Val::Const(c) => Some(Base::Const(c)),
            Val::Sym(id, off) if id < 32 => Some(Base::Reg(id as u8, off)),
            _ => None,
        }
    }
}

fn add_base(b: Base, k: u32) -> Base {
    match b {
        Base::Const(c) => Base::Const(c.wrapping_add(k)),
        Base::Reg(r, o) => Base::Reg(r, o.wrapping_add(k)),
    }
}

/// A condition known to hold on the walked path: `a <u b` (`lt`) or `a >=u b`, or a flag
/// compared with zero.
struct Fact {
    op: Op,
    a: Val,
    b: Val,
    taken: bool,
}

struct Eval {
    regs: [Val; 32],
    /// Stack slots: (base id, offset) → the word stored or first loaded there.
    slots: Vec<(u32, u32, Val)>,
    fresh: u32,
    facts: Vec<Fact>,
}

impl Eval {
    fn new() -> Eval {
        let mut regs = [Val::Const(0); 32];
        for (r, v) in regs.iter_mut().enumerate().skip(1) {
            *v = Val::Sym(r as u32, 0);
        }
        Eval {
            regs,
            slots: Vec::new(),
            fresh: 32,
            facts: Vec::new(),
        }
    }

    fn fresh(&mut self) -> Val {
        self.fresh += 1;
        Val::Sym(self.fresh, 0)
    }

    fn set(&mut self, r: u8, v: Val) {
        if r != 0 {
            self.regs[r as usize] = v;
        }
    }

    /// Forget stack slots a store to `addr` may touch (`None`: any slot).
    fn clobber(&mut self, addr: Option<(u32, u32)>) {
        match addr {
            None => self.slots.clear(),
            Some((id, off)) => self
                .slots
                .retain(|s| s.0 == id && (s.1.wrapping_sub(off) as i32).unsigned_abs() >= 4),
        }
    }

    fn step(&mut self, i: &Inst, pc: u32) {
        let (a, b) = (self.regs[i.rs1 as usize], self.regs[i.rs2 as usize]);
        let imm = i.imm as u32;
        let v = match i.op {
            Op::Lui => Val::Const(imm),
            Op::Auipc => Val::Const(pc.wrapping_add(imm)),
            Op::Addi => match a {
                Val::Const(c) => Val::Const(c.wrapping_add(imm)),
                Val::Sym(id, off) => Val::Sym(id, off.wrapping_add(imm)),
                Val::Addr(base, id, off) => Val::Addr(add_base(base, imm), id, off),
                _ if imm == 0 => a,
                _ => self.fresh(),
            },
            Op::Add => match (a, b) {
                (x, Val::Const(0)) | (Val::Const(0), x) => x,
                (Val::Const(x), Val::Const(y)) => Val::Const(x.wrapping_add(y)),
                (Val::Sym(id, off), Val::Const(c)) | (Val::Const(c), Val::Sym(id, off)) => {
                    Val::Sym(id, off.wrapping_add(c))
                }
                (Val::Scaled(id, off, 2), x) | (x, Val::Scaled(id, off, 2))
                    if x.base().is_some() =>
                {
                    Val::Addr(x.base().unwrap_or(Base::Const(0)), id, off)
                }
                (Val::Addr(base, id, off), Val::Const(c))
                | (Val::Const(c), Val::Addr(base, id, off)) => {
                    Val::Addr(add_base(base, c), id, off)
                }
                (Val::Entry(base, id, off), x) | (x, Val::Entry(base, id, off))
                    if x.base().is_some() =>
                {
                    Val::RelEntry(base, id, off, x.base().unwrap_or(Base::Const(0)))
                }
                _ => self.fresh(),
            },
            Op::Slli => match a {
                Val::Const(c) => Val::Const(c.wrapping_shl(imm)),
                Val::Sym(id, off) => Val::Scaled(id, off, imm),
                Val::Scaled(id, off, sh) => Val::Scaled(id, off, sh.saturating_add(imm)),
                _ => self.fresh(),
            },
            Op::Sltiu => match a {
                Val::Sym(id, off) => Val::Flag(id, off, Base::Const(imm)),
                _ => self.fresh(),
            },
            Op::Sltu => match (a, b.base()) {
                (Val::Sym(id, off), Some(k)) => Val::Flag(id, off, k),
                _ => self.fresh(),
            },
            Op::Lw => match a {
                Val::Addr(base, id, off) => Val::Entry(add_base(base, imm), id, off),
                Val::Sym(bid, boff) => {
                    let key = boff.wrapping_add(imm);
                    match self.slots.iter().find(|s| s.0 == bid && s.1 == key) {
                        Some(s) => s.2,
                        None => {
                            let v = self.fresh();
                            self.slots.push((bid, key, v));
                            v
                        }
                    }
                }
                _ => self.fresh(),
            },
            Op::Jal | Op::Jalr if i.rd != 0 => {
                // A call: the callee may clobber caller-saved registers and memory.
                for r in CALLER_SAVED {
                    let f = self.fresh();
                    self.set(r, f);
                }
                self.slots.clear();
                self.fresh()
            }
            _ => {
                if i.op.class() == Class::Store || i.op.entry().args.contains("(s)") {
                    // Stores, and loads/atomics that also write memory: forget what they
                    // may overwrite; a word store through a stack base is remembered.
                    let at = match a {
                        Val::Sym(id, off) => Some((id, off.wrapping_add(imm))),
                        _ => None,
                    };
                    if i.op.class() == Class::Store {
                        self.clobber(at);
                        if let (Op::Sw, Some((id, off))) = (i.op, at) {
                            self.slots.push((id, off, b));
                        }
                    } else if i.op.class() != Class::Load {
                        self.clobber(None);
                    }
                }
                self.fresh()
            }
        };
        if writes(i, i.rd) {
            self.set(i.rd, v);
        }
    }
}

/// The part of a function the resolver sees.
pub struct Func<'a> {
    /// The address of every instruction (2 or 4 bytes apart).
    pub pcs: &'a [u32],
    /// Address just past the last instruction.
    pub end: u32,
    /// Decoded instructions.
    pub insts: &'a [Option<Inst>],
    /// Whether each instruction starts a basic block.
    pub leader: &'a [bool],
    /// Whether each instruction's address appears as an aligned word in memory (it may be
    /// entered through a jump table).
    pub addressed: &'a [bool],
    /// Instruction-level predecessors over the known edges.
    pub preds: &'a [Vec<usize>],
}

impl Func<'_> {
    fn pc(&self, i: usize) -> u32 {
        self.pcs.get(i).copied().unwrap_or(self.end)
    }
    fn index(&self, pc: u32) -> Option<usize> {
        index_in(self.pcs, pc)
    }
    fn block_start(&self, mut i: usize) -> usize {
        while !self.leader[i] {
            i -= 1;
        }
        i
    }
}

/// An assumption a resolution rests on: register `reg` holds `value` on entry to the
/// instruction `at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Assumption {
    /// Instruction index.
    pub at: usize,
    /// Register.
    pub reg: u8,
    /// Its assumed value.
    pub value: u32,
}

/// The constant that register `r` holds on entry to instruction `at`, if every definition
/// that reaches it computes that same constant within its own block. With `unknown_entry`,
/// reaching an instruction marked there (one that control may enter from an unknown place)
/// fails.
pub fn live_in_constant(
    f: &Func<'_>,
    at: usize,
    r: u8,
    unknown_entry: Option<&[bool]>,
) -> Option<u32> {
    if r == 0 {
        return Some(0);
    }
    let mut value = None;
    let mut seen = vec![false; f.insts.len()];
    let mut stack = vec![at];
    seen[at] = true;
    while let Some(x) = stack.pop() {
        // Value on entry to x: from its predecessors.
        if x == 0 || unknown_entry.is_some_and(|u| u[x]) {
            return None;
        }
        for &p in &f.preds[x] {
            let inst = f.insts[p].as_ref()?;
            let call = matches!(inst.op, Op::Jal | Op::Jalr) && inst.rd != 0;
            if writes(inst, r) || (call && CALLER_SAVED.contains(&r)) {
                let c = block_value(f, p, r)?;
                if value.is_some_and(|v| v != c) {
                    return None;
                }
                value = Some(c);
            } else if !seen[p] {
                seen[p] = true;
                stack.push(p);
            }
        }
    }
    value
}

/// The constant register `r` holds after instruction `p`, evaluating `p`'s block alone.
fn block_value(f: &Func<'_>, p: usize, r: u8) -> Option<u32> {
    let mut e = Eval::new();
    for i in f.block_start(p)..=p {
        e.step(f.insts[i].as_ref()?, f.pc(i));
    }
    match e.regs[r as usize] {
        Val::Const(c) => Some(c),
        _ => None,
    }
}

/// Extend a walk (ranges of instruction indices, first block first, each ending at the
/// instruction that passes control to the next) backwards over straight-line predecessors.
fn extend(f: &Func<'_>, mut ranges: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    while ranges.len() < 8 {
        let s = ranges[0].0;
        if s == 0 || f.addressed[s] || f.preds[s].len() != 1 {
            break;
        }
        let p = f.preds[s][0];
        let ps = f.block_start(p);
        if ranges.iter().any(|r| r.0 == ps) {
            break;
        }
        ranges.insert(0, (ps, p));
    }
    ranges
}

/// What one walk shows about the jump at its end.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Shape {
    table: u32,
    relative_to: Option<u32>,
    bound: Option<u32>,
}

/// Evaluate a walk ending at the candidate `jalr`; `None` when it does not end in a table
/// load. Live-in constants come from `query`, which is asked at the walk's first instruction.
fn evaluate(
    f: &Func<'_>,
    ranges: &[(usize, usize)],
    query: &mut dyn FnMut(usize, u8) -> Option<u32>,
    assumed: &mut Vec<Assumption>,
) -> Option<Shape> {
    let mut e = Eval::new();
    for (k, &(lo, hi)) in ranges.iter().enumerate() {
        for i in lo..hi {
            e.step(f.insts[i].as_ref()?, f.pc(i));
        }
        let last = f.insts[hi].as_ref()?;
        if let Some(&(next, _)) = ranges.get(k + 1) {
            if last.is_cond_branch() {
                let target = last.target(f.pc(hi)).and_then(|t| f.index(t));
                if target != Some(hi + 1) {
                    e.facts.push(Fact {
                        op: last.op,
                        a: e.regs[last.rs1 as usize],
                        b: e.regs[last.rs2 as usize],
                        taken: target == Some(next),
                    });
                }
            } else {
                e.step(last, f.pc(hi));
            }
        }
    }
    let &(_, j) = ranges.last()?;
    let jalr = f.insts[j].as_ref()?;
    let (base, id, off, rel) = match e.regs[jalr.rs1 as usize] {
        Val::Entry(base, id, off) => (base, id, off, None),
        Val::RelEntry(base, id, off, add) => (base, id, off, Some(add)),
        _ => return None,
    };
    let walk_start = ranges[0].0;
    let mut constant = |b: Base| -> Option<u32> {
        match b {
            Base::Const(c) => Some(c),
            Base::Reg(r, o) => {
                let v = query(walk_start, r)?;
                assumed.push(Assumption {
                    at: walk_start,
                    reg: r,
                    value: v,
                });
                Some(v.wrapping_add(o))
            }
        }
    };
    let table = constant(base)?;
    let relative_to = match rel {
        Some(b) => Some(constant(b)?),
        None => None,
    };
    // The bound: the least N with index <u N established on the walked path.
    let index = Val::Sym(id, off);
    let mut bound: Option<u32> = None;
    for fact in &e.facts {
        let n = match fact.op {
            Op::Bltu | Op::Bgeu => {
                let lt = (fact.op == Op::Bltu) == fact.taken;
                match (lt, fact.a, fact.b) {
                    (true, a, b) if a == index => b.base().and_then(&mut constant),
                    (false, a, b) if b == index => a
                        .base()
                        .and_then(&mut constant)
                        .and_then(|k| k.checked_add(1)),
                    _ => None,
                }
            }
            Op::Beq | Op::Bne => {
                let flag_set = (fact.op == Op::Bne) == fact.taken;
                match (fact.a, fact.b) {
                    (Val::Flag(fid, foff, k), Val::Const(0))
                    | (Val::Const(0), Val::Flag(fid, foff, k))
                        if flag_set && (fid, foff) == (id, off) =>
                    {
                        constant(k)
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(n) = n {
            bound = Some(bound.map_or(n, |b| b.min(n)));
        }
    }
    Some(Shape {
        table,
        relative_to,
        bound,
    })
}

/// Try to resolve the candidate jump at instruction `j`. `query` gives live-in constants
/// (register, walk start) and the resolver records every one it uses in `assumed`.
///
/// When the walk stops at a block with several predecessors and has found no bounds check
/// (clang duplicates the check into each path that reaches the table load), each
/// predecessor's walk is evaluated too: if every one finds the same table with a bound, the
/// largest bound holds on every path.
pub fn resolve(
    f: &Func<'_>,
    j: usize,
    mem: &Memory<'_>,
    query: &mut dyn FnMut(usize, u8) -> Option<u32>,
    assumed: &mut Vec<Assumption>,
) -> Option<JumpTable> {
    let jalr = f.insts[j].as_ref()?;
    if !is_candidate(jalr) || jalr.imm != 0 {
        return None;
    }
    let ranges = extend(f, vec![(f.block_start(j), j)]);
    let mut shape = evaluate(f, &ranges, query, assumed)?;
    let s = ranges[0].0;
    if shape.bound.is_none() && s != 0 && !f.addressed[s] && f.preds[s].len() > 1 {
        let mut all = Vec::new();
        let mut extra = Vec::new();
        for &p in &f.preds[s] {
            let ps = f.block_start(p);
            if ranges.iter().any(|r| r.0 == ps) {
                all.clear();
                break;
            }
            let mut walk = vec![(ps, p)];
            walk.extend_from_slice(&ranges);
            match evaluate(f, &extend(f, walk), query, &mut extra) {
                Some(sh) if sh.bound.is_some() => all.push(sh),
                _ => {
                    all.clear();
                    break;
                }
            }
        }
        let same = all
            .iter()
            .all(|sh| (sh.table, sh.relative_to) == (shape.table, shape.relative_to));
        if !all.is_empty() && same {
            shape.bound = all.iter().filter_map(|sh| sh.bound).max();
            assumed.extend(extra);
        }
    }
    let Shape {
        table,
        relative_to,
        bound,
    } = shape;
    let target_of = |w: u32| relative_to.map_or(w, |r| r.wrapping_add(w));
    // Read the table.
    let in_fn = |w: u32| f.index(w).is_some();
    let mut entries = Vec::new();
    match bound {
        Some(n) if n == 0 || n > MAX_ENTRIES => return None,
        Some(n) => {
            for k in 0..n {
                let w = target_of(mem.word(table.wrapping_add(4 * k))?);
                if !in_fn(w) {
                    return None;
                }
                entries.push(w);
            }
        }
        None => {
            for k in 0..MAX_ENTRIES {
                match mem.word(table.wrapping_add(4 * k)).map(target_of) {
                    Some(w) if in_fn(w) => entries.push(w),
                    _ => break,
                }
            }
        }
    }
    if entries.is_empty() {
        return None;
    }
    Some(JumpTable {
        pc: f.pc(j),
        table,
        relative_to,
        bound,
        entries,
    })
}

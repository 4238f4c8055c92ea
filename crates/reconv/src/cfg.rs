//! The control-flow graph of one function: how each instruction passes control on
//! ([`flow`]), basic blocks, and their successors, with one virtual exit node.
//!
//! Rules (see `docs/reconvergence.md` for the reasoning):
//! - conditional branch and `diverge`: two edges, fall-through and target (the `diverge`
//!   "waiting" lanes go to the target); a target outside the function is an edge to the exit;
//! - `jal x0` inside the function is a jump; outside it is a tail call, an edge to the exit;
//! - `jal`/`jalr` with `rd ≠ x0` are calls: control continues at the next instruction, and
//!   the call does not end the basic block;
//! - `jalr x0` through `ra` or `t0` (a return) leaves the function: edge to the exit;
//! - any other `jalr x0` is a candidate jump table ([`crate::jumptable`]): resolved, it has an
//!   edge to every target in the table (every target starts a block); unresolved (a
//!   function pointer, a tail call through a register), an edge to the exit;
//! - `ecall`, `ebreak`, `mret`, `tmc x0`, `csrrw`/`csrrwi` writing zero from `x0`/`0` to
//!   `tmask`, and undecodable words: edge to the exit; `wfi` continues;
//! - falling off the end of the function: edge to the exit.
//!
//! Instructions are 2 or 4 bytes long (the C extension): the function's bytes are walked
//! from its start by each instruction's length ([`decode_code`]), so a target is an
//! instruction of the function only if that walk reaches its address; any other target
//! (outside the function, or inside an instruction) is an edge to the exit.
//!
//! Blocks are numbered by address; node `blocks.len()` is the virtual exit. Regions that
//! cannot reach the exit (infinite loops) get virtual edges from
//! [`crate::postdom::connect_dead_ends`].

use crate::jumptable::{self, index_in, is_candidate, Func, JumpTable, Memory};
use crate::postdom::{connect_dead_ends, immediate_postdominators};
use crate::table::Reconv;
use weft_isa::csr::TMASK;
use weft_isa::{Inst, Op};

/// Why an instruction leaves the function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitKind {
    /// `jalr x0, …`: a return or another indirect jump (a switch's jump table, a computed
    /// tail call). Per instruction its targets are unknown, so it leaves the function;
    /// [`Cfg::build_with_memory`] replaces that exit by the targets of a resolved jump table.
    IndirectJump,
    /// `tmc x0`, or `csrrw`/`csrrwi` writing zero to `tmask`: the warp halts.
    Halt,
    /// `ecall`, `ebreak`, `mret`.
    Trap,
    /// A word that does not decode (data, or an extension weft does not know).
    Undecodable,
}

/// How control leaves one instruction, independent of function boundaries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Continues with the next instruction (ordinary instructions, calls, `wfi`).
    Next,
    /// A conditional branch or `diverge`: continues with the next instruction or goes to
    /// `target`.
    Cond {
        /// Taken (branch) or waiting (`diverge`) target.
        target: u32,
    },
    /// `jal x0, target`: a jump, or a tail call when `target` is outside the function.
    Jump {
        /// Target pc.
        target: u32,
    },
    /// Leaves the function.
    Exit(ExitKind),
}

/// How control leaves the instruction `inst` at `pc` (`None`: the word did not decode).
pub fn flow(inst: Option<&Inst>, pc: u32) -> Flow {
    let Some(i) = inst else {
        return Flow::Exit(ExitKind::Undecodable);
    };
    match i.op {
        _ if i.is_cond_branch() || i.op == Op::Diverge => match i.target(pc) {
            Some(target) => Flow::Cond { target },
            None => Flow::Exit(ExitKind::Undecodable),
        },
        Op::Jal if i.rd == 0 => match i.target(pc) {
            Some(target) => Flow::Jump { target },
            None => Flow::Exit(ExitKind::Undecodable),
        },
        Op::Jalr if i.rd == 0 => Flow::Exit(ExitKind::IndirectJump),
        Op::Ecall | Op::Ebreak | Op::Mret => Flow::Exit(ExitKind::Trap),
        Op::VxTmc if i.rs1 == 0 => Flow::Exit(ExitKind::Halt),
        Op::Csrrw | Op::Csrrwi if i.imm == TMASK as i32 && i.rs1 == 0 => Flow::Exit(ExitKind::Halt),
        _ => Flow::Next,
    }
}

/// A call: `jal`/`jalr` that links through `ra` or `t0`.
fn is_call(inst: Option<&Inst>) -> bool {
    inst.is_some_and(|i| matches!(i.op, Op::Jal | Op::Jalr) && (i.rd == 1 || i.rd == 5))
}

/// One basic block: the instructions `start..end` (byte addresses, `end` exclusive).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Address of the first instruction.
    pub start: u32,
    /// Address just past the last instruction.
    pub end: u32,
    /// Successor nodes (block indices; the exit is [`Cfg::exit`]), without duplicates.
    pub succs: Vec<usize>,
}

/// Decode a function's bytes from `start`, instruction by instruction (2 or 4 bytes each, by
/// the low bits of the first halfword): the instructions' addresses, the instructions
/// (`None`: did not decode), and the address just past the last one. A trailing part of an
/// instruction (a lone byte, or the first half of a 4-byte one) is not code.
pub fn decode_code(start: u32, bytes: &[u8]) -> (Vec<u32>, Vec<Option<Inst>>, u32) {
    let (mut pcs, mut insts) = (Vec::new(), Vec::new());
    let mut off = 0usize;
    while let Some(b) = bytes.get(off..off + 2) {
        let h = u16::from_le_bytes([b[0], b[1]]);
        let len = Inst::len_of(h) as usize;
        let w = if len == 2 {
            h as u32
        } else {
            match bytes.get(off..off + 4) {
                Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                None => break,
            }
        };
        pcs.push(start.wrapping_add(off as u32));
        insts.push(Inst::decode(w).ok());
        off += len;
    }
    (pcs, insts, start.wrapping_add(off as u32))
}

/// The control-flow graph of one function.
#[derive(Clone, Debug)]
pub struct Cfg {
    /// Address of the function's first instruction.
    pub start: u32,
    /// Address just past the function's last instruction.
    pub end: u32,
    /// The address of every instruction, in order.
    pub pcs: Vec<u32>,
    /// Decoded instructions, one per entry of `pcs` (`None`: it did not decode).
    pub insts: Vec<Option<Inst>>,
    /// Basic blocks in address order.
    pub blocks: Vec<Block>,
    /// Blocks that received a virtual edge to the exit because they sit in a region that
    /// cannot otherwise reach it (an infinite loop).
    pub virtual_exits: Vec<usize>,
    /// Resolved jump tables, in pc order: each `jalr` has an edge to every target.
    pub jumps: Vec<JumpTable>,
    /// The pcs of indirect jumps (`jalr x0` not through `ra`/`t0`) left unresolved: each is
    /// an edge to the exit.
    pub unresolved: Vec<u32>,
}

impl Cfg {
    /// Build the CFG of the function whose instruction words (already little-endian decoded)
    /// start at `start`, without jump-table resolution (no memory to read tables from). The
    /// function ends after the last word. (Words are the function's bytes, four at a time:
    /// a word may hold two compressed instructions.)
    pub fn build(start: u32, words: &[u32]) -> Cfg {
        Cfg::build_with_memory(start, words, &Memory::default())
    }

    /// [`Cfg::build`], resolving jump tables ([`crate::jumptable`]) from `mem`.
    pub fn build_with_memory(start: u32, words: &[u32], mem: &Memory<'_>) -> Cfg {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        Cfg::build_from_bytes(start, &bytes, mem)
    }

    /// Build the CFG of the function whose code is `bytes` at `start`, resolving jump
    /// tables from `mem`.
    pub fn build_from_bytes(start: u32, bytes: &[u8], mem: &Memory<'_>) -> Cfg {
        let (pcs, insts, end) = decode_code(start, bytes);
        let n = insts.len();
        let index_of = |pc: u32| index_in(&pcs, pc);
        let pc_of = |i: usize| pcs.get(i).copied().unwrap_or(end);
        let flows: Vec<Flow> = (0..n).map(|i| flow(insts[i].as_ref(), pc_of(i))).collect();

        // Leaders: the entry, every in-function target, every instruction after a terminator.
        let mut leader = vec![false; n];
        if n > 0 {
            leader[0] = true;
        }
        for (i, f) in flows.iter().enumerate() {
            if let Flow::Cond { target } | Flow::Jump { target } = *f {
                if let Some(t) = index_of(target) {
                    leader[t] = true;
                }
            }
            if *f != Flow::Next && i + 1 < n {
                leader[i + 1] = true;
            }
        }
        let (jumps, unresolved) = resolve_jumps(&pcs, end, &insts, &flows, &mut leader, mem);
        let jump_of = |i: usize| jumps.iter().find(|t| t.pc == pc_of(i));
        let starts: Vec<usize> = (0..n).filter(|&i| leader[i]).collect();
        let exit = starts.len();
        // Block index of every word (blocks are contiguous ranges of words).
        let mut block_of_word = vec![0usize; n];
        for (b, &s) in starts.iter().enumerate() {
            let e = starts.get(b + 1).copied().unwrap_or(n);
            block_of_word[s..e].iter_mut().for_each(|x| *x = b);
        }
        let node = |pc: u32| index_of(pc).map_or(exit, |i| block_of_word[i]);

        let mut blocks = Vec::with_capacity(starts.len());
        for (b, &s) in starts.iter().enumerate() {
            let e = starts.get(b + 1).copied().unwrap_or(n);
            let last = e - 1;
            let next = pc_of(e);
            let mut succs = match (flows[last], jump_of(last)) {
                (_, Some(t)) => {
                    let mut s: Vec<usize> = t.targets().into_iter().map(node).collect();
                    s.sort_unstable();
                    s
                }
                // A call that falls off the function's end does not return (a panic,
                // `abort`, `exit`: compilers put nothing after it). The block is a sink:
                // lanes that get here never come back, so it takes no part in any
                // reconvergence point. Other code falling off the end runs on into the next
                // symbol, in the same activation: an exit, as before.
                (Flow::Next, _) if index_of(next).is_none() && is_call(insts[last].as_ref()) => {
                    vec![]
                }
                (Flow::Next, _) => vec![node(next)],
                (Flow::Cond { target }, _) => vec![node(next), node(target)],
                (Flow::Jump { target }, _) => vec![node(target)],
                (Flow::Exit(_), _) => vec![exit],
            };
            succs.dedup();
            blocks.push(Block {
                start: pc_of(s),
                end: next,
                succs,
            });
        }
        let mut cfg = Cfg {
            start,
            end,
            pcs,
            insts,
            blocks,
            virtual_exits: Vec::new(),
            jumps,
            unresolved,
        };
        let mut g = cfg.graph();
        cfg.virtual_exits = connect_dead_ends(&mut g, exit);
        for &b in &cfg.virtual_exits {
            cfg.blocks[b].succs.push(exit);
        }
        cfg
    }

    /// The virtual exit node's index (one past the last block).
    pub fn exit(&self) -> usize {
        self.blocks.len()
    }

    /// Successor lists of all nodes, the exit last (with no successors).
    pub fn graph(&self) -> Vec<Vec<usize>> {
        let mut g: Vec<Vec<usize>> = self.blocks.iter().map(|b| b.succs.clone()).collect();
        g.push(Vec::new());
        g
    }

    /// The instruction at `pc`, if it is in the function and decodes.
    pub fn inst_at(&self, pc: u32) -> Option<&Inst> {
        self.insts.get(index_in(&self.pcs, pc)?)?.as_ref()
    }

    /// The address of the last instruction of block `b`.
    pub fn last_pc(&self, b: usize) -> u32 {
        let end = self.blocks[b].end;
        let i = index_in(&self.pcs, end).unwrap_or(self.pcs.len());
        self.pcs[i.saturating_sub(1)]
    }

    /// The resolved jump table of the `jalr` at `pc`, if any.
    pub fn jump_at(&self, pc: u32) -> Option<&JumpTable> {
        self.jumps.iter().find(|t| t.pc == pc)
    }

    /// Every conditional branch, `diverge` and resolved indirect jump with its reconvergence
    /// point, in pc order.
    pub fn reconvergence(&self) -> Vec<(u32, Inst, Reconv)> {
        let exit = self.exit();
        let ipdom = immediate_postdominators(&self.graph(), exit);
        let mut out = Vec::new();
        for (b, idom) in ipdom.iter().enumerate().take(self.blocks.len()) {
            let pc = self.last_pc(b);
            let Some(inst) = self.inst_at(pc) else {
                continue;
            };
            if !matches!(flow(Some(inst), pc), Flow::Cond { .. }) && self.jump_at(pc).is_none() {
                continue;
            }
            let reconv = match *idom {
                Some(d) if d < exit => Reconv::At(self.blocks[d].start),
                // The exit, or no post-dominator at all: a branch whose every path ends in a
                // call that does not return.
                _ => Reconv::AtExit,
            };
            out.push((pc, *inst, reconv));
        }
        out
    }
}

/// Resolve the function's candidate jump tables. Marks every instruction a table in `mem`
/// could enter as a leader (only when the function has a candidate). Returns the resolved
/// tables in pc order and the pcs of the candidates left unresolved.
fn resolve_jumps(
    pcs: &[u32],
    end: u32,
    insts: &[Option<Inst>],
    flows: &[Flow],
    leader: &mut [bool],
    mem: &Memory<'_>,
) -> (Vec<JumpTable>, Vec<u32>) {
    let n = insts.len();
    let start = pcs.first().copied().unwrap_or(end);
    let pc_of = |i: usize| pcs.get(i).copied().unwrap_or(end);
    let cands: Vec<usize> = (0..n)
        .filter(|&i| insts[i].as_ref().is_some_and(is_candidate))
        .collect();
    if cands.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let mut addressed = vec![false; n];
    for &a in mem.addresses_in(start, if end < start { u32::MAX } else { end }) {
        if let Some(i) = index_in(pcs, a) {
            addressed[i] = true;
            leader[i] = true;
        }
    }
    // Instruction-level predecessors over the known (direct) edges.
    let index_of = |pc: u32| index_in(pcs, pc);
    let mut preds = vec![Vec::new(); n];
    for (i, f) in flows.iter().enumerate() {
        let next = (i + 1 < n).then_some(i + 1);
        let succ = match *f {
            Flow::Next => [next, None],
            Flow::Cond { target } => [next, index_of(target)],
            Flow::Jump { target } => [index_of(target), None],
            Flow::Exit(_) => [None, None],
        };
        for s in succ.into_iter().flatten() {
            if !preds[s].contains(&i) {
                preds[s].push(i);
            }
        }
    }
    // Pass 1: optimistic live-in constants.
    let mut tentative = Vec::new();
    {
        let f = Func {
            pcs,
            end,
            insts,
            leader,
            addressed: &addressed,
            preds: &preds,
        };
        for &j in &cands {
            let mut assumed = Vec::new();
            let mut query = |at: usize, r: u8| jumptable::live_in_constant(&f, at, r, None);
            if let Some(t) = jumptable::resolve(&f, j, mem, &mut query, &mut assumed) {
                tentative.push((j, t, assumed));
            }
        }
    }
    // Pass 2: check the assumptions on the graph with every tentative table's edges, where
    // an addressed instruction no tentative table targets may be entered from anywhere.
    if tentative.iter().any(|t| !t.2.is_empty()) {
        let mut unknown_entry = addressed.clone();
        for (j, t, _) in &tentative {
            for target in t.targets() {
                if let Some(i) = index_of(target) {
                    unknown_entry[i] = false;
                    if !preds[i].contains(j) {
                        preds[i].push(*j);
                    }
                }
            }
        }
        let f = Func {
            pcs,
            end,
            insts,
            leader,
            addressed: &addressed,
            preds: &preds,
        };
        tentative.retain(|(_, _, assumed)| {
            assumed.iter().all(|a| {
                jumptable::live_in_constant(&f, a.at, a.reg, Some(&unknown_entry)) == Some(a.value)
            })
        });
    }
    let unresolved = cands
        .iter()
        .filter(|&&j| !tentative.iter().any(|t| t.0 == j))
        .map(|&j| pc_of(j))
        .collect();
    (tentative.into_iter().map(|t| t.1).collect(), unresolved)
}

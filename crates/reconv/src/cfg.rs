//! The control-flow graph of one function: how each instruction passes control on
//! ([`flow`]), basic blocks, and their successors, with one virtual exit node.
//!
//! Rules (see `docs/reconvergence.md` for the reasoning):
//! - conditional branch and `diverge`: two edges, fall-through and target (the `diverge`
//!   "waiting" lanes go to the target); a target outside the function is an edge to the exit;
//! - `jal x0` inside the function is a jump; outside it is a tail call, an edge to the exit;
//! - `jal`/`jalr` with `rd ≠ x0` are calls: control continues at the next instruction, and
//!   the call does not end the basic block;
//! - `jalr x0` (returns and every other indirect jump) leaves the function: edge to the exit;
//! - `ecall`, `ebreak`, `mret`, `tmc x0`, `csrrw`/`csrrwi` writing zero from `x0`/`0` to
//!   `tmask`, and undecodable words: edge to the exit; `wfi` continues;
//! - falling off the end of the function: edge to the exit.
//!
//! Blocks are numbered by address; node `blocks.len()` is the virtual exit. Regions that
//! cannot reach the exit (infinite loops) get virtual edges from
//! [`crate::postdom::connect_dead_ends`].

use crate::postdom::{connect_dead_ends, immediate_postdominators};
use crate::table::Reconv;
use weft_isa::csr::TMASK;
use weft_isa::{Inst, Op};

/// Why an instruction leaves the function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitKind {
    /// `jalr x0, …`: a return or another indirect jump (a switch's jump table, a computed
    /// tail call). Its targets are unknown, so it is treated as leaving the function.
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

/// The control-flow graph of one function.
#[derive(Clone, Debug)]
pub struct Cfg {
    /// Address of the function's first instruction.
    pub start: u32,
    /// Decoded instructions, one per word (`None`: the word did not decode).
    pub insts: Vec<Option<Inst>>,
    /// Basic blocks in address order.
    pub blocks: Vec<Block>,
    /// Blocks that received a virtual edge to the exit because they sit in a region that
    /// cannot otherwise reach it (an infinite loop).
    pub virtual_exits: Vec<usize>,
}

impl Cfg {
    /// Build the CFG of the function whose instruction words (already little-endian decoded)
    /// start at `start`. The function ends after the last word.
    pub fn build(start: u32, words: &[u32]) -> Cfg {
        let insts: Vec<Option<Inst>> = words.iter().map(|&w| Inst::decode(w).ok()).collect();
        let n = insts.len();
        // Word index of an in-function, word-aligned address.
        let index_of = |pc: u32| -> Option<usize> {
            let off = pc.wrapping_sub(start);
            (off.is_multiple_of(4) && ((off / 4) as usize) < n).then_some((off / 4) as usize)
        };
        let pc_of = |i: usize| start.wrapping_add(4 * i as u32);
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
            let mut succs = match flows[last] {
                Flow::Next => vec![node(next)],
                Flow::Cond { target } => vec![node(next), node(target)],
                Flow::Jump { target } => vec![node(target)],
                Flow::Exit(_) => vec![exit],
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
            insts,
            blocks,
            virtual_exits: Vec::new(),
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
        let off = pc.wrapping_sub(self.start);
        if !off.is_multiple_of(4) {
            return None;
        }
        self.insts.get((off / 4) as usize)?.as_ref()
    }

    /// Every conditional branch and `diverge` with its reconvergence point, in pc order.
    pub fn reconvergence(&self) -> Vec<(u32, Inst, Reconv)> {
        let exit = self.exit();
        let ipdom = immediate_postdominators(&self.graph(), exit);
        let mut out = Vec::new();
        for (b, blk) in self.blocks.iter().enumerate() {
            let pc = blk.end.wrapping_sub(4);
            let Some(inst) = self.inst_at(pc) else {
                continue;
            };
            if !matches!(flow(Some(inst), pc), Flow::Cond { .. }) {
                continue;
            }
            let reconv = match ipdom[b] {
                Some(d) if d < exit => Reconv::At(self.blocks[d].start),
                // The exit, or (never after connect_dead_ends) no post-dominator at all.
                _ => Reconv::AtExit,
            };
            out.push((pc, *inst, reconv));
        }
        out
    }
}

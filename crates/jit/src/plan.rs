//! Regions to translate: basic blocks of warp-private instructions, word accesses and float
//! operations ([`Block`]), linked by their jumps and branches into a [`Plan`], and what a
//! region's size decides about its translation ([`SMALL_REGION`]).

use weft_isa::{Inst, Op};

/// Most instructions of a *small* region. A larger one is translated for compile time
/// rather than for the last cycle: registers in the register file if it has several blocks
/// (SSA values across a 40-instruction region took 8–13 ms to compile, 1.5–2 ms without;
/// a 12-instruction if/else loop in SSA values ran 3× faster than with loads and stores),
/// its lane-wise runs as loops over the vectors (`Emit::vector_loop`: sgemm's region at 32
/// lanes, 2,515 Cranelift instructions unrolled, 800 as loops, and the grid-stride loop's
/// ran faster; the 9-instruction ALU loop ran 10.9 G thread-instructions/s unrolled, 7.9 G
/// as a loop), and compiled without Cranelift's e-graph pass (`Jit`'s quick target: a third
/// of the compile time, for code that ran as fast on those two; a 5-instruction float loop
/// ran 15–25 % slower without it).
pub const SMALL_REGION: u64 = 24;

/// Is `plan` larger than a [`SMALL_REGION`]?
pub fn is_large(plan: &Plan) -> bool {
    plan.len() > SMALL_REGION
}

/// Most instructions of a region of several blocks whose registers are SSA values at one
/// vector per register (scalar translations, warps of up to 4 lanes): one vector a register
/// costs the register allocator less, and `main`'s loops are long. Measured (whole
/// programs at benchmark size, 8 lanes): bitonic.c's check, a 12-instruction loop inside a
/// 30-instruction one, 1.08 s → 0.97 s, conv2d.c 1.42 s → 1.35 s; with no limit, sgemm.c
/// lost to compile time (0.72 s → 0.86 s).
pub const SMALL_REGION_ONE_VECTOR: u64 = 64;

/// Most instructions of a region of one block whose registers are SSA values from 4 vectors
/// a register on: a short loop's values, even where they do not all fit the host's vector
/// registers, cost the allocator's spills less than a load and a store of every operand.
/// Measured on the ALU loop (9 instructions, one warp, 20,000,000 iterations): 32 lanes
/// 8.1 G thread-instructions/s with the registers in memory, 14.3 G in SSA values (8 lanes:
/// 22.0 G).
pub const SMALL_BLOCK_WIDE: u64 = 16;

/// Does the translation of `plan` at `nvec` vectors per register keep the registers in the
/// register files (each use loads, each result is stored), rather than in SSA values? From
/// 4 vectors on (which would not fit the host's 16 vector registers anyway) unless it is one
/// block of up to [`SMALL_BLOCK_WIDE`] instructions, and in large regions of several blocks
/// ([`SMALL_REGION`], at one vector [`SMALL_REGION_ONE_VECTOR`]).
pub fn registers_in_memory(plan: &Plan, nvec: usize) -> bool {
    let small = if nvec == 1 {
        SMALL_REGION_ONE_VECTOR
    } else {
        SMALL_REGION
    };
    let one_short_block = plan.blocks.len() == 1 && plan.len() <= SMALL_BLOCK_WIDE;
    (nvec >= 4 && !one_short_block) || (plan.blocks.len() > 1 && plan.len() > small)
}

/// Longest block translated (instructions, the terminator included).
pub const MAX_BLOCK: usize = 64;

/// Most instructions in one region (its blocks' together).
pub const MAX_REGION: usize = 192;

/// How a block ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// Falls through to the next (untranslatable or too far) instruction at this pc.
    Fall(u32),
    /// `jal x0` to this pc.
    Jump(u32),
    /// A conditional branch: the instruction, its pc.
    Branch(Inst, u32),
    /// In a scalar translation, a jump the interpreter's `jal`/`jalr` runs
    /// (`weft_simt::is_scalar_jump`: a call, a return or an indirect jump): the instruction,
    /// its pc, and its target if known when translating (a `jal`'s, or a `jalr`'s through
    /// the register an `auipc` just before it set: `auipc ra, …; jalr ra, …(ra)`, a call).
    Call(Inst, u32, Option<u32>),
}

impl Term {
    /// The return address a call leaves (the pc after it), if it links.
    pub fn return_site(&self) -> Option<u32> {
        match *self {
            Term::Call(i, at, _) if i.rd != 0 => Some(at.wrapping_add(i.len())),
            _ => None,
        }
    }

    /// Is it a return (`weft_simt::CallEffect::Return`), whose target is not known?
    pub fn is_return(&self) -> bool {
        matches!(*self, Term::Call(i, _, None)
            if weft_simt::call_effect(&i) == weft_simt::CallEffect::Return)
    }
}

/// A basic block of a region: its start, straight-line body and terminator, and whether the
/// region reaches it through a call (it is code of a callee, not of the entry's function).
#[derive(Clone, Debug)]
pub struct Block {
    pub pc: u32,
    pub body: Vec<(u32, Inst)>,
    pub term: Term,
    pub callee: bool,
}

impl Block {
    /// Instructions in a whole execution (body and terminator).
    pub fn len(&self) -> u64 {
        self.body.len() as u64 + u64::from(!matches!(self.term, Term::Fall(_)))
    }

    /// The pcs of its first and last instruction (the terminator's, if it runs one).
    pub fn range(&self) -> (u32, u32) {
        let last = match self.term {
            Term::Branch(_, at) | Term::Call(_, at, _) => at,
            // The `jal` follows the body.
            Term::Jump(_) => self
                .body
                .last()
                .map_or(self.pc, |&(at, i)| at.wrapping_add(i.len())),
            Term::Fall(_) => self.body.last().map_or(self.pc, |&(at, _)| at),
        };
        (self.pc, last)
    }

    /// Operations of a whole execution, in order (for the statistics).
    pub fn ops(&self) -> Vec<Op> {
        let mut v: Vec<Op> = self.body.iter().map(|(_, i)| i.op).collect();
        match self.term {
            Term::Jump(_) => v.push(Op::Jal),
            Term::Branch(i, _) | Term::Call(i, _, _) => v.push(i.op),
            Term::Fall(_) => {}
        }
        v
    }

    /// Where a whole execution may go next: the jump's target, or the branch's taken target
    /// and fall-through (none for a fall-through to an untranslatable instruction); for a
    /// call, its target and then its return site, where the callee's return comes back to
    /// (a return's own target is known only when it runs: [`Plan::successors`]).
    pub fn successors(&self) -> Vec<u32> {
        match self.term {
            Term::Fall(_) | Term::Call(_, _, None) => Vec::new(),
            Term::Jump(t) => vec![t],
            Term::Branch(i, at) => vec![at.wrapping_add(i.imm as u32), at.wrapping_add(i.len())],
            Term::Call(_, _, Some(t)) => {
                std::iter::once(t).chain(self.term.return_site()).collect()
            }
        }
    }
}

/// A region to translate: basic blocks reached from the first one's start through jumps and
/// branches the active lanes agree on (blocks[0] is the entry). An edge to a block of the
/// region stays in the translated code; any other edge exits to the engine.
#[derive(Clone, Debug)]
pub struct Plan {
    pub blocks: Vec<Block>,
}

impl Plan {
    /// Instructions in all the blocks.
    pub fn len(&self) -> u64 {
        self.blocks.iter().map(Block::len).sum()
    }

    /// The block starting at `pc`, if the region has one.
    pub fn index_of(&self, pc: u32) -> Option<usize> {
        self.blocks.iter().position(|b| b.pc == pc)
    }

    /// The return sites of the region's calls (the pcs after them).
    pub fn return_sites(&self) -> Vec<u32> {
        self.blocks
            .iter()
            .filter_map(|b| b.term.return_site())
            .collect()
    }

    /// Where a whole execution of block `k` may go next ([`Block::successors`]); a return may
    /// go to the return site of any call of the region (its translation compares the target
    /// with those that start blocks of the region, and exits to the engine otherwise).
    pub fn successors(&self, k: usize) -> Vec<u32> {
        let b = &self.blocks[k];
        if b.term.is_return() {
            self.return_sites()
        } else {
            b.successors()
        }
    }

    /// Does some path through the region come back to a block it has run (a loop that runs
    /// inside the translated code)?
    pub fn loops(&self) -> bool {
        // Depth-first search for an edge back to a block on the current path.
        fn visit(p: &Plan, b: usize, state: &mut [u8]) -> bool {
            state[b] = 1;
            for t in p.successors(b) {
                if let Some(j) = p.index_of(t) {
                    if state[j] == 1 || (state[j] == 0 && visit(p, j, state)) {
                        return true;
                    }
                }
            }
            state[b] = 2;
            false
        }
        let mut state = vec![0u8; self.blocks.len()];
        visit(self, 0, &mut state)
    }

    /// If the entry is on a loop of the region, keep only the blocks from which it can be
    /// reached again (the loop, with the paths back to it): the others lead out of it, and
    /// the engine runs them after the loop is left, as well as from inside the region, while
    /// each costs compile time.
    pub fn keep_loop_of_entry(&mut self) {
        let n = self.blocks.len();
        let mut back = vec![false; n];
        let mut changed = true;
        while changed {
            changed = false;
            for k in 0..n {
                if back[k] {
                    continue;
                }
                let reaches = self
                    .successors(k)
                    .into_iter()
                    .any(|t| self.index_of(t).is_some_and(|j| j == 0 || back[j]));
                if reaches {
                    back[k] = true;
                    changed = true;
                }
            }
        }
        if back[0] {
            let mut k = 0;
            self.blocks.retain(|_| {
                k += 1;
                back[k - 1]
            });
        }
    }

    /// The pc ranges (first and last instruction) of the blocks that lie on a loop of the
    /// region (a path from the block back to itself). A warp that left the translation at a
    /// pc inside one of them (before an instruction the interpreter had to run) reaches one
    /// of the region's block starts within a few instructions; elsewhere, even between the
    /// region's blocks, a pc is code the region does not run again.
    pub fn loop_ranges(&self) -> Vec<(u32, u32)> {
        let n = self.blocks.len();
        let succ: Vec<Vec<usize>> = (0..n)
            .map(|k| {
                self.successors(k)
                    .into_iter()
                    .filter_map(|t| self.index_of(t))
                    .collect()
            })
            .collect();
        let on_loop = |k: usize| {
            let mut seen = vec![false; n];
            let mut todo = succ[k].clone();
            while let Some(j) = todo.pop() {
                if j == k {
                    return true;
                }
                if !std::mem::replace(&mut seen[j], true) {
                    todo.extend(&succ[j]);
                }
            }
            false
        };
        (0..n)
            .filter(|&k| on_loop(k))
            .map(|k| self.blocks[k].range())
            .collect()
    }
}

/// Most basic blocks in one region (one execution counter each, one bit each in
/// the memory context's `stop_blocks`).
pub const MAX_REGION_BLOCKS: usize = 32;

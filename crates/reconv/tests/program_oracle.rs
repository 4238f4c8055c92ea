//! Whole-pipeline cross-check on random instruction streams: the reconvergence pc of every
//! branch must be its immediate post-dominator computed instruction by instruction, by the
//! definition, on a graph built here without basic blocks. Only the per-instruction flow rule
//! (`weft_reconv::cfg::flow`) and the infinite-loop edges (checked in `postdom_oracle`) are
//! shared with the library; block building and post-dominance are independent. A call that
//! would fall off the function's end does not return: it has no successor here either.
//!
//! Programs also contain `switch`es: the jump-table sequence (`lui`/`addi` table address,
//! `slli`/`add`/`lw`, `jalr x0`), sometimes behind a bounds check, with the table in a data
//! region. The graph built here gives each such `jalr` an edge to every target the generator
//! put in its table (not what the library resolved), and the library must resolve exactly
//! those targets and record the `jalr`'s post-dominator like a branch's.

use proptest::prelude::*;
use weft_isa::{Inst, Op};
use weft_reconv::cfg::{flow, Cfg, Flow};
use weft_reconv::jumptable::Memory;
use weft_reconv::{analyze, analyze_with_data, CodeRegion, DataRegion, Reconv, Symbol};

const BASE: u32 = 0x8000_0000;
/// Where the jump tables go: table `k` at `DATA + 0x100 * k`.
const DATA: u32 = 0x9000_0000;
const A0: u8 = 10;
const T0: u8 = 5;
const T1: u8 = 6;
const T2: u8 = 7;

#[derive(Clone, Debug)]
enum Kind {
    Nop,
    Branch(i32),
    Diverge(i32),
    Jump(i32),
    Call(i32),
    Ret,
    Halt,
    Unknown,
    /// A jump table over these targets (indices of kinds, all inside the function); with
    /// `Some(d)`, a bounds check sends larger indices to `d`.
    Switch(Vec<i32>, Option<i32>),
}

fn kind(n: i32) -> impl Strategy<Value = Kind> {
    // Targets are word indices in -1..=n: -1 and n are outside the function.
    prop_oneof![
        4 => Just(Kind::Nop),
        4 => (-1..=n).prop_map(Kind::Branch),
        1 => (-1..=n).prop_map(Kind::Diverge),
        2 => (-1..=n).prop_map(Kind::Jump),
        1 => (-1..=n).prop_map(Kind::Call),
        1 => Just(Kind::Ret),
        1 => Just(Kind::Halt),
        1 => Just(Kind::Unknown),
        1 => (
            proptest::collection::vec(0..n, 1..6),
            proptest::option::of(0..n)
        )
            .prop_map(|(t, d)| Kind::Switch(t, d)),
    ]
}

fn program() -> impl Strategy<Value = Vec<Kind>> {
    (1i32..20).prop_flat_map(|n| proptest::collection::vec(kind(n), n as usize))
}

/// A program's words, its jump tables (data bytes at `DATA`), and for each switch's `jalr`
/// (word index) the word indices its table names.
struct Encoded {
    words: Vec<u32>,
    data: Vec<u8>,
    jumps: Vec<(usize, Vec<usize>)>,
}

fn encode(p: &[Kind]) -> Encoded {
    // Word index where each kind starts (a switch takes several words).
    let len = |k: &Kind| match k {
        Kind::Switch(_, d) => 6 + if d.is_some() { 2 } else { 0 },
        _ => 1,
    };
    let mut start = vec![0usize; p.len() + 1];
    for (i, k) in p.iter().enumerate() {
        start[i + 1] = start[i] + len(k);
    }
    let n = start[p.len()];
    // A target kind index in -1..=len as a word index (-1 and len are outside).
    let word = |t: i32| -> i64 {
        if t < 0 {
            -1
        } else {
            start[(t as usize).min(p.len())] as i64
        }
    };
    let mut out = Encoded {
        words: Vec::with_capacity(n),
        data: Vec::new(),
        jumps: Vec::new(),
    };
    let enc = |i: Inst| i.encode().unwrap_or(0xffff_ffff);
    for k in p {
        let here = out.words.len() as i64;
        let off = |t: i32| ((word(t) - here) * 4) as i32;
        let inst = match k {
            Kind::Nop => Inst::new(Op::Addi),
            Kind::Branch(t) => Inst {
                rs1: 10,
                imm: off(*t),
                ..Inst::new(Op::Bne)
            },
            Kind::Diverge(t) => Inst {
                rs1: 10,
                imm: off(*t),
                ..Inst::new(Op::Diverge)
            },
            Kind::Jump(t) => Inst {
                imm: off(*t),
                ..Inst::new(Op::Jal)
            },
            Kind::Call(t) => Inst {
                rd: 1,
                imm: off(*t),
                ..Inst::new(Op::Jal)
            },
            Kind::Ret => Inst {
                rs1: 1,
                ..Inst::new(Op::Jalr)
            },
            Kind::Halt => Inst::new(Op::VxTmc),
            Kind::Unknown => {
                out.words.push(0xffff_ffff);
                continue;
            }
            Kind::Switch(targets, default) => {
                let table = DATA + 0x100 * out.jumps.len() as u32;
                if let Some(d) = default {
                    let n = targets.len() as i32;
                    out.words.push(enc(Inst {
                        rd: T0,
                        imm: n,
                        ..Inst::new(Op::Addi)
                    }));
                    let off = ((word(*d) - here - 1) * 4) as i32;
                    out.words.push(enc(Inst {
                        rs1: A0,
                        rs2: T0,
                        imm: off,
                        ..Inst::new(Op::Bgeu)
                    }));
                }
                let lo = ((table & 0xfff) as i32) << 20 >> 20;
                let hi = table.wrapping_sub(lo as u32);
                for i in [
                    Inst {
                        rd: T2,
                        imm: hi as i32,
                        ..Inst::new(Op::Lui)
                    },
                    Inst {
                        rd: T2,
                        rs1: T2,
                        imm: lo,
                        ..Inst::new(Op::Addi)
                    },
                    Inst {
                        rd: T1,
                        rs1: A0,
                        imm: 2,
                        ..Inst::new(Op::Slli)
                    },
                    Inst {
                        rd: T1,
                        rs1: T1,
                        rs2: T2,
                        ..Inst::new(Op::Add)
                    },
                    Inst {
                        rd: T1,
                        rs1: T1,
                        ..Inst::new(Op::Lw)
                    },
                ] {
                    out.words.push(enc(i));
                }
                let words: Vec<usize> = targets.iter().map(|&t| word(t) as usize).collect();
                let at = (table - DATA) as usize;
                out.data.resize(at, 0);
                for &w in &words {
                    out.data
                        .extend_from_slice(&(BASE + 4 * w as u32).to_le_bytes());
                }
                // After the table: with a bounds check, a decoy in-function address that
                // the resolver must not read; without one, a word that ends the table.
                let after = if default.is_some() { BASE } else { 0 };
                out.data.extend_from_slice(&after.to_le_bytes());
                out.jumps.push((out.words.len(), words));
                Inst {
                    rs1: T1,
                    ..Inst::new(Op::Jalr)
                }
            }
        };
        out.words.push(enc(inst));
    }
    out
}

/// Instruction-level successors; node `n` is the exit.
fn inst_graph(words: &[u32], jumps: &[(usize, Vec<usize>)], cfg: &Cfg) -> Vec<Vec<usize>> {
    let n = words.len();
    let node = |pc: u32| {
        let off = pc.wrapping_sub(BASE);
        if off.is_multiple_of(4) && ((off / 4) as usize) < n {
            (off / 4) as usize
        } else {
            n
        }
    };
    let mut g: Vec<Vec<usize>> = (0..n)
        .map(|i| {
            let pc = BASE + 4 * i as u32;
            if let Some((_, t)) = jumps.iter().find(|j| j.0 == i) {
                return t.clone();
            }
            let inst = Inst::decode(words[i]).ok();
            match flow(inst.as_ref(), pc) {
                // A call at the end that would fall off the function does not return: no
                // successor (a sink).
                Flow::Next if i + 1 == n && is_call(inst.as_ref()) => vec![],
                Flow::Next => vec![node(pc + 4)],
                Flow::Cond { target } => vec![node(pc + 4), node(target)],
                Flow::Jump { target } => vec![node(target)],
                Flow::Exit(_) => vec![n],
            }
        })
        .collect();
    g.push(Vec::new());
    // The library's virtual edges for infinite loops leave the last instruction of a block.
    for &b in &cfg.virtual_exits {
        let last = node(cfg.blocks[b].end - 4);
        g[last].push(n);
    }
    g
}

fn reaches_without(g: &[Vec<usize>], from: usize, exit: usize, removed: usize) -> bool {
    if from == removed {
        return false;
    }
    let mut seen = vec![false; g.len()];
    let mut stack = vec![from];
    seen[from] = true;
    while let Some(x) = stack.pop() {
        if x == exit {
            return true;
        }
        for &s in &g[x] {
            if s != removed && !seen[s] {
                seen[s] = true;
                stack.push(s);
            }
        }
    }
    false
}

fn is_call(inst: Option<&Inst>) -> bool {
    inst.is_some_and(|i| matches!(i.op, Op::Jal | Op::Jalr) && (i.rd == 1 || i.rd == 5))
}

/// The immediate post-dominator of `v` by the definition (none when `v` cannot reach the
/// exit at all: every path from it ends in a call that does not return).
fn naive_ipdom(g: &[Vec<usize>], v: usize, exit: usize) -> Option<usize> {
    if !reaches_without(g, v, exit, usize::MAX) {
        return None;
    }
    let pdoms = |x: usize| -> Vec<usize> {
        (0..g.len())
            .filter(|&d| d != x && !reaches_without(g, x, exit, d))
            .collect()
    };
    let strict = pdoms(v);
    // The nearest: the strict post-dominator that every other one post-dominates.
    strict
        .iter()
        .copied()
        .find(|&c| strict.iter().all(|&o| o == c || pdoms(c).contains(&o)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn reconv_is_the_instruction_level_ipdom(p in program()) {
        let Encoded { words, data, jumps } = encode(&p);
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let tables = [DataRegion { base: DATA, bytes: &data }];
        let a = analyze_with_data(
            &[CodeRegion { base: BASE, bytes: &bytes }],
            &tables,
            &[Symbol::new("f", BASE, 0)],
        )
        .expect("analysis");
        let cfg = Cfg::build_with_memory(BASE, &words, &Memory::new(tables.to_vec()));
        let g = inst_graph(&words, &jumps, &cfg);
        let n = words.len();
        // Every switch resolves to exactly the generator's table.
        let f = &a.functions[0];
        prop_assert_eq!(f.jumps.len(), jumps.len(), "{:?}\n{}", p, a.dump());
        prop_assert!(f.unresolved_jumps.is_empty());
        for (j, (i, t)) in f.jumps.iter().zip(&jumps) {
            prop_assert_eq!(j.pc, BASE + 4 * *i as u32);
            let want: Vec<u32> = t.iter().map(|&w| BASE + 4 * w as u32).collect();
            prop_assert_eq!(&j.table.entries, &want);
        }
        let mut branches = 0;
        for (i, &w) in words.iter().enumerate() {
            let pc = BASE + 4 * i as u32;
            let inst = Inst::decode(w).ok();
            let is_jump = jumps.iter().any(|j| j.0 == i);
            if !is_jump && !matches!(flow(inst.as_ref(), pc), Flow::Cond { .. }) {
                prop_assert_eq!(a.table.get(pc), None);
                continue;
            }
            branches += usize::from(!is_jump);
            let want = match naive_ipdom(&g, i, n) {
                Some(d) if d < n => Reconv::At(BASE + 4 * d as u32),
                _ => Reconv::AtExit,
            };
            prop_assert_eq!(a.table.get(pc), Some(want), "branch at {:#x} in {:?}\n{}", pc, p, a.dump());
        }
        prop_assert_eq!(a.functions[0].branches.len(), branches);
        prop_assert_eq!(a.table.len(), branches + jumps.len());
        // Blocks partition the function.
        let mut at = BASE;
        for b in &cfg.blocks {
            prop_assert_eq!(b.start, at);
            prop_assert!(b.end > b.start);
            at = b.end;
        }
        prop_assert_eq!(at, BASE + 4 * n as u32);
    }

    #[test]
    fn arbitrary_words_never_panic(words in proptest::collection::vec(any::<u32>(), 0..64),
                                   syms in proptest::collection::vec((any::<u8>(), any::<u8>()), 0..4)) {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let symbols: Vec<Symbol> = syms
            .iter()
            .map(|&(a, s)| Symbol::new("s", BASE + a as u32, s as u32))
            .collect();
        let a = analyze(&[CodeRegion { base: BASE, bytes: &bytes }], &symbols).expect("analysis");
        for (pc, r) in a.table.iter() {
            let f = a.function_at(pc).expect("branch inside a function");
            if let Reconv::At(t) = r {
                prop_assert!(t >= f.start && t < f.end && t % 2 == 0);
            }
        }
        // Functions do not overlap and stay in the region.
        for w in a.functions.windows(2) {
            prop_assert!(w[0].end <= w[1].start);
        }
        let _ = a.dump();
    }
}

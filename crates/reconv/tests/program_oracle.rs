//! Whole-pipeline cross-check on random instruction streams: the reconvergence pc of every
//! branch must be its immediate post-dominator computed instruction by instruction, by the
//! definition, on a graph built here without basic blocks. Only the per-instruction flow rule
//! (`weft_reconv::cfg::flow`) and the infinite-loop edges (checked in `postdom_oracle`) are
//! shared with the library; block building and post-dominance are independent.

use proptest::prelude::*;
use weft_isa::{Inst, Op};
use weft_reconv::cfg::{flow, Cfg, Flow};
use weft_reconv::{analyze, CodeRegion, Reconv, Symbol};

const BASE: u32 = 0x8000_0000;

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
    ]
}

fn program() -> impl Strategy<Value = Vec<Kind>> {
    (1i32..20).prop_flat_map(|n| proptest::collection::vec(kind(n), n as usize))
}

fn encode(p: &[Kind]) -> Vec<u32> {
    p.iter()
        .enumerate()
        .map(|(i, k)| {
            let off = |t: i32| (t - i as i32) * 4;
            let inst = match *k {
                Kind::Nop => Inst::new(Op::Addi),
                Kind::Branch(t) => Inst {
                    rs1: 10,
                    imm: off(t),
                    ..Inst::new(Op::Bne)
                },
                Kind::Diverge(t) => Inst {
                    rs1: 10,
                    imm: off(t),
                    ..Inst::new(Op::Diverge)
                },
                Kind::Jump(t) => Inst {
                    imm: off(t),
                    ..Inst::new(Op::Jal)
                },
                Kind::Call(t) => Inst {
                    rd: 1,
                    imm: off(t),
                    ..Inst::new(Op::Jal)
                },
                Kind::Ret => Inst {
                    rs1: 1,
                    ..Inst::new(Op::Jalr)
                },
                Kind::Halt => Inst::new(Op::VxTmc),
                Kind::Unknown => return 0xffff_ffff,
            };
            inst.encode().unwrap_or(0xffff_ffff)
        })
        .collect()
}

/// Instruction-level successors; node `n` is the exit.
fn inst_graph(words: &[u32], cfg: &Cfg) -> Vec<Vec<usize>> {
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
            let inst = Inst::decode(words[i]).ok();
            match flow(inst.as_ref(), pc) {
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

/// The immediate post-dominator of `v` by the definition.
fn naive_ipdom(g: &[Vec<usize>], v: usize, exit: usize) -> Option<usize> {
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
        let words = encode(&p);
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let a = analyze(&[CodeRegion { base: BASE, bytes: &bytes }], &[Symbol::new("f", BASE, 0)])
            .expect("analysis");
        let cfg = Cfg::build(BASE, &words);
        let g = inst_graph(&words, &cfg);
        let n = words.len();
        let mut branches = 0;
        for (i, &w) in words.iter().enumerate() {
            let pc = BASE + 4 * i as u32;
            let inst = Inst::decode(w).ok();
            if !matches!(flow(inst.as_ref(), pc), Flow::Cond { .. }) {
                prop_assert_eq!(a.table.get(pc), None);
                continue;
            }
            branches += 1;
            let want = match naive_ipdom(&g, i, n) {
                Some(d) if d < n => Reconv::At(BASE + 4 * d as u32),
                _ => Reconv::AtExit,
            };
            prop_assert_eq!(a.table.get(pc), Some(want), "branch at {:#x} in {:?}\n{}", pc, p, a.dump());
        }
        prop_assert_eq!(a.functions[0].branches.len(), branches);
        prop_assert_eq!(a.table.len(), branches);
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
                prop_assert!(t >= f.start && t < f.end && t % 4 == 0);
            }
        }
        // Functions do not overlap and stay in the region.
        for w in a.functions.windows(2) {
            prop_assert!(w[0].end <= w[1].start);
        }
        let _ = a.dump();
    }
}

//! The code shapes compilers emit that the divergence unit once got wrong — a function with
//! several returns, a tail call, a loop whose exit branch is backward, a jump table and
//! per-lane function pointers (`examples/divergence/`, traced in docs/isa.md §6.5–6.8) —
//! give every lane the result computed here on the host, at 1, 4, 8 and 32 lanes, under
//! table and converge reconvergence.

mod common;

use weft_simt::load::program_from_elf;
use weft_simt::{Config, Machine, ReconvMode, RunEnd};

fn run_example(name: &str, lanes: usize, reconv: ReconvMode) -> Machine {
    let p = format!(
        "{}/../../examples/divergence/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let src = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
    let elf = weft_asm::assemble(&src, name).unwrap_or_else(|e| panic!("{name}:\n{e}"));
    let (prog, _) = program_from_elf(&elf).expect("load");
    let cfg = Config {
        lanes,
        warps: 1,
        reconv,
        max_cycles: 100_000,
        ..Config::default()
    };
    let mut m = Machine::new(cfg, &prog).expect("machine");
    let end = m.run();
    assert_eq!(end, RunEnd::AllHalted, "{name} --lanes {lanes} {reconv:?}");
    m
}

/// Register `reg` of each of the first `n` lanes of warp 0.
fn reg(m: &Machine, reg: usize, n: usize) -> Vec<u32> {
    (0..n).map(|l| m.cores[0].warps[0].x[reg][l]).collect()
}

const A0: usize = 10;
const S1: usize = 9;

fn each(name: &str, check: impl Fn(&Machine, usize, ReconvMode)) {
    for lanes in [1, 4, 8, 32] {
        for mode in [ReconvMode::Table, ReconvMode::Converge] {
            let m = run_example(name, lanes, mode);
            check(&m, lanes, mode);
        }
    }
}

#[test]
fn a_function_with_several_returns_then_another_call() {
    let pick = |x: u32| match x {
        0 => 100,
        1 => 300,
        _ => 200,
    };
    each("two_exits.s", |m, lanes, mode| {
        let n = lanes.min(3);
        let want: Vec<u32> = (0..n as u32).map(|l| pick(l) * 10 + 1).collect();
        assert_eq!(reg(m, S1, n), want, "lanes {lanes} {mode:?}");
        if mode == ReconvMode::Table && lanes > 1 {
            assert_eq!(m.report().max_divergence_depth, 1);
        }
    });
}

#[test]
fn a_tail_call_into_a_function_that_diverges() {
    let f = |x: u32| {
        if x == 0 {
            100
        } else if x == 1 {
            300
        } else {
            200
        }
    };
    each("tail_call.s", |m, lanes, mode| {
        let n = lanes.min(3);
        let want: Vec<u32> = (0..n as u32).map(f).collect();
        assert_eq!(reg(m, A0, n), want, "lanes {lanes} {mode:?}");
        if mode == ReconvMode::Table && lanes > 1 {
            assert_eq!(m.report().max_divergence_depth, 1);
        }
    });
}

#[test]
fn a_loop_with_a_backward_exit_branch_uses_one_entry() {
    each("loop_exit_backward.s", |m, lanes, mode| {
        let want: Vec<u32> = (0..lanes as u32).collect();
        assert_eq!(reg(m, A0, lanes), want, "lanes {lanes} {mode:?}");
        assert!(
            m.report().max_divergence_depth <= 1,
            "lanes {lanes} {mode:?}"
        );
    });
}

#[test]
fn a_per_lane_switch_through_a_jump_table() {
    let classify = |x: u32| {
        let r = match x {
            0 => 10,
            1 => 11,
            2 | 3 => 23,
            _ => 99,
        };
        r + x
    };
    each("jump_table.s", |m, lanes, mode| {
        let want: Vec<u32> = (0..lanes as u32).map(classify).collect();
        assert_eq!(reg(m, A0, lanes), want, "lanes {lanes} {mode:?}");
    });
}

#[test]
fn per_lane_function_pointers() {
    let op = |t: u32| {
        let x = t + 1;
        match t % 3 {
            0 => x.wrapping_add(x),
            1 => x.wrapping_mul(x),
            _ => x.wrapping_neg(),
        }
    };
    each("indirect_call.s", |m, lanes, mode| {
        let want: Vec<u32> = (0..lanes as u32).map(op).collect();
        assert_eq!(reg(m, A0, lanes), want, "lanes {lanes} {mode:?}");
        if lanes > 1 {
            // Every mode reconverges an indirect call where it returns.
            assert_eq!(m.report().max_divergence_depth, 1, "{mode:?}");
        }
    });
}

#[test]
fn a_return_whose_lanes_disagree_is_a_divergent_jump() {
    let src = "
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr t1, thread_id
    la ra, a
    beqz t1, 1f
    la ra, b
1:  ret
a:  csrw tmask, zero
b:  csrw tmask, zero
";
    let r = common::run_src(src, common::cfg(4, ReconvMode::Table));
    match r.end {
        RunEnd::Fault(f) => {
            assert_eq!(f.code, weft_isa::FaultCode::DivergentJump);
            assert!(f.detail.contains("return address"), "{}", f.detail);
        }
        e => panic!("expected DIVERGENT_JUMP, got {e:?}"),
    }
}

#[test]
fn halting_with_a_splits_else_lanes_unrun_is_lanes_lost() {
    let src = "
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr t1, thread_id
    andi t1, t1, 1
    split t2, t1, zero
    csrw tmask, zero        # the then group halts before its join: the else lanes never ran
";
    let r = common::run_src(src, common::cfg(4, ReconvMode::Table));
    match r.end {
        RunEnd::Fault(f) => {
            assert_eq!(f.code, weft_isa::FaultCode::LanesLost);
            assert!(f.detail.contains("lanes 0x"), "{}", f.detail);
        }
        e => panic!("expected LANES_LOST, got {e:?}"),
    }
}

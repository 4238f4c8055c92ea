//! The tensor core unit in the timing model, with answers computed by hand: one warp runs `n`
//! back-to-back `wmma` (or `wmma.sp`) between two reads of `mcycle`. Each is a sequence of
//! micro-ops (16 dense at 4 lanes, 32 at 8; sparse 16 at both — at 4 lanes the symmetric
//! layout keeps every K step), issued one per cycle unless a register or the unit holds them:
//! - a fast pipelined unit: one micro-op per cycle, so `d = uops · n + 1` (the `+ 1` and the
//!   `- 1` of the last micro-op's distance cancel against the two `csrr`);
//! - a long latency: micro-op `u` writes the C register micro-op `u - 8` wrote (two K steps
//!   over eight C registers), so it waits `latency` after it;
//! - at 4 lanes sparse, micro-ops `2j` and `2j + 1` write halves of one C register: each pair
//!   costs `latency + 1`;
//! - SimX's unit (`configs/vortex-simx.toml`: 2 places held `interval` cycles): two micro-ops
//!   per `interval`.
//! - with a queue, micro-ops issue before the unit has a place and wait for it there.
//!
//! And `examples/vortex/wmma.s`, which checks its own result, runs timed as SimX.

mod common;

use common::{check_identities, program, run, word};
use weft_simt::{Config, Profile, RunEnd};
use weft_timing::config::Unit;
use weft_timing::MachineConfig;

/// Vortex start-up, then `main`: all lanes run `n` copies of `op` between two reads of
/// mcycle, twice (the first pass warms the I-cache), each pass after a `wsync`; the second
/// pass's difference goes to `out`.
fn source(op: &str, n: usize) -> String {
    let crt0 = format!("{}/../../tests/vortex/crt0.s", env!("CARGO_MANIFEST_DIR"));
    let mut s = std::fs::read_to_string(crt0).expect("tests/vortex/crt0.s");
    s += "\n    .text\n    .globl main\nmain:\n    li t0, -1\n    tmc t0\n    li s7, 2\n";
    // wsync: the previous pass's micro-ops have all left the unit.
    s += "9:\n    wsync\n    csrr s0, mcycle\n";
    s += &format!("    {op}\n").repeat(n);
    s += "    csrr s1, mcycle\n    addi s7, s7, -1\n    bnez s7, 9b\n    sub s1, s1, s0\n";
    s += "    la t2, out\n    sw s1, 0(t2)\n    li t0, 1\n    tmc t0\n    li a0, 0\n    ret\n";
    s += "    .data\n    .align 2\nout:\n    .word 0\n";
    s
}

fn vortex(lanes: usize, latency: u32, interval: u32, count: u32) -> MachineConfig {
    let mut cfg = MachineConfig {
        machine: Config {
            timing: true,
            warps: 1,
            lanes,
            max_cycles: 1_000_000,
            ..Config::for_profile(Profile::Vortex)
        },
        ..MachineConfig::default()
    };
    cfg.timing.units[Unit::Tcu].latency = latency;
    cfg.timing.units[Unit::Tcu].interval = interval;
    cfg.timing.units[Unit::Tcu].count = count;
    cfg
}

/// Cycles between the two reads of mcycle around `n` copies of `op`, and the run's
/// tensor-core counters (instructions, micro-ops).
fn measure(cfg: &MachineConfig, op: &str, n: usize) -> (u64, u64, u64) {
    let prog = program(&source(op, n), "tcu.s");
    let r = run(cfg, &prog);
    assert_eq!(r.end, RunEnd::Exit(0), "{op} x{n}");
    check_identities(&r, 1);
    let t = r.timing.as_ref().unwrap();
    (
        word(&r, &prog, "out", 0) as u64,
        t.tcu.instructions,
        t.tcu.micro_ops,
    )
}

const DENSE: &str = "wmma fp32, fp16";
const SPARSE: &str = "wmma.sp fp32, fp16";

#[test]
fn a_pipelined_unit_takes_one_micro_op_per_cycle() {
    for (lanes, op, uops) in [(4, DENSE, 16), (8, DENSE, 32), (8, SPARSE, 16)] {
        for n in [1u64, 2, 5] {
            let (d, instrs, issued) = measure(&vortex(lanes, 4, 1, 1), op, n as usize);
            assert_eq!(d, uops * n + 1, "{op} x{n} at {lanes} lanes");
            // Two passes.
            assert_eq!((instrs, issued), (2 * n, 2 * n * uops), "{op} x{n}");
        }
    }
}

#[test]
fn a_long_latency_shows_through_the_accumulator_registers() {
    for n in [1u64, 2, 5] {
        // Dense, 4 lanes, latency 12: eight micro-ops, then 12 - 8 cycles' wait for the C
        // register of the eighth before: micro-op u issues at (u / 8)·12 + u % 8.
        let (d, _, _) = measure(&vortex(4, 12, 1, 1), DENSE, n as usize);
        let last = (16 * n - 1) / 8 * 12 + 7;
        assert_eq!(d, last + 2, "dense x{n}");
        // Sparse, 4 lanes, latency 4: pairs on one C register, 5 cycles each.
        let (d, _, uops) = measure(&vortex(4, 4, 1, 1), SPARSE, n as usize);
        assert_eq!(uops, 2 * 16 * n);
        assert_eq!(d, (8 * n - 1) * 5 + 4 + 2, "sparse x{n}");
    }
}

#[test]
fn simx_s_unit_takes_two_micro_ops_per_interval() {
    // latency 6, two places each held 7 cycles: micro-op u issues at (u / 2)·7 + u % 2.
    for n in [1u64, 3] {
        let (d, _, _) = measure(&vortex(4, 6, 7, 2), DENSE, n as usize);
        assert_eq!(d, (8 * n - 1) * 7 + 1 + 2, "x{n}");
    }
}

#[test]
fn micro_ops_wait_for_the_unit_in_its_queue() {
    // SimX's unit with a queue: micro-ops issue before a place is free and start when one
    // is (micro-op u starts at (u / 2)·7 + u % 2 as before). One wmma:
    // - queue 11: never full; micro-op u ≥ 8 waits only for the C register of u − 8,
    //   ready 6 cycles after that one starts, so the last issues at start(7) + 6 = 28;
    // - queue 2: micro-op u issues when u − 2 starts: the last at start(13) = 43;
    // - no queue: the last issues when it starts, at start(15) = 50.
    for (queue, last) in [(11, 28u64), (2, 43), (0, 50)] {
        let mut cfg = vortex(4, 6, 7, 2);
        cfg.timing.units[Unit::Tcu].queue = queue;
        let (d, _, _) = measure(&cfg, DENSE, 1);
        assert_eq!(d, last + 2, "queue {queue}");
    }
}

#[test]
fn the_simx_configuration_gives_the_unit_simx_s_parameters() {
    let f = format!(
        "{}/../../configs/vortex-simx.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let c = MachineConfig::from_toml(&std::fs::read_to_string(f).unwrap()).unwrap();
    let u = c.timing.units[Unit::Tcu];
    // tcu_unit.cpp: Outputs.try_send(trace, 2 + delay) with delay 4 for wmma; an output
    // channel of 2 places (SimChannel's default capacity) per block, one block at 1 issue
    // slice (NUM_TCU_BLOCKS = ISSUE_WIDTH).
    assert_eq!((u.latency, u.interval, u.count, u.shares), (6, 7, 2, None));
    assert_eq!(u.queue, 11);
}

#[test]
fn examples_wmma_checks_its_result_under_simx_s_timing() {
    // examples/vortex/wmma.s: every lane checks D = 5 + 16 in its eight D registers and the
    // program exits 0 only if all do; timed, the one wmma is 16 micro-ops, the unit busy for
    // 8 pairs × 7 cycles.
    let root = format!("{}/../..", env!("CARGO_MANIFEST_DIR"));
    let cfg = MachineConfig::from_toml(
        &std::fs::read_to_string(format!("{root}/configs/vortex-simx.toml")).unwrap(),
    )
    .unwrap();
    let src = std::fs::read_to_string(format!("{root}/examples/vortex/wmma.s")).unwrap();
    let r = run(&cfg, &program(&src, "wmma.s"));
    assert_eq!(r.end, RunEnd::Exit(0));
    check_identities(&r, 1);
    let t = r.timing.as_ref().unwrap().tcu;
    assert_eq!((t.instructions, t.micro_ops, t.busy_cycles), (1, 16, 56));
}

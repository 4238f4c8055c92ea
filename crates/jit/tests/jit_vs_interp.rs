//! The block engine against the interpreter: every program runs on both and must end with the
//! same state in every respect (`Machine::first_difference`: end, cycle, registers, pc, mask,
//! counters, statistics, console, memory) — and the engine must actually have run blocks
//! where the program has private runs, or the comparison proves nothing.

use proptest::prelude::*;
use weft_jit::Jit;
use weft_simt::{Config, RunEnd};

mod common;
use common::{machine, same};

fn cfg(lanes: usize, warps: usize, cores: usize) -> Config {
    common::shape(lanes, warps, cores, 5_000_000)
}

const START: &str = "
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr s0, thread_id
";

const STORE_AND_HALT: &str = "
    la s1, out
    slli t3, s0, 2
    add s1, s1, t3
    sw a0, 0(s1)
    sw a1, 128(s1)
    sw a2, 256(s1)
    csrw tmask, zero
    .data
out: .zero 1024
";

/// Every private operation, on lane-dependent values, in a loop with a uniform back edge,
/// including division by zero and MIN / -1 in some lanes.
fn alu_kernel(iter: u32) -> String {
    format!(
        "{START}
    li a1, {iter}
    li a2, 0x12345
    lui a3, 0x80000
    addi a4, s0, -2         # lanes 2: divisor 0; some lanes -1 …
1:  add a0, s0, a2
    sub a0, a0, a1
    xor a5, a0, a2
    or a2, a5, s0
    and a6, a2, a1
    sll a7, a0, s0
    srl t1, a0, a1
    sra t2, a3, s0
    slt t4, a0, a2
    sltu t5, a0, a2
    slli t6, a0, 3
    srli t6, t6, 5
    srai t6, t6, 1
    slti t4, t6, -7
    sltiu t5, t6, 77
    xori t6, t6, -1
    ori t6, t6, 0x55
    andi t6, t6, 0x7f0
    mul t1, a0, a5
    mulh t2, a0, a3
    mulhu t4, a0, a3
    mulhsu t5, a3, a0
    div s2, a3, a4
    divu s3, a0, a4
    rem s4, a3, a4
    remu s5, a0, a4
    add a2, a2, t1
    add a2, a2, t2
    add a2, a2, t4
    add a2, a2, t5
    add a2, a2, t6
    add a2, a2, s2
    add a2, a2, s3
    add a2, a2, s4
    add a2, a2, s5
    add a2, a2, a7
    auipc s6, 3
    add a2, a2, s6
    addi a1, a1, -1
    bnez a1, 1b
    li s7, -1
    div s8, a3, s7
    rem s9, a3, s7
    add a2, a2, s8
    add a2, a2, s9
{STORE_AND_HALT}"
    )
}

#[test]
fn every_private_operation_matches_at_every_lane_count() {
    for lanes in [1, 2, 3, 4, 5, 8, 13, 16, 32] {
        let (m, end) = same(&alu_kernel(300), &cfg(lanes, 1, 1));
        assert_eq!(end, RunEnd::AllHalted, "{lanes} lanes");
        assert!(m.report().warp_instructions > 300 * 38);
        assert!(m.super_step_cycles() > 300 * 38, "the engine ran the loop");
    }
}

#[test]
fn partial_masks_blend_and_do_not_touch_inactive_lanes() {
    for (lanes, mask) in [(8, 0b1011_0110u32), (32, 0x8001_f00f), (4, 0b0101), (8, 1)] {
        let src = alu_kernel(50).replacen(
            "li t0, -1\n    csrw tmask, t0",
            &format!("li t0, -1\n    csrw tmask, t0\n    csrr s0, thread_id\n    li a0, 7\n    li t0, {mask}\n    csrw tmask, t0"),
            1,
        );
        let (m, _) = same(&src, &cfg(lanes, 1, 1));
        assert!(
            m.super_step_cycles() > 1000,
            "{lanes} lanes, mask {mask:#x}"
        );
    }
}

#[test]
fn divergent_loops_match() {
    let src = format!(
        "{START}
    li a1, 200
    li a2, 0
    andi a6, s0, 1
1:  beqz a6, 2f
    addi a2, a2, 3
    xor a2, a2, a1
    j 3f
2:  addi a2, a2, 5
    sub a2, a2, a1
3:  andi t1, a1, 3
    bltu t1, s0, 4f
    addi a0, a0, 1
4:  addi a1, a1, -1
    bnez a1, 1b
{STORE_AND_HALT}"
    );
    for lanes in [4, 8, 32] {
        same(&src, &cfg(lanes, 1, 1));
    }
}

#[test]
fn self_modifying_code_invalidates_translations() {
    // The loop's `addi a0, a0, 1` is rewritten to `addi a0, a0, 100` half-way: the loop,
    // translated and run by the engine before, must run the new instruction after.
    let src = format!(
        "{START}
    li a0, 0
    li a1, 40
    la t1, patch
    li t2, 0x06450513       # addi a0, a0, 100
    li t4, 20
1:
patch:
    addi a0, a0, 1
    add a2, a2, a0
    xor a3, a3, a2
    addi a1, a1, -1
    bne a1, t4, 1b
    beqz a1, 2f
    sw t2, 0(t1)
    fence.i
    li t4, 0
    j 1b
2:
{STORE_AND_HALT}"
    );
    let (m, _) = same(&src, &cfg(8, 1, 1));
    assert!(m.super_step_cycles() > 150, "{}", m.super_step_cycles());
    let out = m.symbols.iter().find(|(n, _)| n == "out").expect("out").1;
    assert_eq!(m.mem.load(0, out, 4).unwrap(), 20 + 20 * 100);
}

#[test]
fn a_fault_after_a_block_reports_the_exact_pc_and_registers() {
    let src = format!(
        "{START}
    li a1, 100
1:  addi a2, a2, 3
    mul a0, a2, s0
    addi a1, a1, -1
    bnez a1, 1b
    addi a2, a2, 1
    lw a3, 1(zero)
{STORE_AND_HALT}"
    );
    let (m, end) = same(&src, &cfg(8, 1, 1));
    let RunEnd::Fault(f) = end else {
        panic!("expected a fault, got {end:?}")
    };
    assert_eq!(m.cores[0].warps[0].pc, f.pc);
    assert_eq!(m.cores[0].warps[0].x[12][0], 301);
}

#[test]
fn warps_and_cores_racing_on_memory_match_cycle_for_cycle() {
    // Every warp of every core adds to one shared counter without atomics, with private
    // runs of different lengths between the load and the store: the interleaving decides the
    // result, so the engines must interleave alike.
    let src = "
    .text
    .globl _start
_start:
    la t0, body
    csrw spawn_pc, t0
    li t0, -1
    csrw warp_active, t0
body:
    csrr s0, warp_id
    csrr a0, thread_id
    li a1, 50
    la t1, counter
1:  lw t2, 0(t1)
    mv t3, s0
2:  addi t3, t3, -1
    bgez t3, 2b
    addi t2, t2, 1
    sw t2, 0(t1)
    addi a1, a1, -1
    bnez a1, 1b
    csrw tmask, zero
    .data
counter: .word 0
";
    for (warps, cores) in [(1, 1), (4, 1), (3, 2), (1, 3)] {
        same(src, &cfg(8, warps, cores));
    }
}

#[test]
fn the_default_engine_translates_hot_loops_only_and_matches() {
    // Translated after about 1,500 iterations (the break-even rule), then in blocks.
    let src = alu_kernel(20_000);
    let mut a = machine(&src, &cfg(8, 1, 1), false);
    let mut b = machine(&src, &cfg(8, 1, 1), false);
    b.set_engine(Some(Box::new(Jit::new().expect("a Cranelift back end"))));
    assert_eq!(a.run(), b.run());
    assert_eq!(a.first_difference(&b, "interp", "jit"), None);
    assert!(
        b.super_step_cycles() > 18_000 * 38,
        "{}",
        b.super_step_cycles()
    );
}

#[test]
fn runs_are_deterministic() {
    let src = alu_kernel(1000);
    let mut a = machine(&src, &cfg(8, 1, 1), true);
    let mut b = machine(&src, &cfg(8, 1, 1), true);
    assert_eq!(a.run(), b.run());
    assert_eq!(a.first_difference(&b, "first", "second"), None);
}

#[test]
fn a_cycle_bound_inside_a_loop_stops_both_at_the_same_instruction() {
    for bound in [1, 7, 100, 1001, 4567] {
        let mut c = cfg(8, 1, 1);
        c.max_cycles = bound;
        let (m, end) = same(&alu_kernel(10_000), &c);
        assert_eq!(end, RunEnd::CycleLimit(bound));
        assert_eq!(m.cycle, bound);
    }
}

const REGS: [&str; 8] = ["a0", "a1", "a2", "a3", "a4", "a5", "t1", "t2"];
const RR: [&str; 18] = [
    "add", "sub", "xor", "or", "and", "sll", "srl", "sra", "slt", "sltu", "mul", "mulh", "mulhu",
    "mulhsu", "div", "divu", "rem", "remu",
];
const RI: [&str; 9] = [
    "addi", "xori", "ori", "andi", "slti", "sltiu", "slli", "srli", "srai",
];

fn random_kernel(ops: &[(u8, u8, u8, u8, i32)], iters: u32, mask: u32) -> String {
    let mut body = String::new();
    for &(kind, rd, rs1, rs2, imm) in ops {
        let (rd, rs1, rs2) = (
            REGS[rd as usize % 8],
            REGS[rs1 as usize % 8],
            REGS[rs2 as usize % 8],
        );
        // Word accesses at 0, 128 or 256 past each lane's word (sometimes misaligned: the
        // interpreter's slow path).
        let off = (imm as u32 % 3) * 128 + if imm % 7 == 0 { 2 } else { 0 };
        let line = match kind % 6 {
            4 => format!("sw {rs2}, {off}(s4)"),
            5 => format!("lw {rd}, {off}(s4)"),
            0 | 1 => format!("{} {rd}, {rs1}, {rs2}", RR[kind as usize / 6 % RR.len()]),
            2 => {
                let op = RI[kind as usize / 6 % RI.len()];
                let imm = if op.ends_with("li") || op == "srai" {
                    imm & 31
                } else {
                    imm % 2048
                };
                format!("{op} {rd}, {rs1}, {imm}")
            }
            _ => format!("lui {rd}, {}", imm & 0xfffff),
        };
        body.push_str("    ");
        body.push_str(&line);
        body.push('\n');
    }
    format!(
        "{START}
    li t0, {mask}
    csrw tmask, t0
    mul a0, s0, s0
    addi a1, s0, -3
    li a2, -2147483648
    li a3, -1
    xori a4, s0, 0x5a5
    slli a5, s0, 27
    li t1, 0
    la s4, out
    addi s4, s4, 512
    slli s5, s0, 2
    add s4, s4, s5
    li s3, {iters}
1:
{body}
    add t1, t1, a0
    xor t1, t1, a2
    addi s3, s3, -1
    bnez s3, 1b
    blt a0, a1, 2f
    add a0, a0, a5
2:
    mv a1, t1
    mv a2, a4
{STORE_AND_HALT}"
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn random_lane_dependent_kernels_match(
        ops in proptest::collection::vec((any::<u8>(), 0u8..8, 0u8..8, 0u8..8, any::<i32>()), 1..40),
        iters in 1u32..20,
        lanes in prop::sample::select(vec![1usize, 4, 7, 8, 32]),
        mask in any::<u32>(),
    ) {
        let full = if lanes == 32 { u32::MAX } else { (1u32 << lanes) - 1 };
        let mask = if mask & 1 == 0 { full } else { (mask & full).max(1) };
        same(&random_kernel(&ops, iters, mask), &cfg(lanes, 1, 1));
    }
}

/// Every private operation against its `weft-sem` function, lane by lane, on edge values:
/// each lane of a 32-lane warp holds one (a, b) pair, and the block runs in the engine.
#[test]
fn every_operation_equals_its_weft_sem_function_on_edge_values() {
    use weft_sem::alu;
    let edges = [
        0u32,
        1,
        2,
        31,
        32,
        33,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
        0xffff_fffe,
        0x1234_5678,
        0x8765_4321,
    ];
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for &a in &edges {
        for &b in &edges {
            pairs.push((a, b));
        }
    }
    type F = fn(u32, u32) -> u32;
    let ops: [(&str, F); 18] = [
        ("add", alu::add),
        ("sub", alu::sub),
        ("sll", alu::sll),
        ("srl", alu::srl),
        ("sra", alu::sra),
        ("slt", alu::slt),
        ("sltu", alu::sltu),
        ("xor", alu::xor),
        ("or", alu::or),
        ("and", alu::and),
        ("mul", alu::mul),
        ("mulh", alu::mulh),
        ("mulhsu", alu::mulhsu),
        ("mulhu", alu::mulhu),
        ("div", alu::div),
        ("divu", alu::divu),
        ("rem", alu::rem),
        ("remu", alu::remu),
    ];
    for (name, f) in ops {
        let src = format!(
            "    .text\n    .globl _start\n_start:\n    {name} a2, a0, a1\n    {name} a3, a1, a0\n    {name} a4, a0, a0\n    {name} a5, a1, a1\n    csrw tmask, zero\n"
        );
        for chunk in pairs.chunks(32) {
            let mut m = machine(&src, &cfg(32, 1, 1), true);
            let w = &mut m.cores[0].warps[0];
            w.mask = if chunk.len() == 32 {
                u32::MAX
            } else {
                (1 << chunk.len()) - 1
            };
            for (l, &(a, b)) in chunk.iter().enumerate() {
                w.x[10][l] = a;
                w.x[11][l] = b;
            }
            m.run();
            assert_eq!(m.super_step_cycles(), 4, "{name}: the engine ran the block");
            let w = &m.cores[0].warps[0];
            for (l, &(a, b)) in chunk.iter().enumerate() {
                let got = [w.x[12][l], w.x[13][l], w.x[14][l], w.x[15][l]];
                let want = [f(a, b), f(b, a), f(a, a), f(b, b)];
                assert_eq!(got, want, "{name} on ({a:#x}, {b:#x})");
            }
        }
    }
}

/// Word loads and stores inside blocks: consecutive per-lane words, strided words, a shared
/// word, under full and partial masks, with the loop chained in translated code. The loaded
/// registers hold values in every lane first: a load must leave its inactive lanes alone.
#[test]
fn loads_and_stores_in_blocks_match() {
    let src = |mask: u32| {
        format!(
            "{START}
    addi a4, s0, 77
    addi a5, s0, 78
    addi a6, s0, 79
    addi a7, s0, 80
    li t0, {mask}
    csrw tmask, t0
    la s1, out
    addi s1, s1, 512
    slli t3, s0, 2
    add s2, s1, t3
    slli t4, s0, 3
    add s3, s1, t4
    li a1, 300
1:  lw a4, 0(s2)
    add a4, a4, a1
    sw a4, 0(s2)
    lw a5, 128(s2)
    xor a5, a5, a4
    sw a5, 128(s2)
    lw a6, 256(s3)
    add a6, a6, a5
    sw a6, 256(s3)
    sw a1, 0(s1)
    lw a7, 0(s1)
    add a2, a2, a7
    add a2, a2, a6
    addi a1, a1, -1
    bnez a1, 1b
    mv a0, a4
    mv a1, a5
{STORE_AND_HALT}"
        )
    };
    for (lanes, mask) in [
        (8, u32::MAX),
        (32, u32::MAX),
        (8, 0b1001_0110),
        (5, 0b10101),
        (1, 1),
    ] {
        let (m, _) = same(&src(mask), &cfg(lanes, 1, 1));
        assert!(
            m.super_step_cycles() > 300 * 14,
            "{lanes} lanes: {}",
            m.super_step_cycles()
        );
        assert!(m.report().loads > 0);
    }
}

/// A store inside a translated block into a later instruction of the same loop: the block
/// hands the store to the interpreter (it writes decoded code), the translation is dropped,
/// and the loop runs the new instruction.
#[test]
fn a_store_into_code_from_a_block_is_left_to_the_interpreter() {
    let src = format!(
        "{START}
    li a0, 0
    li a1, 40
    la t1, patch
    lw t2, 0(t1)
    li t5, 0x06450513       # addi a0, a0, 100
    li t4, 20
1:  add a2, a2, a1
    xor a3, a3, a2
    bne a1, t4, 2f
    mv t2, t5
2:  sw t2, 0(t1)
    add a3, a3, a1
    xor a2, a2, a3
patch:
    addi a0, a0, 1
    addi a1, a1, -1
    bnez a1, 1b
{STORE_AND_HALT}"
    );
    let (m, _) = same(&src, &cfg(8, 1, 1));
    let out = m.symbols.iter().find(|(n, _)| n == "out").expect("out").1;
    assert_eq!(m.mem.load(0, out, 4).unwrap(), 20 + 20 * 100);
    assert!(m.super_step_cycles() > 100, "{}", m.super_step_cycles());
}

/// Loads and stores the interpreter must do itself — misaligned, outside DRAM, to the exit
/// word — end blocks before them, and the fault or exit happens at the exact instruction.
#[test]
fn accesses_off_the_direct_path_end_the_block_exactly() {
    for (tail, want) in [
        ("lw a3, 2(s1)", "AllHalted"),
        ("sw a3, 0(zero)", "Fault"),
        ("li t1, 0xffffff04\n    sw a2, 0(t1)", "Exit"),
    ] {
        let src = format!(
            "{START}
    la s1, out
    li a1, 50
1:  addi a2, a2, 3
    lw a3, 0(s1)
    add a3, a3, a2
    sw a3, 0(s1)
    addi a1, a1, -1
    bnez a1, 1b
    addi a2, a2, 1
    {tail}
{STORE_AND_HALT}"
        );
        let (m, end) = same(&src, &cfg(8, 1, 1));
        assert!(
            m.super_step_cycles() > 100,
            "{tail}: {}",
            m.super_step_cycles()
        );
        assert!(format!("{end:?}").starts_with(want), "{tail}: {end:?}");
    }
}

/// A warp store of consecutive words (one page copy on the direct path) that lands on code:
/// refused by the memory port, done by the interpreter, the translations dropped.
#[test]
fn a_consecutive_store_over_code_is_left_to_the_interpreter() {
    let src = format!(
        "{START}
    li a0, 0
    li a1, 10
    la t1, patch
    slli t3, s0, 2
    add t1, t1, t3
    li t5, 0x06450513       # addi a0, a0, 100
    li t4, 5
1:  add a2, a2, a1
    xor a3, a3, a2
    bne a1, t4, 2f
    sw t5, 0(t1)
2:  add a3, a3, a1
    xor a2, a2, a3
patch:
    addi a0, a0, 1
    addi a0, a0, 1
    addi a0, a0, 1
    addi a0, a0, 1
    addi a0, a0, 1
    addi a0, a0, 1
    addi a0, a0, 1
    addi a0, a0, 1
    addi a1, a1, -1
    bnez a1, 1b
{STORE_AND_HALT}"
    );
    let (m, _) = same(&src, &cfg(8, 1, 1));
    let out = m.symbols.iter().find(|(n, _)| n == "out").expect("out").1;
    assert_eq!(m.mem.load(0, out, 4).unwrap(), 5 * 8 + 5 * 800);
    assert!(m.super_step_cycles() > 50, "{}", m.super_step_cycles());
}

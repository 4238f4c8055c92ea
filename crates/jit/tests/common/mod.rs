//! Shared by weft-jit's tests: build a machine from assembly on either engine, and run a
//! program on both engines requiring the same whole state.

#![allow(dead_code)]

use weft_jit::Jit;
use weft_simt::load::program_from_elf;
use weft_simt::{Config, Machine, RunEnd};

/// A machine for `src`, with the block engine (eager: every block translated at once) or not.
pub fn machine(src: &str, cfg: &Config, jit: bool) -> Machine {
    let bytes = weft_asm::assemble(src, "t.s").unwrap_or_else(|e| panic!("assembly:\n{e}"));
    let (prog, _) = program_from_elf(&bytes).expect("load");
    let mut m = Machine::new(cfg.clone(), &prog).expect("machine");
    if jit {
        m.set_engine(Some(Box::new(Jit::eager().expect("a Cranelift back end"))));
    }
    m
}

/// The start of a program in which every warp runs the code after it (the label `work`):
/// warp 0 sets `spawn_pc` and starts every warp there, itself included.
pub const SPAWN_ALL: &str = "    .text
    .globl _start
_start:
    la t0, work
    csrw spawn_pc, t0
    li t0, -1
    csrw warp_active, t0
work:
";

/// The end of a kernel after [`SPAWN_ALL`] (with s0 = thread id, s1 = warp id): stores a0,
/// a1 and a2 of each thread to `out` (a0 at `out + 128 × warp + 4 × thread`, a1 1024 bytes
/// on, a2 2048) and halts the warp. The program defines `out` (4096 bytes).
pub const STORE_OUTPUTS: &str = "    la t1, out
    slli t2, s1, 7
    add t1, t1, t2
    slli t3, s0, 2
    add t1, t1, t3
    sw a0, 0(t1)
    sw a1, 1024(t1)
    addi t1, t1, 1024
    sw a2, 1024(t1)
    csrw tmask, zero
";

/// The address of the symbol `out` in the program `src`.
pub fn out_addr(src: &str) -> u32 {
    let elf = weft_asm::assemble(src, "t.s").expect("assembles");
    let (prog, _) = weft_simt::load::program_from_elf(&elf).expect("loads");
    prog.symbols
        .iter()
        .find(|(n, _)| n == "out")
        .expect("an out symbol")
        .1
}

/// The functions the calls tests (`scalar.rs`, `full_calls.rs`) call: `f1` (3a + 1), `f2`
/// (saves `ra`, calls `f1` on a + 5, tail-calls `f3`: xor 0x55), `f4` (a² − 7), `f5` (a + 100,
/// returning with `c.jr`), `f6` (4a), `f7` (a − 9, called linking `t0`), and `rec` (n, at
/// call depth d: n + … + 1 + the depth of `rec(0)`, read from `call_depth`).
pub const CALLEES: &str = "f1: slli t2, a0, 1
    add a0, a0, t2
    addi a0, a0, 1
    ret
f2: addi sp, sp, -16
    sw ra, 12(sp)
    addi a0, a0, 5
    call f1
    lw ra, 12(sp)
    addi sp, sp, 16
    tail f3
f3: xori a0, a0, 0x55
    ret
f4: mul a0, a0, a0
    addi a0, a0, -7
    ret
f5: addi a0, a0, 100
    c.jr ra
f6: slli a0, a0, 2
    ret
f7: addi a0, a0, -9
    jr t0
rec: bnez a0, 2f
    csrr a0, 0x814
    ret
2:  addi sp, sp, -16
    sw ra, 12(sp)
    sw a0, 8(sp)
    addi a0, a0, -1
    call rec
    lw t2, 8(sp)
    add a0, a0, t2
    lw ra, 12(sp)
    addi sp, sp, 16
    ret
";

/// A shape with a cycle bound.
pub fn shape(lanes: usize, warps: usize, cores: usize, max_cycles: u64) -> Config {
    Config {
        lanes,
        warps,
        cores,
        max_cycles,
        ..Config::default()
    }
}

/// Run `src` on both engines; assert the same end and the same whole final state
/// (`Machine::first_difference`); return the jit's machine and end.
pub fn same(src: &str, cfg: &Config) -> (Machine, RunEnd) {
    let mut a = machine(src, cfg, false);
    let mut b = machine(src, cfg, true);
    let ea = a.run();
    let eb = b.run();
    assert_eq!(ea, eb, "run ends differ");
    if let Some(d) = a.first_difference(&b, "interp", "jit") {
        panic!("engines differ: {d}");
    }
    (b, eb)
}

/// Assert that more than `tenths` tenths of `m`'s cycles ran in super-steps (the engine did
/// the work), naming `what` if not.
pub fn assert_super_steps_over(m: &Machine, tenths: u64, what: &str) {
    let cycles = m.report().cycles;
    assert!(
        m.super_step_cycles() * 10 > cycles * tenths,
        "{what}: {} of {cycles} cycles in super-steps",
        m.super_step_cycles()
    );
}

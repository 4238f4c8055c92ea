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

//! Shared helpers for the kernel tests: assemble a program from `tests/kernels/`, run it on a
//! configuration, and read words back by symbol.

#![allow(dead_code)]

use weft_simt::load::program_from_elf;
use weft_simt::{Config, Machine, ReconvMode, RunEnd};

pub struct Run {
    pub m: Machine,
    pub end: RunEnd,
    pub elf: weft_elf::ElfImage,
}

impl Run {
    /// `n` words starting at symbol `sym`.
    pub fn words(&self, sym: &str, n: usize) -> Vec<u32> {
        let a = self
            .elf
            .symbol(sym)
            .unwrap_or_else(|| panic!("no symbol {sym}"))
            .value;
        (0..n)
            .map(|i| self.m.mem.load(0, a + 4 * i as u32, 4).unwrap())
            .collect()
    }
    pub fn word(&self, sym: &str) -> u32 {
        self.words(sym, 1)[0]
    }
}

pub fn source(name: &str) -> String {
    let p = format!("{}/../../tests/kernels/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

pub fn run_src(src: &str, cfg: Config) -> Run {
    let bytes =
        weft_asm::assemble(src, "test.s").unwrap_or_else(|e| panic!("assembly failed:\n{e}"));
    let (prog, _) = program_from_elf(&bytes).expect("load");
    let mut m = Machine::new(cfg, &prog).expect("machine");
    let end = m.run();
    let elf = weft_elf::read_elf(&bytes).unwrap();
    Run { m, end, elf }
}

pub fn run(name: &str, cfg: Config) -> Run {
    run_src(&source(name), cfg)
}

pub fn cfg(lanes: usize, reconv: ReconvMode) -> Config {
    Config {
        lanes,
        reconv,
        max_cycles: 2_000_000,
        ..Config::default()
    }
}

pub fn full(lanes: usize) -> u32 {
    if lanes == 32 {
        u32::MAX
    } else {
        (1 << lanes) - 1
    }
}

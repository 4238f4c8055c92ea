//! Shared by the timing model's tests: assemble a program and run it on the functional model
//! or under the timing model.

#![allow(dead_code)]

use weft_simt::load::program_from_elf;
use weft_simt::{Machine, Program, RunEnd};
use weft_timing::{MachineConfig, TimingModel, TimingReport};

/// Assemble `src`.
pub fn program(src: &str, name: &str) -> Program {
    let elf = weft_asm::assemble(src, name).unwrap_or_else(|e| panic!("{name}:\n{e}"));
    program_from_elf(&elf)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .0
}

/// A finished run.
pub struct Run {
    pub m: Machine,
    pub end: RunEnd,
    pub timing: Option<TimingReport>,
}

/// Run `prog` on `cfg`, under the timing model when `cfg.machine.timing`.
pub fn run(cfg: &MachineConfig, prog: &Program) -> Run {
    let mut m = Machine::new(cfg.machine.clone(), prog).expect("program loads");
    if cfg.machine.timing {
        let mut t = TimingModel::new(&cfg.machine, &cfg.timing);
        let end = t.run(&mut m, u64::MAX);
        let timing = Some(t.report(&m));
        Run { m, end, timing }
    } else {
        let end = m.run();
        Run {
            m,
            end,
            timing: None,
        }
    }
}

/// A word of memory by symbol.
pub fn word(r: &Run, prog: &Program, sym: &str, index: u32) -> u32 {
    let a = prog
        .symbols
        .iter()
        .find(|(n, _)| n == sym)
        .unwrap_or_else(|| panic!("no symbol {sym}"))
        .1;
    r.m.mem.load(0, a + 4 * index, 4).expect("readable")
}

/// The counter identities every timing run keeps.
pub fn check_identities(r: &Run, cores: usize) {
    let t = r.timing.as_ref().expect("a timing run");
    let stalled: u64 = t.stalls.values().sum();
    assert_eq!(
        t.issued + stalled,
        t.cycles * cores as u64,
        "issued + stalled slots = cycles × schedulers"
    );
    for (name, c) in [("L1", t.l1), ("I-cache", t.icache)]
        .into_iter()
        .chain(t.l2.map(|c| ("L2", c)))
    {
        assert_eq!(
            c.hits + c.misses,
            c.accesses,
            "{name}: hits + misses = accesses"
        );
        assert!(c.mshr_merges <= c.misses, "{name}: merges are misses");
    }
    let report = r.m.report();
    assert_eq!(
        t.issued,
        report.warp_instructions + t.tcu.micro_ops - t.tcu.instructions,
        "one issue per warp-instruction, or per micro-op of a tensor-core instruction"
    );
    assert_eq!(t.cycles, report.cycles);
    let per_warp: u64 = t.per_warp.iter().map(|w| w.issued).sum();
    assert_eq!(per_warp, t.issued);
}

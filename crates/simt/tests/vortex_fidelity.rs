//! Vortex fidelity (issue 17): the reproductions `tests/vortex/{wspawn_wait_count,
//! minstret_self,barrier_ids}.s` (copies of `../shared/repro/vortex/`) run under the Vortex
//! profile with the results Vortex's SimX (v3.0, e6fcb7d2, 1 × 4 × 4) gives, which each test
//! states; the expected counts are derived here from the programs' text.

use std::cell::RefCell;
use std::rc::Rc;
use weft_isa::Op;
use weft_simt::load::program_from_elf;
use weft_simt::{Config, Machine, Observer, Profile, RunEnd, StepRecord};

#[derive(Clone, Default)]
struct Keep(Rc<RefCell<Vec<(u32, usize, Op)>>>);

impl Observer for Keep {
    fn step(&mut self, _m: &Machine, r: &StepRecord) {
        self.0.borrow_mut().push((r.pc, r.warp, r.inst.op));
    }
}

fn source(name: &str) -> String {
    let p = format!("{}/../../tests/vortex/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

fn machine(src: &str, cfg: Config) -> Machine {
    let elf = weft_asm::assemble(src, "vortex-fidelity.s").unwrap_or_else(|e| panic!("{e}"));
    let (prog, _) = program_from_elf(&elf).expect("load");
    Machine::new(cfg, &prog).expect("machine")
}

fn vortex() -> Config {
    Config {
        max_cycles: 1_000_000,
        ..Config::for_profile(Profile::Vortex)
    }
}

#[test]
fn a_waiting_wspawn_is_counted_and_traced_once() {
    // SimX: exit 0 — the minstret difference is 134 (warp 0's 8 instructions between the
    // reads plus the three workers' 42 each); the waiting `wspawn 1, 0` commits once.
    let mut m = machine(&source("wspawn_wait_count.s"), vortex());
    let keep = Keep::default();
    m.add_observer(Box::new(keep.clone()));
    assert_eq!(m.run(), RunEnd::Exit(0));
    let recs = keep.0.borrow();
    // Warp 0: wsync, csrr, li, auipc+addi (la), wspawn, li, wspawn, wsync, csrr, sub, addi,
    // lui+addi (li 0x8348), sw, tmc = 16. A worker: li, 20 × (addi, bnez), tmc = 42.
    let per_warp = |w: usize| recs.iter().filter(|r| r.1 == w).count();
    assert_eq!(per_warp(0), 16);
    for w in 1..4 {
        assert_eq!(per_warp(w), 42, "worker warp {w}");
    }
    let spawns: Vec<u32> = recs
        .iter()
        .filter(|r| r.2 == Op::VxWspawn)
        .map(|r| r.0)
        .collect();
    // The two wspawns, at 0x14 and 0x1c (after 5 and 7 four-byte instructions), once each.
    assert_eq!(spawns, [0x8000_0014, 0x8000_001c]);
    let rep = m.report();
    assert_eq!(rep.warp_instructions, 16 + 3 * 42);
    assert_eq!(rep.mnemonics.get("wspawn"), Some(&2));
}


//! The step record: each warp-instruction's record says what it read, wrote and touched.
//! Checked two ways: a hand-computed program, and a shadow register file rebuilt from nothing
//! but the records' writes, which must end equal to the machine's registers on whole
//! programs (what a lockstep checker or a debugger relies on).

use std::cell::RefCell;
use std::rc::Rc;
use weft_simt::load::program_from_elf;
use weft_simt::record::{AccessKind, DivEvents, RegFile};
use weft_simt::{Config, Machine, Observer, RunEnd, StepRecord};

#[derive(Clone, Default)]
struct Keep(Rc<RefCell<Vec<StepRecord>>>);

impl Observer for Keep {
    fn step(&mut self, _m: &Machine, r: &StepRecord) {
        self.0.borrow_mut().push(r.clone());
    }
}

fn machine(src: &str, lanes: usize) -> Machine {
    let elf = weft_asm::assemble(src, "t.s").unwrap_or_else(|e| panic!("{e}"));
    let (prog, _) = program_from_elf(&elf).unwrap();
    let cfg = Config {
        lanes,
        warps: 1,
        max_cycles: 10_000_000,
        ..Config::default()
    };
    Machine::new(cfg, &prog).unwrap()
}

#[test]
fn a_record_names_reads_writes_accesses_and_divergence() {
    let src = "
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    la a1, data
    slli t1, s0, 2
    add a1, a1, t1
    lw a2, 0(a1)
    addi a3, a2, 5
    beqz s0, 1f
    li a4, 1
1:  csrw tmask, zero
    .data
data: .word 10, 20, 30, 40
";
    let mut m = machine(src, 4);
    let keep = Keep::default();
    m.add_observer(Box::new(keep.clone()));
    assert_eq!(m.run(), RunEnd::AllHalted);
    let recs = keep.0.borrow();
    let lw = recs.iter().find(|r| r.inst.op == weft_isa::Op::Lw).unwrap();
    assert_eq!(lw.mask, 0xf);
    let base = lw.mem[0].addr;
    assert_eq!(lw.mem.len(), 4);
    for (l, a) in lw.mem.iter().enumerate() {
        assert_eq!(
            (a.lane as usize, a.addr, a.size, a.kind),
            (l, base + 4 * l as u32, 4, AccessKind::Load)
        );
    }
    assert_eq!(lw.writes[0].file, RegFile::X);
    assert_eq!(lw.writes[0].index, 12);
    assert_eq!(lw.writes[0].values, vec![10, 20, 30, 40]);
    let addi = recs
        .iter()
        .find(|r| r.inst.op == weft_isa::Op::Addi && r.inst.rd == 13)
        .unwrap();
    assert_eq!(addi.reads[0].values, vec![10, 20, 30, 40]);
    assert_eq!(addi.writes[0].values, vec![15, 25, 35, 45]);
    let br = recs
        .iter()
        .find(|r| r.inst.op == weft_isa::Op::Beq)
        .unwrap();
    assert!(br.divergence.has(DivEvents::PUSH));
    assert_eq!(br.next_mask, 0xe, "the fall-through lanes run first");
    assert!(recs.iter().all(|r| r.fault.is_none()));
}

/// Replay the records' register writes onto a shadow file and compare with the machine.
fn shadow_matches(path: &str, lanes: usize) {
    let p = format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&p).unwrap();
    let mut m = machine(&src, lanes);
    let keep = Keep::default();
    m.add_observer(Box::new(keep.clone()));
    let end = m.run();
    assert!(
        matches!(end, RunEnd::AllHalted | RunEnd::Exit(0)),
        "{path}: {end:?}"
    );
    let recs = keep.0.borrow();
    assert!(!recs.is_empty());
    let n = m.cfg.warps;
    let mut x = vec![[[0u32; 32]; 32]; n];
    let mut f = vec![[[0u32; 32]; 32]; n];
    let mut seen_x = vec![[0u32; 32]; n];
    let mut seen_f = vec![[0u32; 32]; n];
    for r in recs.iter() {
        for wv in &r.writes {
            for l in 0..lanes {
                if r.mask >> l & 1 != 0 {
                    let (file, seen) = match wv.file {
                        RegFile::X => (&mut x[r.warp], &mut seen_x[r.warp]),
                        RegFile::F => (&mut f[r.warp], &mut seen_f[r.warp]),
                    };
                    file[wv.index as usize][l] = wv.values[l];
                    seen[wv.index as usize] |= 1 << l;
                }
            }
        }
    }
    let mut compared = 0;
    for w in 0..n {
        let warp = &m.cores[0].warps[w];
        for reg in 1..32 {
            for l in 0..lanes {
                if seen_x[w][reg] >> l & 1 != 0 {
                    assert_eq!(
                        x[w][reg][l], warp.x[reg][l],
                        "{path} warp {w} x{reg} lane {l}"
                    );
                    compared += 1;
                }
                if seen_f[w][reg] >> l & 1 != 0 {
                    assert_eq!(
                        f[w][reg][l], warp.f[reg][l],
                        "{path} warp {w} f{reg} lane {l}"
                    );
                }
                // Registers start at 0: a non-zero one must have been written by a record.
                if w == 0 && warp.x[reg][l] != 0 {
                    assert!(
                        seen_x[w][reg] >> l & 1 != 0,
                        "{path}: x{reg} lane {l} written unseen"
                    );
                }
            }
        }
    }
    assert!(compared > 0, "{path}: nothing compared");
}

#[test]
fn registers_rebuilt_from_the_records_equal_the_machine() {
    for p in [
        "examples/matmul.s",
        "examples/divergence/two_exits.s",
        "examples/divergence/jump_table.s",
        "examples/divergence/indirect_call.s",
        "examples/divergence/nested.s",
    ] {
        for lanes in [1, 4, 8] {
            shadow_matches(p, lanes);
        }
    }
}

//! The CI slice of the QEMU differential campaign: a fixed seed range of random RV32IMAF
//! programs, each run on weft (one lane) and on `qemu-system-riscv32 -machine spike`, must
//! print the same registers, fcsr and data region. Skipped (with a message) only when QEMU is
//! not installed; CI installs it.

use std::time::Duration;
use weft_difftest::gen::TOTAL_WORDS;
use weft_difftest::minimize::minimize;
use weft_difftest::runner::{build, check, qemu_available, run_qemu, run_weft, Verdict};
use weft_difftest::{GenConfig, TestProgram};

const SEED: u64 = 0x5eed_0000;
const COUNT: u64 = 160;
const TIMEOUT: Duration = Duration::from_secs(20);

#[test]
fn weft_matches_qemu_on_random_programs() {
    campaign(SEED, GenConfig::default());
}

/// The same with compressed instructions mixed in: 2- and 4-byte instructions at every
/// halfword alignment, compressed branches, jumps, calls, loads and stores.
#[test]
fn weft_matches_qemu_on_random_programs_with_compressed_code() {
    let cfg = GenConfig {
        compressed: true,
        ..GenConfig::default()
    };
    campaign(SEED_C, cfg);
}

const SEED_C: u64 = 0xc0de_0000;

/// QEMU is the reference: missing, the test fails saying what to install (never a skip).
fn need_qemu() {
    assert!(
        qemu_available(),
        "qemu-system-riscv32 is not installed: apt-get install -y qemu-system-misc \
         (scripts/test --setup installs it)"
    );
}

fn campaign(seed: u64, cfg: GenConfig) {
    need_qemu();
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2u64)
            .map(|t| {
                let cfg = &cfg;
                s.spawn(move || {
                    let mut out = Vec::new();
                    for i in (t..COUNT).step_by(2) {
                        let prog = TestProgram::generate(seed + i, cfg);
                        let v = check(&prog, TIMEOUT);
                        if v.is_failure() {
                            let small = minimize(&prog, |p| check(p, TIMEOUT).is_failure());
                            out.push(format!(
                                "seed {:#x}: {v:?}\nminimized ({:?}):\n{}",
                                prog.seed,
                                check(&small, TIMEOUT),
                                small.source()
                            ));
                        }
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| {
                h.join()
                    .unwrap_or_else(|_| vec!["a worker panicked".into()])
            })
            .collect()
    });
    assert!(
        failures.is_empty(),
        "{} of {COUNT} programs differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The comparison is not vacuous: the dumps are full, differ between seeds, and the float
/// part sets flags.
#[test]
fn dumps_are_informative() {
    need_qemu();
    let cfg = GenConfig::default();
    let a = run_weft(&build(&TestProgram::generate(7, &cfg)).unwrap()).unwrap();
    let b = run_qemu(&build(&TestProgram::generate(8, &cfg)).unwrap(), TIMEOUT).unwrap();
    assert_eq!(a.0.len(), TOTAL_WORDS);
    assert_ne!(a, b, "different seeds give different dumps");
    let distinct: std::collections::HashSet<_> = a.0.iter().collect();
    assert!(
        distinct.len() > 40,
        "dump has {} distinct words",
        distinct.len()
    );
    let flags_set = (0..20)
        .filter_map(|s| run_weft(&build(&TestProgram::generate(s, &cfg)).ok()?).ok())
        .filter(|d| d.0[64] & 0x1f != 0)
        .count();
    assert!(
        flags_set > 5,
        "only {flags_set} of 20 programs end with fflags set"
    );
}

/// The minimizer keeps a failing property and drops everything else.
#[test]
fn minimizer_shrinks_to_the_culprit() {
    let prog = TestProgram::generate(3, &GenConfig::default());
    let culprit = prog.body[17].clone();
    let small = minimize(&prog, |p| p.body.contains(&culprit));
    assert_eq!(small.body, vec![culprit]);
    assert!(!Verdict::Same.is_failure());
}

/// End to end: a real weft/QEMU difference (`misa`: QEMU's spike CPU reports RV32GC with
/// S and U modes, weft reports RV32IMAFC) planted in a random program is found, and the
/// minimizer reduces the body to that one block.
#[test]
fn a_planted_difference_is_found_and_minimized() {
    need_qemu();
    let cfg = GenConfig {
        blocks: 24,
        ..GenConfig::default()
    };
    let mut prog = TestProgram::generate(11, &cfg);
    let planted = weft_difftest::gen::Block {
        lines: vec!["csrr x29, misa".into()],
    };
    // Last, so no later AMO block overwrites x29 (the AMO address register).
    prog.body.push(planted.clone());
    let v = check(&prog, TIMEOUT);
    let Verdict::Differ(d) = &v else {
        panic!("expected a difference, got {v:?}")
    };
    assert!(d.iter().any(|(n, _, _)| n == "x29"), "{d:?}");
    let small = minimize(&prog, |p| check(p, TIMEOUT).is_failure());
    assert_eq!(
        small.body,
        vec![planted],
        "minimized to:\n{}",
        small.source()
    );
}

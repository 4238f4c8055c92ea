//! The CI slice of the real-compiler campaign (docs/reliability.md): every corpus kernel
//! built by clang and gcc at -O0…-Os and run at 1, 4, 8 and 32 lanes, and 30 csmith programs
//! made lane-dependent; every lane's result must equal the host's. Fails with the apt package
//! to install when a compiler or csmith is missing.

use weft_difftest::{compiled, csmith};

fn toolchain() -> compiled::Toolchain {
    compiled::toolchain().unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_corpus_gives_the_hosts_results_at_every_level_and_lane_count() {
    let tc = toolchain();
    let r = compiled::corpus_campaign(&tc, 2).unwrap_or_else(|e| panic!("{e}"));
    let kernels = compiled::corpus().unwrap().len();
    assert!(kernels >= 16, "corpus has {kernels} kernels");
    every_run_passes(&r, kernels);
}

/// Every kernel ran with both compilers at five levels and four lane counts, and every run
/// equals the host.
fn every_run_passes(r: &[compiled::CaseReport], kernels: usize) {
    assert_eq!(
        r.len(),
        kernels * 2 * 5 * 4,
        "every build ran at every lane count"
    );
    let bad: Vec<String> = r
        .iter()
        .filter(|c| c.outcome != compiled::Outcome::Pass)
        .map(|c| c.to_string())
        .collect();
    assert!(
        bad.is_empty(),
        "{} runs differ from the host:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn the_corpus_built_with_compressed_instructions_gives_the_hosts_results() {
    // -march=rv32imafc: clang and gcc emit 2-byte instructions wherever they can (checked
    // per build through the ELF's RVC flag), so branches, calls, links and reconvergence
    // run over mixed 2- and 4-byte code.
    let tc = toolchain();
    let r = compiled::corpus_campaign_for(&tc, 2, "rv32imafc").unwrap_or_else(|e| panic!("{e}"));
    let kernels = compiled::corpus().unwrap().len();
    every_run_passes(&r, kernels);
}

#[test]
fn csmith_programs_give_the_hosts_results() {
    let tc = toolchain();
    let s = csmith::campaign(&tc, 1, 30, 2, false).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.programs, 30);
    let fails: Vec<String> = s
        .failed
        .iter()
        .flat_map(|(seed, runs)| {
            runs.iter()
                .filter(|c| c.outcome.is_failure())
                .map(move |c| format!("seed {seed}: {c}"))
        })
        .collect();
    assert!(fails.is_empty(), "{}", fails.join("\n"));
    // Most programs must actually be compared, not explained away.
    assert!(
        s.passed >= 20,
        "only {} of 30 compared: {:?}",
        s.passed,
        s.explained
    );
}

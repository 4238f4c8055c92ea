//! Random lane-dependent kernels from the SIMT consistency generator
//! (`weft_difftest::kernel`, the one `crates/difftest/tests/simt_consistency.rs` uses) in
//! lockstep with the functional model, at 4 warps × 8 lanes and at 2 warps × 4 lanes.
//!
//! The kernels branch on values derived from each lane's id (if/else, loops with id-dependent
//! trip counts and early exits, loops whose exit branch is backward, breaks, inner loops),
//! call functions from divergent code, load, store and run AMOs on per-lane memory, and
//! compute with floats (`fadd.s`, `fmul.s`, `fdiv.s`, `fcvt`, `flt.s`, `fsw`, on
//! lane-dependent values). Each kernel runs in both reconvergence modes: table
//! mode (the model's default: the testbench loads the kernel's reconvergence table into the
//! core's table memory) and converge mode. Divergent `switch`es through jump tables, calls
//! through per-lane function pointers, returns out of divergent regions and recursion all
//! run. A kernel that makes the RTL stop with "does not implement" is counted with its
//! reason, never compared loosely, and the test requires a minimum number of kernels
//! compared in full, every retirement's clock cycle too (the timing model's prediction,
//! configs/weft-rtl.toml).
//! Every kernel is written to `target/rtl/kernels/` so a failure can be rerun with
//! `weft-rtl-lockstep target/rtl/kernels/<seed>.s`.

use weft_difftest::kernel::Kernel;
use weft_rtl_lockstep::{lockstep, repo_root, ReconvMode, Shape};

const SEED: u64 = 0x5254_4c00;
const KERNELS: u64 = 80;
/// Top-level blocks per kernel, as the consistency test (6 before the RTL had activations and
/// table mode: fewer blocks left more kernels inside what it implemented then).
const BLOCKS: usize = 14;

/// Lockstep every kernel at `shape`; the number compared in full.
fn run(shape: Shape, mode: ReconvMode) -> usize {
    let dir = repo_root().join("target/rtl/kernels");
    std::fs::create_dir_all(&dir).expect("target/rtl/kernels");
    let ids: Vec<u32> = (0..32).collect();
    let (mut agree, mut unsupported, mut failures) = (0, Vec::new(), Vec::new());
    for k in 0..KERNELS {
        let seed = SEED + k;
        let src = Kernel::generate(seed, BLOCKS).source(&ids);
        let path = dir.join(format!("{seed:x}.s"));
        // the tests of both modes may run at once: write the same text only once
        if std::fs::read_to_string(&path).ok().as_deref() != Some(src.as_str()) {
            std::fs::write(&path, &src).expect("write kernel");
        }
        match lockstep(&path, shape, mode, false) {
            Ok(a) => {
                agree += 1;
                eprintln!(
                    "{seed:#x}: {} warp-instructions agree, end `{}`",
                    a.steps, a.end
                );
                if let Err(e) = a.cycles {
                    failures.push(format!("{seed:#x} ({}): {e}", mode.name()));
                }
            }
            Err(e) if e.contains("does not implement") => {
                eprintln!("{seed:#x}: {e}");
                unsupported.push(format!("{seed:#x}"))
            }
            Err(e) => failures.push(e),
        }
    }
    eprintln!(
        "{shape:?} {}: {agree} of {KERNELS} kernels agree in full; {} stopped at what the RTL \
         does not implement: {}",
        mode.name(),
        unsupported.len(),
        unsupported.join(" ")
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    agree
}

#[test]
fn random_kernels_4x8_table() {
    let agree = run(Shape::DEFAULT, ReconvMode::Table);
    assert!(agree >= MIN_AGREE, "only {agree} kernels compared in full");
}

#[test]
fn random_kernels_4x8_converge() {
    let agree = run(Shape::DEFAULT, ReconvMode::Converge);
    assert!(agree >= MIN_AGREE, "only {agree} kernels compared in full");
}

#[test]
fn random_kernels_2x4_table() {
    let agree = run(Shape::SMALL, ReconvMode::Table);
    assert!(agree >= MIN_AGREE, "only {agree} kernels compared in full");
}

#[test]
fn random_kernels_2x4_converge() {
    let agree = run(Shape::SMALL, ReconvMode::Converge);
    assert!(agree >= MIN_AGREE, "only {agree} kernels compared in full");
}

/// At least this many of the kernels must be compared in full: all of them (measured: 80 of
/// 80 at 4x8 and at 2x4, in table and in converge mode). A kernel stopping at one of the
/// divergence unit's limits (more than WAITS waiting groups in an entry, a split deeper than
/// CDEPTH calls) would be named with the reason and make this fail.
const MIN_AGREE: usize = 80;

//! Every kernel of the kernel library (`examples/kernels/*.c`: vecadd, saxpy, sgemm, matrix,
//! conv2d, reduce, scan, histogram, bitonic, bfs, mandelbrot, diverge) built as a user builds
//! it, `weft cc -O2` (RV32IMAF with weft's device runtime: launches over a grid, barriers,
//! shared memory, atomics, printf, floats; the reconvergence table in the ELF), run on the RTL
//! in lockstep with the functional model, at 4 warps × 8 lanes and at 2 warps × 4 lanes, in
//! table mode (weft cc's default). Each program checks its own results against a reference
//! computed on the host side of the program and exits 0 only if they agree; every
//! warp-instruction must agree, every run must end with `exit 0`, and every retirement's clock
//! cycle must be the one the timing model (configs/weft-rtl.toml) predicts. The builds are kept in
//! `target/rtl/kernels-cc/` to rerun one by hand (`weft-rtl-lockstep
//! target/rtl/kernels-cc/sgemm.elf --shape 2x4x4`). clang or Verilator missing is a failure
//! with a message, never a skip.
//!
//! Blocks larger than the core (compact, conv2d, histogram_warp, saxpy, warp_scan at 4 × 8)
//! run as fibers (device/lib/fiber.c): every switch between a fiber and its scheduler saves
//! and restores the divergence unit's call depth (the `call_depth` CSR, docs/isa.md §6.1), so
//! they run at the depth of their own calls on both sides, with no exception.

use std::path::PathBuf;
use weft_rtl_lockstep::{lockstep, repo_root, ReconvMode, Shape};

/// Build every kernel of examples/kernels with weft cc -O2 (once per test process).
fn builds() -> Vec<(String, PathBuf)> {
    let dir = repo_root().join("target/rtl/kernels-cc");
    std::fs::create_dir_all(&dir).expect("target/rtl/kernels-cc");
    let mut srcs: Vec<PathBuf> = std::fs::read_dir(repo_root().join("examples/kernels"))
        .expect("examples/kernels")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    srcs.sort();
    assert!(
        srcs.len() >= 12,
        "{} kernels in examples/kernels",
        srcs.len()
    );
    srcs.iter()
        .map(|src| {
            let name = src.file_stem().unwrap().to_string_lossy().into_owned();
            // (a file of this process: the two shapes' tests build at once)
            let out = dir.join(format!("{name}-{}.elf", std::process::id()));
            let o = weft_cc::Options {
                inputs: vec![src.clone()],
                output: out.clone(),
                ..weft_cc::Options::default()
            };
            weft_cc::build(&o).unwrap_or_else(|e| panic!("weft cc {}: {e}", src.display()));
            let keep = dir.join(format!("{name}.elf"));
            let _ = std::fs::rename(&out, &keep);
            (name, if keep.exists() { keep } else { out })
        })
        .collect()
}

fn run(shape: Shape) {
    let mut failures = Vec::new();
    let kernels = builds();
    for (name, elf) in &kernels {
        match lockstep(elf, shape, ReconvMode::Table, false) {
            Ok(a) if a.end == "exit 0" => match a.cycles {
                Ok(c) => eprintln!(
                    "{name}: {} warp-instructions agree, `exit 0`, every cycle agrees ({})",
                    a.steps,
                    c + 1
                ),
                Err(e) => failures.push(format!("{name}: {e}")),
            },
            Ok(a) => failures.push(format!("{name}: agrees but ends `{}`", a.end)),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn kernel_library_4x8() {
    run(Shape::DEFAULT);
}

#[test]
fn kernel_library_2x4() {
    run(Shape::SMALL);
}

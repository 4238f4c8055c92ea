//! C kernels built with weft cc print exactly what the same source prints built for the host
//! (gcc, 32-bit x86, the runtime's host emulation), at several lane counts and optimisation
//! levels, under the post-dominator table and under emitted `converge` instructions.

mod common;
use common::*;
use weft_cc::Reconv;

/// Every kernel of the library (examples/kernels), checked against the host build and its
/// own sequential check ("PASS").
#[test]
fn library_kernels_match_the_host() {
    let dir = tempfile::tempdir().unwrap();
    let mut names: Vec<_> = std::fs::read_dir(root().join("examples/kernels"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    names.sort();
    assert!(
        names.len() >= 12,
        "the kernel library is missing kernels: {names:?}"
    );
    for src in &names {
        let name = src.file_stem().unwrap().to_string_lossy().into_owned();
        let (want, code) = host_output(src, dir.path());
        assert_eq!(code, 0, "{name} fails on the host:\n{want}");
        assert!(
            want.contains(&format!("{name}: PASS")),
            "{name} host output:\n{want}"
        );
        let table = build_device(src, "-O2", Reconv::Table, dir.path());
        for (cores, warps, lanes) in [(1, 4, 8), (1, 2, 1), (2, 4, 4)] {
            let (got, code) = run(&table, cores, warps, lanes, mode_of(Reconv::Table));
            assert_eq!(
                (got.as_str(), code),
                (want.as_str(), 0),
                "{name} at {cores}x{warps}x{lanes}"
            );
        }
        let conv = build_device(src, "-O2", Reconv::Converge, dir.path());
        let (got, code) = run(&conv, 1, 4, 32, mode_of(Reconv::Converge));
        assert_eq!(
            (got.as_str(), code),
            (want.as_str(), 0),
            "{name} with converge at 32 lanes"
        );
    }
}

/// Recursion, function pointers, a per-lane switch, early returns, every loop layout and a
/// tail call, with printf from each thread: -O0, -O2 and -Os, 1, 8 and 32 lanes, both mechanisms.
#[test]
fn control_shapes_at_every_level_lane_count_and_mechanism() {
    let dir = tempfile::tempdir().unwrap();
    let src = test_kernel("control_shapes.c");
    let (want, code) = host_output(&src, dir.path());
    assert_eq!(code, 0);
    assert_eq!(
        want.lines().count(),
        102,
        "one line per thread and `done`:\n{want}"
    );
    for opt in ["-O0", "-O2", "-Os"] {
        for reconv in [Reconv::Table, Reconv::Converge] {
            let elf = build_device(&src, opt, reconv, dir.path());
            for lanes in [1, 8, 32] {
                let (got, code) = run(&elf, 1, 4, lanes, mode_of(reconv));
                assert_eq!(
                    (got.as_str(), code),
                    (want.as_str(), 0),
                    "{opt} {reconv:?} {lanes} lanes"
                );
            }
        }
    }
}

/// The device printf against the host C library, byte for byte: integers with every flag,
/// strings, and exactly rounded %f %e %g of random doubles.
#[test]
fn printf_matches_the_c_library() {
    let dir = tempfile::tempdir().unwrap();
    let src = test_kernel("printf_formats.c");
    let (want, code) = host_output(&src, dir.path());
    assert_eq!(code, 0);
    assert!(want.lines().count() > 1000);
    let elf = build_device(&src, "-O2", Reconv::Table, dir.path());
    let (got, code) = run(&elf, 1, 1, 1, mode_of(Reconv::Table));
    assert_eq!(code, 0);
    for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(g, w, "line {}", i + 1);
    }
    assert_eq!(got.lines().count(), want.lines().count());
}

/// A lane recursing past its stack is reported with its position and the flag to raise.
#[test]
fn stack_overflow_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let elf = build_device(
        &test_kernel("stack_overflow.c"),
        "-O2",
        Reconv::Table,
        dir.path(),
    );
    let (got, code) = run(&elf, 1, 4, 8, mode_of(Reconv::Table));
    assert_eq!(code, 250, "{got}");
    assert!(
        got.contains("stack overflow: core 0 warp 0 lane 5") && got.contains("--stack-size"),
        "{got}"
    );
}

/// A barrier in a block larger than a core cannot work; the runtime says so.
#[test]
fn syncthreads_in_a_block_larger_than_a_core_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let elf = build_device(
        &test_kernel("sync_too_big.c"),
        "-O2",
        Reconv::Table,
        dir.path(),
    );
    let (got, code) = run(&elf, 1, 4, 8, mode_of(Reconv::Table));
    assert_eq!(code, 253, "{got}");
    assert!(got.contains("weft_syncthreads"), "{got}");
}

/// Barriers where an optimiser could duplicate them into divergent arms (LLVM's machine tail
/// duplication does, unless weft cc turns it off): every -O level, blocks of 1, 2 and 4 warps.
#[test]
fn barriers_stay_where_the_source_puts_them() {
    let dir = tempfile::tempdir().unwrap();
    let src = test_kernel("barrier_shapes.c");
    let (want, code) = host_output(&src, dir.path());
    assert_eq!(code, 0);
    for opt in ["-O0", "-O1", "-O2", "-O3", "-Os"] {
        let elf = build_device(&src, opt, Reconv::Table, dir.path());
        for (warps, lanes) in [(4, 8), (4, 4), (2, 16), (8, 8)] {
            let (got, code) = run(&elf, 1, warps, lanes, mode_of(Reconv::Table));
            assert_eq!((got.as_str(), code), (want.as_str(), 0), "{opt} {warps}x{lanes}");
        }
    }
}

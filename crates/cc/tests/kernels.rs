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
    let names = library_kernels();
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

/// The runtime's sequential emulation built for RISC-V Linux user mode (`weft cc --qemu`, the
/// scalar reference of `weft bench --vs-qemu`) prints, under qemu-riscv32, what the host build
/// prints for every kernel of the library; and the same program built to run on one weft lane
/// prints it there too (so weft's count of its instructions is a count of that program).
#[test]
fn library_kernels_run_as_one_scalar_thread_on_qemu() {
    let dir = tempfile::tempdir().unwrap();
    let names = library_kernels();
    for src in &names {
        let name = src.file_stem().unwrap().to_string_lossy().into_owned();
        let (want, code) = host_output(src, dir.path());
        assert_eq!(code, 0, "{name} fails on the host:\n{want}");
        let (got, code) = qemu_output(src, dir.path());
        assert_eq!(
            (got.as_str(), code),
            (want.as_str(), 0),
            "{name} on qemu-riscv32"
        );
        let elf = build_qemu_on_weft(src, dir.path());
        let (got, code) = run(&elf, 1, 1, 1, mode_of(Reconv::Table));
        assert_eq!(
            (got.as_str(), code),
            (want.as_str(), 0),
            "{name}: the qemu program on weft"
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

/// Blocks larger than a core meet at barriers (their software warps wait as fibers): a
/// 256-thread reduction, a 16 x 20 tile moved round through shared memory, a 1,024-thread
/// prefix sum, against the host build, on machines of every kind of shape (one lane, a
/// partial last warp, several cores), at -O0 and -O2, under both reconvergence mechanisms.
/// (The timing model runs it in crates/weft/tests/cc_cli.rs.)
#[test]
fn blocks_larger_than_a_core_meet_at_barriers() {
    let dir = tempfile::tempdir().unwrap();
    let src = test_kernel("big_blocks.c");
    let (want, code) = host_output(&src, dir.path());
    assert_eq!(code, 0, "{want}");
    assert!(want.contains("scan[1023] = 1017"), "{want}");
    for (opt, reconv) in [
        ("-O2", Reconv::Table),
        ("-O0", Reconv::Table),
        ("-O2", Reconv::Converge),
    ] {
        let elf = build_device(&src, opt, reconv, dir.path());
        let shapes: &[(usize, usize, usize)] = if (opt, reconv) == ("-O2", Reconv::Table) {
            &[(1, 4, 8), (2, 2, 3), (1, 1, 1), (2, 8, 8)]
        } else {
            &[(1, 4, 8), (2, 2, 3)]
        };
        for &(cores, warps, lanes) in shapes {
            let (got, code) = run(&elf, cores, warps, lanes, mode_of(reconv));
            assert_eq!(
                (got.as_str(), code),
                (want.as_str(), 0),
                "{opt} {reconv:?} {cores}x{warps}x{lanes}"
            );
        }
    }
}

/// In a block larger than a core a barrier must be reached by every thread of a warp
/// together (its warp is put aside there); one that returned early is a clear error.
#[test]
fn a_barrier_only_part_of_a_warp_reaches_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let elf = build_device(
        &test_kernel("partial_barrier.c"),
        "-O2",
        Reconv::Table,
        dir.path(),
    );
    let (got, code) = run(&elf, 1, 4, 8, mode_of(Reconv::Table));
    assert_eq!(code, 253, "{got}");
    assert!(
        got.contains("weft_syncthreads") && got.contains("returned early"),
        "{got}"
    );
    assert!(!got.contains("not reached"), "{got}");
}

/// Barriers where an optimiser could duplicate them into divergent arms (LLVM's machine tail
/// duplication does, unless weft cc turns it off), and next to a call that does not return
/// (which must not push the reconvergence point past the barrier): every -O level, blocks of
/// 1, 2 and 4 warps.
#[test]
fn barriers_stay_where_the_source_puts_them() {
    for name in ["barrier_shapes.c", "noreturn_barrier.c"] {
        barriers_in(name);
    }
}

fn barriers_in(name: &str) {
    let dir = tempfile::tempdir().unwrap();
    let src = test_kernel(name);
    let (want, code) = host_output(&src, dir.path());
    assert_eq!(code, 0);
    for opt in ["-O0", "-O1", "-O2", "-O3", "-Os"] {
        let elf = build_device(&src, opt, Reconv::Table, dir.path());
        for (warps, lanes) in [(4, 8), (4, 4), (2, 16), (8, 8)] {
            let (got, code) = run(&elf, 1, warps, lanes, mode_of(Reconv::Table));
            assert_eq!(
                (got.as_str(), code),
                (want.as_str(), 0),
                "{opt} {warps}x{lanes}"
            );
        }
    }
}

/// C++ builds for both sides too (main keeps C linkage on the device).
#[test]
fn a_cpp_kernel_matches_the_host() {
    let dir = tempfile::tempdir().unwrap();
    let src = test_kernel("templates.cpp");
    let (want, code) = host_output(&src, dir.path());
    assert_eq!((want.as_str(), code), ("sum 2130\n", 0));
    let elf = build_device(&src, "-O2", Reconv::Table, dir.path());
    assert_eq!(run(&elf, 1, 4, 8, mode_of(Reconv::Table)), (want, 0));
}

/// A kernel printing more than the printf buffer holds: the records that fit, in thread
/// order, then one line naming the buffer size and the bytes dropped; the run goes on.
#[test]
fn a_full_printf_buffer_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("flood.elf");
    let o = weft_cc::Options {
        inputs: vec![test_kernel("printf_flood.c")],
        output: out.clone(),
        defines: vec!["WEFT_PRINTF_BUFFER=65536".into()],
        ..weft_cc::Options::default()
    };
    weft_cc::build(&o).unwrap();
    let (got, code) = run(
        &std::fs::read(out).unwrap(),
        1,
        4,
        8,
        mode_of(Reconv::Table),
    );
    assert_eq!(code, 0);
    let lines: Vec<&str> = got.lines().collect();
    let kept = lines.len() - 2;
    assert!(kept > 100 && kept < 128 * 40, "{kept} lines kept");
    // what fit: in thread order, and each thread's lines a prefix of what it printed
    let mut next = (0u32, 0u32); // (thread, the line it must print next)
    for l in &lines[..kept] {
        let w: Vec<&str> = l.split(' ').collect();
        let (t, i): (u32, u32) = (w[1].parse().unwrap(), w[3].parse().unwrap());
        assert!(
            (t > next.0 && i == 0) || (t == next.0 && i == next.1),
            "out of order: {l}"
        );
        assert_eq!(
            *l,
            format!("thread {t} line {i} of a long line of kernel output")
        );
        next = (t, i + 1);
    }
    assert!(
        lines[kept].starts_with("weft: kernel printf buffer full (65536 bytes);"),
        "{}",
        lines[kept]
    );
    assert_eq!(lines[kept + 1], "after");
}

/// Warp spawn and wait, the thread mask, a raw barrier, the counters, the min/max/cas/exch
/// atomics and malloc, against values computed here from the machine's shape.
#[test]
fn the_rest_of_the_runtime_api() {
    let dir = tempfile::tempdir().unwrap();
    let elf = build_device(
        &test_kernel("runtime_api.c"),
        "-O2",
        Reconv::Table,
        dir.path(),
    );
    for (warps, lanes) in [(4usize, 8usize), (2, 32), (8, 1)] {
        let (got, code) = run(&elf, 1, warps, lanes, mode_of(Reconv::Table));
        let mut want = format!("arrived {}\n", (warps - 1) * lanes);
        for w in 1..warps {
            for l in 0..lanes {
                want += &format!("w{w} l{l} {}\n", 1000 + w * lanes + l);
            }
        }
        want += "tmask 1\ncounters grow 1 1\n";
        // min(5,-3) -> -3 (old 5); max(-3,9) -> 9 (old -3); minu(5,2) -> 2 (old 5);
        // maxu(2,7) -> 7 (old 2); cas 7->11 succeeds (old 7); cas 7->12 fails (old 11);
        // exch -> 1 (old 11)
        want += "atomics 5 -3 9 5 2 7 11 11 1\n";
        want += "malloc 1 1 0\ndone\n";
        assert_eq!((got.as_str(), code), (want.as_str(), 0), "{warps}x{lanes}");
    }
}

/// How many warp-instructions of a run of `elf` at `cores × warps × lanes` issued inside
/// the fiber switch (`__weft_fiber_switch`), with the console.
fn fiber_switch_issues(elf: &[u8], cores: usize, warps: usize, lanes: usize) -> (u64, String) {
    struct Count {
        lo: u32,
        hi: u32,
        n: std::rc::Rc<std::cell::Cell<u64>>,
    }
    impl weft_simt::Observer for Count {
        fn step(&mut self, _: &weft_simt::Machine, r: &weft_simt::record::StepRecord) {
            if (self.lo..self.hi).contains(&r.pc) {
                self.n.set(self.n.get() + 1);
            }
        }
    }
    let img = weft_elf::read_elf(elf).expect("elf");
    let sym = img
        .symbol("__weft_fiber_switch")
        .expect("the runtime's fiber switch");
    let n = std::rc::Rc::new(std::cell::Cell::new(0));
    let (prog, _) = weft_simt::load::program_from_elf(elf).expect("load");
    let cfg = weft_simt::Config {
        cores,
        warps,
        lanes,
        max_cycles: 2_000_000_000,
        ..weft_simt::Config::default()
    };
    let mut m = weft_simt::Machine::new(cfg, &prog).expect("machine");
    // (the switch is the whole of fiber.S's first function: up to the next one, enter)
    let enter = img.symbol("__weft_fiber_enter").expect("fiber enter").value;
    m.add_observer(Box::new(Count {
        lo: sym.value,
        hi: enter,
        n: n.clone(),
    }));
    let end = m.run();
    assert_eq!(end, weft_simt::RunEnd::Exit(0), "{:?}", m.fault());
    let out = String::from_utf8_lossy(m.console()).into_owned();
    (n.get(), out)
}

/// A program that never calls weft_syncthreads() runs its blocks larger than the core
/// without fibers: `weft cc` links sync.c only into programs that call it, the runtime's
/// weak reference finds it absent, and no warp ever enters the fiber switch — with the host's
/// output. A program with barriers (big_blocks.c, whose blocks are larger than the core)
/// still switches fibers.
#[test]
fn blocks_larger_than_a_core_run_without_fibers_in_a_program_without_barriers() {
    let dir = tempfile::tempdir().unwrap();
    let lib = root().join("examples/kernels");
    for (src, barriers) in [
        (lib.join("vecadd.c"), false),
        (lib.join("saxpy.c"), false),
        (test_kernel("big_blocks.c"), true),
    ] {
        let name = src.file_name().unwrap().to_string_lossy().into_owned();
        let (want, code) = host_output(&src, dir.path());
        assert_eq!(code, 0, "{name} on the host: {want}");
        let elf = build_device(&src, "-O2", Reconv::Table, dir.path());
        let img = weft_elf::read_elf(&elf).expect("elf");
        let sync = img.symbol("weft_syncthreads").map(|s| s.value).unwrap_or(0);
        assert_eq!(sync != 0, barriers, "{name}: weft_syncthreads at {sync:#x}");
        // 1 x 2 x 4: 8 threads a core, so every block (64 or more threads) is larger.
        let (switches, got) = fiber_switch_issues(&elf, 1, 2, 4);
        assert_eq!(got, want, "{name}");
        assert_eq!(
            switches > 0,
            barriers,
            "{name}: {switches} fiber-switch issues"
        );
    }
}

//! The RTL core (rtl/, under Verilator) in lockstep with the functional model: the ISA suite
//! programs the RTL implements, the divergence kernels and examples, at 4 warps × 8 lanes and
//! at 2 warps × 4 lanes, and a planted RTL bug that must be caught. Every retirement's clock
//! cycle must be the one the timing model (configs/weft-rtl.toml) predicts: a cycle that
//! differs fails the test, naming the first instruction where the counts part. Verilator
//! missing is a failure with a message, never a skip.

use std::path::PathBuf;
use weft_rtl_lockstep::{lockstep, repo_root, sources, ReconvMode, Shape, MODES};

fn prog(p: &str) -> PathBuf {
    repo_root().join(p)
}

/// Every program in both reconvergence modes (table, the model's default, and converge),
/// every retirement's clock cycle too.
fn check(programs: &[&str], shape: Shape) {
    let mut failures = Vec::new();
    for p in programs {
        for mode in MODES {
            match lockstep(&prog(p), shape, mode, false) {
                Ok(a) => {
                    eprintln!(
                        "{p} ({}): {} warp-instructions agree, end `{}`",
                        mode.name(),
                        a.steps,
                        a.end
                    );
                    match a.cycles {
                        Ok(c) => eprintln!("{p} ({}): every cycle agrees ({})", mode.name(), c + 1),
                        Err(e) => failures.push(format!("{p} ({}): {e}", mode.name())),
                    }
                }
                Err(e) => failures.push(e),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The project's ISA suite (tests/isa): rv32ui, rv32um, rv32ua, rv32uf and rv32zicsr.
const ISA: &[&str] = &[
    "tests/isa/rv32ui-alu.s",
    "tests/isa/rv32ui-ctl.s",
    "tests/isa/rv32ui-mem.s",
    "tests/isa/rv32ui-misaligned.s",
    "tests/isa/rv32um.s",
    "tests/isa/rv32ua.s",
    "tests/isa/rv32uf-arith.s",
    "tests/isa/rv32uf-misc.s",
    "tests/isa/rv32zicsr.s",
];

const DIVERGENCE: &[&str] = &[
    "tests/kernels/and_chain.s",
    "tests/kernels/diverge_ok.s",
    "tests/kernels/diverge_empty.s",
    "tests/kernels/loop_leave.s",
    "tests/kernels/nested_if.s",
    "tests/kernels/nested_if_noconv.s",
    "tests/kernels/spawn.s",
    "tests/kernels/self_spawn.s",
    "tests/kernels/remote_done.s",
    "examples/divergence/if_else.s",
    "examples/divergence/if_only.s",
    "examples/divergence/nested.s",
    "examples/divergence/loop_leave.s",
    "examples/divergence/diverge.s",
    "examples/divergence/and_chain.s",
    "examples/divergence/and_chain_table.s",
    "examples/divergence/loop_exit_backward.s",
    "crates/rtl-lockstep/tests/programs/switch.s",
    "examples/divergence/indirect_call.s",
    "crates/rtl-lockstep/tests/programs/call_in_branch.s",
    "tests/asm/basics.s",
    "tests/asm/functions.s",
    "tests/repro/bug2_backward_exit_checked.s",
    "tests/repro/bug2b_exit_fallthrough_checked.s",
    "tests/repro/bug3_reentry_two_calls_checked.s",
    // returns out of divergent regions, table reconvergence (docs/isa.md §5.9, §6.5-6.8)
    "examples/divergence/jump_table.s",
    "examples/divergence/two_exits.s",
    "examples/divergence/tail_call.s",
    "tests/kernels/early_exit.s",
    "crates/rtl-lockstep/tests/programs/multi_return.s",
    "crates/rtl-lockstep/tests/programs/nested_break.s",
    "crates/rtl-lockstep/tests/programs/backward_exit_call.s",
    "crates/rtl-lockstep/tests/programs/recursion.s",
    "crates/rtl-lockstep/tests/programs/resume_chain.s",
    // the call_depth CSR: reads, writes deeper and shallower, splits in fresh activations,
    // a return from a fresh activation that is not the AtExit entry's (docs/isa.md §6.1)
    "crates/rtl-lockstep/tests/programs/call_depth.s",
];

#[test]
fn isa_suite_4x8() {
    check(ISA, Shape::DEFAULT);
}

#[test]
fn divergence_4x8() {
    check(DIVERGENCE, Shape::DEFAULT);
}

#[test]
fn other_shape_2x4() {
    let s = Shape::SMALL;
    check(
        &[
            "tests/isa/rv32um.s",
            "tests/isa/rv32ui-ctl.s",
            "tests/isa/rv32ua.s",
            "tests/isa/rv32uf-arith.s",
        ],
        s,
    );
    // spawn, self_spawn and remote_done name warps 2 and 3: 4-warp programs.
    let two_warp: Vec<&str> = DIVERGENCE
        .iter()
        .copied()
        .filter(|p| !p.contains("spawn") && !p.contains("remote_done"))
        .collect();
    check(&two_warp, s);
}

/// Lanes sharing words: one lane's sc.w or plain store breaks the other lanes' reservations,
/// AMOs serialize in lane order, sc.w with rd = x0, a misaligned AMO faults (code 11).
#[test]
fn atomics_shared_words() {
    let p = "crates/rtl-lockstep/tests/programs/atomics.s";
    check(&[p], Shape::DEFAULT);
    check(&[p], Shape::SMALL);
}

/// Barriers (the `barrier` CSR) and the core's banked shared memory: words, bytes and
/// halfwords written by every lane of every warp and read back by another warp after a
/// barrier, AMOs and LR/SC on shared words, misaligned words and halfwords across two banks,
/// the end of the window (STORE_FAULT, and a LOAD_FAULT across the last word), a count
/// larger than the warps (BARRIER_FAULT), and a barrier nobody else reaches (deadlock).
const SHARED: &[&str] = &[
    "tests/kernels/barrier.s",
    "tests/bad_input/deadlock.s",
    "crates/rtl-lockstep/tests/programs/shared.s",
    "crates/rtl-lockstep/tests/programs/barrier_fault.s",
    "crates/rtl-lockstep/tests/programs/local_end.s",
    "crates/rtl-lockstep/tests/programs/shared_misaligned.s",
];

#[test]
fn barriers_and_shared_memory_4x8() {
    check(SHARED, Shape::DEFAULT);
}

#[test]
fn barriers_and_shared_memory_2x4() {
    // barrier.s names warps 0-3 (count 4): a 4-warp program.
    let two_warp: Vec<&str> = SHARED
        .iter()
        .copied()
        .filter(|p| !p.ends_with("kernels/barrier.s"))
        .collect();
    check(&two_warp, Shape::SMALL);
}

/// The watchdog (SOFT: the expired bit, a trap to mtvec with mie bit 16; HARD: the
/// WATCHDOG fault), the cycle counters (`cycle_lo` latching `cycle_hi`, the `xw_` reads that
/// do not), and breakpoints (a warp stops at its `break_pc`, another releases it through
/// `xw_break_pc`; a stopped warp nobody releases is a deadlock), writes of `mcycle` and
/// `minstret`, and the `launch` CSR.
const WATCH: &[&str] = &[
    "crates/rtl-lockstep/tests/programs/watchdog.s",
    "crates/rtl-lockstep/tests/programs/watchdog_trap.s",
    "crates/rtl-lockstep/tests/programs/breakpoint.s",
    "crates/rtl-lockstep/tests/programs/breakpoint_deadlock.s",
    "crates/rtl-lockstep/tests/programs/counters.s",
    "crates/rtl-lockstep/tests/programs/launch.s",
];

#[test]
fn watchdog_and_breakpoints_4x8() {
    check(WATCH, Shape::DEFAULT);
}

#[test]
fn watchdog_and_breakpoints_2x4() {
    check(WATCH, Shape::SMALL);
}

/// The display counters: `scanline` and `display_frames` across the first vblank (about
/// 390 000 warp-instructions).
#[test]
fn display_counters() {
    let p = "crates/rtl-lockstep/tests/programs/display.s";
    check(&[p], Shape::DEFAULT);
    check(&[p], Shape::SMALL);
}

/// Traps to mtvec: ecall, ebreak, illegal instructions (CSR number, read-only write, xwarp,
/// a word that does not decode), load and store faults and misaligned atomics part-way
/// through the lanes, mret.
#[test]
fn traps() {
    let p = "crates/rtl-lockstep/tests/programs/traps.s";
    check(&[p], Shape::DEFAULT);
    check(&[p], Shape::SMALL);
}

/// `WEFT_PLANTED_BUG` makes the waiting group of a new divergence entry lose its lowest lane:
/// the lockstep must stop where that group starts with a smaller mask, showing both lines.
#[test]
fn planted_bug_is_caught() {
    let err = lockstep(
        &prog("examples/divergence/if_else.s"),
        Shape::DEFAULT,
        ReconvMode::Table,
        true,
    )
    .expect_err("the planted divergence bug must make the RTL differ");
    assert!(err.contains("first difference"), "{err}");
    assert!(err.contains("model:") && err.contains("rtl:"), "{err}");
    eprintln!("{err}");
}

/// The divergence unit's two limits the model does not have are reported, never run
/// differently: more than WAITS (4) waiting groups in one entry (a loop with six exits to
/// one point, table mode; converge mode pushes an entry per exit and runs it), and a split
/// more than CDEPTH (16) calls deep (both modes).
#[test]
fn divergence_unit_limits_are_reported() {
    let p = "crates/rtl-lockstep/tests/programs/many_exits.s";
    let err = lockstep(&prog(p), Shape::DEFAULT, ReconvMode::Table, false)
        .expect_err("a fifth waiting group does not fit an entry");
    assert!(err.contains("does not implement"), "{p}: {err}");
    let a = lockstep(&prog(p), Shape::DEFAULT, ReconvMode::Converge, false)
        .unwrap_or_else(|e| panic!("{e}"));
    a.cycles.unwrap_or_else(|e| panic!("{p} (converge): {e}"));
    eprintln!("{p} (converge): {} warp-instructions agree", a.steps);
    let p = "crates/rtl-lockstep/tests/programs/deep_recursion.s";
    for mode in MODES {
        let err = lockstep(&prog(p), Shape::DEFAULT, mode, false)
            .expect_err("a split 20 calls deep is beyond CDEPTH");
        assert!(err.contains("does not implement"), "{p}: {err}");
    }
}

/// Vortex's SIMT instructions (weft's profile): vote, shuffles, pred, tmc, nested split/join,
/// wspawn, local and global `bar`, wsync; matmul's global barrier; and each of their faults
/// (IPDOM_OVERFLOW, LANES_LOST, IPDOM_UNDERFLOW, SPAWN_FAULT, BARRIER_FAULT, SYNC_MASK), at
/// both shapes.
/// Compressed code (tests/kernels/compressed.s), the float traps (an invalid dynamic rounding
/// mode in some lanes, a reserved static one, mstatus.FS = Off) and the performance counters.
#[test]
fn vortex_compressed_float_traps_and_counters() {
    let progs = [
        "crates/rtl-lockstep/tests/programs/vortex.s",
        "examples/matmul.s",
        "tests/kernels/compressed.s",
        "crates/rtl-lockstep/tests/programs/float_traps.s",
        "crates/rtl-lockstep/tests/programs/hpm.s",
    ];
    check(&progs, Shape::DEFAULT);
    check(&progs, Shape::SMALL);
    for (p, code) in [
        ("vx_overflow.s", 12),
        ("vx_lost.s", 16),
        ("vx_underflow.s", 13),
        ("vx_spawn_fault.s", 14),
        ("vx_bar_fault.s", 15),
        // votes over per-lane member masks, then one naming an inactive lane; one leaving
        // the voting lane out
        ("vx_sync_mask.s", 18),
        ("vx_sync_self.s", 18),
    ] {
        let path = format!("crates/rtl-lockstep/tests/programs/{p}");
        for shape in [Shape::DEFAULT, Shape::SMALL] {
            let a = lockstep(&prog(&path), shape, ReconvMode::Table, false)
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(a.end, "fault", "{p}");
            a.cycles
                .unwrap_or_else(|e| panic!("{p} at {}x{}: {e}", shape.warps, shape.lanes));
            // (the fault the program is about: both sides agree on it)
            let program = weft_rtl_lockstep::load(&prog(&path)).unwrap();
            let t = weft_rtl_lockstep::model_trace(&program, shape, ReconvMode::Table, 100_000)
                .unwrap();
            assert!(t.contains(&format!(" fault={code}\n")), "{p}: {t}");
            eprintln!("{p}: {} warp-instructions agree, fault {code}", a.steps);
        }
    }
}

/// What the RTL leaves out is reported as such, never run differently: Vortex's
/// asynchronous barrier (bar.arrive).
#[test]
fn unbuilt_features_are_reported() {
    for p in ["crates/rtl-lockstep/tests/programs/unbuilt.s"] {
        for mode in MODES {
            let err = lockstep(&prog(p), Shape::DEFAULT, mode, false)
                .expect_err("the RTL does not implement what this program uses");
            assert!(err.contains("does not implement"), "{p}: {err}");
        }
    }
}

/// `verilator --lint-only -Wall` finds nothing in rtl/.
#[test]
fn rtl_is_lint_clean() {
    let core: Vec<_> = sources()
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "sv"))
        .collect();
    let out = std::process::Command::new("verilator")
        .args(["--lint-only", "-Wall", "--top-module", "weft_core"])
        .args(&core)
        .output()
        .expect("verilator is not installed: `apt-get install -y verilator` (as .ci/run does)");
    assert!(
        out.status.success(),
        "lint: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A reconvergence table wider than the core's memory is refused, never loaded in part: by
/// the host side (`reconv_table`, with the numbers) and by the testbench itself, which reads
/// the core's `rc_words` and exits with status 3.
#[test]
fn a_table_larger_than_the_memory_is_refused() {
    let p = prog("examples/divergence/two_exits.s");
    let prog = weft_rtl_lockstep::load(&p).unwrap();
    let e = weft_rtl_lockstep::reconv_table(&prog, ReconvMode::Table, 2)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("the core's table memory holds 2 (RT_WORDS)"),
        "{e}"
    );
    let bin = weft_rtl_lockstep::build(Shape::DEFAULT, false).unwrap_or_else(|e| panic!("{e}"));
    let dir = repo_root().join("target/rtl");
    let img = dir.join(format!("big-table-{}.bin", std::process::id()));
    let table = dir.join(format!("big-table-{}.tbl", std::process::id()));
    std::fs::write(&img, [0u8; 16]).unwrap();
    let n = weft_rtl_lockstep::RT_WORDS as u32 + 1;
    let mut t = Vec::new();
    for w in [1u32, 0x8000_0000, n].into_iter().chain((0..n).map(|_| 0)) {
        t.extend_from_slice(&w.to_le_bytes());
    }
    std::fs::write(&table, &t).unwrap();
    let out = std::process::Command::new(&bin)
        .arg(&img)
        .args(["80000000", "0", "0", "100", "1000"])
        .arg(&table)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&img);
    let _ = std::fs::remove_file(&table);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("(RT_WORDS)"), "{err}");
}

/// A stack of 2 entries (2 warps × 8 lanes): DIVERGE_OVERFLOW where a split must push onto a
/// full stack, never where it joins an open entry. Three nested ifs overflow in both modes;
/// the `&&` chains and the six-exit loop only in converge mode (table mode: their branches
/// share one point, so the later ones join the first one's entry and the programs halt).
#[test]
fn diverge_overflow_at_depth_2() {
    let shape = Shape {
        warps: 2,
        lanes: 8,
        depth: 2,
    };
    let runs = |p: &str| -> Vec<String> {
        MODES
            .iter()
            .map(|&m| {
                let a = lockstep(&prog(p), shape, m, false).unwrap_or_else(|e| panic!("{e}"));
                a.cycles.unwrap_or_else(|e| panic!("{p}: {e}"));
                a.end
            })
            .collect()
    };
    assert_eq!(
        runs("crates/rtl-lockstep/tests/programs/nested3.s"),
        ["fault", "fault"]
    );
    for p in [
        "examples/divergence/and_chain_table.s",
        "examples/divergence/and_chain.s",
    ] {
        assert_eq!(runs(p), ["halt", "fault"], "{p} (table, converge)");
    }
    let p = "crates/rtl-lockstep/tests/programs/many_exits.s";
    let a =
        lockstep(&prog(p), shape, ReconvMode::Converge, false).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(a.end, "fault");
    a.cycles.unwrap_or_else(|e| panic!("{p} (converge): {e}"));
}

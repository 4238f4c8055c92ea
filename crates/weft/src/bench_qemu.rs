//! `weft bench --vs-qemu`: weft against QEMU user mode on the same loops, measured side by
//! side in one run. Each kernel runs on weft with one warp of one core (8 and 32 lanes by
//! default), on each engine; QEMU (`qemu-riscv32`) runs one scalar thread doing lanes × the
//! iterations of the same loop — the kernel's source with the SIMT CSR reads replaced by the
//! values of a one-thread machine, built with clang and ld.lld into a Linux-user ELF that
//! exits through `ecall` 93. The figure is wall time per thread-instruction, best of
//! `--repeat`: weft's thread-instructions come from its report, QEMU's from running the same
//! scalar program on weft with one lane (the instruction count is the ISA's, not the
//! simulator's). The method is written up in docs/performance.md.

use crate::bench_cmd::{engines, source, BenchArgs};
use crate::engine::Engine;
use std::path::Path;
use std::process::Command;
use std::time::Instant;
use weft_simt::load::program_from_elf;
use weft_simt::{Config, Machine, RunEnd};

/// The kernels compared (sgemm's work does not scale with the iterations per lane alike).
const KERNELS: [&str; 4] = ["alu", "mem", "fpu", "diverge"];

/// Iterations per lane when `--iterations` is left at its default.
const ITERATIONS: u32 = 2_000_000;

/// The scalar version of a kernel source for QEMU: CSR reads become the values of a
/// one-thread machine, the launch prelude and the halting epilogue an exit system call.
fn scalar_source(k: &str, iter: u64) -> Result<String, String> {
    let src = source(k, iter)?;
    let mut out = String::from("    .text\n    .globl _start\n_start:\n");
    let body = src
        .split_once("body:\n")
        .map(|(_, b)| b)
        .ok_or("kernel without body")?;
    for line in body.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("csrr ") {
            let (rd, csr) = rest.split_once(',').ok_or("bad csrr")?;
            let v = match csr.trim() {
                "num_threads" | "num_warps" => 1,
                _ => 0,
            };
            out.push_str(&format!("    li {rd}, {v}\n"));
        } else if t.starts_with("csrw tmask") {
            out.push_str("    li a0, 0\n    li a7, 93\n    ecall\n");
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    Ok(out)
}

fn need(tool: &str) -> Result<(), String> {
    let ok = Command::new(tool)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if ok {
        Ok(())
    } else {
        Err(format!(
            "--vs-qemu needs {tool} (apt-get install qemu-user clang lld)"
        ))
    }
}

/// Build the scalar ELF for QEMU in `dir`.
fn build_elf(src: &str, dir: &Path, name: &str) -> Result<std::path::PathBuf, String> {
    let s = dir.join(format!("{name}.s"));
    let elf = dir.join(format!("{name}.elf"));
    std::fs::write(&s, src).map_err(|e| e.to_string())?;
    let out = Command::new("clang")
        .args([
            "--target=riscv32-unknown-elf",
            "-march=rv32imf",
            "-mabi=ilp32f",
            "-nostdlib",
            "-static",
            "-fuse-ld=lld",
            "-Wl,-e,_start",
            "-o",
        ])
        .arg(&elf)
        .arg(&s)
        .output()
        .map_err(|e| format!("clang: {e}"))?;
    if !out.status.success() {
        return Err(format!("clang: {}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok(elf)
}

/// Thread-instructions of the scalar program: the same source on weft with one lane.
fn scalar_count(src: &str) -> Result<u64, String> {
    let elf = weft_asm::assemble(src, "<scalar>").map_err(|e| e.to_string())?;
    let (prog, _) = program_from_elf(&elf).map_err(|e| e.to_string())?;
    let cfg = Config {
        lanes: 1,
        warps: 1,
        ..Config::default()
    };
    let mut m = Machine::new(cfg, &prog).map_err(|e| e.to_string())?;
    crate::engine::attach(&mut m, Engine::default_for_host())?;
    match m.run() {
        RunEnd::Fault(f) if f.code == weft_isa::FaultCode::Ecall => {}
        end => return Err(format!("scalar program ended with {end:?}")),
    }
    Ok(m.report().thread_instructions)
}

/// Best wall time of `repeat` QEMU runs.
fn time_qemu(elf: &Path, repeat: u32) -> Result<f64, String> {
    let mut best = f64::MAX;
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        let st = Command::new("qemu-riscv32")
            .arg(elf)
            .status()
            .map_err(|e| format!("qemu-riscv32: {e}"))?;
        let secs = t.elapsed().as_secs_f64();
        if !st.success() {
            return Err(format!("qemu-riscv32 {}: {st}", elf.display()));
        }
        best = best.min(secs);
    }
    Ok(best)
}

/// Best wall time (machine built and run) of `repeat` weft runs, and the thread-instructions.
fn time_weft(
    k: &str,
    iter: u32,
    lanes: usize,
    e: Engine,
    repeat: u32,
) -> Result<(f64, u64), String> {
    let prog = crate::bench_cmd::program(k, iter)?;
    let cfg = Config {
        lanes,
        warps: 1,
        cores: 1,
        ..Config::default()
    };
    let mut best = (f64::MAX, 0);
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        let mut m = Machine::new(cfg.clone(), &prog).map_err(|e| e.to_string())?;
        crate::engine::attach(&mut m, e)?;
        let end = m.run();
        let secs = t.elapsed().as_secs_f64();
        if end != RunEnd::AllHalted {
            return Err(format!("bench kernel {k} ended with {end:?}"));
        }
        if secs < best.0 {
            best = (secs, m.report().thread_instructions);
        }
    }
    Ok(best)
}

/// `weft bench --vs-qemu`.
pub fn vs_qemu(a: &BenchArgs) -> Result<i32, String> {
    need("qemu-riscv32")?;
    need("clang")?;
    need("ld.lld")?;
    let engines = engines(a)?;
    let (kernels, lane_counts) = crate::bench_cmd::selection(a, &KERNELS);
    let iter = if a.iterations == 200_000 {
        ITERATIONS
    } else {
        a.iterations
    };
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    println!(
        "{:<8} {:>5} {:<6} {:>14} {:>10} {:>12} {:>14} {:>10}",
        "kernel",
        "lanes",
        "engine",
        "thread-instr",
        "seconds",
        "ns/instr",
        "qemu ns/instr",
        "weft/qemu"
    );
    for k in &kernels {
        for &lanes in &lane_counts {
            let total = iter as u64 * lanes as u64;
            let src = scalar_source(k, total)?;
            let elf = build_elf(&src, dir.path(), &format!("{k}-{lanes}"))?;
            let qn = scalar_count(&src)?;
            let qs = time_qemu(&elf, a.repeat)?;
            let q_ns = qs * 1e9 / qn as f64;
            for &e in &engines {
                let (ws, wn) = time_weft(k, iter, lanes, e, a.repeat)?;
                let w_ns = ws * 1e9 / wn as f64;
                println!(
                    "{k:<8} {lanes:>5} {:<6} {wn:>14} {ws:>10.3} {w_ns:>12.4} {q_ns:>14.4} {:>10.2}",
                    e.name(),
                    w_ns / q_ns
                );
            }
            println!(
                "{k:<8} {lanes:>5} {:<6} {qn:>14} {qs:>10.3} {q_ns:>12.4}",
                "qemu"
            );
        }
    }
    println!("weft/qemu: weft's time per thread-instruction over QEMU's (below 1: weft is faster); one warp, one core; QEMU: one thread, lanes × the iterations");
    Ok(0)
}

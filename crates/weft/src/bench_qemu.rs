//! `weft bench --vs-qemu`: weft against QEMU user mode on the same loops, measured side by
//! side in one run. Each kernel runs on weft with one warp of one core (8 and 32 lanes by
//! default), on each engine; QEMU (`qemu-riscv32`) runs one scalar thread doing lanes × the
//! iterations of the same loop — the kernel's source with the SIMT CSR reads replaced by the
//! values of a one-thread machine, built with clang and ld.lld into a Linux-user ELF that
//! exits through `ecall` 93. The figure is wall time per thread-instruction, best of
//! `--repeat`: weft's thread-instructions come from its report, QEMU's from running the same
//! scalar program on weft with one lane (the instruction count is the ISA's, not the
//! simulator's). The C kernels of the toolchain run as whole programs on both sides
//! (`crate::bench_c`). The method is written up in docs/performance.md.

use crate::bench_cmd::{engines, source, BenchArgs};
use crate::engine::Engine;
use std::path::Path;
use std::process::Command;
use std::time::Instant;
use weft_simt::load::program_from_elf;
use weft_simt::{Config, Machine, RunEnd};

/// The loop kernels compared (sgemm's work does not scale with the iterations per lane
/// alike); the C kernels (`bench_c::C_KERNELS`, named `NAME.c`) follow them.
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

/// Best wall time of `repeat` QEMU runs, and what the program printed.
fn time_qemu(elf: &Path, repeat: u32) -> Result<(f64, String), String> {
    let mut best = (f64::MAX, String::new());
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        let out = Command::new("qemu-riscv32")
            .arg(elf)
            .output()
            .map_err(|e| format!("qemu-riscv32: {e}"))?;
        let secs = t.elapsed().as_secs_f64();
        if !out.status.success() {
            return Err(format!(
                "qemu-riscv32 {}: {}\n{}",
                elf.display(),
                out.status,
                String::from_utf8_lossy(&out.stdout)
            ));
        }
        if secs < best.0 {
            best = (secs, String::from_utf8_lossy(&out.stdout).into_owned());
        }
    }
    Ok(best)
}

/// Best wall time (machine built and run) of `repeat` weft runs of a C kernel's device
/// build, and its thread-instructions.
fn time_weft_c(
    k: &str,
    ck: &crate::bench_c::CKernel,
    lanes: usize,
    e: Engine,
    repeat: u32,
) -> Result<(f64, u64), String> {
    let mut best = (f64::MAX, 0);
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        let m = crate::bench_c::run(k, &ck.device, lanes, e)?;
        let secs = t.elapsed().as_secs_f64();
        if secs < best.0 {
            best = (secs, m.report().thread_instructions);
        }
    }
    Ok(best)
}

/// One table row.
fn row(k: &str, lanes: usize, engine: &str, n: u64, secs: f64, q_ns: Option<f64>) {
    let ns = secs * 1e9 / n as f64;
    match q_ns {
        Some(q) => println!(
            "{k:<12} {lanes:>5} {engine:<6} {n:>14} {secs:>10.3} {ns:>12.4} {q:>14.4} {:>10.2}",
            ns / q
        ),
        None => println!("{k:<12} {lanes:>5} {engine:<6} {n:>14} {secs:>10.3} {ns:>12.4}"),
    }
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
    let all: Vec<&str> = KERNELS
        .iter()
        .copied()
        .chain(crate::bench_c::C_KERNELS.iter().map(|(n, _)| *n))
        .collect();
    let (kernels, lane_counts) = crate::bench_cmd::selection(a, &all);
    let iter = if a.iterations == 200_000 {
        ITERATIONS
    } else {
        a.iterations
    };
    if let Some(k) = kernels.iter().find(|k| !all.contains(&k.as_str())) {
        return Err(format!(
            "unknown kernel {k} for --vs-qemu (expected one of {})",
            all.join(", ")
        ));
    }
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    println!(
        "{:<12} {:>5} {:<6} {:>14} {:>10} {:>12} {:>14} {:>10}",
        "kernel",
        "lanes",
        "engine",
        "thread-instr",
        "seconds",
        "ns/instr",
        "qemu ns/instr",
        "weft/qemu"
    );
    let bar = crate::progress::bar(kernels.len() as u64, "kernels");
    for k in &kernels {
        bar.inc(1);
        bar.set_message(k.clone());
        if k.ends_with(".c") {
            let scale = a.scale.of(k);
            let ck = crate::bench_c::prepare(k, dir.path(), scale)?;
            let k = &if scale == 1 {
                k.clone()
            } else {
                format!("{k}×{scale}")
            };
            let (qs, qout) = time_qemu(&ck.qemu_elf, a.repeat)?;
            if !qout.contains(": PASS") {
                return Err(format!("{k} on qemu-riscv32 did not pass:\n{qout}"));
            }
            let qn = ck.scalar_instructions;
            let q_ns = qs * 1e9 / qn as f64;
            for &lanes in &lane_counts {
                for &e in &engines {
                    let (ws, wn) = time_weft_c(k, &ck, lanes, e, a.repeat)?;
                    bar.suspend(|| row(k, lanes, e.name(), wn, ws, Some(q_ns)));
                }
            }
            bar.suspend(|| row(k, 1, "qemu", qn, qs, None));
            continue;
        }
        for &lanes in &lane_counts {
            let total = iter as u64 * lanes as u64;
            let src = scalar_source(k, total)?;
            let elf = build_elf(&src, dir.path(), &format!("{k}-{lanes}"))?;
            let qn = scalar_count(&src)?;
            let (qs, _) = time_qemu(&elf, a.repeat)?;
            let q_ns = qs * 1e9 / qn as f64;
            for &e in &engines {
                let (ws, wn) = time_weft(k, iter, lanes, e, a.repeat)?;
                bar.suspend(|| row(k, lanes, e.name(), wn, ws, Some(q_ns)));
            }
            bar.suspend(|| row(k, lanes, "qemu", qn, qs, None));
        }
    }
    bar.finish_and_clear();
    println!("weft/qemu: weft's time per thread-instruction over QEMU's (below 1: weft is faster); one warp, one core; QEMU: one thread, lanes × the iterations (loop kernels) or the whole C program on the sequential runtime (NAME.c)");
    Ok(0)
}

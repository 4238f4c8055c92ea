//! C kernels from the real-compiler campaign (`tests/compiled/kernels/*.c`: early returns,
//! recursion, function pointers, dense and sparse switches, tail calls, loops, searches,
//! sorts, an interpreter, float math…) built by real compilers for the RTL — clang at -O0 and
//! -O2 and gcc at -O2, `-march=rv32imafc -mabi=ilp32f` (compressed code, floats in registers)
//! with the campaign's runtime (`tests/compiled/rt`: every lane of warp 0 runs
//! `kernel(tid)`, the last one prints the results and exits) — in lockstep with the model at
//! 4 warps × 8 lanes and 2 warps × 4 lanes, in table and in converge mode. Their
//! reconvergence tables are computed on load from the ELF, as the model does (over halfword
//! slots: branches and their points lie at halfword addresses in compressed code). Every
//! kernel must be compared in full, every retirement's clock cycle too (the timing model's
//! prediction, configs/weft-rtl.toml). The tools (clang with lld, riscv64-unknown-elf-gcc for
//! gcc and its rv32imafc libgcc) missing is a failure with a message, never a skip.

use std::path::{Path, PathBuf};
use std::process::Command;
use weft_rtl_lockstep::{lockstep, repo_root, Shape, MODES};

fn run(cmd: &mut Command) -> Result<String, String> {
    let out = cmd
        .output()
        .map_err(|e| format!("{cmd:?}: {e} (install clang, lld and gcc-riscv64-unknown-elf)"))?;
    if !out.status.success() {
        return Err(format!(
            "{cmd:?}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Build `kernel` with `compiler` ("clang" or "gcc") at `level` into `out`.
fn build(
    compiler: &str,
    level: &str,
    kernel: &Path,
    libgcc: &str,
    out: &Path,
) -> Result<(), String> {
    let rt = repo_root().join("tests/compiled/rt");
    let mut cmd = if compiler == "clang" {
        let mut c = Command::new("clang");
        c.args([
            "--target=riscv32-unknown-elf",
            "-march=rv32imafc",
            "-mabi=ilp32f",
            "-fuse-ld=lld",
        ]);
        c
    } else {
        let mut c = Command::new("riscv64-unknown-elf-gcc");
        c.args([
            "-march=rv32imafc_zicsr",
            "-mabi=ilp32f",
            "-Wl,--no-warn-rwx-segments",
        ]);
        c
    };
    cmd.arg(level)
        .args(["-ffreestanding", "-nostdlib", "-w", "-T"])
        .arg(rt.join("link.ld"))
        .arg(rt.join("crt0.S"))
        .arg(rt.join("harness.c"))
        .arg(rt.join("mem.c"))
        .arg(kernel)
        .arg(libgcc)
        .arg("-o")
        .arg(out);
    run(&mut cmd).map(|_| ())
}

#[test]
fn compiled_c_kernels_4x8() {
    compiled_c_kernels(Shape::DEFAULT);
}

#[test]
fn compiled_c_kernels_2x4() {
    compiled_c_kernels(Shape::SMALL);
}

fn compiled_c_kernels(shape: Shape) {
    let libgcc = run(Command::new("riscv64-unknown-elf-gcc").args([
        "-march=rv32imafc",
        "-mabi=ilp32f",
        "-print-libgcc-file-name",
    ]))
    .unwrap_or_else(|e| panic!("{e}"));
    let dir = repo_root().join(format!(
        "target/rtl/compiled-{}x{}",
        shape.warps, shape.lanes
    ));
    std::fs::create_dir_all(&dir).expect("target/rtl/compiled");
    let mut kernels: Vec<PathBuf> = std::fs::read_dir(repo_root().join("tests/compiled/kernels"))
        .expect("tests/compiled/kernels")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    kernels.sort();
    assert!(kernels.len() >= 17, "{} kernels", kernels.len());
    let (mut agree, mut failures) = (0, Vec::new());
    for k in &kernels {
        let name = k.file_stem().and_then(|s| s.to_str()).unwrap_or("kernel");
        for (compiler, level) in [("clang", "-O0"), ("clang", "-O2"), ("gcc", "-O2")] {
            let elf = dir.join(format!(
                "{name}-{compiler}{level}-{}.elf",
                std::process::id()
            ));
            build(compiler, level, k, &libgcc, &elf).unwrap_or_else(|e| panic!("{e}"));
            for mode in MODES {
                match lockstep(&elf, shape, mode, false) {
                    Ok(a) => {
                        assert_eq!(a.end, "exit 0", "{name} {compiler} {level}");
                        agree += 1;
                        eprintln!(
                            "{name} {compiler} {level} ({}): {} warp-instructions agree",
                            mode.name(),
                            a.steps
                        );
                        if let Err(e) = a.cycles {
                            failures
                                .push(format!("{name} {compiler} {level} ({}): {e}", mode.name()));
                        }
                    }
                    Err(e) => failures.push(e),
                }
            }
            let _ = std::fs::remove_file(&elf);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert_eq!(agree, kernels.len() * 3 * MODES.len());
}

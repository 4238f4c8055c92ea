//! Shared by weft-cc's tests: build a kernel for weft and for the host, run each, compare.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use weft_cc::{Options, Reconv};
use weft_simt::{Config, Machine, ReconvMode, RunEnd};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A test kernel source under crates/cc/tests/kernels.
pub fn test_kernel(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/kernels")
        .join(name)
}

/// Build `src` for weft with `opt` and `reconv` into `dir`; the ELF bytes.
pub fn build_device(src: &Path, opt: &str, reconv: Reconv, dir: &Path) -> Vec<u8> {
    let out = dir.join(format!(
        "{}{opt}{:?}.elf",
        src.file_stem().unwrap().to_string_lossy(),
        reconv
    ));
    let o = Options {
        inputs: vec![src.to_path_buf()],
        output: out.clone(),
        opt: opt.into(),
        reconv,
        ..Options::default()
    };
    weft_cc::build(&o).unwrap_or_else(|e| panic!("weft cc {}: {e}", src.display()));
    std::fs::read(out).unwrap()
}

/// Build `src` for `target` (a host executable or a QEMU program) into `dir`; its path.
fn build_for(src: &Path, dir: &Path, target: weft_cc::Target, ext: &str) -> PathBuf {
    let out = dir.join(format!(
        "{}.{ext}",
        src.file_stem().unwrap().to_string_lossy()
    ));
    let o = Options {
        inputs: vec![src.to_path_buf()],
        output: out.clone(),
        target,
        ..Options::default()
    };
    weft_cc::build(&o).unwrap_or_else(|e| panic!("weft cc ({target:?}) {}: {e}", src.display()));
    out
}

/// Run a program; its stdout and exit code.
fn output(cmd: &mut Command) -> (String, i32) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{cmd:?} (qemu-riscv32: apt-get install qemu-user): {e}"));
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// Build `src` for the host (`weft cc --host`), run it, and return its stdout and exit code.
pub fn host_output(src: &Path, dir: &Path) -> (String, i32) {
    output(&mut Command::new(build_for(
        src,
        dir,
        weft_cc::Target::Host,
        "host",
    )))
}

/// Build `src` for RISC-V Linux user mode (`weft cc --qemu`), run it on qemu-riscv32, and
/// return its stdout and exit code.
pub fn qemu_output(src: &Path, dir: &Path) -> (String, i32) {
    let exe = build_for(src, dir, weft_cc::Target::Qemu, "qemu");
    output(Command::new("qemu-riscv32").arg(exe))
}

/// Build `src` as [`qemu_output`] does but for one weft lane (`Target::QemuOnWeft`); the ELF.
pub fn build_qemu_on_weft(src: &Path, dir: &Path) -> Vec<u8> {
    std::fs::read(build_for(
        src,
        dir,
        weft_cc::Target::QemuOnWeft,
        "qemu-on-weft.elf",
    ))
    .unwrap()
}

/// The kernels of the library (examples/kernels/*.c), sorted; at least twelve.
pub fn library_kernels() -> Vec<PathBuf> {
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
    names
}

/// Run an ELF on weft; its console output and exit status.
pub fn run(
    elf: &[u8],
    cores: usize,
    warps: usize,
    lanes: usize,
    mode: ReconvMode,
) -> (String, i32) {
    let (prog, _) = weft_simt::load::program_from_elf(elf).expect("load");
    let cfg = Config {
        cores,
        warps,
        lanes,
        reconv: mode,
        max_cycles: 2_000_000_000,
        ..Config::default()
    };
    let mut m = Machine::new(cfg, &prog).expect("machine");
    let end = m.run();
    let text = String::from_utf8_lossy(m.console()).into_owned();
    if let RunEnd::Fault(f) = &end {
        panic!("weft faulted: {f:?}\noutput so far:\n{text}");
    }
    (text, end.exit_status())
}

/// The run mode matching a build.
pub fn mode_of(r: Reconv) -> ReconvMode {
    match r {
        Reconv::Table => ReconvMode::Table,
        Reconv::Converge => ReconvMode::Converge,
    }
}

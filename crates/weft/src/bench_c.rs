//! The C kernels of `weft bench --vs-qemu`: the example kernels of the toolchain
//! (`examples/kernels/*.c`), each a whole program that fills its inputs, launches, and checks
//! the result on the host side. weft runs the device build (`weft cc`) on one warp of one core;
//! QEMU runs the same source built against the runtime's sequential host emulation for RISC-V
//! Linux user mode (`weft cc --qemu`: every thread of a block in turn, coroutines for the
//! barriers), one scalar thread. QEMU's instructions are counted by running that scalar
//! program on weft with one lane (its two system calls turned into weft's console and exit
//! registers, `weft_cc::Target::QemuOnWeft`). Each side must print the kernel's own `PASS`.

use std::path::{Path, PathBuf};
use weft_cc::{Options, Target};
use weft_simt::load::program_from_elf;
use weft_simt::{Config, Machine, Program, RunEnd};

/// The C kernels, by file name, with their sources (compiled into weft).
pub const C_KERNELS: [(&str, &str); 12] = [
    ("bfs.c", include_str!("../../../examples/kernels/bfs.c")),
    (
        "bitonic.c",
        include_str!("../../../examples/kernels/bitonic.c"),
    ),
    (
        "conv2d.c",
        include_str!("../../../examples/kernels/conv2d.c"),
    ),
    (
        "diverge.c",
        include_str!("../../../examples/kernels/diverge.c"),
    ),
    (
        "histogram.c",
        include_str!("../../../examples/kernels/histogram.c"),
    ),
    (
        "mandelbrot.c",
        include_str!("../../../examples/kernels/mandelbrot.c"),
    ),
    (
        "matrix.c",
        include_str!("../../../examples/kernels/matrix.c"),
    ),
    (
        "reduce.c",
        include_str!("../../../examples/kernels/reduce.c"),
    ),
    ("saxpy.c", include_str!("../../../examples/kernels/saxpy.c")),
    ("scan.c", include_str!("../../../examples/kernels/scan.c")),
    ("sgemm.c", include_str!("../../../examples/kernels/sgemm.c")),
    (
        "vecadd.c",
        include_str!("../../../examples/kernels/vecadd.c"),
    ),
];

/// Each C kernel's benchmark size (`--scale bench`): the `SCALE` at which its sequential
/// build runs 0.5–1 s on qemu-riscv32 on the project's machine (docs/performance.md). The
/// work grows with SCALE (bfs, diverge, histogram, reduce, saxpy, vecadd), SCALE log² SCALE
/// (bitonic: a power of two), SCALE² (conv2d, mandelbrot, scan) or SCALE³ (matrix, sgemm).
pub const BENCH_SCALE: [(&str, u32); 12] = [
    ("bfs.c", 512),
    ("bitonic.c", 32),
    ("conv2d.c", 24),
    ("diverge.c", 512),
    ("histogram.c", 4096),
    ("mandelbrot.c", 6),
    ("matrix.c", 16),
    ("reduce.c", 128),
    ("saxpy.c", 1024),
    ("scan.c", 48),
    ("sgemm.c", 5),
    ("vecadd.c", 1024),
];

/// The problem size of `weft bench --vs-qemu --scale`: one factor for every kernel, or each
/// kernel's benchmark size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// `SCALE=N` for every kernel (1: the size the tests use).
    Factor(u32),
    /// [`BENCH_SCALE`].
    Bench,
}

impl std::str::FromStr for Scale {
    type Err = String;
    fn from_str(s: &str) -> Result<Scale, String> {
        match s {
            "bench" => Ok(Scale::Bench),
            _ => match s.parse::<u32>() {
                Ok(n) if n >= 1 => Ok(Scale::Factor(n)),
                _ => Err(format!(
                    "--scale {s}: expected a factor of 1 or more, or `bench`"
                )),
            },
        }
    }
}

impl Scale {
    /// The `SCALE` of kernel `name`.
    pub fn of(self, name: &str) -> u32 {
        match self {
            Scale::Factor(n) => n,
            Scale::Bench => BENCH_SCALE
                .iter()
                .find(|(k, _)| *k == name)
                .map_or(1, |(_, n)| *n),
        }
    }
}

/// The headers the kernels include.
const HEADERS: [(&str, &str); 2] = [
    (
        "common.h",
        include_str!("../../../examples/kernels/common.h"),
    ),
    (
        "diverge_work.h",
        include_str!("../../../examples/kernels/diverge_work.h"),
    ),
];

/// One C kernel, built three ways in a scratch directory.
pub struct CKernel {
    /// The device build, loaded.
    pub device: Program,
    /// The scalar build for qemu-riscv32.
    pub qemu_elf: PathBuf,
    /// Instructions the scalar program executes (counted on weft with one lane).
    pub scalar_instructions: u64,
}

fn build(src: &Path, out: &Path, target: Target, scale: u32) -> Result<(), String> {
    let o = Options {
        inputs: vec![src.to_path_buf()],
        output: out.to_path_buf(),
        target,
        defines: vec![format!("SCALE={scale}")],
        ..Options::default()
    };
    weft_cc::build(&o).map_err(|e| format!("{}: {e}", src.display()))
}

fn load(elf: &Path) -> Result<Program, String> {
    let bytes = std::fs::read(elf).map_err(|e| format!("{}: {e}", elf.display()))?;
    let (prog, _) = program_from_elf(&bytes).map_err(|e| format!("{}: {e}", elf.display()))?;
    Ok(prog)
}

/// Run `prog` to its end on one core of one warp of `lanes` lanes with engine `e`; the kernel
/// must print its own PASS. Returns the machine (for its report) when it did.
pub fn run(
    name: &str,
    prog: &Program,
    lanes: usize,
    e: crate::engine::Engine,
) -> Result<Machine, String> {
    let cfg = Config {
        lanes,
        warps: 1,
        cores: 1,
        ..Config::default()
    };
    let mut m = Machine::new(cfg, prog).map_err(|e| e.to_string())?;
    crate::engine::attach(&mut m, e)?;
    let end = m.run();
    let out = String::from_utf8_lossy(m.console()).into_owned();
    if !matches!(end, RunEnd::Exit(0) | RunEnd::AllHalted) || !out.contains(": PASS") {
        return Err(format!(
            "{name} on weft ({lanes} lanes) ended with {end:?} and printed:\n{out}"
        ));
    }
    Ok(m)
}

/// Build `name` (one of [`C_KERNELS`]) at size `scale` in `dir`: for weft, for QEMU, and the
/// QEMU program for one weft lane, which is run to count its instructions.
pub fn prepare(name: &str, dir: &Path, scale: u32) -> Result<CKernel, String> {
    let (_, text) = C_KERNELS
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| format!("unknown C kernel {name}"))?;
    for (h, t) in HEADERS {
        std::fs::write(dir.join(h), t).map_err(|e| e.to_string())?;
    }
    let src = dir.join(name);
    std::fs::write(&src, text).map_err(|e| e.to_string())?;
    let stem = name.trim_end_matches(".c");
    let device = dir.join(format!("{stem}.elf"));
    let qemu_elf = dir.join(format!("{stem}.qemu.elf"));
    let counted = dir.join(format!("{stem}.qemu-on-weft.elf"));
    build(&src, &device, Target::Device, scale)?;
    build(&src, &qemu_elf, Target::Qemu, scale)?;
    build(&src, &counted, Target::QemuOnWeft, scale)?;
    let m = run(
        &format!("{name} (scalar)"),
        &load(&counted)?,
        1,
        crate::engine::Engine::default_for_host(),
    )?;
    Ok(CKernel {
        device: load(&device)?,
        qemu_elf,
        scalar_instructions: m.report().thread_instructions,
    })
}

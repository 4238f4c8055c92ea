//! `weft cc`: build C, C++ and assembly kernels for weft (or, with --host, for this computer,
//! with --qemu for qemu-riscv32) through the weft-cc crate; and the compile step of `weft run KERNEL.c`.

use clap::Args;
use std::path::{Path, PathBuf};
use weft_cc::{CcError, Options, Reconv, Target};

/// Flags of `weft cc`.
#[derive(Args, Debug)]
pub struct CcArgs {
    /// Sources: .c, .cc/.cpp, .cl (OpenCL C), .s/.S, and objects or static libraries (.o, .a:
    /// a Rust kernel).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Output ELF (or host executable with --host).
    #[arg(short = 'o', value_name = "OUT.elf")]
    pub output: PathBuf,
    /// Optimisation level: -O0, -O1, -O2 (default), -O3, -Os, -Oz.
    #[arg(short = 'O', value_name = "LEVEL", default_value = "2")]
    pub opt: String,
    /// Debug information.
    #[arg(short = 'g')]
    pub debug: bool,
    /// Include directory.
    #[arg(short = 'I', value_name = "DIR")]
    pub includes: Vec<PathBuf>,
    /// Preprocessor definition (NAME or NAME=VALUE).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub defines: Vec<String>,
    /// Reconvergence: table (store the post-dominator table in the ELF) or converge (also put
    /// a converge instruction at each branch's post-dominator).
    #[arg(long, value_parser = parse_reconv, default_value = "table")]
    pub reconv: Reconv,
    /// Stack bytes per lane (a multiple of 64, at least 1024).
    #[arg(long, value_name = "BYTES", default_value_t = weft_cc::DEFAULT_STACK_SIZE)]
    pub stack_size: u32,
    /// Build for this computer (32-bit, the runtime's host emulation) to compare outputs.
    #[arg(long, conflicts_with = "qemu")]
    pub host: bool,
    /// Build the runtime's host emulation for RISC-V Linux user mode instead: `qemu-riscv32
    /// OUT` runs the kernel as one scalar thread (needs picolibc-riscv64-unknown-elf).
    #[arg(long)]
    pub qemu: bool,
    /// Leave out the stack-pointer check on function entry (faster; an overflow is then only
    /// found by the stack canaries at the end of a launch).
    #[arg(long)]
    pub no_stack_check: bool,
    /// The inputs' language, as clang's -x: `cl` compiles every input as OpenCL C whatever its
    /// name (otherwise the extension decides).
    #[arg(short = 'x', value_name = "LANG", value_parser = ["cl", "c", "c++"])]
    pub lang: Option<String>,
    /// OpenCL C options, written as clang and clBuildProgram take them: -cl-std=CL1.2,
    /// -cl-fast-relaxed-math, -cl-mad-enable, -cl-opt-disable, ...
    #[arg(
        long = "cl-opt",
        value_name = "-cl-OPTION",
        allow_hyphen_values = true,
        hide = true
    )]
    pub cl_opts: Vec<String>,
}

/// Options of `weft cc` written as OpenCL's (`-cl-std=CL1.2`) become `--cl-opt=-cl-std=CL1.2`
/// for the parser.
pub fn opencl_args(args: Vec<String>) -> Vec<String> {
    if args.get(1).map(String::as_str) != Some("cc") {
        return args;
    }
    args.into_iter()
        .map(|a| {
            if a.starts_with("-cl-") {
                format!("--cl-opt={a}")
            } else {
                a
            }
        })
        .collect()
}

fn parse_reconv(s: &str) -> Result<Reconv, String> {
    match s {
        "table" => Ok(Reconv::Table),
        "converge" => Ok(Reconv::Converge),
        _ => Err(format!(
            "unknown reconvergence mode '{s}' (expected table or converge)"
        )),
    }
}

/// Compiler errors are clang's own: printed as they are, exit status 1.
fn report(e: CcError) -> Result<i32, String> {
    match e {
        CcError::Compile(msg) => {
            eprintln!("{msg}");
            Ok(1)
        }
        e => Err(e.to_string()),
    }
}

/// `weft cc`.
pub fn cc(a: &CcArgs) -> Result<i32, String> {
    let cl = weft_cc::opencl::parse_build_options(&a.cl_opts.join(" "))?;
    let dir = tempfile::Builder::new()
        .prefix("weft-cc-x-")
        .tempdir()
        .map_err(|e| format!("temporary directory: {e}"))?;
    let mut inputs = a.inputs.clone();
    let mut includes = a.includes.clone();
    if a.lang.as_deref() == Some("cl") {
        // clang decides by the name: give every input a .cl one (its includes still found)
        for (i, p) in inputs.iter_mut().enumerate() {
            if weft_cc::opencl::is_opencl(p) {
                continue;
            }
            let stem = p.file_stem().unwrap_or_default().to_string_lossy();
            let copy = dir.path().join(format!("{i}-{stem}.cl"));
            std::fs::copy(&*p, &copy).map_err(|e| format!("{}: {e}", p.display()))?;
            if let Some(parent) = p.parent() {
                includes.push(parent.to_path_buf());
            }
            *p = copy;
        }
    }
    let o = Options {
        inputs,
        output: a.output.clone(),
        opt: format!("-O{}", a.opt),
        debug: a.debug,
        includes,
        defines: a.defines.clone(),
        reconv: a.reconv,
        stack_size: a.stack_size,
        target: if a.host {
            Target::Host
        } else if a.qemu {
            Target::Qemu
        } else {
            Target::Device
        },
        stack_check: !a.no_stack_check,
        cl_options: cl.cl,
    };
    match weft_cc::build(&o) {
        Ok(()) => Ok(0),
        Err(e) => report(e),
    }
}

/// Is this a source `weft run` compiles first?
pub fn is_kernel_source(p: &Path) -> bool {
    matches!(
        p.extension().and_then(|e| e.to_str()),
        Some("c" | "cc" | "cpp" | "cxx")
    )
}

/// `weft run KERNEL.c`: build with the defaults into a temporary ELF and return its bytes.
/// A compile error is printed as clang's own and gives `Err` with an empty message.
pub fn compile_for_run(src: &Path) -> Result<Vec<u8>, String> {
    let dir = tempfile::Builder::new()
        .prefix("weft-run-")
        .tempdir()
        .map_err(|e| format!("temporary directory: {e}"))?;
    let out = dir.path().join("kernel.elf");
    let o = Options {
        inputs: vec![src.to_path_buf()],
        output: out.clone(),
        ..Options::default()
    };
    match weft_cc::build(&o) {
        Ok(()) => std::fs::read(&out).map_err(|e| format!("{}: {e}", out.display())),
        Err(CcError::Compile(msg)) => Err(msg),
        Err(e) => Err(e.to_string()),
    }
}

//! `weft cc`: the kernel compiler driver. It builds C (and C++, assembly) kernels for weft with
//! Debian's clang and lld 14 (`--target=riscv32-unknown-elf -march=rv32imaf -mabi=ilp32f`),
//! links them with the device runtime in `device/` (crt0, linker script, libweft, the small C
//! library) and libgcc, and then either stores the reconvergence table in the ELF
//! ([`Reconv::Table`]) or also puts a `converge` at each branch's immediate post-dominator
//! ([`Reconv::Converge`], see [`converge`]). With [`Target::Host`] it builds the same source
//! for the host computer instead, against the runtime's host emulation, so the outputs of the
//! two can be compared; with [`Target::Qemu`] it builds that sequential runtime for RISC-V
//! Linux user mode, so that `qemu-riscv32` runs the kernel as one scalar thread (the reference
//! of `weft bench --vs-qemu`).
//!
//! The runtime's sources are compiled into this crate and written to a temporary directory for
//! each build, so an installed `weft` needs nothing but the compilers.

pub mod cache;
pub mod converge;
pub mod opencl;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use thiserror::Error;

/// How the built ELF reconverges divergent branches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reconv {
    /// The post-dominator table, stored in the `.weft.reconv` section.
    #[default]
    Table,
    /// A `converge` instruction at each conditional branch's immediate post-dominator (and the
    /// table stored too, so the ELF runs under either mechanism).
    Converge,
}

/// What a build is for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Target {
    /// weft (the device runtime).
    #[default]
    Device,
    /// This computer, 32-bit, against the runtime's host emulation (`device/host/host.c`).
    Host,
    /// RISC-V Linux user mode (`qemu-riscv32`): the host emulation on one scalar RISC-V
    /// thread, with picolibc and `device/scalar/` (system calls, a context switch).
    Qemu,
    /// The [`Target::Qemu`] program with its two system calls (write, exit) turned into stores
    /// to weft's console and exit registers, to run on weft with one lane: weft counts the
    /// instructions the scalar program executes, which QEMU does not.
    QemuOnWeft,
}

/// What to build.
#[derive(Clone, Debug)]
pub struct Options {
    /// C, C++ (`.cc`, `.cpp`), OpenCL C (`.cl`) or assembly (`.s`, `.S`) sources.
    pub inputs: Vec<PathBuf>,
    /// The ELF (or, with `host`, the host executable) to write.
    pub output: PathBuf,
    /// Optimisation level flag: `-O0`, `-O1`, `-O2`, `-O3`, `-Os` or `-Oz`.
    pub opt: String,
    /// Debug information (`-g`).
    pub debug: bool,
    /// `-I` directories.
    pub includes: Vec<PathBuf>,
    /// `-D` definitions (`NAME` or `NAME=VALUE`).
    pub defines: Vec<String>,
    /// Reconvergence mechanism.
    pub reconv: Reconv,
    /// Bytes of stack per lane (a multiple of 64, at least 1024).
    pub stack_size: u32,
    /// What the build is for: weft, or (to compare with) this computer or QEMU.
    pub target: Target,
    /// Check the stack pointer on entry to every function of the sources (clang's
    /// `-finstrument-functions-after-inlining`, answered by the runtime), so that a lane that
    /// overruns its stack is reported at once. The runtime also checks each lane's canary at
    /// the end of every launch and at exit, with or without this.
    pub stack_check: bool,
    /// OpenCL C options for `.cl` sources, handed to clang's front end (`-cl-std=CL1.2`,
    /// `-cl-fast-relaxed-math`, …; see [`opencl::parse_build_options`]).
    pub cl_options: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            inputs: Vec::new(),
            output: PathBuf::from("a.elf"),
            opt: "-O2".into(),
            debug: false,
            includes: Vec::new(),
            defines: Vec::new(),
            reconv: Reconv::Table,
            stack_size: DEFAULT_STACK_SIZE,
            target: Target::Device,
            stack_check: true,
            cl_options: Vec::new(),
        }
    }
}

impl Options {
    /// Apply `weft cc` command-line flags to these options: `-O0`…`-Oz` (also `-Os`, `-Oz`),
    /// `-g`, `-DNAME[=VALUE]`, `-IDIR` (`-D`/`-I` also with the value as the next flag),
    /// `--reconv table|converge`, `--stack-size BYTES` (either with `=`) and
    /// `--no-stack-check`. Anything else is a usage error naming it. (For hosts that take
    /// flags as a list, such as the Python package's `options=`.)
    pub fn apply_flags<S: AsRef<str>>(&mut self, flags: &[S]) -> Result<(), CcError> {
        let mut it = flags.iter().map(|f| f.as_ref());
        while let Some(f) = it.next() {
            // A flag's value: after `=` (long flags), glued on (-D, -I), or the next item.
            let mut value = |name: &str, glued: &str| -> Result<String, CcError> {
                match glued {
                    "" => it
                        .next()
                        .map(str::to_string)
                        .ok_or_else(|| CcError::Usage(format!("weft cc: {name} needs a value"))),
                    v => Ok(v.trim_start_matches('=').to_string()),
                }
            };
            if f == "-g" {
                self.debug = true;
            } else if f == "--no-stack-check" {
                self.stack_check = false;
            } else if let Some(level) = f.strip_prefix("-O") {
                self.opt = format!("-O{level}");
                check_opt(&self.opt)?;
            } else if let Some(d) = f.strip_prefix("-D") {
                self.defines.push(value("-D", d)?);
            } else if let Some(i) = f.strip_prefix("-I") {
                self.includes.push(PathBuf::from(value("-I", i)?));
            } else if let Some(r) = f.strip_prefix("--reconv") {
                self.reconv = match value("--reconv", r)?.as_str() {
                    "table" => Reconv::Table,
                    "converge" => Reconv::Converge,
                    other => {
                        return Err(CcError::Usage(format!(
                            "weft cc: unknown reconvergence mode '{other}' (expected table or converge)"
                        )))
                    }
                };
            } else if let Some(n) = f.strip_prefix("--stack-size") {
                let v = value("--stack-size", n)?;
                self.stack_size = v.parse().map_err(|_| {
                    CcError::Usage(format!(
                        "weft cc: --stack-size '{v}' is not a number of bytes"
                    ))
                })?;
            } else {
                return Err(CcError::Usage(format!(
                    "weft cc: unknown flag '{f}' (known: -O0..-O3, -Os, -Oz, -g, -DNAME[=VALUE], \
                     -IDIR, --reconv table|converge, --stack-size BYTES, --no-stack-check)"
                )));
            }
        }
        Ok(())
    }
}

/// The default stack per lane (the linker script's `__weft_stack_size`).
pub const DEFAULT_STACK_SIZE: u32 = 8192;

/// Why a build failed.
#[derive(Debug, Error)]
pub enum CcError {
    /// A compiler or linker is not installed.
    #[error("`{tool}` is not installed; weft cc needs it: apt-get install {package}")]
    MissingTool {
        /// The program.
        tool: &'static str,
        /// The Debian package that provides it.
        package: &'static str,
    },
    /// The compiler, assembler or linker rejected the input; its own messages, unchanged.
    #[error("{0}")]
    Compile(String),
    /// Bad options.
    #[error("{0}")]
    Usage(String),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The built ELF could not be analysed.
    #[error("{0}")]
    Analysis(String),
}

/// clang's target flags for weft.
pub(crate) const TARGET_FLAGS: &[&str] = &[
    "--target=riscv32-unknown-elf",
    "-march=rv32imaf",
    "-mabi=ilp32f",
    "-mno-relax",
];

pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> CcError + '_ {
    move |source| CcError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// The device runtime's files, compiled into the crate: (path under the runtime directory,
/// contents).
pub const RUNTIME_FILES: &[(&str, &str)] = &[
    (
        "include/weft.h",
        include_str!("../../../device/include/weft.h"),
    ),
    (
        "include/weft_warp.h",
        include_str!("../../../device/include/weft_warp.h"),
    ),
    (
        "include/libc/stdio.h",
        include_str!("../../../device/include/libc/stdio.h"),
    ),
    (
        "include/libc/stdlib.h",
        include_str!("../../../device/include/libc/stdlib.h"),
    ),
    (
        "include/libc/string.h",
        include_str!("../../../device/include/libc/string.h"),
    ),
    (
        "include/libc/math.h",
        include_str!("../../../device/include/libc/math.h"),
    ),
    (
        "include/libc/assert.h",
        include_str!("../../../device/include/libc/assert.h"),
    ),
    (
        "lib/weft_internal.h",
        include_str!("../../../device/lib/weft_internal.h"),
    ),
    ("lib/crt0.S", include_str!("../../../device/lib/crt0.S")),
    ("lib/fiber.S", include_str!("../../../device/lib/fiber.S")),
    ("lib/fiber.c", include_str!("../../../device/lib/fiber.c")),
    ("lib/sync.c", include_str!("../../../device/lib/sync.c")),
    ("lib/link.ld", include_str!("../../../device/lib/link.ld")),
    (
        "lib/runtime.c",
        include_str!("../../../device/lib/runtime.c"),
    ),
    ("lib/printf.c", include_str!("../../../device/lib/printf.c")),
    (
        "lib/console.c",
        include_str!("../../../device/lib/console.c"),
    ),
    ("lib/string.c", include_str!("../../../device/lib/string.c")),
    ("lib/math.c", include_str!("../../../device/lib/math.c")),
    ("host/host.c", include_str!("../../../device/host/host.c")),
    (
        "opencl/include/clc.h",
        include_str!("../../../device/opencl/include/clc.h"),
    ),
    (
        "opencl/include/clmath.h",
        include_str!("../../../device/opencl/include/clmath.h"),
    ),
    (
        "opencl/clrt.c",
        include_str!("../../../device/opencl/clrt.c"),
    ),
    (
        "opencl/workitem.cl",
        include_str!("../../../device/opencl/workitem.cl"),
    ),
    (
        "opencl/integer.cl",
        include_str!("../../../device/opencl/integer.cl"),
    ),
    (
        "opencl/math.cl",
        include_str!("../../../device/opencl/math.cl"),
    ),
    (
        "opencl/trig.cl",
        include_str!("../../../device/opencl/trig.cl"),
    ),
    (
        "opencl/special.cl",
        include_str!("../../../device/opencl/special.cl"),
    ),
    (
        "opencl/common.cl",
        include_str!("../../../device/opencl/common.cl"),
    ),
    (
        "opencl/convert.cl",
        include_str!("../../../device/opencl/convert.cl"),
    ),
    (
        "opencl/vload.cl",
        include_str!("../../../device/opencl/vload.cl"),
    ),
    (
        "opencl/atomic.cl",
        include_str!("../../../device/opencl/atomic.cl"),
    ),
    (
        "scalar/ucontext.h",
        include_str!("../../../device/scalar/ucontext.h"),
    ),
    (
        "scalar/ucontext.S",
        include_str!("../../../device/scalar/ucontext.S"),
    ),
    (
        "scalar/start.S",
        include_str!("../../../device/scalar/start.S"),
    ),
    (
        "scalar/linux.c",
        include_str!("../../../device/scalar/linux.c"),
    ),
];

/// The runtime's C sources linked into every device build.
const RUNTIME_SOURCES: &[&str] = &[
    "runtime.c",
    "fiber.c",
    "printf.c",
    "console.c",
    "string.c",
    "math.c",
];
/// The runtime's C sources linked as an archive's members are (`--start-lib`): only into a
/// program that calls what they define. `sync.c` holds `weft_syncthreads`, which the runtime
/// looks for with a weak reference: a program that never calls it runs its blocks larger
/// than the core without fibers (device/lib/weft_internal.h).
const RUNTIME_LAZY: &[&str] = &["sync.c"];
/// What the object file of a [`RUNTIME_LAZY`] source is named with (`u3.lazy.o`).
const LAZY_OBJ: &str = ".lazy";
/// The runtime's assembly sources linked into every device build (crt0 first).
const RUNTIME_ASM: &[&str] = &["crt0.S", "fiber.S"];

/// Write the runtime's files under `dir`.
pub fn write_runtime(dir: &Path) -> Result<(), CcError> {
    for (rel, text) in RUNTIME_FILES {
        let p = dir.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).map_err(io(parent))?;
        }
        std::fs::write(&p, text).map_err(io(&p))?;
    }
    Ok(())
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Check that the device toolchain is installed: clang, ld.lld, and the riscv gcc (for libgcc,
/// the 64-bit and soft-double helpers; Debian's clang has no riscv32 compiler-rt). Returns
/// libgcc's path.
pub fn find_toolchain() -> Result<PathBuf, CcError> {
    for (tool, package) in [
        ("clang", "clang"),
        ("ld.lld", "lld"),
        ("riscv64-unknown-elf-gcc", "gcc-riscv64-unknown-elf"),
    ] {
        if !have(tool) {
            return Err(CcError::MissingTool { tool, package });
        }
    }
    let out = Command::new("riscv64-unknown-elf-gcc")
        .args(["-march=rv32imaf", "-mabi=ilp32f", "-print-libgcc-file-name"])
        .output()
        .map_err(io(Path::new("riscv64-unknown-elf-gcc")))?;
    let libgcc = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    if !libgcc.is_file() {
        return Err(CcError::MissingTool {
            tool: "riscv64-unknown-elf-gcc (its rv32imaf/ilp32f libgcc)",
            package: "gcc-riscv64-unknown-elf",
        });
    }
    Ok(libgcc)
}

thread_local! {
    /// Where a build's warnings go: stderr (`None`), or a log (`build_with_log`).
    static LOG: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Run a tool; on failure, its own messages.
pub(crate) fn run(cmd: &mut Command) -> Result<(), CcError> {
    let out = cmd
        .output()
        .map_err(|e| CcError::Compile(format!("{cmd:?}: {e}")))?;
    if out.status.success() {
        // Warnings go through unchanged too.
        let text = String::from_utf8_lossy(&out.stderr);
        LOG.with(|l| match &mut *l.borrow_mut() {
            Some(log) => log.push_str(&text),
            None => eprint!("{text}"),
        });
        Ok(())
    } else {
        let mut msg = String::from_utf8_lossy(&out.stderr).into_owned();
        msg.push_str(&String::from_utf8_lossy(&out.stdout));
        while msg.ends_with('\n') {
            msg.pop();
        }
        Err(CcError::Compile(msg))
    }
}

fn check_opt(opt: &str) -> Result<(), CcError> {
    if ["-O0", "-O1", "-O2", "-O3", "-Os", "-Oz"].contains(&opt) {
        return Ok(());
    }
    Err(CcError::Usage(format!(
        "weft cc: unknown optimisation level '{opt}' (expected -O0, -O1, -O2, -O3, -Os or -Oz)"
    )))
}

fn check_options(o: &Options) -> Result<(), CcError> {
    if o.inputs.is_empty() {
        return Err(CcError::Usage("weft cc: no input files".into()));
    }
    check_opt(&o.opt)?;
    if o.stack_size < 1024 || !o.stack_size.is_multiple_of(64) {
        return Err(CcError::Usage(format!(
            "weft cc: --stack-size {} must be a multiple of 64 and at least 1024",
            o.stack_size
        )));
    }
    for i in &o.inputs {
        if !i.is_file() {
            return Err(CcError::Io {
                path: i.display().to_string(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"),
            });
        }
        if lang_of(i).is_none() {
            return Err(CcError::Usage(format!(
                "{}: unknown source type (expected .c, .cc, .cpp, .cl, .s, .S, .o or .a)",
                i.display()
            )));
        }
        if lang_of(i) == Some(Lang::OpenCl) && o.target != Target::Device {
            return Err(CcError::Usage(format!(
                "{}: OpenCL C builds for the device only (not with --host or --qemu)",
                i.display()
            )));
        }
        if lang_of(i) == Some(Lang::Object)
            && (o.reconv == Reconv::Converge || o.target != Target::Device)
        {
            return Err(CcError::Usage(format!(
                "{}: an object or library can only be linked for the device with the \
                 reconvergence table (not with --reconv converge, --host or --qemu)",
                i.display()
            )));
        }
    }
    Ok(())
}

/// The kind of a source file, from its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lang {
    C,
    Cxx,
    Asm,
    /// An object file or static library (a Rust kernel's `staticlib`): linked as it is.
    Object,
    /// OpenCL C: a user's source is lowered to [`Lang::Ir`] first ([`opencl`]); the OpenCL
    /// device library's sources compile directly.
    OpenCl,
    /// LLVM IR (a lowered OpenCL C unit), compiled position-independent.
    Ir,
}

fn lang_of(p: &Path) -> Option<Lang> {
    match p.extension()?.to_str()? {
        "c" => Some(Lang::C),
        "cl" => Some(Lang::OpenCl),
        "cc" | "cpp" | "cxx" => Some(Lang::Cxx),
        "s" | "S" => Some(Lang::Asm),
        "o" | "a" => Some(Lang::Object),
        _ => None,
    }
}

/// [`build`], with the compilers' warnings returned (the build log) instead of printed.
pub fn build_with_log(o: &Options) -> Result<String, CcError> {
    LOG.with(|l| *l.borrow_mut() = Some(String::new()));
    let r = build(o);
    let log = LOG.with(|l| l.borrow_mut().take()).unwrap_or_default();
    r.map(|()| log)
}

/// Build the kernel into `o.output` (the ELF, or the host executable).
pub fn build(o: &Options) -> Result<(), CcError> {
    check_options(o)?;
    match o.target {
        Target::Device => {}
        Target::Host | Target::Qemu | Target::QemuOnWeft => {
            let tmp = scratch()?;
            let rt = tmp.path().join("rt");
            write_runtime(&rt)?;
            return match o.target {
                Target::Host => build_host(o, &rt),
                _ => build_scalar(o, &rt),
            };
        }
    }
    let (elf, _) = link_device(o)?;
    finish_device(o, &elf)
}

fn scratch() -> Result<tempfile::TempDir, CcError> {
    tempfile::Builder::new()
        .prefix("weft-cc-")
        .tempdir()
        .map_err(io(Path::new("temporary directory")))
}

/// Compile and link a device build (options already checked): the linked ELF before its
/// reconvergence table is stored, and the files the compiler read besides the runtime's
/// own (the sources' headers, from clang's dependency files).
fn link_device(o: &Options) -> Result<(Vec<u8>, BTreeSet<PathBuf>), CcError> {
    let tmp = scratch()?;
    let rt = tmp.path().join("rt");
    write_runtime(&rt)?;
    let libgcc = find_toolchain()?;
    let cl = opencl::lower_all(o, &rt, tmp.path())?;
    let b = DeviceBuild {
        o,
        rt: &rt,
        work: tmp.path(),
        libgcc: &libgcc,
        deps: Default::default(),
        cl: cl.as_ref(),
    };
    let elf = match o.reconv {
        Reconv::Table => b.link(&b.compile_all(None)?)?,
        Reconv::Converge => converge::build(&b)?,
    };
    // OpenCL C programs carry their kernels' metadata (read from the linked symbols).
    let elf = match &cl {
        Some(cl) => opencl::embed_info(&elf, cl, &o.output)?,
        None => elf,
    };
    let deps = std::mem::take(&mut *b.deps.lock().unwrap_or_else(|p| p.into_inner()));
    Ok((elf, deps))
}

/// Store the reconvergence table in a linked ELF and write it to `o.output`.
fn finish_device(o: &Options, elf: &[u8]) -> Result<(), CcError> {
    let elf = embed_table(elf, &o.output)?;
    std::fs::write(&o.output, elf).map_err(io(&o.output))
}

/// One device build's settings and scratch directory.
pub struct DeviceBuild<'a> {
    o: &'a Options,
    rt: &'a Path,
    work: &'a Path,
    libgcc: &'a Path,
    /// Files the user units read (from their dependency files), runtime files left out.
    deps: std::sync::Mutex<BTreeSet<PathBuf>>,
    /// The build's OpenCL C units, lowered to IR.
    cl: Option<&'a opencl::Lowered>,
}

/// The converge pass's rewrite of one unit's assembly: (unit index, clang's text) → the text
/// to assemble.
type Rewrite<'a> = dyn FnMut(usize, &str) -> Result<String, CcError> + 'a;

/// A compilation unit: its source (user or runtime) and language.
struct Unit {
    src: PathBuf,
    lang: Lang,
    user: bool,
    /// A source of the OpenCL device library: compiled once and cached (opencl::library).
    cl_lib: bool,
}

impl DeviceBuild<'_> {
    fn units(&self) -> Vec<Unit> {
        let lowered = |i: usize| {
            self.cl
                .and_then(|cl| cl.ir.iter().find(|(j, _)| *j == i))
                .map(|(_, p)| p.clone())
        };
        let mut v: Vec<Unit> = self
            .o
            .inputs
            .iter()
            .enumerate()
            .map(|(i, p)| match lowered(i) {
                Some(ir) => Unit {
                    src: ir,
                    lang: Lang::Ir,
                    user: true,
                    cl_lib: false,
                },
                None => Unit {
                    src: p.clone(),
                    lang: lang_of(p).unwrap_or(Lang::C),
                    user: true,
                    cl_lib: false,
                },
            })
            .collect();
        if self.cl.is_some() {
            for s in opencl::LIBRARY_SOURCES {
                let src = self.rt.join("opencl").join(s);
                v.push(Unit {
                    lang: lang_of(&src).unwrap_or(Lang::C),
                    src,
                    user: false,
                    cl_lib: true,
                });
            }
        }
        for s in RUNTIME_ASM {
            v.push(Unit {
                src: self.rt.join("lib").join(s),
                lang: Lang::Asm,
                user: false,
                cl_lib: false,
            });
        }
        for s in RUNTIME_SOURCES.iter().chain(RUNTIME_LAZY) {
            v.push(Unit {
                src: self.rt.join("lib").join(s),
                lang: Lang::C,
                user: false,
                cl_lib: false,
            });
        }
        v
    }

    /// clang with the target, ABI and include flags of a device build.
    fn clang(&self, unit: &Unit) -> Command {
        let mut c = Command::new(if unit.lang == Lang::Cxx {
            "clang++"
        } else {
            "clang"
        });
        c.args(TARGET_FLAGS);
        if unit.lang == Lang::Asm {
            c.arg("-I").arg(self.rt.join("include"));
            return c;
        }
        if unit.lang == Lang::Ir {
            // A lowered OpenCL C unit: its `__local` variables are thread-local, and only
            // position-independent code asks `__tls_get_addr` for them (ir.rs).
            c.args(["-fPIC", "-Wno-override-module"]);
        }
        if unit.lang == Lang::OpenCl {
            c.args(opencl::frontend_flags("-cl-std=CL1.2"));
            c.arg("-I").arg(self.rt.join("opencl/include"));
        }
        // C is freestanding; C++ stays hosted so that `main` keeps C linkage (freestanding
        // C++ mangles it). With -nostdlibinc clang's own headers stand in either way.
        if unit.lang != Lang::Ir {
            c.arg("-nostdlibinc");
            c.arg(if unit.lang == Lang::Cxx {
                "-fno-builtin"
            } else {
                "-ffreestanding"
            });
            // Kernels have no errno: sqrtf and its kind are their instruction (with errno clang
            // calls the library for a negative argument, see device/include/libc/math.h).
            c.arg("-fno-math-errno");
        }
        // LLVM 14's machine-level tail duplication ignores `convergent`: it would copy a
        // `weft_syncthreads()` call into both arms of a branch, and a warp would arrive at
        // the barrier once per divergent group (a deadlock). Keep barrier calls where the
        // source puts them.
        c.args([
            "-mllvm",
            "-tail-dup-placement=false",
            "-mllvm",
            "-disable-early-taildup",
            "-mllvm",
            "-disable-tail-duplicate",
        ]);
        // The warp-level intrinsics (weft_warp.h) are inline assembly, which LLVM does not
        // treat as `convergent`: non-trivial loop unswitching (-O3) and jump threading would
        // copy a shuffle or vote into both sides of a per-lane branch, so that each half of a
        // diverged warp ran it apart. Neither may duplicate code.
        c.args([
            "-mllvm",
            "-unswitch-threshold=0",
            "-mllvm",
            "-jump-threading-threshold=0",
        ]);
        if self.o.reconv == Reconv::Converge {
            // One exit per function: see converge::single_exit.
            c.arg("-fno-optimize-sibling-calls");
        }
        if unit.lang == Lang::Cxx {
            c.args(["-fno-exceptions", "-fno-rtti", "-fno-threadsafe-statics"]);
        }
        if matches!(unit.lang, Lang::Ir | Lang::OpenCl) {
            // The front end has run (Ir), or the OpenCL library needs none of the C headers.
            c.arg(if unit.user { &self.o.opt } else { "-O2" });
            if unit.cl_lib {
                c.args(["-ffunction-sections", "-fdata-sections"]);
            }
            return c;
        }
        c.arg("-I").arg(self.rt.join("include"));
        c.arg("-I").arg(self.rt.join("include/libc"));
        if unit.user {
            c.arg(&self.o.opt);
            if self.o.stack_check {
                c.arg("-finstrument-functions-after-inlining");
            }
            if self.o.debug {
                c.arg("-g");
            }
            for i in &self.o.includes {
                c.arg("-I").arg(i);
            }
        } else {
            c.args(["-O2", "-fno-builtin"]);
            c.arg("-I").arg(self.rt.join("lib"));
        }
        if unit.cl_lib {
            // built once for every program (cached): no -D of a build reaches it
            c.args(["-ffunction-sections", "-fdata-sections"]);
            return c;
        }
        // -D reaches the runtime too, so its settings (WEFT_LOCAL_MEM_SIZE,
        // WEFT_PRINTF_BUFFER) can follow the machine.
        for d in &self.o.defines {
            c.arg(format!("-D{d}"));
        }
        c
    }

    /// Compile every unit to an object. `rewrite`, when given, turns each C/C++ unit's
    /// assembly (clang -S) into the text that is assembled (the converge pass); the unit's
    /// index is passed along.
    fn compile_all(&self, mut rewrite: Option<&mut Rewrite<'_>>) -> Result<Vec<PathBuf>, CcError> {
        let mut objs = Vec::new();
        let units = self.units();
        if rewrite.is_none() {
            opencl::library::prepare(self, &units)?;
        }
        for (i, unit) in units.iter().enumerate() {
            if unit.lang == Lang::Object {
                objs.push(unit.src.clone());
                continue;
            }
            if unit.cl_lib && rewrite.is_none() {
                objs.push(opencl::library::object(self, unit)?);
                continue;
            }
            let lazy = !unit.user
                && !unit.cl_lib
                && unit
                    .src
                    .file_name()
                    .is_some_and(|n| RUNTIME_LAZY.iter().any(|l| n == *l));
            let obj = self
                .work
                .join(format!("u{i}{}.o", if lazy { LAZY_OBJ } else { "" }));
            let mut cc = self.clang(unit);
            // A preprocessed user unit writes the files it includes to a dependency file.
            let depfile = self.work.join(format!("u{i}.d"));
            // (OpenCL C arrives here lowered to IR, which has no preprocessing step)
            let preprocessed = matches!(unit.lang, Lang::C | Lang::Cxx)
                || (unit.lang == Lang::Asm && unit.src.extension().is_some_and(|e| e == "S"));
            if unit.user && preprocessed {
                cc.arg("-MD").arg("-MF").arg(&depfile);
            }
            match (&mut rewrite, unit.lang) {
                (Some(f), Lang::C | Lang::Cxx | Lang::Ir | Lang::OpenCl) => {
                    let s = self.work.join(format!("u{i}.s"));
                    run(cc.arg("-S").arg(&unit.src).arg("-o").arg(&s))?;
                    let text = std::fs::read_to_string(&s).map_err(io(&s))?;
                    let s2 = self.work.join(format!("u{i}.x.s"));
                    std::fs::write(&s2, f(i, &text)?).map_err(io(&s2))?;
                    let asm = Unit {
                        src: s2.clone(),
                        lang: Lang::Asm,
                        user: unit.user,
                        cl_lib: false,
                    };
                    run(self.clang(&asm).arg("-c").arg(&s2).arg("-o").arg(&obj))?;
                }
                _ => run(cc.arg("-c").arg(&unit.src).arg("-o").arg(&obj))?,
            }
            if unit.user && preprocessed {
                let deps = cache::read_depfile(&depfile, self.rt)?;
                self.deps
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .extend(deps);
            }
            objs.push(obj);
        }
        Ok(objs)
    }

    /// Link objects with the linker script and libgcc; the ELF's bytes.
    fn link(&self, objs: &[PathBuf]) -> Result<Vec<u8>, CcError> {
        let out = self.work.join("link.elf");
        let mut c = Command::new("ld.lld");
        c.arg("-T")
            .arg(self.rt.join("lib/link.ld"))
            .arg(format!("--defsym=__weft_stack_size={}", self.o.stack_size))
            .arg("--no-relax");
        if let Some(cl) = self.cl {
            if self.o.inputs.iter().all(|p| opencl::is_opencl(p)) {
                // Only what the kernels use of the OpenCL library is kept.
                c.arg("--gc-sections");
                for k in &cl.kernels {
                    c.arg("-u").arg(&k.symbol);
                }
            }
        }
        let (lazy, eager): (Vec<&PathBuf>, Vec<&PathBuf>) = objs
            .iter()
            .partition(|p| p.to_string_lossy().ends_with(&format!("{LAZY_OBJ}.o")));
        c.args(eager);
        if !lazy.is_empty() {
            c.arg("--start-lib").args(lazy).arg("--end-lib");
        }
        c.arg(self.libgcc).arg("-o").arg(&out);
        run(&mut c)?;
        std::fs::read(&out).map_err(io(&out))
    }
}

/// Analyse the linked ELF and store its reconvergence table in `.weft.reconv`.
fn embed_table(elf: &[u8], out: &Path) -> Result<Vec<u8>, CcError> {
    let name = out.display();
    let img = weft_elf::read_elf(elf).map_err(|e| CcError::Analysis(format!("{name}: {e}")))?;
    let a = weft_simt::load::analyze_image(&img)
        .map_err(|e| CcError::Analysis(format!("{name}: {e}")))?;
    weft_elf::append_section(elf, weft_reconv::SECTION_NAME, &a.table.to_section_bytes())
        .map_err(|e| CcError::Analysis(format!("{name}: {e}")))
}

/// The user's `-g`, `-I` and `-D` for a host or QEMU build.
fn user_flags(c: &mut Command, o: &Options) {
    if o.debug {
        c.arg("-g");
    }
    for i in &o.includes {
        c.arg("-I").arg(i);
    }
    for d in &o.defines {
        c.arg(format!("-D{d}"));
    }
}

/// `--host`: the same sources for the host (32-bit, so `long` and pointers match the device)
/// against the runtime's host emulation.
fn build_host(o: &Options, rt: &Path) -> Result<(), CcError> {
    let cxx = o.inputs.iter().any(|p| lang_of(p) == Some(Lang::Cxx));
    let (cc, pkg) = if cxx { ("g++", "g++") } else { ("gcc", "gcc") };
    if !have(cc) {
        return Err(CcError::MissingTool {
            tool: cc,
            package: pkg,
        });
    }
    let mut c = Command::new(cc);
    c.args(["-m32", "-msse2", "-mfpmath=sse", "-DWEFT_HOST"])
        .arg(&o.opt)
        .arg("-I")
        .arg(rt.join("include"));
    user_flags(&mut c, o);
    c.args(&o.inputs)
        .args(["-x", "c"])
        .arg(rt.join("host/host.c"))
        .arg("-o")
        .arg(&o.output)
        .arg("-lm");
    run(&mut c).map_err(|e| match e {
        CcError::Compile(m)
            if m.contains("bits/libc-header-start.h")
                || m.contains("cannot find -lgcc")
                || m.contains("cannot find -lstdc++")
                || m.contains("bits/c++config.h") =>
        {
            CcError::Compile(format!(
                "{m}\nweft cc --host builds 32-bit host programs: apt-get install {}",
                if cxx { "g++-multilib" } else { "gcc-multilib" }
            ))
        }
        e => e,
    })
}

/// picolibc for rv32imf/ilp32f (Debian's picolibc-riscv64-unknown-elf): its headers and libc.a.
const PICOLIBC: &str = "/usr/lib/picolibc/riscv64-unknown-elf";

/// [`Target::Qemu`] and [`Target::QemuOnWeft`]: the host emulation built for one RISC-V
/// thread with clang, picolibc and libgcc, linked at weft's DRAM base (QEMU maps it there too,
/// so both programs have the same addresses).
fn build_scalar(o: &Options, rt: &Path) -> Result<(), CcError> {
    let libgcc = find_toolchain()?;
    let libc = Path::new(PICOLIBC).join("lib/rv32imf/ilp32f/libc.a");
    if !libc.is_file() {
        return Err(CcError::MissingTool {
            tool: "picolibc (its rv32imf/ilp32f libc.a)",
            package: "picolibc-riscv64-unknown-elf",
        });
    }
    if o.inputs.iter().any(|p| lang_of(p) == Some(Lang::Cxx)) {
        return Err(CcError::Usage(
            "weft cc --qemu builds C and assembly only (picolibc has no C++ library)".into(),
        ));
    }
    let resource = Command::new("clang")
        .arg("-print-resource-dir")
        .output()
        .map_err(io(Path::new("clang")))?;
    let resource = PathBuf::from(String::from_utf8_lossy(&resource.stdout).trim());
    let mut c = Command::new("clang");
    c.args([
        "--target=riscv32-unknown-elf",
        "-march=rv32imaf",
        "-mabi=ilp32f",
        "-nostdlib",
        "-nostdinc",
        "-static",
        "-fuse-ld=lld",
        "-Wno-atomic-alignment",
        "-Wl,--no-relax",
        "-Wl,-e,_start",
        "-Wl,--image-base=0x80000000",
        "-DWEFT_HOST",
    ])
    .arg(&o.opt)
    .arg("-isystem")
    .arg(Path::new(PICOLIBC).join("include"))
    .arg("-isystem")
    .arg(resource.join("include"))
    .arg("-I")
    .arg(rt.join("scalar"))
    .arg("-I")
    .arg(rt.join("include"));
    // The device's stack per lane (picolibc's malloc zeroes what it hands out).
    c.arg(format!("-DSTACK_BYTES={}u", o.stack_size));
    if o.target == Target::QemuOnWeft {
        c.arg("-DWEFT_COUNT");
    }
    user_flags(&mut c, o);
    c.args(&o.inputs);
    for f in [
        "scalar/start.S",
        "scalar/ucontext.S",
        "scalar/linux.c",
        "host/host.c",
    ] {
        c.arg(rt.join(f));
    }
    c.arg(&libc).arg(&libgcc).arg("-o").arg(&o.output);
    run(&mut c)
}

//! Programs: OpenCL C source built with `weft cc` (crates/cc: clang for riscv32, the OpenCL
//! device library, the launch wrappers), or a binary a program got from
//! `clGetProgramInfo(CL_PROGRAM_BINARIES)` — weft's ELF with its `.weft.opencl` section.
//!
//! The build's options are OpenCL's (`-D`, `-I`, `-cl-*`); quoted includes are also looked
//! for in the program's working directory, as a CPU OpenCL does. The build log is clang's
//! and the linker's output.

use crate::cl::{err, program as st};
use crate::context::{Context, STACK_SIZE};
use crate::engine::{LoadedProgram, DRAM_BASE, IMAGE_MAX};
use crate::error::{ClError, ClResult};
use crate::object::{lock, ClObj};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use weft_cc::opencl::meta::ProgramInfo;

/// A built program.
pub struct Built {
    /// The ELF.
    pub binary: Vec<u8>,
    pub info: ProgramInfo,
    pub loaded: Arc<LoadedProgram>,
    /// Symbols (the kernels' wrappers among them).
    pub symbols: HashMap<String, u32>,
}

/// The build state.
pub struct Build {
    pub status: i32,
    pub options: String,
    pub log: String,
    pub built: Option<Arc<Built>>,
}

/// A program.
pub struct Program {
    pub context: Arc<ClObj<Context>>,
    /// The source, for a program made from source.
    pub source: Option<String>,
    pub build: Mutex<Build>,
    /// Kernels made from it and still alive (a build is refused while there are some).
    pub kernels: AtomicU64,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

impl Program {
    /// A program from source.
    pub fn from_source(context: Arc<ClObj<Context>>, source: String) -> Program {
        Program {
            context,
            source: Some(source),
            build: Mutex::new(Build {
                status: st::BUILD_NONE,
                options: String::new(),
                log: String::new(),
                built: None,
            }),
            kernels: AtomicU64::new(0),
        }
    }

    /// A program from a binary; `CL_INVALID_BINARY` if it is not one of weft's.
    pub fn from_binary(context: Arc<ClObj<Context>>, bin: &[u8]) -> ClResult<Program> {
        let built = load(bin.to_vec()).map_err(|e| ClError::new(err::INVALID_BINARY, e.msg))?;
        Ok(Program {
            context,
            source: None,
            build: Mutex::new(Build {
                status: st::BUILD_SUCCESS,
                options: String::new(),
                log: String::new(),
                built: Some(Arc::new(built)),
            }),
            kernels: AtomicU64::new(0),
        })
    }

    /// `clBuildProgram`.
    pub fn build(&self, options: &str) -> ClResult<()> {
        if self.kernels.load(Ordering::SeqCst) > 0 {
            return Err(ClError::new(
                err::INVALID_OPERATION,
                "the program has kernels attached to it",
            ));
        }
        let opts = weft_cc::opencl::parse_build_options(options)
            .map_err(|e| ClError::new(err::INVALID_BUILD_OPTIONS, e))?;
        let Some(source) = &self.source else {
            // a binary: built already
            lock(&self.build).options = options.to_string();
            return Ok(());
        };
        {
            let mut b = lock(&self.build);
            b.status = st::BUILD_IN_PROGRESS;
            b.options = options.to_string();
        }
        let r = compile(&self.context, source, &opts);
        let mut b = lock(&self.build);
        match r {
            Ok((built, log)) => {
                b.status = st::BUILD_SUCCESS;
                b.log = log;
                b.built = Some(Arc::new(built));
                Ok(())
            }
            Err((code, log)) => {
                b.status = st::BUILD_ERROR;
                b.log = log.clone();
                b.built = None;
                Err(ClError::new(code, format!("the build failed:\n{log}")))
            }
        }
    }

    /// The built program; `CL_INVALID_PROGRAM_EXECUTABLE` if there is none.
    pub fn built(&self) -> ClResult<Arc<Built>> {
        lock(&self.build).built.clone().ok_or_else(|| {
            ClError::new(
                err::INVALID_PROGRAM_EXECUTABLE,
                "the program has not been built successfully",
            )
        })
    }
}

/// Build `source`: the program, and the build log; or the error code and the log.
fn compile(
    ctx: &Context,
    source: &str,
    opts: &weft_cc::opencl::BuildOptions,
) -> Result<(Built, String), (i32, String)> {
    let dir = tempfile::Builder::new()
        .prefix("weft-opencl-")
        .tempdir()
        .map_err(|e| (err::OUT_OF_HOST_MEMORY, format!("temporary directory: {e}")))?;
    let src = dir.path().join("program.cl");
    let out = dir.path().join("program.elf");
    std::fs::write(&src, source).map_err(|e| (err::OUT_OF_HOST_MEMORY, e.to_string()))?;
    let mut includes = opts.includes.clone();
    if let Ok(cwd) = std::env::current_dir() {
        includes.push(cwd);
    }
    let mut defines = opts.defines.clone();
    defines.push(format!("WEFT_LOCAL_MEM_SIZE={}", ctx.cfg.local_mem_size));
    let o = weft_cc::Options {
        inputs: vec![src],
        output: out.clone(),
        opt: if opts.opt_disabled() { "-O0" } else { "-O2" }.into(),
        includes,
        defines,
        stack_size: STACK_SIZE,
        cl_options: opts.cl.clone(),
        ..weft_cc::Options::default()
    };
    let log = match weft_cc::build_with_log(&o) {
        Ok(log) => log,
        Err(weft_cc::CcError::Compile(m)) => return Err((err::BUILD_PROGRAM_FAILURE, m)),
        Err(e @ weft_cc::CcError::MissingTool { .. }) => {
            return Err((err::COMPILER_NOT_AVAILABLE, e.to_string()))
        }
        Err(e) => return Err((err::BUILD_PROGRAM_FAILURE, e.to_string())),
    };
    let bin = std::fs::read(&out).map_err(|e| (err::BUILD_PROGRAM_FAILURE, e.to_string()))?;
    let built = load(bin).map_err(|e| (err::BUILD_PROGRAM_FAILURE, e.msg))?;
    Ok((built, log))
}

/// A program binary, checked and ready to load.
fn load(bin: Vec<u8>) -> ClResult<Built> {
    let bad = |m: String| ClError::new(err::BUILD_PROGRAM_FAILURE, m);
    let info = ProgramInfo::from_elf(&bin).map_err(bad)?.ok_or_else(|| {
        bad("not an OpenCL program built by weft (no .weft.opencl section)".into())
    })?;
    let img = weft_elf::read_elf(&bin).map_err(|e| bad(e.to_string()))?;
    let symbols: HashMap<String, u32> = img
        .symbols
        .iter()
        .filter(|s| !s.name.is_empty())
        .map(|s| (s.name.clone(), s.value))
        .collect();
    let sym = |n: &str| {
        symbols
            .get(n)
            .copied()
            .ok_or_else(|| bad(format!("the program has no {n}")))
    };
    let (mailbox, stacks, stack_size) = (
        sym("__weft_mailbox")?,
        sym("__weft_stacks")?,
        sym("__weft_stack_size")?,
    );
    if stack_size != STACK_SIZE || stacks as u64 > DRAM_BASE as u64 + IMAGE_MAX as u64 {
        return Err(bad(format!(
            "the program takes {} bytes and {stack_size}-byte stacks; a context takes at most \
             {IMAGE_MAX} bytes and {STACK_SIZE}-byte stacks",
            stacks.wrapping_sub(DRAM_BASE)
        )));
    }
    for k in &info.kernels {
        sym(&k.symbol)?;
    }
    let (image, _) = weft_simt::load::program_from_elf(&bin).map_err(|e| bad(e.to_string()))?;
    let entry = image.entry;
    Ok(Built {
        binary: bin,
        info,
        loaded: Arc::new(LoadedProgram {
            id: NEXT_ID.fetch_add(1, Ordering::SeqCst),
            image,
            entry,
            mailbox,
        }),
        symbols,
    })
}

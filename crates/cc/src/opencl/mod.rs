//! OpenCL C in `weft cc`: `.cl` sources (OpenCL C 1.2 by default, `-cl-std=` to choose)
//! compiled with Debian's clang 14 for riscv32 and run as weft kernels.
//!
//! 1. clang's front end turns each source into LLVM IR (`-x cl`, the default OpenCL header,
//!    address spaces kept apart with `-ffake-address-space-map`, no LLVM pass yet);
//! 2. [`ir::rewrite`] gives every kernel a launch wrapper in weft's kernel convention, puts the
//!    kernels' `__local` variables in each block's shared memory and sends `printf` to
//!    OpenCL's;
//! 3. the IR is optimised and compiled like any other unit (position-independent, so `__local`
//!    variables are found through `__tls_get_addr`), and linked with the OpenCL device library
//!    (`device/opencl`: work-item functions, barriers, math, integer, common, geometric and
//!    relational built-ins with their vector forms, conversions, vector loads and stores,
//!    atomics, printf) written in this repository;
//! 4. the kernels' argument layout ([`meta::ProgramInfo`]) goes into the ELF's `.weft.opencl`
//!    section, where the OpenCL host library (`crates/opencl`) reads it.

pub mod ir;
pub(crate) mod library;
pub mod meta;

use crate::{io, run, CcError, Options};
use meta::{KernelInfo, ProgramInfo};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The OpenCL device library's sources (under the runtime directory's `opencl/`).
pub const LIBRARY_SOURCES: &[&str] = &[
    "clrt.c",
    "workitem.cl",
    "integer.cl",
    "math.cl",
    "trig.cl",
    "special.cl",
    "common.cl",
    "convert.cl",
    "vload.cl",
    "atomic.cl",
];

/// The extensions the device has beyond OpenCL C 1.2's core (their built-ins, atom_*, are
/// declared to kernels and defined by the library).
pub const EXTENSIONS: &[&str] = &[
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "cl_khr_byte_addressable_store",
];

/// clang flags that make a riscv32 OpenCL C front end as weft needs it.
pub fn frontend_flags(std: &str) -> Vec<String> {
    let mut v: Vec<String> = [
        "-x",
        "cl",
        std,
        "-Xclang",
        "-finclude-default-header",
        "-Xclang",
        "-ffake-address-space-map",
        "-cl-kernel-arg-info",
        "-Wno-format",
        "-Xclang",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let ext: Vec<String> = EXTENSIONS.iter().map(|e| format!("+{e}")).collect();
    v.push(format!("-cl-ext={}", ext.join(",")));
    v
}

/// The OpenCL C version flag among `opts` (`-cl-std=CL1.2` when none is given).
fn std_of(opts: &[String]) -> String {
    opts.iter()
        .find(|o| o.starts_with("-cl-std="))
        .cloned()
        .unwrap_or_else(|| "-cl-std=CL1.2".into())
}

/// Options `clBuildProgram` and `weft cc` accept for OpenCL C and hand to clang as they are
/// (OpenCL 1.2, §5.6.4), besides `-D`, `-I` (checked in [`parse_build_options`]).
const CL_FLAGS: &[&str] = &[
    "-cl-single-precision-constant",
    "-cl-denorms-are-zero",
    "-cl-fp32-correctly-rounded-divide-sqrt",
    "-cl-opt-disable",
    "-cl-mad-enable",
    "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only",
    "-cl-fast-relaxed-math",
    "-cl-kernel-arg-info",
    "-cl-uniform-work-group-size",
    "-cl-no-subgroup-ifp",
    "-w",
    "-Werror",
];

/// OpenCL C versions clang 14 compiles that weft supports (1.x: no generic address space).
const CL_STDS: &[&str] = &["CL1.0", "CL1.1", "CL1.2"];

/// A `clBuildProgram` options string, parsed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildOptions {
    /// `-D NAME[=VALUE]`.
    pub defines: Vec<String>,
    /// `-I DIR`.
    pub includes: Vec<PathBuf>,
    /// The OpenCL flags (`-cl-…`, `-w`, `-Werror`), for the front end.
    pub cl: Vec<String>,
}

impl BuildOptions {
    /// `-cl-opt-disable` asks for no optimisation.
    pub fn opt_disabled(&self) -> bool {
        self.cl.iter().any(|f| f == "-cl-opt-disable")
    }
}

/// Parse OpenCL build options; an unknown or malformed option is an error naming it.
pub fn parse_build_options(s: &str) -> Result<BuildOptions, String> {
    let words = shell_words(s)?;
    let mut o = BuildOptions::default();
    let mut it = words.into_iter();
    while let Some(w) = it.next() {
        let mut operand = |flag: &str, w: &str| -> Result<String, String> {
            match w.strip_prefix(flag) {
                Some("") => it.next().ok_or(format!("{flag} needs an operand")),
                Some(v) => Ok(v.to_string()),
                None => unreachable!(),
            }
        };
        if w.starts_with("-D") {
            let d = operand("-D", &w)?;
            if d.is_empty() || d.starts_with('=') {
                return Err(format!("bad definition '{w}'"));
            }
            o.defines.push(d);
        } else if w.starts_with("-I") {
            o.includes.push(PathBuf::from(operand("-I", &w)?));
        } else if let Some(v) = w.strip_prefix("-cl-std=") {
            if !CL_STDS.contains(&v) {
                return Err(format!(
                    "unsupported OpenCL C version '{v}' (weft compiles {})",
                    CL_STDS.join(", ")
                ));
            }
            o.cl.push(w);
        } else if CL_FLAGS.contains(&w.as_str()) {
            o.cl.push(w);
        } else {
            return Err(format!("unknown build option '{w}'"));
        }
    }
    Ok(o)
}

/// Split an options string at spaces, with double quotes grouping.
fn shell_words(s: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let (mut quoted, mut any) = (false, false);
    for c in s.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if quoted {
        return Err("an unclosed quote in the options".into());
    }
    if any {
        out.push(cur);
    }
    Ok(out)
}

/// The OpenCL C units of a build, lowered to IR.
pub struct Lowered {
    /// Each `.cl` input's rewritten IR file, by input index.
    pub ir: Vec<(usize, PathBuf)>,
    /// Their kernels.
    pub kernels: Vec<KernelInfo>,
}

/// Is this input OpenCL C?
pub fn is_opencl(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "cl")
}

/// Steps 1 and 2 for every `.cl` input of `o`; `None` when there is none.
pub fn lower_all(o: &Options, rt: &Path, work: &Path) -> Result<Option<Lowered>, CcError> {
    let mut lowered = Lowered {
        ir: Vec::new(),
        kernels: Vec::new(),
    };
    for (i, src) in o.inputs.iter().enumerate() {
        if !is_opencl(src) {
            continue;
        }
        let raw = work.join(format!("cl{i}.ll"));
        let mut c = Command::new("clang");
        c.args(crate::TARGET_FLAGS)
            .args(frontend_flags(&std_of(&o.cl_options)))
            .args(&o.cl_options)
            .arg(&o.opt)
            .args(["-Xclang", "-disable-llvm-passes", "-emit-llvm", "-S"]);
        if o.stack_check {
            c.arg("-finstrument-functions-after-inlining");
        }
        if o.debug {
            c.arg("-g");
        }
        c.arg("-I").arg(rt.join("opencl/include"));
        for i in &o.includes {
            c.arg("-I").arg(i);
        }
        for d in &o.defines {
            c.arg(format!("-D{d}"));
        }
        c.arg(src).arg("-o").arg(&raw);
        run(&mut c)?;
        let text = std::fs::read_to_string(&raw).map_err(io(&raw))?;
        let r =
            ir::rewrite(&text).map_err(|e| CcError::Compile(format!("{}: {e}", src.display())))?;
        for k in &r.kernels {
            if lowered.kernels.iter().any(|k2| k2.name == k.name) {
                return Err(CcError::Compile(format!(
                    "{}: kernel {} is defined twice in the program",
                    src.display(),
                    k.name
                )));
            }
        }
        lowered.kernels.extend(r.kernels);
        let out = work.join(format!("cl{i}.weft.ll"));
        std::fs::write(&out, r.ir).map_err(io(&out))?;
        lowered.ir.push((i, out));
    }
    Ok((!lowered.ir.is_empty()).then_some(lowered))
}

/// The functions the OpenCL device library defines (its objects built, or taken from the
/// cache): what a kernel may call.
pub fn library_symbols() -> Result<std::collections::BTreeSet<String>, CcError> {
    use object::{Object, ObjectSymbol};
    let tmp = tempfile::Builder::new()
        .prefix("weft-cc-")
        .tempdir()
        .map_err(io(Path::new("temporary directory")))?;
    let rt = tmp.path().join("rt");
    crate::write_runtime(&rt)?;
    let libgcc = crate::find_toolchain()?;
    let o = Options::default();
    let b = crate::DeviceBuild {
        o: &o,
        rt: &rt,
        work: tmp.path(),
        libgcc: &libgcc,
        deps: Default::default(),
        cl: None,
    };
    let units: Vec<crate::Unit> = LIBRARY_SOURCES
        .iter()
        .map(|s| {
            let src = rt.join("opencl").join(s);
            crate::Unit {
                lang: crate::lang_of(&src).unwrap_or(crate::Lang::C),
                src,
                user: false,
                cl_lib: true,
            }
        })
        .collect();
    library::prepare(&b, &units)?;
    let mut names = std::collections::BTreeSet::new();
    for u in &units {
        let obj = library::object(&b, u)?;
        let bytes = std::fs::read(&obj).map_err(io(&obj))?;
        let file = object::File::parse(&*bytes)
            .map_err(|e| CcError::Analysis(format!("{}: {e}", obj.display())))?;
        for s in file.symbols() {
            if s.is_definition() && s.is_global() {
                if let Ok(n) = s.name() {
                    names.insert(n.to_string());
                }
            }
        }
    }
    Ok(names)
}

/// Step 4: the program's [`ProgramInfo`] into its ELF.
pub fn embed_info(elf: &[u8], cl: &Lowered, out: &Path) -> Result<Vec<u8>, CcError> {
    let name = out.display();
    let img = weft_elf::read_elf(elf).map_err(|e| CcError::Analysis(format!("{name}: {e}")))?;
    let sym = |s: &str| img.symbol(s).map(|s| s.value).unwrap_or(0);
    let info = ProgramInfo {
        kernels: cl.kernels.clone(),
        local_bytes: sym("__weft_tls_size"),
        local_align: sym("__weft_tls_align").max(1),
    };
    weft_elf::append_section(elf, meta::SECTION_NAME, &info.to_bytes())
        .map_err(|e| CcError::Analysis(format!("{name}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_options_parse_or_name_what_is_wrong() {
        let o = parse_build_options(
            "-DTILE=4 -D N=8 -I /tmp/x -cl-fast-relaxed-math  -cl-std=CL1.2 -I\"/a b\" -w",
        )
        .unwrap();
        assert_eq!(o.defines, vec!["TILE=4", "N=8"]);
        assert_eq!(
            o.includes,
            vec![PathBuf::from("/tmp/x"), PathBuf::from("/a b")]
        );
        assert_eq!(o.cl, vec!["-cl-fast-relaxed-math", "-cl-std=CL1.2", "-w"]);
        assert!(!o.opt_disabled());
        assert!(parse_build_options("-cl-opt-disable")
            .unwrap()
            .opt_disabled());
        assert_eq!(parse_build_options("").unwrap(), BuildOptions::default());
        assert!(parse_build_options("-cl-std=CL2.0")
            .unwrap_err()
            .contains("CL2.0"));
        assert!(parse_build_options("-O3").unwrap_err().contains("'-O3'"));
        assert!(parse_build_options("-D").unwrap_err().contains("operand"));
        assert!(parse_build_options("-I\"x").unwrap_err().contains("quote"));
    }
}

//! OpenCL host programs written in C against Khronos' headers (Debian's opencl-headers),
//! linked with the `libOpenCL.so` this package builds, run on weft devices of several shapes
//! and both models: `tests/opencl/suite.c` (kernels with __local memory and barriers in
//! work-groups larger than a core, vector types, atomics, printf, NDRanges with offsets, the
//! memory and event API, and OpenCL's error codes for bad use), at -O2 and -O0, and
//! `tests/opencl/math.c` (every float math built-in against the host's libm, within OpenCL's
//! ulp limits). Each program checks its results against references it computes on the host
//! and prints PASSED. A missing C compiler or header fails the test with what to install.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The directory holding the `libOpenCL.so` built with these tests.
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap().to_path_buf();
    for d in [deps.clone(), deps.parent().unwrap().to_path_buf()] {
        if d.join("libOpenCL.so").exists() {
            return d;
        }
    }
    panic!("libOpenCL.so is not beside {}", exe.display());
}

/// Compile a test program against Khronos' headers, linked with `lib` (-lOpenCL from it).
fn compile(src: &str, out: &Path, link: &[String]) -> PathBuf {
    assert!(
        Path::new("/usr/include/CL/cl.h").exists(),
        "these tests need Khronos' OpenCL headers: apt-get install opencl-headers"
    );
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let r = Command::new(&cc)
        .args(["-std=gnu11", "-O1", "-Wall", "-Werror"])
        .arg(root().join("tests/opencl").join(src))
        .args(link)
        .arg("-lm")
        .arg("-o")
        .arg(out)
        .output()
        .unwrap_or_else(|e| panic!("these tests need a C compiler ('{cc}': {e}); set CC to one"));
    assert!(
        r.status.success(),
        "{cc} {src} failed:\n{}",
        String::from_utf8_lossy(&r.stderr)
    );
    out.to_path_buf()
}

fn with_weft(src: &str, dir: &Path) -> PathBuf {
    let lib = lib_dir();
    let exe = dir.join(src.trim_end_matches(".c"));
    compile(
        src,
        &exe,
        &[
            format!("-L{}", lib.display()),
            "-lOpenCL".into(),
            format!("-Wl,-rpath,{}", lib.display()),
        ],
    )
}

/// Run a program on a device of `shape`; its stdout (it must exit 0 and print PASSED).
fn run(exe: &Path, args: &[&str], shape: (usize, usize, usize), timing: bool) -> String {
    let (c, w, t) = shape;
    let r = Command::new(exe)
        .args(args)
        .env_remove("WEFT_CONFIG")
        .env("WEFT_CORES", c.to_string())
        .env("WEFT_WARPS", w.to_string())
        .env("WEFT_THREADS", t.to_string())
        .env("WEFT_TIMING", if timing { "1" } else { "0" })
        .env("WEFT_OPENCL_QUIET", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&r.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(
        r.status.success() && stdout.contains("PASSED"),
        "{} {args:?} on {c}x{w}x{t} (timing {timing}): {}\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
        exe.display(),
        r.status
    );
    stdout
}

/// The kernel's printf lines are the ones the host printed as expected, in work-item order.
fn printf_matches(out: &str) {
    let block = |from: &str, to: &str| -> Vec<String> {
        out.lines()
            .skip_while(|l| *l != from)
            .skip(1)
            .take_while(|l| *l != to)
            .map(String::from)
            .collect()
    };
    let want = block("printf expected", "printf run");
    let got = block("printf run", "printf end");
    assert_eq!(want.len(), 4, "{out}");
    assert_eq!(got, want, "{out}");
}

fn suite(shape: (usize, usize, usize), timing: bool, o0: bool) {
    let dir = tempfile::tempdir().unwrap();
    let exe = with_weft("suite.c", dir.path());
    let cl = root().join("tests/opencl/suite.cl");
    let cl = cl.to_string_lossy();
    let mut args = vec![cl.as_ref()];
    if o0 {
        args.push("-O0");
    }
    let out = run(&exe, &args, shape, timing);
    printf_matches(&out);
    assert!(out.contains("reduce: work-groups of 256"), "{out}");
    assert!(out.contains("errors: the codes of bad use"), "{out}");
}

/// Work-groups of 256 on a core of 4 warps x 8 lanes (32 threads), kernels at -O2.
#[test]
fn the_suite_passes_on_the_functional_model() {
    suite((1, 4, 8), false, false);
}

/// The same kernels built with -cl-opt-disable (-O0).
#[test]
fn the_suite_passes_with_kernels_at_o0() {
    suite((1, 4, 8), false, true);
}

/// The same under the cycle-level timing model.
#[test]
fn the_suite_passes_on_the_timing_model() {
    suite((1, 4, 8), true, false);
}

/// Several cores with wide warps, and one lane alone (every work-group a set of fibers).
#[test]
fn the_suite_passes_on_other_shapes() {
    suite((2, 8, 8), false, false);
    suite((1, 1, 1), false, false);
}

/// Every float math built-in within OpenCL 1.2's ulp limits; vector forms equal scalar ones.
#[test]
fn math_builtins_meet_opencl_accuracy() {
    let dir = tempfile::tempdir().unwrap();
    let exe = with_weft("math.c", dir.path());
    let cl = root().join("tests/opencl/math.cl");
    let out = run(&exe, &[&cl.to_string_lossy()], (1, 4, 8), false);
    assert!(out.contains("tgamma") && out.contains("remquo"), "{out}");
}

/// Through an ICD loader (ocl-icd): a program linked with the system's libOpenCL.so.1 finds
/// weft's platform from a vendors directory naming this package's library.
#[test]
fn the_icd_loader_finds_the_weft_platform() {
    let loader = [
        "/usr/lib/x86_64-linux-gnu/libOpenCL.so.1",
        "/usr/lib/libOpenCL.so.1",
    ]
    .into_iter()
    .map(PathBuf::from)
    .find(|p| p.exists())
    .expect("this test needs an ICD loader: apt-get install ocl-icd-libopencl1");
    let dir = tempfile::tempdir().unwrap();
    let exe = compile(
        "suite.c",
        &dir.path().join("suite-icd"),
        &[loader.display().to_string()],
    );
    let vendors = dir.path().join("vendors");
    std::fs::create_dir(&vendors).unwrap();
    std::fs::write(
        vendors.join("weft.icd"),
        format!("{}\n", lib_dir().join("libOpenCL.so").display()),
    )
    .unwrap();
    let cl = root().join("tests/opencl/suite.cl");
    let r = Command::new(&exe)
        .arg(&cl)
        .arg("--icd")
        .env("OCL_ICD_VENDORS", &vendors)
        .env("WEFT_OPENCL_QUIET", "1")
        .env_remove("WEFT_CONFIG")
        .env_remove("WEFT_CORES")
        .env_remove("WEFT_WARPS")
        .env_remove("WEFT_THREADS")
        .env_remove("WEFT_TIMING")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(
        r.status.success() && out.contains("PASSED"),
        "through ocl-icd: {}\n{out}\n{}",
        r.status,
        String::from_utf8_lossy(&r.stderr)
    );
    printf_matches(&out);
}

/// The example of docs/opencl.md builds and runs as the page says.
#[test]
fn the_documented_example_runs() {
    let dir = tempfile::tempdir().unwrap();
    let lib = lib_dir();
    let exe = dir.path().join("saxpy");
    let r = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .arg(root().join("examples/opencl/saxpy.c"))
        .arg("-o")
        .arg(&exe)
        .arg(format!("-L{}", lib.display()))
        .arg("-lOpenCL")
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let r = Command::new(&exe)
        .current_dir(root().join("examples/opencl"))
        .env_remove("WEFT_CONFIG")
        .env("WEFT_CORES", "1")
        .env("WEFT_WARPS", "4")
        .env("WEFT_THREADS", "8")
        .env("WEFT_TIMING", "0")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(r.status.success() && out.contains("PASSED"), "{out}");
    assert!(out.contains("device: weft 1 x 4 x 8"), "{out}");
    assert!(out.contains("group 3: 458752.0 (host: 458752.0)"), "{out}");
}

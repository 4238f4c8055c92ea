//! `weft cc` and `weft run KERNEL.c` through the command line: a kernel builds and runs in
//! one step, compile errors are clang's own, and bad options get one clear message.

use std::path::PathBuf;
use std::process::Command;

fn weft(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(args)
        .output()
        .expect("weft runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !stderr.contains("panicked"),
        "weft {args:?} panicked:\n{stderr}"
    );
    (out.status.code().unwrap_or(-1), stdout, stderr)
}

fn example(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/kernels")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn run_compiles_a_c_kernel_and_runs_it() {
    let (code, out, err) = weft(&["run", &example("vecadd.c"), "--lanes", "16", "--stats"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("vecadd: PASS"), "{out}");
    assert!(err.contains("SIMD efficiency"), "{err}");
}

#[test]
fn cc_writes_an_elf_with_its_table_and_a_host_build() {
    let dir = tempfile::tempdir().unwrap();
    let elf = dir.path().join("k.elf");
    let elf_s = elf.to_string_lossy().into_owned();
    let (code, _, err) = weft(&["cc", &example("reduce.c"), "-o", &elf_s, "-Os", "-g"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = weft(&["run", &elf_s, "--stats"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("reduce: PASS"));
    assert!(err.contains("from the ELF's .weft.reconv section"), "{err}");
    let host = dir.path().join("k.host");
    let (code, _, err) = weft(&[
        "cc",
        "--host",
        &example("reduce.c"),
        "-o",
        &host.to_string_lossy(),
    ]);
    assert_eq!(code, 0, "{err}");
    let out = Command::new(&host).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), out_of(&elf_s));
}

fn out_of(elf: &str) -> String {
    weft(&["run", elf]).1
}

#[test]
fn compile_errors_are_clangs_own() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("broken.c");
    std::fs::write(&src, "int main(void) {\n  return undefined_name;\n}\n").unwrap();
    let out = dir.path().join("x.elf");
    let (code, _, err) = weft(&["cc", &src.to_string_lossy(), "-o", &out.to_string_lossy()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("broken.c:2:10: error: use of undeclared identifier 'undefined_name'"),
        "{err}"
    );
    assert!(!out.exists());
    let (code, _, err) = weft(&["run", &src.to_string_lossy()]);
    assert_ne!(code, 0);
    assert!(err.contains("undeclared identifier"), "{err}");
}

#[test]
fn bad_options_get_one_message() {
    let (code, _, err) = weft(&["cc", "/no/such/kernel.c", "-o", "/tmp/x.elf"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("/no/such/kernel.c") && err.contains("no such file"),
        "{err}"
    );
    let (code, _, err) = weft(&["cc", &example("vecadd.c"), "-o", "/tmp/x.elf", "-O9"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown optimisation level '-O9'"), "{err}");
    let (code, _, err) = weft(&[
        "cc",
        &example("vecadd.c"),
        "-o",
        "/tmp/x.elf",
        "--stack-size",
        "100",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--stack-size 100"), "{err}");
    let (code, _, err) = weft(&["cc", "notes.txt", "-o", "/tmp/x.elf"]);
    assert_eq!(code, 2);
    assert!(err.contains("notes.txt"), "{err}");
}

#[test]
fn a_missing_compiler_is_named_with_its_package() {
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(["cc", &example("vecadd.c"), "-o", "/tmp/never.elf"])
        .env("PATH", "/nonexistent")
        .output()
        .expect("weft runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("`clang` is not installed") && err.contains("apt-get install clang"),
        "{err}"
    );
}

/// A 256-thread block with barriers and shared memory (and a 1,024-thread one) on one core of
/// 4 warps x 8 lanes, under the timing model: the output of the host build, and cycles.
#[test]
fn blocks_larger_than_a_core_under_the_timing_model() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../cc/tests/kernels/big_blocks.c")
        .to_string_lossy()
        .into_owned();
    let dir = tempfile::tempdir().unwrap();
    let host = dir.path().join("big.host");
    let (code, _, err) = weft(&["cc", "--host", &src, "-o", &host.to_string_lossy()]);
    assert_eq!(code, 0, "{err}");
    let want = Command::new(&host).output().unwrap();
    let want = String::from_utf8_lossy(&want.stdout).into_owned();
    assert!(want.contains("reduce block 2:"), "{want}");
    let (code, out, err) = weft(&[
        "run", &src, "--cores", "1", "--warps", "4", "--lanes", "8", "--timing", "--stats",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, want);
    assert!(err.contains("cycles"), "{err}");
}

/// OpenCL C through the command line: `-x cl` for a source of any name, `-cl-std=` as clang
/// and clBuildProgram spell it, the kernels described in the ELF's `.weft.opencl` section;
/// an OpenCL C version weft does not compile is refused with its name.
#[test]
fn cc_compiles_opencl_c() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("saxpy.c");
    std::fs::write(
        &src,
        "__kernel void saxpy(__global float *y, __global const float *x, float a) {\n\
           size_t i = get_global_id(0);\n\
           y[i] = mad(a, x[i], y[i]);\n\
         }\n",
    )
    .unwrap();
    let out = dir.path().join("saxpy.elf");
    let (s, o) = (src.to_string_lossy(), out.to_string_lossy());
    let (code, _, err) = weft(&[
        "cc",
        "-x",
        "cl",
        "-cl-std=CL1.2",
        "-cl-mad-enable",
        &s,
        "-o",
        &o,
    ]);
    assert_eq!(code, 0, "{err}");
    let elf = std::fs::read(&out).unwrap();
    let has = |needle: &[u8]| elf.windows(needle.len()).any(|w| w == needle);
    assert!(has(b".weft.opencl") && has(b"__weft_clk_saxpy"));
    let (code, _, err) = weft(&["cc", "-x", "cl", "-cl-std=CL2.0", &s, "-o", &o]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("CL2.0"), "{err}");
}

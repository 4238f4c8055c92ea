//! The C ABI from a real C host program: examples/host/vecadd.c compiled with gcc against
//! weft_runtime.h and the shared library, run, its checks (made in C) reported: on the
//! functional model, the timing model and the RTL (`backend = "rtl"` in its configuration;
//! Verilator missing is a failure with a message, never a skip).

use std::path::PathBuf;
use std::process::Command;

#[test]
fn the_c_example_builds_runs_and_passes() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    // the cdylib is built beside this test, in target/<profile>/deps
    let exe = std::env::current_exe().unwrap();
    let lib_dir = exe.parent().unwrap().to_path_buf();
    assert!(
        lib_dir.join("libweft_runtime_c.so").is_file(),
        "no libweft_runtime_c.so in {}",
        lib_dir.display()
    );
    let dir = tempfile::tempdir().unwrap();
    let prog = dir.path().join("vecadd");
    let st = Command::new("gcc")
        .arg(root.join("examples/host/vecadd.c"))
        .arg("-I")
        .arg(root.join("crates/runtime-c/include"))
        .arg("-L")
        .arg(&lib_dir)
        .args(["-lweft_runtime_c", "-Wall", "-Werror", "-o"])
        .arg(&prog)
        .status()
        .expect("gcc runs");
    assert!(st.success(), "the C example does not compile");
    for backend in ["", "--timing", "--rtl"] {
        let mut cmd = Command::new(&prog);
        cmd.arg(root.join("examples/host/kernels.c"));
        if !backend.is_empty() {
            cmd.arg(backend);
        }
        let out = cmd.env("LD_LIBRARY_PATH", &lib_dir).output().unwrap();
        check_output(&out, backend);
    }
}

fn check_output(out: &std::process::Output, backend: &str) {
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("vecadd: PASS") && text.contains("pipeline: PASS"),
        "{text}"
    );
    assert!(
        text.contains("missing kernel: error 3 (no kernel named 'missing'"),
        "{text}"
    );
    assert!(text.contains("read past the end: error 2"), "{text}");
    assert_eq!(
        text.contains("timing stats: present"),
        backend == "--timing",
        "{text}"
    );
    assert_eq!(
        text.contains("rtl stats: present"),
        backend == "--rtl",
        "{text}"
    );
    // every backend keeps each launch's own counters (the RTL's testbench too)
    assert!(text.contains("last launch: scale\n"), "{text}");
    assert!(text.contains("launch 99: 0\n"), "{text}");
}

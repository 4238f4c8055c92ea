//! The C ABI against hostile calls from a real C program (`tests/c/hostile.c`, compiled with
//! gcc against weft_runtime.h and the shared library): huge lengths, NULL arguments, an
//! impossible argument block and launches behind a kernel that never ends each return their
//! code and a message; the process neither aborts nor hangs. And two kernel programs on one
//! device from C (`tests/c/modules.c`).

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// Build `tests/c/<name>.c` with gcc against the header and the shared library: the
/// program (in a directory kept as long as the answer) and the library's directory.
fn build(name: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let exe = std::env::current_exe().unwrap();
    let lib_dir = exe.parent().unwrap().to_path_buf();
    assert!(
        lib_dir.join("libweft_runtime_c.so").is_file(),
        "no libweft_runtime_c.so in {}",
        lib_dir.display()
    );
    let dir = tempfile::tempdir().unwrap();
    let prog = dir.path().join(name);
    let st = Command::new("gcc")
        .arg(root.join(format!("crates/runtime-c/tests/c/{name}.c")))
        .arg("-I")
        .arg(root.join("crates/runtime-c/include"))
        .arg("-L")
        .arg(&lib_dir)
        .args(["-lweft_runtime_c", "-Wall", "-Werror", "-o"])
        .arg(&prog)
        .status()
        .expect("gcc runs");
    assert!(st.success(), "tests/c/{name}.c does not compile");
    (dir, prog, lib_dir)
}

#[test]
fn two_programs_share_a_device_and_its_buffers() {
    let kernels = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../runtime/tests/kernels");
    let (_dir, prog, lib_dir) = build("modules");
    let out = Command::new(&prog)
        .arg(kernels.join("kernels.c"))
        .arg(kernels.join("second.c"))
        .env("LD_LIBRARY_PATH", &lib_dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("modules: PASS"),
        "status {:?}\n{text}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn hostile_calls_return_codes_with_messages() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let (_dir, prog, lib_dir) = build("hostile");
    let mut child = Command::new(&prog)
        .arg(root.join("crates/runtime/tests/kernels/kernels.c"))
        .env("LD_LIBRARY_PATH", &lib_dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A hang is a failure, not a stuck test run.
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("tests/c/hostile.c hung");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("hostile: PASS"),
        "status {:?}\n{text}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

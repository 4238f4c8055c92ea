//! A C++ host program written against vortex2.h (`tests/vortex/host/host.cpp`, compiled with
//! the system C++ compiler against weft's `crates/vortex-rt/include/vortex2.h`) linked with
//! the `libvortex.so` this package builds, run on devices of several shapes. The program
//! checks every result against a host reference and prints PASSED; its kernels
//! (`tests/vortex/host/kernels.s`) are assembled here into a `.vxbin` with a symbol footer.
//! No Vortex sources are needed. A missing C++ compiler fails the test (set `CXX`).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The directory holding the `libvortex.so` built with these tests.
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap().to_path_buf();
    for d in [deps.clone(), deps.parent().unwrap().to_path_buf()] {
        if d.join("libvortex.so").exists() {
            return d;
        }
    }
    panic!("libvortex.so is not beside {}", exe.display());
}

/// Compile the host program once.
fn host(dir: &Path) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    let lib = lib_dir();
    let out = dir.join("host");
    let r = Command::new(&cxx)
        .arg("-std=c++17")
        .arg("-O1")
        .arg("-ffp-contract=off")
        .arg("-Wall")
        .arg(format!("-I{}", root.join("include").display()))
        .arg(root.join("../../tests/vortex/host/host.cpp"))
        .arg(format!("-L{}", lib.display()))
        .arg("-lvortex")
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap_or_else(|e| {
            panic!("this test needs a C++ compiler ('{cxx}': {e}); set CXX to one")
        });
    assert!(
        r.status.success(),
        "{cxx} failed:\n{}",
        String::from_utf8_lossy(&r.stderr)
    );
    out
}

fn run(host: &Path, vxbin: &Path, shape: (u32, u32, u32), timing: bool) {
    let (c, w, t) = shape;
    let r = Command::new(host)
        .arg(vxbin)
        .args([c.to_string(), w.to_string(), t.to_string()])
        .env_remove("WEFT_CONFIG")
        .env("WEFT_CORES", c.to_string())
        .env("WEFT_WARPS", w.to_string())
        .env("WEFT_THREADS", t.to_string())
        .env("WEFT_TIMING", if timing { "1" } else { "0" })
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&r.stdout);
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(
        r.status.success() && stdout.contains("PASSED"),
        "host program on {c}x{w}x{t} (timing {timing}): {}\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
        r.status
    );
    // The fault the program provokes on purpose is reported on stderr.
    assert!(stderr.contains("LOAD_FAULT"), "stderr:\n{stderr}");
    assert!(stdout.contains("PERF: instrs="), "stdout:\n{stdout}");
}

#[test]
fn a_vortex2_host_program_runs_on_weft_at_several_shapes() {
    let dir = tempfile::tempdir().unwrap();
    let entries = [
        ("saxpy", "saxpy"),
        ("ballot", "ballot"),
        ("reverse", "reverse"),
        ("fault", "fault"),
    ];
    let (bytes, _) = common::vxbin("host/kernels.s", &entries);
    let vxbin = dir.path().join("kernels.vxbin");
    std::fs::write(&vxbin, bytes).unwrap();
    let host = host(dir.path());
    run(&host, &vxbin, (1, 4, 4), false);
    run(&host, &vxbin, (2, 8, 8), false);
    run(&host, &vxbin, (3, 2, 16), false);
    run(&host, &vxbin, (1, 4, 4), true);

    // The same program on a device that follows the last active lane at a divergent branch
    // (Vortex's own behaviour without its compiler's split/join) gets the if/else wrong:
    // the host's checks see it.
    let cfg = dir.path().join("follow-last.toml");
    std::fs::write(&cfg, "profile = \"vortex\"\nreconv = \"follow-last\"\n").unwrap();
    let r = Command::new(&host)
        .arg(&vxbin)
        .args(["1", "4", "4"])
        .env("WEFT_CONFIG", &cfg)
        .env_remove("WEFT_CORES")
        .env_remove("WEFT_WARPS")
        .env_remove("WEFT_THREADS")
        .env_remove("WEFT_TIMING")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&r.stdout);
    assert!(!r.status.success(), "follow-last passed:\n{stdout}");
    assert!(
        stdout.contains("v[") && !stdout.contains("PASSED"),
        "{stdout}"
    );
}

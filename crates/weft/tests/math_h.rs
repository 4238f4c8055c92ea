//! The device `math.h` against the host's C library: a kernel that calls every function the
//! header declares (inline and through a function pointer, so the runtime's library functions
//! are used too) over special and ordinary values, built by `weft cc` as C and as C++ at every
//! -O and run on weft, must print what the same source prints built with `weft cc --host`
//! (gcc and glibc's libm, which `--host` links). A kernel calling `sqrtf` once never ended:
//! the inline function called itself through clang's errno lowering.

use std::path::Path;
use std::process::Command;

fn weft(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(args)
        .output()
        .expect("weft runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "weft {args:?} failed:\n{err}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn path(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

#[test]
fn every_math_h_function_gives_the_hosts_result_at_every_opt_level_in_c_and_cxx() {
    let dir = tempfile::tempdir().unwrap();
    let src = include_str!("kernels/math_all.c");
    let c = dir.path().join("math_all.c");
    let cxx = dir.path().join("math_all.cpp");
    std::fs::write(&c, src).unwrap();
    std::fs::write(&cxx, src).unwrap();

    // The host: at -O0 floorf and the rest are calls into libm, which --host must link.
    let mut want = None;
    for opt in ["-O0", "-O2"] {
        let exe = dir.path().join(format!("host{opt}"));
        weft(&["cc", "--host", opt, &path(&c), "-o", &path(&exe)]);
        let out = Command::new(&exe).output().expect("the host build runs");
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(text.lines().count(), 40, "{text}");
        match &want {
            None => want = Some(text),
            Some(w) => assert_eq!(&text, w, "the host at -O0 and {opt}"),
        }
    }
    let want = want.unwrap();

    for src in [&c, &cxx] {
        for opt in ["-O0", "-O1", "-O2", "-O3", "-Os", "-Oz"] {
            let elf = dir.path().join("k.elf");
            weft(&["cc", opt, &path(src), "-o", &path(&elf)]);
            let got = weft(&[
                "run",
                &path(&elf),
                "--lanes",
                "8",
                "--max-cycles",
                "20000000",
            ]);
            for (g, w) in got.lines().zip(want.lines()) {
                assert_eq!(g, w, "{} {opt}: device against host", path(src));
            }
            assert_eq!(got.lines().count(), want.lines().count());
        }
    }
}

//! `weft run --require-exit`: a run whose warps all halt without the exit word ends with
//! status 3 and one message; a run that stores the exit word ends with its code as usual.

use std::process::Command;

fn run(src: &str, extra: &[&str]) -> (i32, String) {
    let dir = std::env::temp_dir().join(format!("weft-require-exit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(format!("p{}.s", src.len()));
    std::fs::write(&p, src).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .arg("run")
        .arg(&p)
        .args(extra)
        .output()
        .expect("run weft");
    let _ = std::fs::remove_file(&p);
    let _ = std::fs::remove_dir(&dir);
    (
        out.status.code().expect("exit code"),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const HALTS: &str = "
    .text
    .globl _start
_start:
    csrw tmask, zero
";

const EXITS: &str = "
    .text
    .globl _start
_start:
    li t0, 0xffffff04
    li t1, 0
    sw t1, 0(t0)
";

#[test]
fn halting_without_the_exit_word_fails_only_when_required() {
    assert_eq!(run(HALTS, &[]).0, 0);
    let (code, err) = run(HALTS, &["--require-exit"]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("without writing the exit word"), "{err}");
    let (code, err) = run(EXITS, &["--require-exit"]);
    assert_eq!(code, 0, "{err}");
}

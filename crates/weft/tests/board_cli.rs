//! `weft board --sim`: a program loaded over the simulated ULX3S board's serial line prints
//! its console on stdout and ends with the exit status `weft run` gives; a fault is one line
//! on stderr; without --port or --sim the command refuses with a message.

use std::process::{Command, Output};

fn weft(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(args)
        .output()
        .expect("weft runs")
}

#[test]
fn weft_board_sim_runs_a_program_as_weft_run_does() {
    let dir = std::env::temp_dir().join(format!("weft-board-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("count.s");
    // lane 0 prints "ok" and the exit code is 3 + 4 = 7
    std::fs::write(
        &p,
        "    .text\n    .globl _start\n_start:\n    li t0, 0xffffff00\n    li t1, 'o'\n    \
         sw t1, 0(t0)\n    li t1, 'k'\n    sw t1, 0(t0)\n    li a0, 3\n    addi a0, a0, 4\n    \
         sw a0, 4(t0)\n",
    )
    .unwrap();
    let path = p.to_str().unwrap();
    let board = weft(&["board", "--sim", path]);
    let run = weft(&["run", "--reconv", "converge", path]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(String::from_utf8_lossy(&board.stdout), "ok");
    assert_eq!(board.status.code(), Some(7));
    assert_eq!(board.stdout, run.stdout);
    assert_eq!(board.status.code(), run.status.code());

    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let f = weft(&[
        "board",
        "--sim",
        &format!("{root}/tests/kernels/diverge_empty.s"),
    ]);
    assert_eq!(f.status.code(), Some(128 + 9));
    let err = String::from_utf8_lossy(&f.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("DIVERGE_EMPTY"), "{err}");

    let none = weft(&["board", &format!("{root}/tests/kernels/diverge_ok.s")]);
    assert_eq!(none.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&none.stderr).contains("--port"));
}

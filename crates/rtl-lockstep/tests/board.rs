//! The ULX3S board design (rtl/board/weft_board.sv: the core, block-RAM memory, console and
//! exit devices, the serial loader) simulated whole under Verilator: programs are loaded
//! over the virtual serial line with the loader's protocol, run, and their console output
//! and end (exit code, fault, halt) come back over the line; each is compared with the
//! functional model's run of the same program, and with values worked out by hand.

use std::path::{Path, PathBuf};
use weft_rtl_lockstep::board::{
    build_sim, frames, run_sim, run_sim_frames, BoardEnd, Decoder, DRAM_BYTES,
};
use weft_rtl_lockstep::{load, model_config, reconv_table, repo_root, ReconvMode, Shape, RT_WORDS};
use weft_simt::{Machine, RunEnd};

const MAX_CYCLES: u64 = 20_000_000;

fn board(shape: Shape) -> PathBuf {
    build_sim(shape).unwrap_or_else(|e| panic!("{e}"))
}

/// The functional model's console and end for `path` at `shape`.
fn model(path: &Path, shape: Shape) -> (Vec<u8>, BoardEnd) {
    let prog = load(path).unwrap();
    let mut m = Machine::new(model_config(shape, ReconvMode::Table, MAX_CYCLES), &prog).unwrap();
    let end = match m.run() {
        RunEnd::Exit(c) => BoardEnd::Exit(c),
        RunEnd::AllHalted => BoardEnd::Halt,
        RunEnd::Fault(f) => BoardEnd::Fault {
            code: f.code.code() as u8,
            pc: f.pc,
        },
        e => panic!("{}: the model ended with {e:?}", path.display()),
    };
    (m.console().to_vec(), end)
}

fn on_board(bin: &Path, path: &Path) -> Decoder {
    let prog = load(path).unwrap();
    run_sim(bin, &prog, MAX_CYCLES).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn write(name: &str, src: &str) -> PathBuf {
    let dir = repo_root().join("target/rtl/board-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(format!("{name}-{}.s", std::process::id()));
    std::fs::write(&p, src).unwrap();
    p
}

/// Four warps print a line each, in turn (a word in memory says whose turn it is), then
/// every lane of warp 0 counts up to its lane number (a divergent loop: lane l runs the body
/// l times, closed by `converge`) and the sum of the counts, 0 + 1 + ... + 7 = 28, is the
/// exit code.
const HELLO: &str = r#"
    .text
    .globl _start
_start:
    la t0, start
    csrw spawn_pc, t0
    li t0, 0xf
    csrw warp_active, t0          # warps 0-3 at start (warp 0 restarts there too)
start:
    csrr s0, warp_id
    li t1, 1
    csrw tmask, t1                # lane 0 prints
    la t6, turn
0:  lw t5, 0(t6)
    bne t5, s0, 0b                # wait for this warp's turn
    la a1, text
    li t2, 0xffffff00
1:  lbu a2, 0(a1)
    beqz a2, 2f
    sw a2, 0(t2)
    addi a1, a1, 1
    j 1b
2:  addi a2, s0, '0'
    sw a2, 0(t2)
    li a2, '\n'
    sw a2, 0(t2)
    addi t5, s0, 1
    sw t5, 0(t6)                  # the next warp's turn
    bnez s0, done                 # warps 1-3 stop here
    li t4, 4
3:  lw t5, 0(t6)
    bne t5, t4, 3b                # wait for the others
    li t1, -1
    csrw tmask, t1
    csrr s1, thread_id
    li a0, 0
    mv t3, s1
loop:
    beqz t3, out                  # lane l runs the body l times: divergent
    addi a0, a0, 1
    addi t3, t3, -1
    j loop
out:
    converge loop
    la t4, sums
    slli t5, s1, 2
    add t4, t4, t5
    sw a0, 0(t4)
    li t1, 1
    csrw tmask, t1
    la t4, sums
    li a0, 0
    li t3, 8
4:  lw t5, 0(t4)
    add a0, a0, t5
    addi t4, t4, 4
    addi t3, t3, -1
    bnez t3, 4b
    li t2, 0xffffff04
    sw a0, 0(t2)                  # exit code 28
done:
    csrw tmask, zero
    .data
text: .asciz "hello from warp "
    .balign 4
turn: .word 0
sums: .zero 32
"#;

#[test]
fn a_program_loaded_over_the_serial_line_prints_and_exits_as_the_model_does() {
    let bin = board(Shape::DEFAULT);
    let p = write("hello", HELLO);
    let got = on_board(&bin, &p);
    let (console, end) = model(&p, Shape::DEFAULT);
    let _ = std::fs::remove_file(&p);
    assert_eq!(got.end, Some(BoardEnd::Exit(28)), "worked out by hand");
    assert_eq!(got.end, Some(end));
    let want: String = (0..4).map(|w| format!("hello from warp {w}\n")).collect();
    assert_eq!(String::from_utf8_lossy(&got.console), want);
    assert_eq!(got.console, console, "board console vs the model's");
}

#[test]
fn isa_tests_report_their_htif_exit_over_the_serial_line() {
    let bin = board(Shape::DEFAULT);
    let root = repo_root();
    for t in ["rv32ui-alu", "rv32ui-ctl", "rv32ui-mem", "rv32um"] {
        let p = root.join(format!("tests/isa/{t}.s"));
        let got = on_board(&bin, &p);
        let (_, end) = model(&p, Shape::DEFAULT);
        // riscv-tests pass with tohost = 1: exit code 0
        assert_eq!(got.end, Some(BoardEnd::Exit(0)), "{t}");
        assert_eq!(got.end, Some(end), "{t}");
    }
}

#[test]
fn faults_halts_and_missing_instructions_are_reported_by_the_board() {
    let shape = Shape::SMALL;
    let bin = board(shape);
    let root = repo_root();
    // DIVERGE_EMPTY (code 9) at the `diverge` of the program
    let p = root.join("tests/kernels/diverge_empty.s");
    let got = on_board(&bin, &p);
    let (_, end) = model(&p, shape);
    assert!(
        matches!(got.end, Some(BoardEnd::Fault { code: 9, .. })),
        "{:?}",
        got.end
    );
    assert_eq!(got.end, Some(end));
    // a warp that halts without an exit
    let p = root.join("examples/divergence/if_else.s");
    let got = on_board(&bin, &p);
    assert_eq!(got.end, Some(BoardEnd::Halt));
    assert_eq!(got.end, Some(model(&p, shape).1));
    // a load from unmapped memory: LOAD_FAULT (3), as the model says
    let p = write(
        "unmapped",
        "    .text\n    .globl _start\n_start:\n    li t0, 0x10000000\n    lw t1, 0(t0)\n",
    );
    let got = on_board(&bin, &p);
    let want = model(&p, shape).1;
    let _ = std::fs::remove_file(&p);
    assert!(matches!(got.end, Some(BoardEnd::Fault { code: 3, .. })));
    assert_eq!(got.end, Some(want));
    // compressed code runs as in the model
    let p = root.join("tests/kernels/compressed.s");
    let got = on_board(&bin, &p);
    assert_eq!(got.end, Some(model(&p, shape).1));
    // Vortex's asynchronous barrier is not built in the RTL: reported with its pc, not run
    // wrongly
    let p = write(
        "arrive",
        "    .text\n    .globl _start\n_start:\n    bar.arrive t0, zero, zero\n",
    );
    let got = on_board(&bin, &p);
    let _ = std::fs::remove_file(&p);
    assert!(
        matches!(got.end, Some(BoardEnd::Unsupported { .. })),
        "{:?}",
        got.end
    );
}

#[test]
fn the_loader_refuses_a_program_that_does_not_fit_and_the_decoder_unescapes() {
    let p = write(
        "big",
        "    .text\n    .globl _start\n_start:\n    csrw tmask, zero\n    .bss\n    .zero 34000000\n",
    );
    let prog = load(&p).unwrap();
    let _ = std::fs::remove_file(&p);
    let e = frames(&prog, DRAM_BYTES).unwrap_err().to_string();
    assert!(e.contains("does not fit the board's memory"), "{e}");
    // ESC ESC is a console byte; ESC 'F' code pc ends the run
    let mut d = Decoder::default();
    for b in [
        b'a', 0x1b, 0x1b, b'b', 0x1b, b'F', 5, 0x10, 0, 0, 0x80, b'z',
    ] {
        d.push(b);
    }
    assert_eq!(d.console, vec![b'a', 0x1b, b'b']);
    assert_eq!(
        d.end,
        Some(BoardEnd::Fault {
            code: 5,
            pc: 0x8000_0010
        })
    );
}

/// `pick` returns from three `ret`s inside divergent code; in table mode the branches'
/// shared AtExit entry closes at the return, so the lanes come back together and the exit
/// code is the whole mask, 7 (worked out by hand; in converge mode the first group back
/// would exit with only its own lanes). The board gets the table over the serial line ('T').
const THREE_RETURNS: &str = r#"
    .text
    .globl _start
_start:
    li   t0, 7
    csrw tmask, t0
    csrr a0, thread_id
    call pick
    csrr a0, tmask
    li   t2, 0xffffff04
    sw   a0, 0(t2)
    csrw tmask, zero
    .globl pick
    .type pick, @function
pick:
    beqz a0, 1f
    addi a0, a0, -1
    beqz a0, 2f
    li   a0, 200
    ret
2:  li   a0, 300
    ret
1:  li   a0, 100
    ret
    .size pick, . - pick
"#;

#[test]
fn the_reconvergence_table_reaches_the_board() {
    let shape = Shape::SMALL;
    let bin = board(shape);
    let p = write("three_returns", THREE_RETURNS);
    let got = on_board(&bin, &p);
    let (_, end) = model(&p, shape);
    let prog = load(&p).unwrap();
    let _ = std::fs::remove_file(&p);
    assert_eq!(got.end, Some(BoardEnd::Exit(7)), "worked out by hand");
    assert_eq!(got.end, Some(end));
    // the table's words: the two branches of `pick` are AtExit (kind 2)
    let (base, words) = reconv_table(&prog, ReconvMode::Table, RT_WORDS).unwrap();
    assert_eq!(
        words.iter().filter(|&&w| w & 3 == 2).count(),
        2,
        "{base:#x} {words:x?}"
    );
    // a table wider than the memory is refused with the numbers, not loaded in part
    let e = reconv_table(&prog, ReconvMode::Table, 1)
        .unwrap_err()
        .to_string();
    assert!(e.contains("holds 1 (RT_WORDS)"), "{e}");
    // converge mode sends no table
    assert!(reconv_table(&prog, ReconvMode::Converge, 1)
        .unwrap()
        .1
        .is_empty());
    // the board refuses a table larger than its memory by itself (a host that does not know
    // its RT_WORDS): the 'T' block of the frames replaced by one of RT_WORDS + 1 words
    let f = frames(&prog, DRAM_BYTES).unwrap();
    let t_at = f.len() - 9 - (9 + 4 * words.len());
    assert_eq!(f[t_at], b'T');
    let n = RT_WORDS as u32 + 1;
    let mut big = f[..t_at].to_vec();
    big.push(b'T');
    big.extend_from_slice(&base.to_le_bytes());
    big.extend_from_slice(&n.to_le_bytes());
    big.resize(big.len() + 4 * n as usize, 0);
    big.extend_from_slice(&f[f.len() - 9..]);
    let d = run_sim_frames(&bin, &big, MAX_CYCLES).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        d.end,
        Some(BoardEnd::TableTooLarge {
            words: RT_WORDS as u32
        })
    );
}

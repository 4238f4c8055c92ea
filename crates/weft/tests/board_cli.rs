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

/// A board on a serial line, played by Python on a pseudo-terminal: it reads the loader's
/// commands as `rtl/board/weft_board.sv` does (`R`, `W` address length bytes, `T` base count
/// words, `G` entry tohost), keeps every byte, then answers with console output and an exit.
const FAKE_BOARD: &str = r#"
import os, pty, struct, sys, tty
m, s = pty.openpty()
tty.setraw(s)
print(os.ttyname(s), flush=True)
got = bytearray()
def get(n):
    b = b''
    while len(b) < n:
        b += os.read(m, n - len(b))
    got.extend(b)
    return b
assert get(1) == b'R', got
while True:
    c = get(1)
    if c == b'W':
        addr, n = struct.unpack('<II', get(8)); get(n)
    elif c == b'T':
        base, n = struct.unpack('<II', get(8)); get(4 * n)
    elif c == b'G':
        get(8); break
    else:
        sys.exit('unexpected loader command %r' % c)
open(sys.argv[1], 'wb').write(got)
os.write(m, b'frame 1\n\x1bX' + struct.pack('<I', 3))
sys.stdin.read()
"#;

/// `weft board --port P --demo` sends the board the shipped RTL build of the demo: every
/// loadable segment of crates/weft/demo/demo-rv32ima.elf (read here from the ELF's program
/// headers) at its address with its zero fill, the reconvergence table, the entry; then it
/// echoes the board's console and ends with the board's exit code. (Only the board itself is
/// not here: docs/rtl.md says what was run on hardware.)
#[test]
fn weft_board_demo_sends_the_rtl_demo_over_the_serial_line() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let dir = std::env::temp_dir().join(format!("weft-board-demo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sent = dir.join("sent.bin");
    let mut board = Command::new("python3")
        .args(["-c", FAKE_BOARD])
        .arg(&sent)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs (CI has Python 3.11)");
    let mut port = String::new();
    BufReader::new(board.stdout.take().unwrap())
        .read_line(&mut port)
        .unwrap();
    let run = weft(&["board", "--port", port.trim(), "--demo", "--timeout", "60"]);
    drop(board.stdin.take());
    let fake = board.wait().unwrap();
    let got = std::fs::read(&sent);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(fake.success(), "the fake board: {fake}");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.ends_with("frame 1\n"), "{stdout}");
    assert!(stdout.contains("HDMI"), "{stdout}");
    assert_eq!(
        run.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );

    // what the board must have received, from the ELF's headers
    let elf = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/demo/demo-rv32ima.elf"
    ))
    .unwrap();
    let u16_at = |o: usize| u16::from_le_bytes([elf[o], elf[o + 1]]) as usize;
    let u32_at = |o: usize| u32::from_le_bytes(elf[o..o + 4].try_into().unwrap()) as usize;
    assert_eq!(&elf[..5], b"\x7fELF\x01", "a 32-bit ELF");
    assert_eq!(u16_at(18), 243, "RISC-V");
    let (entry, phoff, phnum) = (u32_at(24), u32_at(28), u16_at(44));
    let mut want = vec![b'R'];
    for i in 0..phnum {
        let ph = phoff + 32 * i;
        if u32_at(ph) != 1 || u32_at(ph + 20) == 0 {
            continue; // not PT_LOAD, or empty
        }
        let (off, vaddr, filesz, memsz) = (
            u32_at(ph + 4),
            u32_at(ph + 8),
            u32_at(ph + 16),
            u32_at(ph + 20),
        );
        want.push(b'W');
        want.extend_from_slice(&(vaddr as u32).to_le_bytes());
        want.extend_from_slice(&(memsz as u32).to_le_bytes());
        want.extend_from_slice(&elf[off..off + filesz]);
        want.resize(want.len() + memsz - filesz, 0);
    }
    let got = got.expect("the fake board kept what it received");
    assert!(got.len() > want.len() + 9, "{} bytes sent", got.len());
    assert_eq!(&got[..want.len()], &want[..], "the segments sent");
    let t = &got[want.len()..];
    assert_eq!(t[0], b'T');
    let words = u32::from_le_bytes(t[5..9].try_into().unwrap()) as usize;
    let g = &t[9 + 4 * words..];
    assert_eq!(g.len(), 9, "G and its two words end what is sent");
    assert_eq!(g[0], b'G');
    assert_eq!(
        u32::from_le_bytes(g[1..5].try_into().unwrap()) as usize,
        entry
    );
    assert_eq!(&g[5..], &[0; 4], "the demo has no HTIF tohost");
}

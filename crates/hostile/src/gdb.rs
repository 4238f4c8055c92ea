//! The GDB stub against a hostile client: random and mutated packets (from the commands a
//! real gdb session sends) with broken framing — bad checksums, bytes outside packets, cut and
//! oversized packets, stray `-`, `+` and Ctrl-C — sent over a socket to `serve_connection`
//! on a thread. After every input the session must still answer `?` with a stop reply; every
//! reply must be a well-formed packet no longer than the packet size; the stub must never
//! panic or hang. A session ends only when the program does (a random memory write may make
//! it fault): then a new one starts.

use crate::Report;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};
use weft_difftest::rng::Rng;
use weft_gdb::guard::PACKET_SIZE;
use weft_simt::{Config, Machine, RunEnd};

/// Two cores of warps spinning, so that a continue runs until Ctrl-C.
const PROGRAM: &str = "
    .text
    .globl _start
_start:
    la t0, spin
    csrw spawn_pc, t0
    li t0, -2
    csrw warp_active, t0
spin:
    addi a0, a0, 1
    la t1, data
    sw a0, 0(t1)
    j spin
    .data
data: .word 0, 0, 0, 0
";

/// Commands a gdb session sends (gdb 13 on weft), and some it could.
const COMMANDS: &[&str] = &[
    "qSupported:multiprocess+;swbreak+;hwbreak+;qRelocInsn+;fork-events+;vfork-events+;exec-events+;vContSupported+;QThreadEvents+;no-resumed+;memory-tagging+",
    "vMustReplyEmpty",
    "QStartNoAckMode",
    "Hgp0.0",
    "qXfer:features:read:target.xml:0,ffb",
    "qTStatus",
    "?",
    "qfThreadInfo",
    "qsThreadInfo",
    "qAttached:1",
    "Hcp1.1",
    "qC",
    "g",
    "p20",
    "P5=78563412",
    "G0000000000000000000000000000000000000000000000000000000000000000",
    "m80000000,40",
    "m8fffff00,200",
    "M80001000,4:01020304",
    "X80001000,4:abcd",
    "Z0,80000010,4",
    "z0,80000010,4",
    "Z1,80000014,4",
    "Z2,80001000,4",
    "z2,80001000,4",
    "Z3,80001000,4",
    "Z4,80001000,4",
    "vCont?",
    "vCont;s:p1.1;c",
    "vCont;c",
    "s",
    "c",
    "Tp1.2",
    "qThreadExtraInfo,p1.3",
    "qRcmd,7761727073",
    "qRcmd,6c616e652033",
    "qRcmd,737461636b",
    "qRcmd,63737220",
    "qRcmd,6661756c74",
    "qRcmd,68656c70",
    "qOffsets",
    "qSymbol::",
    "vFile:open:2f6574632f706173737764,0,0",
    "QNonStop:1",
    "bc",
    "x80000000,10",
];

/// Packets that end a session or the program as gdb means them to: left out.
fn ends_session(body: &[u8]) -> bool {
    matches!(body.first(), Some(b'k' | b'D' | b'R' | b'r' | b'!'))
        || body.starts_with(b"vKill")
        || body.starts_with(b"vRun")
        || body.starts_with(b"vAttach")
}

/// Does this packet set the target running (so Ctrl-C must stop it)?
fn resumes(body: &[u8]) -> bool {
    matches!(body.first(), Some(b'c' | b'C' | b's' | b'S'))
        || (body.starts_with(b"vCont") && !body.starts_with(b"vCont?"))
}

fn frame(body: &[u8]) -> Vec<u8> {
    let sum = body.iter().fold(0u8, |a, &b| a.wrapping_add(b));
    let mut v = vec![b'$'];
    v.extend_from_slice(body);
    v.extend(format!("#{sum:02x}").into_bytes());
    v
}

/// A mutated command.
fn mutate(r: &mut Rng, body: &mut Vec<u8>) {
    for _ in 0..r.range(0, 3) {
        let at = r.below(body.len() as u32 + 1) as usize;
        match r.below(7) {
            0 if !body.is_empty() => {
                let i = r.below(body.len() as u32) as usize;
                body[i] ^= 1 << r.below(8);
            }
            1 => body.insert(at, *r.pick(b"0123456789abcdefz,:;=#$}*-+ ")),
            2 if !body.is_empty() => {
                body.truncate(r.below(body.len() as u32) as usize);
            }
            3 => {
                let _ = body.splice(at..at, b"ffffffffffffffffffff".iter().copied());
            }
            4 => body.insert(at, b','),
            5 => {
                let n = r.below(6000) as usize;
                body.extend(std::iter::repeat_n(b'a', n));
            }
            _ => body.insert(at, r.u32() as u8),
        }
    }
}

/// A session: the stub on a thread and the client's socket.
struct Session {
    s: TcpStream,
    h: std::thread::JoinHandle<Result<RunEnd, String>>,
}

fn start() -> Session {
    let l = TcpListener::bind("127.0.0.1:0").expect("a local port");
    let addr = l.local_addr().expect("its address");
    let h = std::thread::spawn(move || {
        let bytes = weft_asm::assemble(PROGRAM, "hostile.s").expect("assembles");
        let (prog, _) = weft_simt::load::program_from_elf(&bytes).expect("loads");
        let cfg = Config {
            cores: 2,
            warps: 4,
            lanes: 4,
            ..Config::default()
        };
        let mut m = Machine::new(cfg, &prog).expect("a machine");
        let (s, _) = l.accept().map_err(|e| e.to_string())?;
        weft_gdb::serve_connection(&mut m, s)
    });
    let s = TcpStream::connect(addr).expect("the stub listens");
    let _ = s.set_read_timeout(Some(Duration::from_millis(15)));
    Session { s, h }
}

/// What came back: packet bodies (checked), or `None` if the connection closed.
fn drain(s: &mut TcpStream, quiet: Duration, rep: &mut Report) -> Option<Vec<Vec<u8>>> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 1 << 16];
    let mut last = Instant::now();
    loop {
        match s.read(&mut chunk) {
            Ok(0) => return None,
            Ok(n) => {
                buf.extend_from_slice(&chunk[..n]);
                last = Instant::now();
            }
            Err(_) if last.elapsed() >= quiet => break,
            Err(_) => {}
        }
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < buf.len() {
        if buf[i] != b'$' {
            if !matches!(buf[i], b'+' | b'-') {
                rep.find(format!("a stray byte {:#04x} between packets", buf[i]));
            }
            i += 1;
            continue;
        }
        let Some(h) = buf[i..].iter().position(|&c| c == b'#') else {
            rep.find("a reply cut short".into());
            break;
        };
        let body = &buf[i + 1..i + h];
        let sum = buf
            .get(i + h + 1..i + h + 3)
            .and_then(|d| u8::from_str_radix(std::str::from_utf8(d).ok()?, 16).ok());
        if sum != Some(body.iter().fold(0u8, |a, &b| a.wrapping_add(b))) {
            rep.find(format!(
                "a reply with a wrong checksum: {:?}",
                String::from_utf8_lossy(body)
            ));
        }
        if h + 3 > PACKET_SIZE {
            rep.find(format!("a reply of {} bytes", h + 3));
        }
        out.push(body.to_vec());
        i += h + 3;
    }
    Some(out)
}

/// Run the campaign for about `seconds` (at least 100 inputs).
pub fn run(seed: u64, seconds: f64) -> Report {
    let mut rep = Report::default();
    let mut r = Rng::new(seed);
    let mut sess = start();
    let start_t = Instant::now();
    let mut inputs = 0u64;
    while start_t.elapsed().as_secs_f64() < seconds || inputs < 100 {
        inputs += 1;
        let mut body = r.pick(COMMANDS).as_bytes().to_vec();
        if r.chance(2, 3) {
            mutate(&mut r, &mut body);
        }
        if ends_session(&body) {
            continue;
        }
        let mut bytes = frame(&body);
        match r.below(12) {
            0 => {
                let n = bytes.len();
                bytes[n - 1] ^= 1; // a wrong checksum digit
            }
            1 => bytes.truncate(bytes.len() - 3), // no checksum: cut by the next packet
            2 => {
                let _ = bytes.splice(0..0, b"noise\xff+-".iter().copied());
            }
            3 => bytes = b"-".to_vec(),
            4 => bytes = b"+++".to_vec(),
            5 => bytes = vec![3],
            _ => {}
        }
        let _ = sess.s.write_all(&bytes);
        let resumed = resumes(&body);
        if resumed {
            std::thread::sleep(Duration::from_millis(2));
            let _ = sess.s.write_all(&[3]);
        }
        let quiet = Duration::from_millis(if resumed { 60 } else { 15 });
        // Then `?`: a stop reply must come (after whatever the input got).
        let alive = drain(&mut sess.s, quiet, &mut rep).and_then(|_| {
            let _ = sess.s.write_all(&frame(b"?"));
            let t = Instant::now();
            let mut got = Vec::new();
            while t.elapsed() < Duration::from_secs(10) {
                got.extend(drain(&mut sess.s, Duration::from_millis(15), &mut rep)?);
                if got
                    .iter()
                    .any(|p| matches!(p.first(), Some(b'T' | b'S' | b'W' | b'X')))
                {
                    return Some(true);
                }
            }
            Some(false)
        });
        match alive {
            Some(true) => {}
            Some(false) => {
                rep.find(format!(
                    "no reply to ? within 10 s after {:?}",
                    String::from_utf8_lossy(&bytes)
                ));
                break;
            }
            None => {
                // The connection closed: only a program that ended may close it.
                let end = std::mem::replace(&mut sess, start()).h.join();
                match end {
                    Ok(Ok(_)) => {}
                    Ok(Err(e)) => rep.find(format!(
                        "the session ended after {:?}: {e}",
                        String::from_utf8_lossy(&bytes)
                    )),
                    Err(_) => rep.find(format!(
                        "the stub panicked after {:?}",
                        String::from_utf8_lossy(&bytes)
                    )),
                }
            }
        }
        rep.ops += 1;
        if rep.findings.len() > 20 {
            break;
        }
    }
    // gdb kills the program: the session ends with that.
    let _ = sess.s.write_all(&frame(b"k"));
    match sess.h.join() {
        Ok(Err(e)) if e.contains("killed") => {}
        Ok(other) => rep.find(format!("after k: {other:?}")),
        Err(_) => rep.find("the stub panicked at the kill".into()),
    }
    rep
}

//! The GDB stub against a hostile client speaking raw packets: every malformed packet is
//! answered as the remote protocol says (`-` for a bad checksum, an error reply for the
//! rest) and the session goes on; no reply exceeds the packet size; the session's state
//! (multiprocess ids, the selected thread, no-ack mode) survives a refused packet. At the
//! end gdb detaches and the run goes on to its end.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;
use weft_gdb::guard::PACKET_SIZE;
use weft_simt::{Config, Machine, RunEnd};

/// Every warp of every core started (spinning), and core 0's warp 0 waiting for the word at
/// `flag` to become 0 to exit with status 7.
const PROGRAM: &str = "
    .text
    .globl _start
_start:
    la t0, spin
    csrw spawn_pc, t0
    li t0, -2
    csrw warp_active, t0
    csrr t2, core_id
    bnez t2, spin
    la t3, flag
1:  lw t4, 0(t3)
    bnez t4, 1b
    li t0, 0xffffff04
    li t1, 7
    sw t1, 0(t0)
spin:
    j spin
    .data
flag: .word 1
";

fn program() -> weft_simt::Program {
    let bytes = weft_asm::assemble(PROGRAM, "hostile.s").expect("assembles");
    weft_simt::load::program_from_elf(&bytes).expect("loads").0
}

/// A stub serving a machine of `cores` × 32 warps on a thread; the client and the thread
/// (which returns how the session ended).
fn start(cores: usize) -> (Client, std::thread::JoinHandle<Result<RunEnd, String>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    let h = std::thread::spawn(move || {
        let cfg = Config {
            cores,
            warps: 32,
            lanes: 4,
            ..Config::default()
        };
        let mut m = Machine::new(cfg, &program()).expect("machine");
        let (s, _) = l.accept().unwrap();
        weft_gdb::serve_connection(&mut m, s)
    });
    let s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_millis(300)))
        .unwrap();
    (Client { s, buf: Vec::new() }, h)
}

/// Let the program end: clear `flag`, detach; the run goes on to its end.
fn finish(mut c: Client, h: std::thread::JoinHandle<Result<RunEnd, String>>) {
    let flag = program()
        .symbols
        .iter()
        .find(|(n, _)| n == "flag")
        .expect("flag")
        .1;
    assert_eq!(c.ask(format!("M{flag:x},4:00000000").as_bytes()), b"OK");
    // Detach: the stub says OK and closes the connection.
    c.s.write_all(&frame(b"D")).unwrap();
    c.s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut rest = Vec::new();
    let _ = c.s.read_to_end(&mut rest);
    assert!(rest.windows(3).any(|w| w == b"$OK"), "{rest:?}");
    assert_eq!(h.join().unwrap(), Ok(RunEnd::Exit(7)));
}

/// Undo run-length encoding (`x*n`: `x` repeated `n − 29` more times).
fn unrle(b: &[u8]) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'*' {
            let prev = *out.last().expect("a run repeats something");
            out.extend(std::iter::repeat_n(prev, (b[i + 1] - 29) as usize));
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

struct Client {
    s: TcpStream,
    buf: Vec<u8>,
}

/// Whole packets in `b`.
fn count_packets(b: &[u8]) -> usize {
    b.split(|&c| c == b'#').count() - 1
}

fn frame(body: &[u8]) -> Vec<u8> {
    let sum = body.iter().fold(0u8, |a, &b| a.wrapping_add(b));
    let mut v = vec![b'$'];
    v.extend_from_slice(body);
    v.extend(format!("#{sum:02x}").into_bytes());
    v
}

impl Client {
    /// Send raw bytes; everything the stub sends, once at least `want` packets have come
    /// and it has then been quiet a while: acks and nacks (as text) and packet bodies, each
    /// packet checked against its checksum and the packet size.
    fn raw_n(&mut self, bytes: &[u8], want: usize) -> (String, Vec<Vec<u8>>) {
        self.s.write_all(bytes).unwrap();
        let mut chunk = [0u8; 1 << 16];
        let start = std::time::Instant::now();
        loop {
            match self.s.read(&mut chunk) {
                Ok(0) => panic!("the stub closed the connection after {bytes:?}"),
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
                Err(_) if count_packets(&self.buf) >= want => break,
                Err(_) if start.elapsed() > Duration::from_secs(120) => {
                    panic!("no reply to {:?}", String::from_utf8_lossy(bytes))
                }
                Err(_) => {}
            }
        }
        let (mut acks, mut packets) = (String::new(), Vec::new());
        let b = std::mem::take(&mut self.buf);
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'$' => {
                    let hash = b[i..]
                        .iter()
                        .position(|&c| c == b'#')
                        .expect("a whole packet");
                    let body = &b[i + 1..i + hash];
                    let sum = u8::from_str_radix(
                        std::str::from_utf8(&b[i + hash + 1..i + hash + 3]).unwrap(),
                        16,
                    )
                    .unwrap();
                    assert_eq!(sum, body.iter().fold(0u8, |a, &c| a.wrapping_add(c)));
                    assert!(hash + 3 <= PACKET_SIZE, "a reply of {} bytes", hash + 3);
                    packets.push(body.to_vec());
                    i += hash + 3;
                }
                c => {
                    acks.push(c as char);
                    i += 1;
                }
            }
        }
        (acks, packets)
    }

    /// Send raw bytes; what comes back (nothing need come).
    fn raw(&mut self, bytes: &[u8]) -> (String, Vec<Vec<u8>>) {
        self.raw_n(bytes, 0)
    }

    /// Send a packet; the one reply packet.
    fn ask(&mut self, body: &[u8]) -> Vec<u8> {
        let (_, mut p) = self.raw_n(&frame(body), 1);
        assert_eq!(
            p.len(),
            1,
            "one reply to {:?}: {p:?}",
            String::from_utf8_lossy(body)
        );
        p.remove(0)
    }

    /// The session is alive: `?` gets a stop reply.
    fn alive(&mut self, after: &str) {
        let r = self.ask(b"?");
        assert!(r.starts_with(b"T05"), "after {after}: {r:?}");
    }
}

#[test]
fn malformed_packets_get_error_replies_and_the_session_goes_on() {
    let (mut c, h) = start(1);
    let sup = c.ask(b"qSupported:multiprocess+;swbreak+");
    assert!(sup.starts_with(b"PacketSize=1000;"), "{sup:?}");
    c.alive("qSupported");
    // A wrong checksum: '-' and nothing else; a retransmission is answered.
    let (acks, p) = c.raw(b"$m80000000,4#00");
    assert_eq!((acks.as_str(), p.len()), ("-", 0));
    assert_eq!(unrle(&c.ask(b"m80000000,4")).len(), 8);
    // Malformed commands: an error reply each, the session alive after each.
    for bad in [
        &b"m80000000"[..],
        b"G00",
        b"vCont;x",
        b"qRcmd,zz",
        b"Hgzz",
        b"Z0,zz,4",
        b"M80000000,4:zz",
        b"qThreadExtraInfo,zz",
        b"Tzz",
        b"vCont;s:zz",
        b"vCont;c:p1.999",
        b"vCont;s:p1.999;c",
        b"c:zz",
        b"qXfer:features:read:nosuch.xml:0,10",
    ] {
        let r = c.ask(bad);
        assert!(
            r.starts_with(b"E"),
            "{:?}: {r:?}",
            String::from_utf8_lossy(bad)
        );
        c.alive(&String::from_utf8_lossy(bad));
    }
    // Noise between packets is ignored; a packet cut short by another '$' is dropped.
    let (_, p) = c.raw(b"garbage\x01\xff$m8000$?#3f");
    assert!(p.len() == 1 && p[0].starts_with(b"T05"), "{p:?}");
    // A packet larger than the packet size: drained, and answered E07.
    let mut big = b"X80000000,1000:".to_vec();
    big.resize(PACKET_SIZE + 100, b'a');
    assert_eq!(c.ask(&big), b"E07");
    c.alive("an oversized packet");
    // '-' asks for the last reply again.
    let r = c.ask(b"m80000000,4");
    let (_, again) = c.raw(b"-");
    assert_eq!(again, vec![r]);
    // Reads are bounded by the packet size; one that runs off the end of DRAM returns the
    // bytes before it, never an error appended to data.
    let dram_end = 0x8000_0000u64 + Config::default().dram_size as u64;
    for (addr, len) in [
        (dram_end - 0x10000, 0x20000u64),
        (0x8000_0000, 0xffff_ffff),
        (dram_end - 0x100, 0x200),
    ] {
        let r = unrle(&c.ask(format!("m{addr:x},{len:x}").as_bytes()));
        assert!(
            !r.is_empty() && r.len().is_multiple_of(2),
            "m{addr:x},{len:x}: {} chars",
            r.len()
        );
        assert!(r.iter().all(|b| b.is_ascii_hexdigit()), "m{addr:x},{len:x}");
    }
    let r = unrle(&c.ask(format!("m{:x},200", dram_end - 0x100).as_bytes()));
    assert_eq!(r.len(), 0x200, "the 256 readable bytes");
    assert!(c
        .ask(format!("m{dram_end:x},4").as_bytes())
        .starts_with(b"E"));
    // No-ack mode: a bad checksum is answered with an error reply (gdb will not resend).
    assert_eq!(c.ask(b"QStartNoAckMode"), b"OK");
    let (acks, p) = c.raw(b"$?#00");
    assert_eq!((acks.as_str(), p), ("", vec![b"E01".to_vec()]));
    let (acks, p) = c.raw(&frame(b"vCont;x"));
    assert_eq!((acks.as_str(), p), ("", vec![b"E16".to_vec()]));
    let (acks, p) = c.raw(&frame(b"?"));
    assert!(acks.is_empty() && p[0].starts_with(b"T05"), "{acks} {p:?}");
    finish(c, h);
}

#[test]
fn a_refused_packet_keeps_the_sessions_thread_and_ids() {
    let (mut c, h) = start(2);
    c.ask(b"qSupported:multiprocess+");
    // Run until every warp has started, then select core 1 warp 5 (thread 38).
    c.raw(&frame(b"vCont;c"));
    let (_, p) = c.raw_n(b"\x03", 1);
    assert!(p[0].starts_with(b"T") || p[0].starts_with(b"S"), "{p:?}");
    assert_eq!(c.ask(b"Hgp1.26"), b"OK");
    let regs = c.ask(b"g");
    for bad in [&b"G00"[..], b"vCont;x", b"Hgzz"] {
        assert!(c.ask(bad).starts_with(b"E"));
        // The same thread's registers, and ids still in the multiprocess form.
        assert_eq!(c.ask(b"g"), regs);
        assert!(c.ask(b"qfThreadInfo").starts_with(b"mp"));
    }
    finish(c, h);
}

#[test]
fn long_thread_lists_and_monitor_output_come_in_packets_of_the_packet_size() {
    // 256 cores × 32 warps: 8,192 threads, far more ids than one packet holds.
    let (mut c, h) = start(256);
    c.ask(b"qSupported:multiprocess+");
    c.raw(&frame(b"vCont;c"));
    let (_, p) = c.raw_n(b"\x03", 1);
    assert!(p[0].starts_with(b"T") || p[0].starts_with(b"S"), "{p:?}");
    let mut ids = std::collections::BTreeSet::new();
    let mut r = c.ask(b"qfThreadInfo");
    let mut pages = 0;
    while r[0] == b'm' {
        pages += 1;
        for id in r[1..].split(|&b| b == b',') {
            assert!(
                ids.insert(id.to_vec()),
                "{:?} twice",
                String::from_utf8_lossy(id)
            );
        }
        r = c.ask(b"qsThreadInfo");
    }
    assert_eq!(r, b"l");
    assert_eq!(ids.len(), 256 * 32);
    assert!(pages > 10, "{pages} pages");
    // `monitor warps` describes every warp: several O packets, then OK.
    let (_, p) = c.raw_n(&frame(b"qRcmd,7761727073"), 2);
    assert!(p.len() > 10 && p[..p.len() - 1].iter().all(|r| r[0] == b'O'));
    assert_eq!(p[p.len() - 1], b"OK");
    finish(c, h);
}

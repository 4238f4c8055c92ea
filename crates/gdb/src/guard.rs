//! The remote protocol's framing and error handling, between gdb's socket and the `gdbstub`
//! state machine — which ends the whole session on any packet it cannot take (a bad
//! checksum, a `-`, a malformed command: gdbstub issue #137). The guard answers those as the
//! remote serial protocol says, and bounds every packet by [`PACKET_SIZE`]:
//!
//! - A packet with a bad checksum is answered `-` (retransmit; in no-ack mode, where gdb does
//!   not retransmit, an `E01` reply); bytes outside a packet are ignored; a packet larger than
//!   the packet size is drained and answered `E07`. A `-` from gdb resends the last reply.
//! - A well-formed packet goes on to gdbstub. Should gdbstub still refuse it (a command it
//!   cannot parse, `m80000000` without a length, `vCont;x`, odd hex, a resume of a thread
//!   that does not exist), the session does not
//!   end: the packet is answered `E16` and a fresh gdbstub takes over the same connection, the
//!   session's state (`qSupported`, no-ack mode, `Hg`, `Hc`) replayed into it quietly; the
//!   target — breakpoints, watchpoints, the machine — is untouched.
//! - Replies stay within the packet size: an `m` read asks for at most what fits (RSP lets a
//!   stub return fewer bytes than asked; gdb asks for the rest), a `qXfer` read likewise,
//!   monitor output is cut into several `O` packets, and a thread list too long for one
//!   packet is given out in pages (`qfThreadInfo`, then `qsThreadInfo`).

use gdbstub::conn::{Connection, ConnectionExt};
use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::net::TcpStream;

/// The largest packet either side sends, framing (`$`, `#`, checksum) included; advertised
/// as `PacketSize`.
pub const PACKET_SIZE: usize = 4096;

/// The largest packet body (between `$` and `#`).
const MAX_BODY: usize = PACKET_SIZE - 4;

/// The longest `m` read: two hex digits a byte fit a packet.
const MAX_READ: u64 = (MAX_BODY / 2) as u64;

/// The longest `qXfer` read: its data may be escaped (two bytes each) after the `m`/`l`.
const MAX_XFER: u64 = ((MAX_BODY - 1) / 2) as u64;

/// Where the guard is in an incoming packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rx {
    /// Between packets.
    Idle,
    /// In a packet's body.
    Body,
    /// After `#`.
    Sum1,
    /// After the first checksum digit.
    Sum2(u8),
}

/// The packets that set up a session, replayed into a fresh gdbstub after a refusal.
#[derive(Clone, Debug, Default)]
struct Session {
    supported: Option<Vec<u8>>,
    no_ack: bool,
    hg: Option<Vec<u8>>,
    hc: Option<Vec<u8>>,
}

/// The guard over gdb's connection (see the module comment). gdbstub drives it through
/// `&mut Guard` as its connection.
pub struct Guard {
    sock: TcpStream,
    rx: Rx,
    body: Vec<u8>,
    /// The checksum of the whole body, bytes past `MAX_BODY` included.
    sum: u8,
    oversized: bool,
    /// Bytes for gdbstub to read: whole, checked packets and Ctrl-C.
    feed: VecDeque<u8>,
    /// Bytes gdbstub wrote since its last flush.
    tx: Vec<u8>,
    /// The last packet sent to gdb, for a `-`.
    last: Vec<u8>,
    no_ack: bool,
    /// The body of the packet gdbstub is answering.
    current: Vec<u8>,
    /// A session packet waiting for gdbstub's reply (kept if it is not an error).
    pending: Option<Vec<u8>>,
    session: Session,
    /// Replies of replayed packets still to drop.
    swallow: usize,
    /// Pages of a thread list still to give out.
    pages: VecDeque<Vec<u8>>,
    /// Packets refused so far (bad checksum, too long, refused by gdbstub).
    pub refused: u64,
}

/// The checksum of a packet body.
fn checksum(body: &[u8]) -> u8 {
    body.iter().fold(0u8, |s, &b| s.wrapping_add(b))
}

fn hex_digit(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// A hex number of at most 16 digits.
fn hex_number(s: &[u8]) -> Option<u64> {
    if s.is_empty() || s.len() > 16 {
        return None;
    }
    s.iter()
        .try_fold(0u64, |v, &b| Some(v << 4 | hex_digit(b)? as u64))
}

/// Undo the run-length encoding of a reply (`x*n`: `x` repeated `n − 29` more times).
fn rle_decode(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        if body[i] == b'*' && i + 1 < body.len() && !out.is_empty() {
            let prev = out[out.len() - 1];
            let n = body[i + 1].saturating_sub(29) as usize;
            out.extend(std::iter::repeat_n(prev, n));
            i += 2;
        } else {
            out.push(body[i]);
            i += 1;
        }
    }
    out
}

/// `body` with the length after its last `,` lowered to `most` (or as it is).
fn cap_length(body: &[u8], most: u64) -> Vec<u8> {
    let Some(comma) = body.iter().rposition(|&b| b == b',') else {
        return body.to_vec();
    };
    match hex_number(&body[comma + 1..]) {
        Some(n) if n > most => {
            let mut v = body[..=comma].to_vec();
            v.extend_from_slice(format!("{most:x}").as_bytes());
            v
        }
        _ => body.to_vec(),
    }
}

/// A request rewritten so that its reply fits a packet.
fn bounded(body: &[u8]) -> Vec<u8> {
    if body.first() == Some(&b'm') {
        cap_length(body, MAX_READ)
    } else if body.starts_with(b"qXfer:") && body.windows(6).any(|w| w == b":read:") {
        cap_length(body, MAX_XFER)
    } else {
        body.to_vec()
    }
}

/// Does this packet set up session state that a fresh gdbstub must be told again?
fn is_session_packet(body: &[u8]) -> bool {
    body.starts_with(b"qSupported")
        || body == b"QStartNoAckMode"
        || body.starts_with(b"Hg")
        || body.starts_with(b"Hc")
}

impl Guard {
    /// A guard over gdb's connection.
    pub fn new(sock: TcpStream) -> Guard {
        Guard {
            sock,
            rx: Rx::Idle,
            body: Vec::new(),
            sum: 0,
            oversized: false,
            feed: VecDeque::new(),
            tx: Vec::new(),
            last: Vec::new(),
            no_ack: false,
            current: Vec::new(),
            pending: None,
            session: Session::default(),
            swallow: 0,
            pages: VecDeque::new(),
            refused: 0,
        }
    }

    /// Read what the socket has (blocking for at least one byte if `block`), and take it in.
    /// Ok(false) if nothing was there (non-blocking).
    fn pull(&mut self, block: bool) -> io::Result<bool> {
        self.sock.set_nonblocking(!block)?;
        let mut buf = [0u8; 4096];
        let n = match Read::read(&mut self.sock, &mut buf) {
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(false),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => return Ok(false),
            Err(e) => return Err(e),
        };
        for &b in &buf[..n] {
            self.take(b)?;
        }
        Ok(true)
    }

    /// One byte from gdb.
    fn take(&mut self, b: u8) -> io::Result<()> {
        match self.rx {
            Rx::Idle => match b {
                b'$' => {
                    self.body.clear();
                    self.sum = 0;
                    self.oversized = false;
                    self.rx = Rx::Body;
                }
                b'-' => self.resend()?,
                0x03 => self.feed.push_back(0x03),
                // Acks, and anything else between packets.
                _ => {}
            },
            Rx::Body => match b {
                b'#' => self.rx = Rx::Sum1,
                // A new packet: the one before was cut short.
                b'$' => {
                    self.body.clear();
                    self.sum = 0;
                    self.oversized = false;
                }
                _ => {
                    self.sum = self.sum.wrapping_add(b);
                    if self.body.len() < MAX_BODY {
                        self.body.push(b);
                    } else {
                        self.oversized = true;
                    }
                }
            },
            Rx::Sum1 => self.rx = Rx::Sum2(b),
            Rx::Sum2(hi) => {
                self.rx = Rx::Idle;
                self.packet(hi, b)?;
            }
        }
        Ok(())
    }

    /// A whole packet from gdb, with its checksum digits.
    fn packet(&mut self, hi: u8, lo: u8) -> io::Result<()> {
        let body = std::mem::take(&mut self.body);
        let sum = hex_digit(hi).zip(hex_digit(lo)).map(|(h, l)| h << 4 | l);
        if sum != Some(self.sum) {
            self.refused += 1;
            return if self.no_ack {
                self.send(b"E01")
            } else {
                self.raw(b"-")
            };
        }
        if self.oversized {
            self.refused += 1;
            self.ack()?;
            return self.send(b"E07");
        }
        if body == b"qsThreadInfo" {
            if let Some(page) = self.pages.pop_front() {
                self.ack()?;
                return self.send(&page);
            }
        }
        if body == b"qfThreadInfo" {
            self.pages.clear();
        }
        let body = bounded(&body);
        if is_session_packet(&body) {
            self.pending = Some(body.clone());
        }
        self.feed_packet(&body);
        self.current = body;
        Ok(())
    }

    /// Give gdbstub a packet.
    fn feed_packet(&mut self, body: &[u8]) {
        self.feed.push_back(b'$');
        self.feed.extend(body);
        self.feed
            .extend(format!("#{:02x}", checksum(body)).into_bytes());
    }

    /// `+`, unless in no-ack mode.
    fn ack(&mut self) -> io::Result<()> {
        if self.no_ack {
            Ok(())
        } else {
            self.raw(b"+")
        }
    }

    fn raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.sock.set_nonblocking(false)?;
        Write::write_all(&mut self.sock, bytes)
    }

    /// Send a packet with this body (kept for a `-`).
    fn send(&mut self, body: &[u8]) -> io::Result<()> {
        let mut p = Vec::with_capacity(body.len() + 4);
        p.push(b'$');
        p.extend_from_slice(body);
        p.extend(format!("#{:02x}", checksum(body)).into_bytes());
        self.raw(&p)?;
        self.last = p;
        Ok(())
    }

    /// gdb asked for the last packet again.
    fn resend(&mut self) -> io::Result<()> {
        if self.last.is_empty() {
            return Ok(());
        }
        let p = self.last.clone();
        self.raw(&p)
    }

    /// What gdbstub wrote since its last flush: acks and whole packets, each handled; an
    /// unfinished packet waits for the next flush.
    fn flush_tx(&mut self) -> io::Result<()> {
        let tx = std::mem::take(&mut self.tx);
        let mut i = 0;
        while i < tx.len() {
            match tx[i] {
                b'$' => {
                    let Some(hash) = tx[i..].iter().position(|&b| b == b'#') else {
                        break;
                    };
                    let end = i + hash + 3;
                    if end > tx.len() {
                        break;
                    }
                    self.reply(&tx[i + 1..i + hash])?;
                    i = end;
                }
                b => {
                    if self.swallow == 0 && !(b == b'+' && self.no_ack) {
                        self.raw(&[b])?;
                    }
                    i += 1;
                }
            }
        }
        self.tx = tx[i..].to_vec();
        Ok(())
    }

    /// A packet gdbstub sends (its body as written, maybe run-length encoded).
    fn reply(&mut self, body: &[u8]) -> io::Result<()> {
        if self.swallow > 0 {
            self.swallow -= 1;
            return Ok(());
        }
        let console = body.first() == Some(&b'O') && self.current.starts_with(b"qRcmd,");
        if let Some(cmd) = self.pending.take() {
            if !console && !body.is_empty() && body[0] != b'E' {
                self.keep(cmd);
            }
        }
        if body.len() <= MAX_BODY {
            self.send(body)?;
            if self.session.no_ack && !self.no_ack && body == b"OK" {
                self.no_ack = true;
            }
            return Ok(());
        }
        let data = rle_decode(body);
        if console {
            // Console output: several `O` packets of whole hex pairs.
            for chunk in data[1..].chunks((MAX_BODY - 1) & !1) {
                let mut p = vec![b'O'];
                p.extend_from_slice(chunk);
                self.send(&p)?;
            }
            return Ok(());
        }
        if self.current == b"qfThreadInfo" && data.first() == Some(&b'm') {
            // The thread list in pages, whole ids each.
            let mut page = vec![b'm'];
            for id in data[1..].split(|&b| b == b',') {
                if page.len() > 1 && page.len() + 1 + id.len() > MAX_BODY {
                    self.pages
                        .push_back(std::mem::replace(&mut page, vec![b'm']));
                }
                if page.len() > 1 {
                    page.push(b',');
                }
                page.extend_from_slice(id);
            }
            self.pages.push_back(page);
            let first = self.pages.pop_front().unwrap_or_default();
            return self.send(&first);
        }
        // No reply of gdbstub's outgrows a packet once the requests are bounded.
        self.send(b"E0C")
    }

    /// gdbstub accepted a session packet: remember it for a replay.
    fn keep(&mut self, cmd: Vec<u8>) {
        let s = &mut self.session;
        if cmd == b"QStartNoAckMode" {
            s.no_ack = true;
        } else if cmd.starts_with(b"qSupported") {
            s.supported = Some(cmd);
        } else if cmd.starts_with(b"Hg") {
            s.hg = Some(cmd);
        } else if cmd.starts_with(b"Hc") {
            s.hc = Some(cmd);
        }
    }

    /// gdbstub refused the packet it was answering and has stopped: answer it `E16`, drop
    /// what it half wrote, and replay the session into the next gdbstub (unless the refused
    /// packet came during a replay, when the session starts afresh).
    pub fn refuse_current(&mut self) -> io::Result<()> {
        self.refused += 1;
        self.tx.clear();
        self.pending = None;
        if self.swallow > 0 {
            self.swallow = 0;
            self.session = Session::default();
            self.no_ack = false;
        }
        self.ack()?;
        self.send(b"E16")?;
        // The replay goes before anything gdb has sent since.
        let s = self.session.clone();
        let mut replay: Vec<Vec<u8>> = Vec::new();
        replay.extend(s.supported);
        if s.no_ack {
            replay.push(b"QStartNoAckMode".to_vec());
        }
        replay.extend(s.hg);
        replay.extend(s.hc);
        self.swallow = replay.len();
        let rest: Vec<u8> = self.feed.drain(..).collect();
        for p in &replay {
            self.feed_packet(p);
        }
        self.feed.extend(rest);
        Ok(())
    }
}

impl Connection for &mut Guard {
    type Error = io::Error;

    fn write(&mut self, byte: u8) -> io::Result<()> {
        self.tx.push(byte);
        Ok(())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.tx.extend_from_slice(buf);
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flush_tx()
    }
}

impl ConnectionExt for &mut Guard {
    fn read(&mut self) -> io::Result<u8> {
        loop {
            if let Some(b) = self.feed.pop_front() {
                return Ok(b);
            }
            self.pull(true)?;
        }
    }

    fn peek(&mut self) -> io::Result<Option<u8>> {
        if self.feed.is_empty() {
            self.pull(false)?;
        }
        Ok(self.feed.front().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_bounded_so_that_replies_fit_a_packet() {
        assert_eq!(bounded(b"m80000000,ffffffff"), b"m80000000,7fe");
        assert_eq!(bounded(b"m80000000,10"), b"m80000000,10");
        assert_eq!(bounded(b"m80000000"), b"m80000000");
        assert_eq!(
            bounded(b"qXfer:features:read:target.xml:0,100000"),
            b"qXfer:features:read:target.xml:0,7fd"
        );
        assert_eq!(bounded(b"qRcmd,6c616e65"), b"qRcmd,6c616e65");
        assert_eq!(hex_number(b"fffffffffffffffff"), None);
    }

    #[test]
    fn run_length_encoding_is_undone() {
        assert_eq!(rle_decode(b"0* "), b"0000");
        assert_eq!(rle_decode(b"ab*!c"), b"abbbbbc");
        assert_eq!(rle_decode(b"*"), b"*");
    }
}

//! weft-gdb: a GDB remote stub for the functional SIMT model (`weft run PROGRAM --gdb
//! ADDR:PORT`), built on the `gdbstub` crate.
//!
//! Each warp is a thread; gdb sees one lane's registers at a time (`monitor lane N`), and
//! `monitor` commands print the thread mask, the divergence stack and the warp-core CSRs of the
//! selected warp ([`monitor`]). Breakpoints stop a warp before it issues the instruction;
//! single step issues one instruction of the stepped warp alone; watchpoints stop after the
//! access; a fault stops the run with a signal on the faulting warp (SIGSEGV for memory
//! faults, SIGILL for an illegal instruction). The machine runs in the stub's thread, one
//! cycle at a time, polling the connection for Ctrl-C ([`target`]).

pub mod guard;
pub mod monitor;
pub mod target;

use gdbstub::conn::ConnectionExt;
use gdbstub::stub::{run_blocking, DisconnectReason, GdbStubBuilder};
use guard::Guard;
use std::net::{SocketAddr, TcpListener, TcpStream};
use target::{Event, Stop, WeftTarget};
use weft_simt::{Machine, RunEnd};

/// The blocking event loop: the machine runs in this thread between gdb's packets.
struct Loop<'a, 'g>(std::marker::PhantomData<(&'a (), &'g ())>);

impl<'a, 'g> run_blocking::BlockingEventLoop for Loop<'a, 'g> {
    type Target = WeftTarget<'a>;
    type Connection = &'g mut Guard;
    type StopReason = Stop;

    #[allow(clippy::type_complexity)]
    fn wait_for_stop_reason(
        target: &mut Self::Target,
        conn: &mut Self::Connection,
    ) -> Result<
        run_blocking::Event<Stop>,
        run_blocking::WaitForStopReasonError<String, std::io::Error>,
    > {
        let poll = || conn.peek().map(|b| b.is_some()).unwrap_or(true);
        match target.run(poll) {
            Event::Stopped(s) => Ok(run_blocking::Event::TargetStopped(s)),
            Event::Incoming => {
                let byte = conn
                    .read()
                    .map_err(run_blocking::WaitForStopReasonError::Connection)?;
                Ok(run_blocking::Event::IncomingData(byte))
            }
        }
    }

    fn on_interrupt(_target: &mut Self::Target) -> Result<Option<Stop>, String> {
        Ok(Some(Stop::Signal(gdbstub::common::Signal::SIGINT)))
    }
}

/// Parse `ADDR:PORT` and listen on it (an error names the address and why).
pub fn listen(addr: &str) -> Result<TcpListener, String> {
    let sa: SocketAddr = addr.parse().map_err(|_| {
        format!("--gdb {addr}: expected ADDR:PORT with a numeric address, e.g. 127.0.0.1:3333")
    })?;
    TcpListener::bind(sa).map_err(|e| format!("--gdb {addr}: cannot listen: {e}"))
}

/// Wait for gdb on `addr` and run `m` under its control until the run ends or gdb detaches
/// (the run then goes on to its end). A kill from gdb is an error.
pub fn serve(m: &mut Machine, addr: &str) -> Result<RunEnd, String> {
    let listener = listen(addr)?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    eprintln!("weft: waiting for gdb on {local} (in gdb: target remote {local})");
    let (stream, peer) = listener
        .accept()
        .map_err(|e| format!("--gdb {addr}: {e}"))?;
    eprintln!("weft: gdb connected from {peer}");
    serve_connection(m, stream)
}

/// Run `m` under the control of the gdb on `stream`. A packet the stub cannot take is
/// answered with an error and the session goes on ([`guard`]); only a lost connection or
/// gdb's kill or detach ends it.
pub fn serve_connection(m: &mut Machine, stream: TcpStream) -> Result<RunEnd, String> {
    let _ = stream.set_nodelay(true);
    let mut guard = Guard::new(stream);
    let (r, end) = {
        let mut t = WeftTarget::new(m);
        let r = loop {
            let stub = GdbStubBuilder::new(&mut guard)
                .packet_buffer_size(guard::PACKET_SIZE)
                .build()
                .map_err(|e| format!("gdb session: {e}"))?;
            match stub.run_blocking::<Loop<'_, '_>>(&mut t) {
                // A packet it could not take (the target's own refusals, such as a resume
                // of a thread that does not exist, included): answered, and the session
                // goes on.
                Err(e) if !e.is_connection_error() => {
                    if let Err(e) = guard.refuse_current() {
                        break Err(format!("gdb session: {e}"));
                    }
                }
                r => break r.map_err(|e| format!("gdb session: {e}")),
            }
        };
        (r, t.end.take().map(|(e, _)| e))
    };
    match (r, end) {
        (Ok(DisconnectReason::Kill), _) => {
            Err(format!("gdb killed the program at cycle {}", m.cycle))
        }
        (Ok(_), Some(end)) => Ok(end),
        (Ok(_), None) => {
            eprintln!("weft: gdb detached; the run goes on");
            Ok(m.run())
        }
        (Err(e), _) => Err(e),
    }
}

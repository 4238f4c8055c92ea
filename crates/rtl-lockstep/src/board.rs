//! The ULX3S board design (`rtl/board/`) from the host's side: the serial protocol of its
//! loader (`weft_board.sv` documents it), the board's answer decoded into console output and
//! how the run ended, a Verilator simulation of the whole board design (`tb_board.cpp`, a
//! virtual serial port), and a real serial port (`weft board load --port`).

use crate::{
    reconv_table, repo_root, shape_params, verilate, Error, ReconvMode, Shape, Verilate, RT_WORDS,
};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use weft_simt::{Program, RunEnd};

/// The board's DRAM at 0x8000_0000: the ULX3S's SDRAM (`weft_board.sv`'s default), of which
/// the first 64 KiB are also held in block RAM for the core's loads and fetches.
pub const DRAM_BYTES: u32 = 32 << 20;
/// The escape byte of the board's answer.
pub const ESC: u8 = 0x1b;
/// The serial line's speed on the board (`ulx3s_top.sv` divides its clock, `CLK_HZ`, by it:
/// 434 cycles per bit at 50 MHz).
pub const BAUD: u32 = 115_200;
/// Clock cycles per serial bit in the simulation (fast: the protocol is the same).
pub const SIM_CLKS_PER_BIT: usize = 8;

/// How a run on the board ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardEnd {
    /// The program stored its exit code.
    Exit(u32),
    /// A fault (code as in docs/isa.md) at `pc`.
    Fault { code: u8, pc: u32 },
    /// An instruction the RTL does not implement at `pc`.
    Unsupported { pc: u32 },
    /// Every warp halted without an exit.
    Halt,
    /// The board refused to run: the reconvergence table was larger than its table memory
    /// (`words`, its `RT_WORDS`).
    TableTooLarge { words: u32 },
}

impl BoardEnd {
    /// The exit status `weft run` gives for the same end (the exit code, 128 + the fault
    /// code, 0 when every warp halted); 2 for an instruction the RTL lacks.
    pub fn status(&self) -> i32 {
        match self {
            BoardEnd::Exit(c) => RunEnd::Exit(*c).exit_status(),
            BoardEnd::Fault { code, .. } => 128 + *code as i32,
            BoardEnd::Unsupported { .. } | BoardEnd::TableTooLarge { .. } => 2,
            BoardEnd::Halt => RunEnd::AllHalted.exit_status(),
        }
    }
}

impl std::fmt::Display for BoardEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BoardEnd::Exit(c) => write!(f, "exit {c}"),
            BoardEnd::Fault { code, pc } => {
                let name = weft_isa::FaultCode::from_code(*code as u32).map_or("?", |c| c.name());
                write!(f, "fault {name} (code {code}) at pc {pc:#010x}")
            }
            BoardEnd::Unsupported { pc } => write!(
                f,
                "the instruction at pc {pc:#010x} is not built in the RTL (docs/rtl.md)"
            ),
            BoardEnd::Halt => write!(f, "every warp halted without an exit"),
            BoardEnd::TableTooLarge { words } => write!(
                f,
                "the board refused the program: its reconvergence table is larger than the \
                 board's table memory ({words} words, RT_WORDS)"
            ),
        }
    }
}

/// The loader's commands that put `prog` into the board's memory and start it: one 'W' per
/// segment (with its zero fill), 'T' with the program's reconvergence table (table mode, the
/// model's default; a table wider than the core's `RT_WORDS` is refused here), then 'G' with
/// the entry and the HTIF `tohost` address.
pub fn frames(prog: &Program, dram_bytes: u32) -> Result<Vec<u8>, Error> {
    let mut out = vec![b'R'];
    for s in &prog.segments {
        let len = s.mem_size.max(s.data.len() as u32);
        let end = s.addr as u64 + len as u64;
        if s.addr < 0x8000_0000 || end > 0x8000_0000 + dram_bytes as u64 {
            return Err(Error::Program(format!(
                "segment at {:#010x} ({len} bytes) does not fit the board's memory ({} KiB of \
                 DRAM at 0x80000000)",
                s.addr,
                dram_bytes >> 10
            )));
        }
        out.push(b'W');
        out.extend_from_slice(&s.addr.to_le_bytes());
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&s.data);
        out.resize(out.len() + (len as usize - s.data.len()), 0);
    }
    let (base, table) = reconv_table(prog, ReconvMode::Table, RT_WORDS)?;
    out.push(b'T');
    out.extend_from_slice(&base.to_le_bytes());
    out.extend_from_slice(&(table.len() as u32).to_le_bytes());
    for w in table {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.push(b'G');
    out.extend_from_slice(&prog.entry.to_le_bytes());
    out.extend_from_slice(&prog.tohost.unwrap_or(0).to_le_bytes());
    Ok(out)
}

/// Decodes what the board sends: console bytes, then the end of the run.
#[derive(Default, Debug)]
pub struct Decoder {
    /// Console output so far.
    pub console: Vec<u8>,
    /// The end of the run, once its message is complete.
    pub end: Option<BoardEnd>,
    esc: bool,
    kind: u8,
    args: Vec<u8>,
}

impl Decoder {
    /// Take the next byte from the board.
    pub fn push(&mut self, b: u8) {
        if self.end.is_some() {
            return;
        }
        if self.kind != 0 {
            self.args.push(b);
        } else if self.esc {
            self.esc = false;
            match b {
                b'X' | b'F' | b'U' | b'H' | b'I' | b'T' => self.kind = b,
                _ => self.console.push(b),
            }
        } else if b == ESC {
            self.esc = true;
        } else {
            self.console.push(b);
        }
        let word = |a: &[u8]| u32::from_le_bytes([a[0], a[1], a[2], a[3]]);
        let a = &self.args;
        let end = match (self.kind, a.len()) {
            (b'X', 4) => Some(BoardEnd::Exit(word(a))),
            (b'F', 5) => Some(BoardEnd::Fault {
                code: a[0],
                pc: word(&a[1..]),
            }),
            (b'U', 4) => Some(BoardEnd::Unsupported { pc: word(a) }),
            (b'H', 0) => Some(BoardEnd::Halt),
            (b'T', 4) => Some(BoardEnd::TableTooLarge { words: word(a) }),
            (b'I', 4) => {
                // identify answer (warps, lanes, DRAM KiB): not part of a run
                self.kind = 0;
                self.args.clear();
                None
            }
            _ => None,
        };
        if end.is_some() {
            self.end = end;
        }
    }
}

/// Build (or reuse) the Verilator simulation of the board design for `shape`, with the
/// serial line at [`SIM_CLKS_PER_BIT`] (the board as built for the ULX3S otherwise).
pub fn build_sim(shape: Shape) -> Result<PathBuf, Error> {
    build_board(shape, &[], "")
}

/// [`build_sim`] with more of `weft_board.sv`'s parameters set (`tag` names the build).
pub(crate) fn build_board(
    shape: Shape,
    extra: &[(&'static str, usize)],
    tag: &str,
) -> Result<PathBuf, Error> {
    let r = repo_root().join("rtl");
    let mut sources: Vec<PathBuf> = crate::sources()
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "sv"))
        .collect();
    for f in [
        "weft_uart_rx.sv",
        "weft_uart_tx.sv",
        "weft_sdram.sv",
        "weft_memsys.sv",
        "weft_tmds.sv",
        "weft_display.sv",
        "weft_dma.sv",
        "weft_board.sv",
        "sdram_model.h",
        "tb_board.cpp",
    ] {
        sources.push(r.join("board").join(f));
    }
    let mut params = shape_params(shape);
    params.push(("CLKS_PER_BIT", SIM_CLKS_PER_BIT));
    params.push(("DRAM_BYTES", DRAM_BYTES as usize));
    params.extend_from_slice(extra);
    let dir = format!(
        "board-w{}l{}d{}{tag}",
        shape.warps, shape.lanes, shape.depth
    );
    verilate(&Verilate {
        top: "weft_board",
        dir: &dir,
        bin: "tb_board",
        params: &params,
        defines: &[],
        sources: &sources,
        trace: false,
    })
}

/// Run `prog` on the simulated board `bin` (from [`build_sim`]) for at most `max_cycles`
/// clock cycles: load it over the virtual serial line, run it, decode the answer.
pub fn run_sim(bin: &Path, prog: &Program, max_cycles: u64) -> Result<Decoder, Error> {
    run_sim_frames(bin, &frames(prog, DRAM_BYTES)?, max_cycles)
}

/// Send the loader commands `f` (as [`frames`] makes them) to the simulated board `bin` and
/// decode its answer until the end of the run.
pub fn run_sim_frames(bin: &Path, f: &[u8], max_cycles: u64) -> Result<Decoder, Error> {
    run_board(bin, f, max_cycles, &[]).map(|(d, _)| d)
}

/// [`run_sim_frames`] with more arguments for `tb_board` (its `--video` and `--dma` files);
/// also the clock cycles the simulation ran.
pub(crate) fn run_board(
    bin: &Path,
    f: &[u8],
    max_cycles: u64,
    args: &[std::ffi::OsString],
) -> Result<(Decoder, u64), Error> {
    let dir = bin.parent().unwrap_or(Path::new("."));
    static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file = dir.join(format!("frames-{}-{run}.bin", std::process::id()));
    std::fs::write(&file, f).map_err(|e| Error::Tool(format!("{}: {e}", file.display())))?;
    if std::env::var_os("WEFT_KEEP_FRAMES").is_some() {
        let _ = std::fs::write("/tmp/last-frames.bin", f);
    }
    let out = Command::new(bin)
        .arg(&file)
        .arg(max_cycles.to_string())
        .arg(SIM_CLKS_PER_BIT.to_string())
        .args(args)
        .output()
        .map_err(|e| Error::Tool(format!("{}: {e}", bin.display())));
    let _ = std::fs::remove_file(&file);
    let out = out?;
    let mut d = Decoder::default();
    for &b in &out.stdout {
        d.push(b);
    }
    if !out.status.success() || d.end.is_none() {
        return Err(Error::Tool(format!(
            "board simulation: {} (console so far: {:?})",
            String::from_utf8_lossy(&out.stderr).trim(),
            String::from_utf8_lossy(&d.console)
        )));
    }
    // tb_board's last line: "tb_board: N cycles"
    let clocks = String::from_utf8_lossy(&out.stderr)
        .split_whitespace()
        .rev()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    Ok((d, clocks))
}

/// Load and run `prog` on a board on the serial port `port` (e.g. /dev/ttyUSB0), echoing its
/// console to `echo` as it comes; gives up after `timeout` without an end of run.
pub fn run_serial(
    port: &Path,
    prog: &Program,
    timeout: Duration,
    echo: &mut dyn Write,
) -> Result<BoardEnd, Error> {
    let f = frames(prog, DRAM_BYTES)?;
    let p = port.display().to_string();
    let stty = Command::new("stty")
        .args([
            "-F",
            &p,
            &BAUD.to_string(),
            "raw",
            "-echo",
            "min",
            "0",
            "time",
            "1",
        ])
        .status()
        .map_err(|e| Error::Tool(format!("stty: {e}")))?;
    if !stty.success() {
        return Err(Error::Tool(format!(
            "{p}: stty could not set {BAUD} baud, raw"
        )));
    }
    let mut dev = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(port)
        .map_err(|e| Error::Tool(format!("{p}: {e}")))?;
    dev.write_all(&f)
        .and_then(|_| dev.flush())
        .map_err(|e| Error::Tool(format!("{p}: {e}")))?;
    let mut d = Decoder::default();
    let start = Instant::now();
    let mut buf = [0u8; 256];
    loop {
        let n = dev
            .read(&mut buf)
            .map_err(|e| Error::Tool(format!("{p}: {e}")))?;
        for &b in &buf[..n] {
            let before = d.console.len();
            d.push(b);
            if d.console.len() > before {
                let _ = echo.write_all(&d.console[before..]);
                let _ = echo.flush();
            }
        }
        if let Some(end) = d.end.take() {
            return Ok(end);
        }
        if start.elapsed() > timeout {
            return Err(Error::Tool(format!(
                "{p}: no end of run from the board after {} s",
                timeout.as_secs()
            )));
        }
    }
}

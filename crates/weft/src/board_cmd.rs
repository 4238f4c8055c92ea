//! `weft board`: run a program on the ULX3S board design — on a board over its serial port
//! (`--port /dev/ttyUSB0`, the bitstream from rtl/synth.sh), or on the same design simulated
//! whole under Verilator (`--sim`). The program is sent with the board's serial loader, with
//! its reconvergence table (the board runs in table mode, as `weft run` does by default); its
//! console comes back on stdout and the run's end sets the exit status as `weft run` does.
//! `--demo` loads and starts `weft demo`'s kernel instead, for a monitor on the board's HDMI
//! port: built for the RTL, which has no F yet (floats in software), and shipped with the
//! binary (`crates/weft/demo/demo-rv32ima.elf`).

use clap::Args;
use std::path::PathBuf;
use std::time::Duration;
use weft_rtl_lockstep::board::{build_sim, run_serial, run_sim, BoardEnd};
use weft_rtl_lockstep::{load, Shape};

/// Bytes kept 8-byte aligned, as the ELF reader wants its headers.
#[repr(C, align(8))]
struct Aligned<T: ?Sized>(T);

static BOARD_DEMO: &Aligned<[u8]> = &Aligned(*include_bytes!("../demo/demo-rv32ima.elf"));

/// `weft demo`'s kernel built for the RTL (rv32ima: floats in software), as
/// `weft_rtl_lockstep::hdmi::build_demo_rv32ima` builds it (a test checks that it is current).
pub const BOARD_DEMO_ELF: &[u8] = &BOARD_DEMO.0;

/// Flags of `weft board`.
#[derive(Args, Debug)]
pub struct BoardArgs {
    /// Program (assembly or ELF), built for the RTL core (RV32IMA, no compressed code).
    #[arg(required_unless_present = "demo")]
    pub program: Option<PathBuf>,
    /// Load and start `weft demo`'s kernel (a Mandelbrot zoom over a lake drawn by racing the
    /// beam, on a monitor at the board's HDMI port) instead of a program.
    #[arg(long, conflicts_with_all = ["program", "sim"])]
    pub demo: bool,
    /// The board's serial port (the ULX3S's FTDI line, e.g. /dev/ttyUSB0).
    #[arg(
        long,
        value_name = "DEV",
        conflicts_with = "sim",
        required_unless_present = "sim"
    )]
    pub port: Option<PathBuf>,
    /// Run on the board design simulated under Verilator instead of a board.
    #[arg(long)]
    pub sim: bool,
    /// Warps of the simulated board.
    #[arg(long, default_value_t = 4)]
    pub warps: usize,
    /// Lanes of the simulated board.
    #[arg(long, default_value_t = 8)]
    pub lanes: usize,
    /// Clock cycles the simulation may run.
    #[arg(long, default_value_t = 50_000_000)]
    pub max_cycles: u64,
    /// Seconds to wait for a board to end the run (default 60; with --demo, 3 hours).
    #[arg(long)]
    pub timeout: Option<u64>,
}

pub fn board(a: &BoardArgs) -> Result<i32, String> {
    let prog = match &a.program {
        Some(p) => load(p).map_err(|e| format!("{}: {e}", p.display()))?,
        None => {
            let prog = weft_simt::load::program_from_elf(BOARD_DEMO_ELF)
                .map_err(|e| format!("the built-in board demo: {e}"))?
                .0;
            let bytes =
                weft_rtl_lockstep::board::frames(&prog, weft_rtl_lockstep::board::DRAM_BYTES)
                    .map_err(|e| format!("the built-in board demo: {e}"))?
                    .len();
            println!(
                "weft board: sending the demo ({} KiB with its zero-filled framebuffers: about \
                 {} s at {} baud); then, on a monitor at the board's HDMI port, the first \
                 frame of the zoom should appear after a minute or two and a new one about \
                 every two minutes (the RTL computes floats in software until it has F) while \
                 the lake ripples at 60 Hz; the board prints a line when all 24 frames are \
                 done, after about 50 minutes (docs/rtl.md, \"On a monitor\")",
                bytes >> 10,
                bytes as u64 * 10 / weft_rtl_lockstep::board::BAUD as u64,
                weft_rtl_lockstep::board::BAUD
            );
            prog
        }
    };
    let timeout = a.timeout.unwrap_or(if a.demo { 3 * 3600 } else { 60 });
    let end = if a.sim {
        let shape = Shape {
            warps: a.warps,
            lanes: a.lanes,
            ..Shape::DEFAULT
        };
        let bin = build_sim(shape).map_err(|e| e.to_string())?;
        let d = run_sim(&bin, &prog, a.max_cycles).map_err(|e| e.to_string())?;
        use std::io::Write;
        let mut out = std::io::stdout();
        let _ = out.write_all(&d.console).and_then(|_| out.flush());
        d.end.ok_or("the simulated board sent no end of run")?
    } else {
        let port = a.port.as_ref().ok_or("give --port DEV or --sim")?;
        run_serial(
            port,
            &prog,
            Duration::from_secs(timeout),
            &mut std::io::stdout(),
        )
        .map_err(|e| e.to_string())?
    };
    if !matches!(end, BoardEnd::Exit(_) | BoardEnd::Halt) {
        eprintln!("weft: board: {end}");
    }
    Ok(end.status())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_demo_loads_and_fits_the_board() {
        let (prog, _) = weft_simt::load::program_from_elf(BOARD_DEMO_ELF).unwrap();
        let f =
            weft_rtl_lockstep::board::frames(&prog, weft_rtl_lockstep::board::DRAM_BYTES).unwrap();
        assert!(f.len() > 1000);
    }
}

//! `weft board`: run a program on the ULX3S board design — on a board over its serial port
//! (`--port /dev/ttyUSB0`, the bitstream from rtl/synth.sh), or on the same design simulated
//! whole under Verilator (`--sim`). The program is sent with the board's serial loader, with
//! its reconvergence table (the board runs in table mode, as `weft run` does by default); its
//! console comes back on stdout and the run's end sets the exit status as `weft run` does.

use clap::Args;
use std::path::PathBuf;
use std::time::Duration;
use weft_rtl_lockstep::board::{build_sim, run_serial, run_sim, BoardEnd};
use weft_rtl_lockstep::{load, Shape};

/// Flags of `weft board`.
#[derive(Args, Debug)]
pub struct BoardArgs {
    /// Program (assembly or ELF), built for the RTL core (RV32IM, no compressed code).
    pub program: PathBuf,
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
    /// Seconds to wait for a board to end the run.
    #[arg(long, default_value_t = 60)]
    pub timeout: u64,
}

pub fn board(a: &BoardArgs) -> Result<i32, String> {
    let prog = load(&a.program).map_err(|e| format!("{}: {e}", a.program.display()))?;
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
            Duration::from_secs(a.timeout),
            &mut std::io::stdout(),
        )
        .map_err(|e| e.to_string())?
    };
    if !matches!(end, BoardEnd::Exit(_) | BoardEnd::Halt) {
        eprintln!("weft: board: {end}");
    }
    Ok(end.status())
}

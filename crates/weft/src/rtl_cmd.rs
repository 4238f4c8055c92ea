//! `weft run --rtl`: run a program on the RTL — weft's SystemVerilog core under Verilator
//! (`weft-rtl`'s `RtlDevice`) — with what `weft run` gives for the models: the program's
//! console on stdout, as it comes; the same exit status; the end reported in the same words;
//! `--stats` and `--stats-json` from the RTL's own counters (clock cycles, issue slots,
//! instructions, divergence, memory lanes).

use crate::report::{report_end, write_stats_json};
use crate::run_cmd::{load_program, RunArgs};
use std::io::Write;
use weft_rtl::{RtlDevice, Shape};
use weft_simt::{Config, Device, Profile, RunEnd, Stop};

/// Clock cycles run between looks at the console.
const SLICE: u64 = 1 << 22;

/// Run `a.program` on the RTL with the machine `cfg`; the process exit status.
pub fn run_rtl(a: &RunArgs, cfg: Config) -> Result<i32, String> {
    let other = [
        (a.timing || cfg.timing, "--timing"),
        (a.sp2a.is_some(), "--sp2a"),
        (
            a.trace || a.trace_file.is_some(),
            "--trace (weft-rtl-lockstep --print prints the RTL's)",
        ),
        (a.frames.is_some() || a.gif.is_some(), "--frames and --gif"),
        (a.check_races, "--check-races"),
        (a.debug.any(), "the debugger and trace exports"),
        (a.machine.engine.is_some(), "--engine"),
    ];
    if let Some((_, what)) = other.iter().find(|(on, _)| *on) {
        return Err(format!("--rtl runs the RTL alone: leave out {what}"));
    }
    if cfg.cores != 1 {
        return Err(format!(
            "--rtl runs one core (weft's SystemVerilog core): --cores {} asked",
            cfg.cores
        ));
    }
    if cfg.profile != Profile::Weft {
        return Err(
            "--rtl runs weft's profile (the Vortex profile's memory map is not built in \
                    the RTL's testbench)"
                .into(),
        );
    }
    let (prog, _) = load_program(&a.program)?;
    let shape = Shape {
        warps: cfg.warps,
        lanes: cfg.lanes,
        depth: cfg.stack_depth,
    };
    let mut d = RtlDevice::new(shape, &prog, cfg.reconv, cfg.dram_size)
        .map_err(|e| format!("{}: {e}", a.program.display()))?;
    let bound = if cfg.max_cycles == 0 {
        u64::MAX
    } else {
        cfg.max_cycles
    };
    let mut out = std::io::stdout();
    let end = loop {
        let Stop::End(end) = d.run(d.cycles().saturating_add(SLICE).min(bound)) else {
            return Err("the RTL stopped unexpectedly".into());
        };
        let _ = out.write_all(&d.take_console());
        let _ = out.flush();
        match end {
            RunEnd::CycleLimit(c) if c < bound => continue,
            RunEnd::AllHalted if cfg.require_exit => break RunEnd::NoExit,
            e => break e,
        }
    };
    if let Some(why) = d.unsupported() {
        eprintln!("weft: the RTL does not build this: {why}");
        return Ok(2);
    }
    report_end(&end, "raise it with --max-cycles (clock cycles of the RTL)");
    if a.stats {
        let (r, slots) = d.report().map_err(|e| e.to_string())?;
        eprint!("{}", r.table());
        eprintln!("  {:<28} {:>14}", "issue slots (model cycles)", slots);
        eprintln!(
            "  RTL: {} warps × {} lanes, stack depth {}; cycles are its clock cycles",
            shape.warps, shape.lanes, shape.depth
        );
    }
    if let Some(p) = &a.stats_json {
        write_stats_json(p, &d, &end)?;
    }
    Ok(end.exit_status())
}

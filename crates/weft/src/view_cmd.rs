//! `weft view PROGRAM -o run.html`: run a program on the functional model, recording every
//! warp-instruction, and write one self-contained HTML page that steps forward and back through
//! the run (`weft_view::web`). The machine flags are `weft run`'s; the run is bounded by
//! `--max-steps` so the page stays small enough for a browser.

use clap::Args;
use std::path::{Path, PathBuf};
use weft_simt::{Machine, RunEnd};
use weft_view::dwarf::LineTable;
use weft_view::web::{self, PageInfo};

/// The most warp-instructions a page may hold (a larger page is too slow in a browser; use
/// `weft run --trace-json` for long runs).
const MAX_STEPS_LIMIT: usize = 1_000_000;

/// Flags of `weft view`.
#[derive(Args, Debug)]
pub struct ViewArgs {
    /// Program: an ELF executable (with DWARF line info from `weft cc -g`, the page shows
    /// source lines), a Vortex `.vxbin` image, assembly source, or a C/C++ kernel (compiled
    /// with `-g`).
    pub program: PathBuf,
    /// The HTML page to write.
    #[arg(short = 'o', value_name = "OUT.html")]
    pub output: PathBuf,
    /// Record at most N warp-instructions; a longer run is cut there (the page says so).
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    pub max_steps: usize,
    /// The machine, as for `weft run`.
    #[command(flatten)]
    pub machine: crate::run_cmd::MachineArgs,
}

/// The program's ELF bytes when it has some (for the line table): an ELF file as it is, a C
/// kernel compiled with `-g`; `None` for assembly and `.vxbin` (no debug info).
fn elf_bytes(path: &Path) -> Result<Option<Vec<u8>>, String> {
    if crate::cc_cmd::is_kernel_source(path) {
        let dir = tempfile::Builder::new()
            .prefix("weft-view-")
            .tempdir()
            .map_err(|e| format!("temporary directory: {e}"))?;
        let out = dir.path().join("kernel.elf");
        let o = weft_cc::Options {
            inputs: vec![path.to_path_buf()],
            output: out.clone(),
            debug: true,
            ..weft_cc::Options::default()
        };
        return match weft_cc::build(&o) {
            Ok(()) => std::fs::read(&out)
                .map(Some)
                .map_err(|e| format!("{}: {e}", out.display())),
            Err(weft_cc::CcError::Compile(msg)) => Err(msg),
            Err(e) => Err(e.to_string()),
        };
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(bytes.starts_with(b"\x7fELF").then_some(bytes))
}

/// How the run ended, in the words `weft run` uses.
fn end_text(end: &RunEnd) -> String {
    match end {
        RunEnd::Exit(c) => format!("the program exited with code {c}"),
        RunEnd::AllHalted => "every warp halted".into(),
        RunEnd::NoExit => "every warp halted without writing the exit word".into(),
        RunEnd::Fault(f) => f.to_string(),
        RunEnd::CycleLimit(c) => format!("stopped at the cycle bound ({c} cycles)"),
        RunEnd::Deadlock(why) => format!("deadlock: {why}"),
    }
}

/// Run `weft view`; returns the process exit status (0 once the page is written).
pub fn view(a: &ViewArgs) -> Result<i32, String> {
    if a.max_steps == 0 || a.max_steps > MAX_STEPS_LIMIT {
        return Err(format!(
            "--max-steps {}: between 1 and {MAX_STEPS_LIMIT} (a page of more steps is too large \
             for a browser; weft run --trace-json traces long runs)",
            a.max_steps
        ));
    }
    let mut cfg = crate::run_cmd::config_from(&a.machine, false, false)?.machine;
    if cfg.timing {
        eprintln!("weft: note: weft view records the functional model (timing = true is ignored)");
        cfg.timing = false;
    }
    let elf = elf_bytes(&a.program)?;
    let (prog, _) = match &elf {
        Some(bytes) if crate::cc_cmd::is_kernel_source(&a.program) => {
            weft_simt::load::program_from_elf(bytes)
                .map_err(|e| format!("{}: {e}", a.program.display()))?
        }
        _ => crate::run_cmd::load_program(&a.program)?,
    };
    let lines = match elf.as_deref().map(LineTable::from_elf).transpose() {
        Ok(t) => t.flatten(),
        Err(e) => {
            eprintln!(
                "weft: warning: {}: no source lines ({e})",
                a.program.display()
            );
            None
        }
    };
    let exec: Vec<(u32, u32)> = prog
        .segments
        .iter()
        .filter(|s| s.exec)
        .map(|s| (s.addr, s.addr.saturating_add(s.data.len() as u32)))
        .collect();
    let mut m = Machine::new(cfg, &prog).map_err(|e| format!("{}: {e}", a.program.display()))?;
    m.set_console(Box::new(std::io::stdout()));
    let (end, rec, cut) = web::record_run(&mut m, a.max_steps);
    let end = if cut {
        format!(
            "the page holds the first {} warp-instructions (--max-steps {}); the run was \
             stopped there, at cycle {}",
            rec.steps(),
            a.max_steps,
            m.cycle
        )
    } else {
        end_text(&end)
    };
    let info = PageInfo {
        program: a.program.display().to_string(),
        end: end.clone(),
        truncated: cut,
    };
    let html = web::page(&m, &rec, &info, &exec, lines.as_ref());
    std::fs::write(&a.output, html).map_err(|e| format!("{}: {e}", a.output.display()))?;
    if cut {
        eprintln!("weft: view cut short: {end}");
    }
    eprintln!(
        "weft: wrote {}: {} warp-instructions; {}{}",
        a.output.display(),
        rec.steps(),
        if cut { "cut short" } else { &end },
        if lines.is_some() {
            "; source lines from DWARF"
        } else {
            ""
        }
    );
    Ok(0)
}

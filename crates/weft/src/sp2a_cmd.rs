//! `weft run --sp2a N`, `weft sp2a-asm` and `weft sp2a-disasm`: the command-line face of the
//! Shader Processor v2a (crate `weft-sp2a`). Thin: parse flags, call the library, report.
//!
//! PROGRAM may be assembly source (`.include` allowed) or a binary image written by
//! `sp2a-asm` (recognised by its `WSP2` magic). Console output (PUTC/PUTDEC/PUTHEX) goes to
//! stdout, `--trace` and `--stats` to stderr. `--frames DIR` writes `DIR/frameNNNN.png`, one
//! per FRAME write and one at the end. The array is driven through its `Device` face, so a
//! run ends, reports and exits as a SIMT run does: the exit status is the first non-zero HALT
//! value in core order (0 if all cores halted with 0), 124 at the cycle bound, 128 + the fault
//! code for a fault; `--stats-json` adds `exit_status` and `end`.

use std::io::Write;
use std::path::Path;
use weft_simt::{Device, Stop as DeviceStop};
use weft_sp2a::{disasm, Array, ArrayConfig, Program};

/// Cycle limit when `--max-cycles` is not given.
pub const DEFAULT_MAX_CYCLES: u64 = 1_000_000_000;

/// Load an image or assemble a source file.
fn load_program(path: &Path) -> Result<Program, String> {
    weft_sp2a::load_file(path).map_err(|e| e.to_string())
}

/// Run `program` on an array of `n` cores. Returns the exit code.
pub fn run_sp2a(
    n: usize,
    program: &Path,
    frames: Option<&Path>,
    max_cycles: Option<u64>,
    stats: bool,
    stats_json: Option<&Path>,
    trace: bool,
) -> Result<i32, String> {
    let prog = load_program(program)?;
    let config = ArrayConfig {
        cores: n,
        ..ArrayConfig::default()
    };
    let mut array =
        Array::new(&prog, &config).map_err(|e| format!("{}: {e}", program.display()))?;
    if let Some(dir) = frames {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let limit = max_cycles.unwrap_or(DEFAULT_MAX_CYCLES);
    let mut frame_no = 0u32;
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut err_out = std::io::BufWriter::new(stderr.lock());
    let end = loop {
        let stop = if trace {
            let r = array.run_traced(limit, &mut |r| {
                let _ = writeln!(err_out, "{r}");
            });
            array.device_stop(r)
        } else {
            Device::run(&mut array, limit)
        };
        let console = array.take_console();
        if !console.is_empty() {
            let mut out = stdout.lock();
            let _ = out.write_all(&console);
            let _ = out.flush();
        }
        match stop {
            DeviceStop::Frame => {
                if let Some(dir) = frames {
                    write_frame(&array, dir, &mut frame_no)?;
                }
            }
            DeviceStop::End(end) => break end,
        }
    };
    let _ = err_out.flush();
    drop(err_out);
    if let Some(dir) = frames {
        write_frame(&array, dir, &mut frame_no)?;
        let n = format!(
            "{frame_no} framebuffer snapshot{}",
            if frame_no == 1 { "" } else { "s" }
        );
        crate::wrote::wrote(&dir.join("frame*.png"), &n);
    }
    crate::report::report_end(&end, "raise it with --max-cycles");
    if stats {
        eprint!("{}", array.stats());
    }
    if let Some(path) = stats_json {
        crate::report::write_stats_json(path, &array, &end)?;
    }
    Ok(end.exit_status())
}

fn write_frame(array: &Array, dir: &Path, n: &mut u32) -> Result<(), String> {
    let path = dir.join(format!("frame{n:05}.png"));
    array
        .framebuffer()
        .write_png(&path)
        .map_err(|e| e.to_string())?;
    *n += 1;
    Ok(())
}

/// Assemble `input` to a binary image at `output`.
pub fn sp2a_asm(input: &Path, output: &Path) -> Result<i32, String> {
    let p = weft_sp2a::assemble_file(input).map_err(|e| e.to_string())?;
    std::fs::write(output, p.to_bytes()).map_err(|e| format!("{}: {e}", output.display()))?;
    Ok(0)
}

/// Disassemble an image (or source) to stdout.
pub fn sp2a_disasm(input: &Path) -> Result<i32, String> {
    let p = load_program(input)?;
    let mut out = std::io::stdout().lock();
    out.write_all(disasm::disassemble(&p).as_bytes())
        .map_err(|e| format!("stdout: {e}"))?;
    Ok(0)
}

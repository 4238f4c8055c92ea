//! `weft run`: load a program (ELF, Vortex `.vxbin`, or assembly source assembled on the fly),
//! build the machine from a profile's defaults, a TOML config file and flags, run it, and
//! report.

use clap::Args;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use weft_simt::load::TableSource;
use weft_simt::{Machine, Profile, Program, ReconvMode, TextTrace};
use weft_timing::MachineConfig;

/// Flags of `weft run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Program: an ELF executable, a Vortex `.vxbin` image or an assembly source file.
    pub program: PathBuf,
    /// The machine: profile, shape, configuration file and keys.
    #[command(flatten)]
    pub machine: MachineArgs,
    /// Run the cycle-level timing model (docs/timing.md) instead of one warp-instruction per
    /// core per cycle; the same as `timing = true` in the configuration.
    #[arg(long)]
    pub timing: bool,
    /// Run on the RTL: weft's SystemVerilog core (rtl/) under Verilator, one core of the
    /// configured warps, lanes and stack depth (docs/rtl.md): the same console and exit
    /// status; --stats gives the RTL's clock cycles and counters. Needs Verilator 5 (the
    /// model is built on first use).
    #[arg(long)]
    pub rtl: bool,
    /// The program must end through the exit word (or HTIF tohost): if every warp halts
    /// without it, report that and exit with status 3.
    #[arg(long)]
    pub require_exit: bool,
    /// Print a statistics table on stderr at the end.
    #[arg(long)]
    pub stats: bool,
    /// Write statistics as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub stats_json: Option<PathBuf>,
    /// Print one line per warp-instruction (cycle, core, warp, mask, pc, text) on stderr.
    #[arg(long)]
    pub trace: bool,
    /// Write the trace to FILE instead of stderr.
    #[arg(long, value_name = "FILE")]
    pub trace_file: Option<PathBuf>,
    /// Run N Shader Processor v2a cores over one framebuffer instead of the SIMT machine.
    #[arg(long, value_name = "N")]
    pub sp2a: Option<usize>,
    /// Write each frame the display scans as DIR/frameNNNNN.png (with --sp2a: each FRAME
    /// write and the final framebuffer).
    #[arg(long, value_name = "DIR")]
    pub frames: Option<PathBuf>,
    /// Write the scanned frames as an animated GIF, at the display's frame rate.
    #[arg(long, value_name = "FILE")]
    pub gif: Option<PathBuf>,
    /// Write only every Nth scanned frame (to --frames and --gif).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub frames_every: u64,
    /// End the run (exit status 0) once N frames have been written.
    #[arg(long, value_name = "N")]
    pub max_frames: Option<u64>,
    /// Report every warp access that overlaps a DMA transfer in flight (instruction, warp
    /// and DMA slot) on stderr; the exit status is the program's.
    #[arg(long)]
    pub check_races: bool,
    /// Trace export, GDB stub.
    #[command(flatten)]
    pub debug: crate::debug_cmd::DebugArgs,
}

fn parse_profile(s: &str) -> Result<Profile, String> {
    Profile::parse(s).ok_or_else(|| format!("unknown profile '{s}' (expected weft or vortex)"))
}

fn parse_reconv(s: &str) -> Result<ReconvMode, String> {
    ReconvMode::parse(s).ok_or_else(|| {
        format!("unknown reconvergence mode '{s}' (expected table, converge or follow-last)")
    })
}

/// Read a program file: ELF bytes as they are, anything else assembled.
pub fn load_program_bytes(path: &Path) -> Result<Vec<u8>, String> {
    weft_simt::load::program_bytes(path).map_err(|e| e.to_string())
}

/// Load a program file (`.vxbin`, ELF or assembly source).
/// A C or C++ source is compiled first (`weft cc` with its defaults).
pub fn load_program(path: &Path) -> Result<(Program, TableSource), String> {
    warn_needs(path);
    if crate::cc_cmd::is_kernel_source(path) {
        let elf = crate::cc_cmd::compile_for_run(path)?;
        return weft_simt::load::program_from_elf(&elf)
            .map_err(|e| format!("{}: {e}", path.display()));
    }
    weft_simt::load::load_file(path).map_err(|e| e.to_string())
}

/// One line on stderr when an ELF's `e_flags` ask for what weft lacks (RV32E, a double or
/// quad float ABI): the program is still run, but it may not behave.
fn warn_needs(path: &Path) {
    let Ok(bytes) = std::fs::read(path) else {
        return;
    };
    if !bytes.starts_with(b"\x7fELF") {
        return;
    }
    if let Ok(img) = weft_elf::read_elf(&bytes) {
        let needs = img.needs();
        if !needs.is_empty() {
            eprintln!(
                "weft: warning: {} needs {}, which weft (RV32IMAFC, ilp32f) does not have",
                path.display(),
                needs.join(" and ")
            );
        }
    }
}

/// The machine flags `weft run` shares with `weft view`: profile, shape, configuration file
/// and keys, reconvergence, stack depth, cycle bound.
#[derive(Args, Clone, Debug, Default)]
pub struct MachineArgs {
    /// Machine conventions: weft (default) or vortex (Vortex v3.0 standalone kernels: its
    /// memory map, console rings, exit word and 1 × 4 × 4 defaults). Precedence: the
    /// profile's defaults, then the --config file, then the other flags [default: weft].
    #[arg(long, value_parser = parse_profile)]
    pub profile: Option<Profile>,
    /// Number of cores [default: 1].
    #[arg(long)]
    pub cores: Option<usize>,
    /// Warps per core [default: 4].
    #[arg(long)]
    pub warps: Option<usize>,
    /// Lanes (threads) per warp [default: 8; 4 under --profile vortex].
    #[arg(long)]
    pub lanes: Option<usize>,
    /// Machine configuration file (TOML); flags override it.
    #[arg(long, value_name = "FILE.toml")]
    pub config: Option<PathBuf>,
    /// Reconvergence mechanism: table (post-dominator table and converge), converge (only
    /// converge instructions), follow-last (Vortex fidelity: divergent branches follow the
    /// last active lane) [default: table].
    #[arg(long, value_parser = parse_reconv)]
    pub reconv: Option<ReconvMode>,
    /// Divergence stack depth per warp [default: 16].
    #[arg(long)]
    pub stack_depth: Option<usize>,
    /// Stop after this many cycles (exit status 124) [default: 10000000000].
    #[arg(long)]
    pub max_cycles: Option<u64>,
    /// Set any configuration key, as in the TOML file (`--set l1.size=32768 --set
    /// pipeline.scheduler=gto`); applied after --config and before the other flags.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Functional engine: interp (every instruction interpreted), jit (warp-private runs
    /// translated with Cranelift; the default where the host has a back end) or diff (both,
    /// stopping at the first difference). Results, statistics and cycles are the same
    /// [default: jit].
    #[arg(long, value_parser = crate::engine::parse_engine)]
    pub engine: Option<crate::engine::Engine>,
    /// Scheduling quantum: a core issues up to N warp-instructions in a row from one warp
    /// before its round-robin moves on (functional model only). Results change only where
    /// warps race outside barriers and atomics; 1 is one warp-instruction per cycle in
    /// rotation, as the hardware does (docs/engine.md) [default: 1].
    #[arg(long, value_name = "N")]
    pub quantum: Option<u64>,
}

/// A configuration error `e`: if a `--set` alone does not parse (a bad value or key), name
/// that `--set` as the user wrote it — the merged text's line numbers mean nothing to them.
fn bad_set(a: &MachineArgs, e: String) -> String {
    for kv in &a.set {
        let Ok(alone) = crate::config_set::apply("", std::slice::from_ref(kv)) else {
            continue;
        };
        if let Err(err) = MachineConfig::from_toml_for(&alone, Some(a.profile.unwrap_or_default()))
        {
            let err = err.to_string();
            if err.contains("TOML parse error") {
                let why = err
                    .lines()
                    .rev()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or(&err);
                return format!("--set {kv}: {}", why.trim());
            }
        }
    }
    e
}

/// Build the configuration from defaults, the config file and the flags.
pub fn build_config(a: &RunArgs) -> Result<MachineConfig, String> {
    config_from(&a.machine, a.timing, a.require_exit)
}

/// The configuration from the shared flags, with `--timing` and `--require-exit`.
pub fn config_from(
    a: &MachineArgs,
    timing: bool,
    require_exit: bool,
) -> Result<MachineConfig, String> {
    let text = match &a.config {
        Some(p) => fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?,
        None => String::new(),
    };
    let text = crate::config_set::apply(&text, &a.set)?;
    let parsed = match &a.config {
        Some(p) => MachineConfig::from_toml_for(&text, a.profile)
            .map_err(|e| format!("{}: {e}", p.display())),
        None => MachineConfig::from_toml_for(&text, Some(a.profile.unwrap_or_default()))
            .map_err(|e| format!("--set: {e}")),
    };
    let mut all = parsed.map_err(|e| bad_set(a, e))?;
    let cfg = &mut all.machine;
    if timing {
        cfg.timing = true;
    }
    if let Some(v) = a.cores {
        cfg.cores = v;
    }
    if let Some(v) = a.warps {
        cfg.warps = v;
    }
    if let Some(v) = a.lanes {
        cfg.lanes = v;
    }
    if let Some(v) = a.reconv {
        cfg.reconv = v;
    }
    if let Some(v) = a.stack_depth {
        cfg.stack_depth = v;
    }
    if require_exit {
        cfg.require_exit = true;
    }
    if let Some(v) = a.max_cycles {
        cfg.max_cycles = v;
    }
    if let Some(v) = a.quantum {
        cfg.quantum = v;
    }
    all.validate().map_err(|e| format!("configuration: {e}"))?;
    Ok(all)
}

/// Run `weft run`; returns the process exit status.
pub fn run(a: &RunArgs) -> Result<i32, String> {
    if a.sp2a.is_some() && a.debug.any() {
        return Err(
            "--trace-json, --vcd, --trace-from/to and --gdb are for the SIMT machine".into(),
        );
    }
    if let Some(n) = a.sp2a {
        if a.gif.is_some() || a.max_frames.is_some() || a.frames_every != 1 || a.check_races {
            return Err(
                "--gif, --frames-every, --max-frames and --check-races are for the SIMT machine, not --sp2a"
                    .into(),
            );
        }
        return crate::sp2a_cmd::run_sp2a(
            n,
            &a.program,
            a.frames.as_deref(),
            a.machine.max_cycles,
            a.stats,
            a.stats_json.as_deref(),
            a.trace,
        );
    }
    let MachineConfig {
        machine: cfg,
        timing: timing_cfg,
    } = build_config(a)?;
    let frame_opts = crate::frames::FrameOptions {
        dir: a.frames.clone(),
        gif: a.gif.clone(),
        every: a.frames_every,
        max: a.max_frames,
        fps: cfg.display.frame_rate(),
        progress: None,
    };
    if !frame_opts.any() && (a.max_frames.is_some() || a.frames_every != 1) {
        return Err("--frames-every and --max-frames need --frames or --gif".into());
    }
    let (prog, source) = load_program(&a.program)?;
    let (cfg_profile, cfg_reconv, cfg_timing) = (cfg.profile, cfg.reconv, cfg.timing);
    let engine = a
        .machine
        .engine
        .unwrap_or_else(crate::engine::Engine::default_for_host);
    let mut twin = match engine {
        crate::engine::Engine::Diff if cfg_timing || a.debug.gdb.is_some() => {
            return Err(
                "--engine diff runs the functional model alone: leave out --timing and --gdb"
                    .into(),
            )
        }
        crate::engine::Engine::Diff => Some(
            Machine::new(cfg.clone(), &prog)
                .map_err(|e| format!("{}: {e}", a.program.display()))?,
        ),
        _ => None,
    };
    let mut m = Machine::new(cfg, &prog).map_err(|e| format!("{}: {e}", a.program.display()))?;
    if twin.is_none() {
        m.set_console(Box::new(std::io::stdout()));
    }
    if engine == crate::engine::Engine::Jit && !cfg_timing && a.debug.gdb.is_none() {
        crate::engine::attach(&mut m, engine)?;
    }
    if let Some(p) = &a.trace_file {
        let f = fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()))?;
        m.add_observer(Box::new(TextTrace::new(Box::new(std::io::BufWriter::new(
            f,
        )))));
    } else if a.trace {
        m.add_observer(Box::new(TextTrace::new(Box::new(std::io::BufWriter::new(
            std::io::stderr(),
        )))));
    }
    let frame_opts_named = frame_opts.clone();
    let frames = crate::frames::attach(&mut m, frame_opts)?;
    let races = a.check_races.then(|| {
        let (checker, log) = weft_simt::RaceChecker::new();
        m.add_observer(Box::new(checker));
        log
    });
    let traces = crate::debug_cmd::attach(&mut m, &a.debug)?;
    // `[rtl_core] enabled`: the run is timed as the RTL core's clock (one warp-instruction
    // after another, in the functional model's order), not by the pipelined model.
    let rtl_clock = cfg_timing && timing_cfg.rtl_core.enabled;
    if rtl_clock && m.cfg.cores != 1 {
        return Err(format!(
            "[rtl_core] times the RTL's one core: the machine has {} cores (set cores = 1)",
            m.cfg.cores
        ));
    }
    let mut rtl_steps = None;
    let mut timing =
        (cfg_timing && !rtl_clock).then(|| weft_timing::TimingModel::new(&m.cfg, &timing_cfg));
    let konata = crate::debug_cmd::attach_timing(&m, timing.as_mut(), &traces, &a.debug)?;
    if cfg_timing && a.debug.gdb.is_some() {
        return Err("--gdb runs the functional model: leave out --timing".into());
    }
    let end = match &mut timing {
        Some(t) => t.run(&mut m, u64::MAX),
        None if rtl_clock => {
            let (end, steps) = weft_timing::rtlcore::run_clocked(&mut m, timing_cfg.rtl_core);
            rtl_steps = Some(steps);
            end
        }
        None => match &mut twin {
            Some(jit) => {
                let end = crate::engine::run_diff(&mut m, jit);
                let _ = std::io::stdout().write_all(m.console());
                end?
            }
            None => crate::debug_cmd::run(&mut m, &a.debug)?,
        },
    };
    let _ = std::io::stdout().flush();
    traces.close(&m)?;
    crate::debug_cmd::close_konata(konata, &a.debug)?;
    crate::debug_cmd::name_outputs(&a.debug);
    if let Some(p) = &a.trace_file {
        crate::wrote::wrote(p, "trace");
    }
    let end = crate::frames::finish(frames.as_ref(), end, Some(&frame_opts_named))?;
    crate::report::report_end(&end, "raise it with --max-cycles");
    crate::debug_cmd::report_state(&end, &m, &a.debug);
    if let Some(log) = &races {
        let log = log.borrow();
        for r in log.iter() {
            eprintln!("weft: {r}");
        }
        eprintln!(
            "weft: --check-races: {} overlap{} of warp accesses with DMA transfers in flight",
            log.len(),
            if log.len() == 1 { "" } else { "s" }
        );
    }
    let report = m.report();
    let timing_report = timing.as_ref().map(|t| t.report(&m));
    if a.stats {
        eprint!("{}", report.table());
        if let Some(t) = &timing_report {
            eprint!("{}", t.table());
        }
        if rtl_clock {
            eprintln!("  timing: the RTL core's clock ([rtl_core], rtl/weft_core.sv's states)");
        }
        eprintln!(
            "  reconvergence table: {}",
            match source {
                TableSource::Section => "from the ELF's .weft.reconv section",
                TableSource::Computed => "computed on load",
            }
        );
        if !cfg_timing {
            eprintln!("  engine: {}", engine_line(&m));
        }
        if cfg_profile == Profile::Vortex {
            eprintln!(
                "  profile: vortex; divergent branches without split/join: {}",
                match cfg_reconv {
                    ReconvMode::FollowLast => "follow the last active lane (as Vortex)",
                    ReconvMode::Table => "reconverge at the post-dominator table",
                    ReconvMode::Converge => "reconverge only at converge instructions",
                }
            );
        }
    }
    if let Some(p) = &a.stats_json {
        let extra = match (&timing_report, rtl_steps) {
            (Some(t), _) => Some(("timing", serde_json::to_value(t).unwrap_or_default())),
            (None, Some(steps)) => Some((
                "timing",
                serde_json::json!({
                    "model": "rtl-core",
                    "cycles": m.cycle,
                    "warp_instructions": steps,
                }),
            )),
            (None, None) => None,
        };
        crate::report::write_stats_json_with(p, &m, &end, extra)?;
    }
    Ok(end.exit_status())
}

/// `--stats`' engine line: the functional engine, the scheduling quantum when not 1, and what
/// the block engine did (all deterministic: the same run gives the same line).
fn engine_line(m: &Machine) -> String {
    let mut line = m.engine_name().to_string();
    let q = m.cfg.quantum;
    if q > 1 {
        line += &format!(" (quantum {q})");
    }
    if m.engine_name() != "interp" {
        let c = m.engine_counts();
        let pct = 100.0 * m.super_step_cycles() as f64 / m.cycle.max(1) as f64;
        line += &format!(
            "; {pct:.1} % of cycles in super-steps, {} regions translated, {} warp-instructions \
             in scalar translations, {} direct loads and stores",
            c.translated, c.scalar, c.direct
        );
    }
    line
}

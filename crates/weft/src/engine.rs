//! `--engine interp|jit|diff`: which functional engine runs a machine (docs/engine.md). `jit`
//! attaches the Cranelift block engine (`weft-jit`) for warp-private runs; `interp` runs every
//! instruction through the interpreter; `diff` runs a second machine with the block engine
//! beside the interpreter's and stops at the first chunk of cycles after which their states
//! differ, showing both. The default is `jit` where this host has a Cranelift back end.

use weft_simt::{Machine, RunEnd};

/// The engine choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Interp,
    Jit,
    Diff,
}

/// Parse `--engine`.
pub fn parse_engine(s: &str) -> Result<Engine, String> {
    match s {
        "interp" => Ok(Engine::Interp),
        "jit" => Ok(Engine::Jit),
        "diff" => Ok(Engine::Diff),
        _ => Err(format!("unknown engine {s:?} (interp, jit or diff)")),
    }
}

impl Engine {
    /// The engine when none is named: the block engine where the host has a back end.
    pub fn default_for_host() -> Engine {
        if weft_jit::Jit::available() {
            Engine::Jit
        } else {
            Engine::Interp
        }
    }

    /// The name, as `--engine` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Interp => "interp",
            Engine::Jit => "jit",
            Engine::Diff => "diff",
        }
    }
}

/// Give `m` the block engine (for `jit`); nothing for `interp`.
pub fn attach(m: &mut Machine, e: Engine) -> Result<(), String> {
    if e != Engine::Interp {
        let jit = weft_jit::Jit::new().map_err(|why| format!("--engine {}: {why}", e.name()))?;
        m.set_engine(Some(Box::new(jit)));
    }
    Ok(())
}

/// The first chunk of a differential run, in cycles; chunks double up to [`MAX_CHUNK`].
const FIRST_CHUNK: u64 = 1_000;
const MAX_CHUNK: u64 = 1 << 22;

/// Run `interp` (no block engine) and `jit` (a copy of it given the block engine) side by side
/// in chunks of cycles, comparing their whole state after each. Returns the run's end, or the
/// first difference (between which cycles, and both sides' values) as an error.
pub fn run_diff(interp: &mut Machine, jit: &mut Machine) -> Result<RunEnd, String> {
    attach(jit, Engine::Jit)?;
    let bound = interp.cfg.cycle_bound();
    let mut chunk = FIRST_CHUNK;
    loop {
        let from = interp.cycle;
        let to = from.saturating_add(chunk).min(bound);
        let ea = interp.run_until(to);
        let eb = jit.run_until(to);
        let diff = if ea != eb {
            Some(format!("the run ends differ: interp {ea:?}, jit {eb:?}"))
        } else {
            interp.first_difference(jit, "interp", "jit")
        };
        if let Some(d) = diff {
            return Err(format!(
                "--engine diff: the engines differ after cycles {from}..{to}: {d}\n\
                 interp state:\n{}jit state:\n{}",
                weft_view::state::machine_report(interp),
                weft_view::state::machine_report(jit)
            ));
        }
        match ea {
            RunEnd::CycleLimit(c) if c == to && to < bound => {}
            end => return Ok(end),
        }
        chunk = (chunk * 2).min(MAX_CHUNK);
    }
}

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
    // Every block translated the first time it runs: the most code through the translator.
    let e = weft_jit::Jit::eager().map_err(|why| format!("--engine diff: {why}"))?;
    jit.set_engine(Some(Box::new(e)));
    run_side_by_side(interp, jit)
}

/// The comparison loop of [`run_diff`], for machines already given their engines.
fn run_side_by_side(interp: &mut Machine, jit: &mut Machine) -> Result<RunEnd, String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use weft_simt::{BlockEngine, Config, PrivateRun};

    /// An engine that runs one `addi` as the interpreter would, except that it adds one more.
    struct OffByOne;

    impl BlockEngine for OffByOne {
        fn name(&self) -> &'static str {
            "off-by-one"
        }
        fn run(&mut self, run: &mut PrivateRun<'_>) -> u64 {
            let pc = run.warp.pc;
            match run.fetch(pc) {
                Some(i) if i.op == weft_isa::Op::Addi && i.rd != 0 => {
                    let (rd, rs1) = (i.rd as usize, i.rs1 as usize);
                    let m = run.warp.mask;
                    for l in 0..run.lanes {
                        if m >> l & 1 != 0 {
                            run.warp.x[rd][l] = run.warp.x[rs1][l].wrapping_add(i.imm as u32 + 1);
                        }
                    }
                    run.warp.pc = pc + 4;
                    run.count(i.op, 1);
                    1
                }
                _ => 0,
            }
        }
    }

    fn machines(src: &str) -> (Machine, Machine) {
        let elf = weft_asm::assemble(src, "t.s").expect("assembles");
        let (prog, _) = weft_simt::load::program_from_elf(&elf).expect("loads");
        let cfg = Config {
            lanes: 4,
            ..Config::default()
        };
        (
            Machine::new(cfg.clone(), &prog).expect("machine"),
            Machine::new(cfg, &prog).expect("machine"),
        )
    }

    const LOOP: &str = "
    .text
    .globl _start
_start:
    li a1, 3000
1:  addi a0, a0, 1
    add a2, a2, a0
    xor a3, a2, a1
    addi a1, a1, -1
    bnez a1, 1b
    csrw tmask, zero
";

    #[test]
    fn diff_passes_the_block_engine_and_ends_as_the_run_does() {
        let (mut a, mut b) = machines(LOOP);
        let end = run_diff(&mut a, &mut b).expect("the engines agree");
        assert_eq!(end, RunEnd::AllHalted);
        assert!(
            b.super_step_cycles() > 10_000,
            "the block engine ran the loop"
        );
    }

    #[test]
    fn diff_stops_at_the_first_chunk_that_differs_and_shows_both_sides() {
        let (mut a, mut b) = machines(LOOP);
        b.set_engine(Some(Box::new(OffByOne)));
        let err = run_side_by_side(&mut a, &mut b).expect_err("a difference");
        assert!(err.contains("after cycles 0..1000"), "{err}");
        assert!(
            err.contains("interp has") && err.contains("jit has"),
            "{err}"
        );
        assert!(
            err.contains("interp state:") && err.contains("jit state:"),
            "{err}"
        );
    }
}

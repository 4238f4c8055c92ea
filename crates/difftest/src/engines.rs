//! Every campaign runs on both functional engines: [`run_both`] runs a program on the
//! interpreter and on a second machine with the Cranelift block engine (`weft-jit`), requires
//! the two to end alike with the same whole state (registers, pc, masks, counters,
//! statistics, cycles, console, memory: `Machine::first_difference`), and hands back the
//! interpreter's machine for the campaign's own check against its reference.

use weft_simt::{Config, Machine, Program, RunEnd};

/// Run `prog` on both engines (`setup` applied to each machine first). `Err` if a machine
/// cannot be built or the engines differ in any way.
pub fn run_both(
    cfg: Config,
    prog: &Program,
    setup: impl Fn(&mut Machine),
) -> Result<(Machine, RunEnd), String> {
    let mut a = Machine::new(cfg.clone(), prog).map_err(|e| format!("machine: {e}"))?;
    let mut b = Machine::new(cfg, prog).map_err(|e| format!("machine: {e}"))?;
    // Every block translated the first time: the most code through the translator.
    let jit = weft_jit::Jit::eager().map_err(|e| format!("block engine: {e}"))?;
    b.set_engine(Some(Box::new(jit)));
    setup(&mut a);
    setup(&mut b);
    let ea = a.run();
    let eb = b.run();
    if ea != eb {
        return Err(format!(
            "the engines end differently: interp {ea:?}, jit {eb:?}"
        ));
    }
    if let Some(d) = a.first_difference(&b, "interp", "jit") {
        return Err(format!("the engines differ: {d}"));
    }
    Ok((a, ea))
}

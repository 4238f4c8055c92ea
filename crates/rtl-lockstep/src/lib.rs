//! Lockstep verification of the SystemVerilog core in `rtl/` against the functional model
//! (`weft-simt`), which is the golden reference.
//!
//! The RTL runs under Verilator with the C++ testbench `rtl/tb/tb_core.cpp`, which prints one
//! line per retired warp-instruction; [`model_trace`] runs the functional model on the same
//! program with an [`Observer`] printing the same format from each [`StepRecord`]:
//!
//! ```text
//! w<warp> pc=<pc> mask=<mask>[ (x|f)<rd>=<lane values>][ st<lane>@<addr>/<size>=<value>...]
//!     [ a<lane>@<addr>=<value>...][ ff=<every lane's fflags>] ( next=<pc>/<mask> | fault=<code> )
//! ```
//!
//! and a last line saying how the run ended (`exit N`, `halt`, `fault`). [`compare`] checks
//! the two per warp (the RTL's round-robin scheduler issues in the model's order, but a
//! per-warp comparison does not depend on that) and reports the first difference with the
//! lines before it from both sides. Both sides run in the same reconvergence mode: table
//! mode (the model's default; the testbench loads the program's reconvergence table into the
//! core's table memory, [`reconv_table`]) or converge mode (`--reconv converge`, no table).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::rc::Rc;
use weft_isa::Op;
use weft_simt::record::{memory_access, AccessKind, RegFile, StepRecord};
use weft_simt::Observer;
use weft_simt::{Config, Machine, Program, RunEnd};
use weft_timing::rtlcore::{RtlClock, RtlCore, RtlCoreConfig, RtlRetire};
use weft_timing::MachineConfig;

pub use weft_simt::ReconvMode;

pub mod board;
pub mod dma;
pub mod hdmi;
pub mod sdram;
pub mod tmds;

// The core's build, the program's layout and the shapes live in weft-rtl (the runtime's
// RTL backend uses them too); they are this crate's as they were.
pub use weft_rtl::{
    build, build_unit, build_with, dram_image, load, parse_reconv, reconv_table, repo_root,
    shape_params, sources, verilate, Error, Shape, Verilate, DRAM_BASE, DRAM_SIZE, MODES, RT_WORDS,
};

/// Run the RTL testbench `bin` on `prog` in `mode` for at most `max_cycles` clock cycles;
/// its trace.
pub fn rtl_trace(
    bin: &Path,
    prog: &Program,
    mode: ReconvMode,
    max_cycles: u64,
) -> Result<String, Error> {
    run_tb(bin, prog, mode, max_cycles, None)
}

/// [`rtl_trace`], dumping every signal to the VCD file `vcd` (a testbench built by
/// [`build_with`] with `trace`).
pub fn rtl_vcd(
    bin: &Path,
    prog: &Program,
    mode: ReconvMode,
    max_cycles: u64,
    vcd: &Path,
) -> Result<String, Error> {
    run_tb(bin, prog, mode, max_cycles, Some(vcd))
}

fn run_tb(
    bin: &Path,
    prog: &Program,
    mode: ReconvMode,
    max_cycles: u64,
    vcd: Option<&Path>,
) -> Result<String, Error> {
    let img = dram_image(prog, DRAM_SIZE)?;
    let (base, table) = reconv_table(prog, mode, RT_WORDS)?;
    let dir = bin.parent().unwrap_or(Path::new("."));
    let file = dir.join(format!("image-{}.bin", std::process::id()));
    let tfile = dir.join(format!("table-{}.bin", std::process::id()));
    std::fs::write(&file, &img).map_err(|e| Error::Tool(format!("{}: {e}", file.display())))?;
    // the table file: mode, base, length, then the words (little-endian)
    let mut t = Vec::with_capacity(12 + 4 * table.len());
    for w in [(mode == ReconvMode::Table) as u32, base, table.len() as u32]
        .into_iter()
        .chain(table)
    {
        t.extend_from_slice(&w.to_le_bytes());
    }
    std::fs::write(&tfile, &t).map_err(|e| Error::Tool(format!("{}: {e}", tfile.display())))?;
    let out = Command::new(bin)
        .arg(&file)
        .arg(format!("{:x}", prog.entry))
        .arg(format!("{:x}", prog.tohost.unwrap_or(0)))
        .arg(format!("{:x}", prog.fromhost.unwrap_or(0)))
        .arg(format!("{max_cycles:x}"))
        .arg(format!("{DRAM_SIZE:x}"))
        .arg(&tfile)
        .args(vcd)
        .output()
        .map_err(|e| Error::Tool(format!("{}: {e}", bin.display())));
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(&tfile);
    let out = out?;
    if !out.status.success() {
        return Err(Error::Tool(format!(
            "testbench failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The model's configuration for `shape` in `mode`, with the testbench's DRAM.
pub fn model_config(shape: Shape, mode: ReconvMode, max_cycles: u64) -> Config {
    Config {
        warps: shape.warps,
        lanes: shape.lanes,
        stack_depth: shape.depth,
        // The RTL's divergence stack has no spill area: a full stack faults in both.
        stack_spill: 0,
        reconv: mode,
        dram_size: DRAM_SIZE,
        max_cycles,
        ..Config::default()
    }
}

/// The trace line of one model step, in the testbench's format. `trap_addr` is the address
/// of a memory instruction that trapped to mtvec (its mtval): the lanes from the first one
/// that accessed it on did nothing, and their accesses (listed in the record, which is made
/// before the instruction runs) are left out. `fflags`: every lane's accrued float flags
/// after the step, when some lane's changed in it (both sides print them only then).
pub fn line(r: &StepRecord, trap_addr: Option<u32>, fflags: Option<&[u8]>) -> String {
    let mut s = format!("w{} pc={:08x} mask={:08x}", r.warp, r.pc, r.mask);
    if let Some(f) = &r.fault {
        s += &format!(" fault={}", f.code.code());
        return s;
    }
    let lanes = |mask: u32| (0..32usize).filter(move |l| mask >> l & 1 != 0);
    // (Vortex's pred names rd only as a flag: it writes no register)
    if let Some(w) = r.writes.first().filter(|_| r.inst.op != Op::VxPred) {
        let vals: Vec<String> = lanes(r.mask)
            .map(|l| format!("{:x}", w.values.get(l).copied().unwrap_or(0)))
            .collect();
        let file = if w.file == RegFile::F { 'f' } else { 'x' };
        s += &format!(" {file}{}={}", w.index, vals.join(","));
    }
    // the stored value: rs2 (a float register for fsw)
    let file = if r.inst.op == Op::Fsw {
        RegFile::F
    } else {
        RegFile::X
    };
    let rs2 = |lane: u8| {
        if r.inst.rs2 == 0 && file == RegFile::X {
            0
        } else {
            r.reads
                .iter()
                .find(|g| g.file == file && g.index == r.inst.rs2)
                .and_then(|g| g.values.get(lane as usize).copied())
                .unwrap_or(0)
        }
    };
    let atomic =
        r.inst.op == Op::ScW || memory_access(r.inst.op).map(|a| a.1) == Some(AccessKind::Amo);
    let done = match trap_addr {
        Some(t) => r.mem.iter().take_while(|a| a.addr != t).count(),
        None => r.mem.len(),
    };
    let mem = &r.mem[..done];
    for a in mem
        .iter()
        .filter(|a| a.kind == AccessKind::Store && !atomic)
    {
        let v = rs2(a.lane);
        let v = if a.size >= 4 {
            v
        } else {
            v & ((1u32 << (8 * a.size)) - 1)
        };
        s += &format!(" st{}@{:08x}/{}={:08x}", a.lane, a.addr, a.size, v);
    }
    // The word an AMO or a successful sc.w wrote, from rd's value (the old word; 0 for a
    // successful sc.w) and rs2: known only when rd is not x0, and shown only then.
    if atomic && r.inst.rd != 0 {
        if let Some(w) = r.writes.iter().find(|w| w.file == RegFile::X) {
            for a in mem {
                let old = w.values.get(a.lane as usize).copied().unwrap_or(0);
                let new = match amo_value(r.inst.op, old, rs2(a.lane)) {
                    Some(v) => v,
                    None => continue,
                };
                s += &format!(" a{}@{:08x}={:08x}", a.lane, a.addr, new);
            }
        }
    }
    if let Some(ff) = fflags {
        let v: Vec<String> = ff.iter().map(|f| format!("{f:x}")).collect();
        s += &format!(" ff={}", v.join(","));
    }
    s += &format!(" next={:08x}/{:08x}", r.next_pc, r.next_mask);
    s
}

/// The word an AMO (or `sc.w`) stores, given what rd received (the old word, or sc.w's
/// 0 = success / 1 = failure) and rs2: `None` when nothing is stored (a failed sc.w).
pub fn amo_value(op: Op, old: u32, b: u32) -> Option<u32> {
    Some(match op {
        Op::ScW if old == 0 => b,
        Op::ScW => return None,
        Op::AmoswapW => b,
        Op::AmoaddW => old.wrapping_add(b),
        Op::AmoxorW => old ^ b,
        Op::AmoandW => old & b,
        Op::AmoorW => old | b,
        Op::AmominW => (old as i32).min(b as i32) as u32,
        Op::AmomaxW => (old as i32).max(b as i32) as u32,
        Op::AmominuW => old.min(b),
        Op::AmomaxuW => old.max(b),
        _ => return None,
    })
}

/// The model's side of the trace: one line per step, and each warp's fflags as last printed.
struct Lines(Rc<RefCell<String>>, Vec<Vec<u8>>);

impl Observer for Lines {
    fn step(&mut self, m: &Machine, r: &StepRecord) {
        let warp = &m.cores[r.core].warps[r.warp];
        // A memory instruction that went on anywhere but the next instruction trapped.
        let trap_addr = (r.fault.is_none()
            && !r.mem.is_empty()
            && r.next_pc != r.pc.wrapping_add(r.inst.len()))
        .then_some(warp.csr.mtval);
        let ff = &warp.fflags[..m.cfg.lanes];
        if self.1.len() <= r.warp {
            self.1.resize(r.warp + 1, vec![0; m.cfg.lanes]);
        }
        let changed = self.1[r.warp] != ff;
        if changed {
            self.1[r.warp] = ff.to_vec();
        }
        let mut b = self.0.borrow_mut();
        b.push_str(&line(r, trap_addr, changed.then_some(ff)));
        b.push('\n');
    }
}

/// Run the functional model on `prog` in `mode`; its trace in the testbench's format.
pub fn model_trace(
    prog: &Program,
    shape: Shape,
    mode: ReconvMode,
    max_cycles: u64,
) -> Result<String, Error> {
    run_model(prog, shape, mode, max_cycles, None).map(|(t, _)| t)
}

/// One run of the functional model: its trace (as [`model_trace`]) and, with `clock`, the
/// timing model's prediction of the RTL core's clock — every retirement's cycle, in the order
/// the functional model runs them (the RTL's scheduler issues in that order) — both from the
/// same steps.
fn run_model(
    prog: &Program,
    shape: Shape,
    mode: ReconvMode,
    max_cycles: u64,
    clock: Option<&RtlCoreConfig>,
) -> Result<(String, Vec<RtlRetire>), Error> {
    let mut m = Machine::new(model_config(shape, mode, max_cycles), prog)
        .map_err(|e| Error::Program(e.to_string()))?;
    m.set_console(Box::new(std::io::sink()));
    let buf = Rc::new(RefCell::new(String::new()));
    m.add_observer(Box::new(Lines(buf.clone(), Vec::new())));
    let core = clock.map(|cfg| Rc::new(RefCell::new(RtlCore::new(*cfg, &m))));
    if let Some(core) = &core {
        m.add_observer(Box::new(RtlClock(core.clone())));
    }
    let end = m.run();
    if let Some(c) = &core {
        // (times a fault that no step record showed)
        c.borrow_mut().end(&end);
    }
    let mut s = buf.borrow().clone();
    match end {
        RunEnd::Exit(c) => s += &format!("exit {c}\n"),
        RunEnd::AllHalted | RunEnd::NoExit => s += "halt\n",
        RunEnd::Fault(f) => {
            // a fault before issue, with no step record (the HARD watchdog, a fetch)
            if !s.lines().last().is_some_and(|l| l.contains(" fault=")) {
                s += &format!(
                    "w{} pc={:08x} mask={:08x} fault={}\n",
                    f.warp,
                    f.pc,
                    f.lanes,
                    f.code.code()
                );
            }
            s += "fault\n";
        }
        RunEnd::CycleLimit(_) => s += "timeout\n",
        // The RTL says only that it stopped with warps waiting at a barrier.
        RunEnd::Deadlock(_) => s += "deadlock\n",
    }
    let retired = core.map(|c| c.borrow().retired.clone()).unwrap_or_default();
    Ok((s, retired))
}

/// What the comparison found.
#[derive(Debug, PartialEq, Eq)]
pub struct Agreement {
    /// Warp-instructions compared.
    pub steps: usize,
    /// The last line of both (how the run ended).
    pub end: String,
    /// The clock cycles: `Ok` with the RTL's last retirement cycle when the timing model
    /// (configs/weft-rtl.toml) predicts every retirement's cycle, else the report of the
    /// first instruction where they part.
    pub cycles: Result<u64, String>,
}

/// The timing model's `[rtl_core]` as `configs/weft-rtl.toml` configures it.
pub fn rtl_timing() -> Result<RtlCoreConfig, String> {
    let p = repo_root().join("configs/weft-rtl.toml");
    let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
    let c = MachineConfig::from_toml(&text).map_err(|e| format!("{}: {e}", p.display()))?;
    Ok(c.timing.rtl_core)
}

/// Compare the predicted retirement cycles with the RTL trace's (` @N` on each line), in
/// order: the RTL's last cycle, or the first instruction where they part (its warp, pc and
/// instruction, both cycles, and the cycles each side spent on it).
pub fn compare_cycles(model: &[RtlRetire], rtl: &str) -> Result<u64, String> {
    let mut prev = (0u64, 0u64);
    let mut last = 0;
    let lines = rtl
        .lines()
        .filter(|l| l.starts_with('w') && l.contains(" pc="));
    for (k, l) in lines.enumerate() {
        let (text, Some(c)) = strip_cycle(l) else {
            continue;
        };
        let Some(p) = model.get(k) else {
            return Err(format!(
                "the timing model has no instruction #{k}: rtl `{l}`"
            ));
        };
        let head = format!("w{} pc={:08x}", p.warp, p.pc);
        if !text.starts_with(&head) || c != p.cycle {
            let inst = p.inst;
            return Err(format!(
                "cycles part at instruction #{k} (warp {}, pc {:08x}: {inst}): rtl retires it \
                 in cycle {c} ({} cycles), the timing model in cycle {} ({} cycles)\n  rtl: {l}",
                p.warp,
                p.pc,
                c + 1 - prev.0,
                p.cycle,
                p.cycle + 1 - prev.1
            ));
        }
        prev = (c + 1, p.cycle + 1);
        last = c;
    }
    Ok(last)
}

/// Compare the model's trace with the RTL's, warp by warp. `Err` holds the report of the
/// first difference: the warp, the step, both lines, and the lines before it on each side.
pub fn compare(model: &str, rtl: &str) -> Result<Agreement, String> {
    let split = |t: &str| {
        let mut per: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut end = String::new();
        for l in t.lines() {
            // (the RTL's lines end in their retirement's clock cycle: not compared here)
            let l = strip_cycle(l).0;
            match l.split_once(' ') {
                Some((w, _)) if w.starts_with('w') && l.contains(" pc=") => {
                    per.entry(w.to_string()).or_default().push(l.to_string())
                }
                _ => end = l.to_string(),
            }
        }
        (per, end)
    };
    let (m, mend) = split(model);
    let (r, rend) = split(rtl);
    if let Some(u) = rtl
        .lines()
        .find(|l| l.contains(" pc=") && l.contains(" unsupported"))
    {
        return Err(format!(
            "the RTL met something it does not implement: {u}\n(the model's line there: {})",
            model
                .lines()
                .find(|l| l.split(" mask=").next() == u.split(" mask=").next())
                .unwrap_or("none")
        ));
    }
    // The first difference in the RTL's order of retirement.
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut steps = 0;
    for l in rtl.lines().chain(model.lines()) {
        let Some((w, _)) = l.split_once(' ') else {
            continue;
        };
        if !l.contains(" pc=") {
            continue;
        }
        let k = *seen.get(w).unwrap_or(&0);
        let mv = m.get(w).map(|v| v.as_slice()).unwrap_or(&[]);
        let rv = r.get(w).map(|v| v.as_slice()).unwrap_or(&[]);
        if k >= mv.len().max(rv.len()) {
            continue;
        }
        let (a, b) = (mv.get(k), rv.get(k));
        if a != b {
            let ctx = |v: &[String]| {
                v[k.saturating_sub(3)..k.min(v.len())]
                    .iter()
                    .map(|s| format!("    {s}\n"))
                    .collect::<String>()
            };
            return Err(format!(
                "first difference: warp {w}, its instruction #{k}\n  model: {}\n  rtl:   {}\n\
                 before it (model):\n{}before it (rtl):\n{}",
                a.map(|s| s.as_str()).unwrap_or("(no more instructions)"),
                b.map(|s| s.as_str()).unwrap_or("(no more instructions)"),
                ctx(mv),
                ctx(rv)
            ));
        }
        seen.insert(w.to_string(), k + 1);
        steps += 1;
    }
    if mend != rend {
        return Err(format!(
            "every instruction agrees ({steps}) but the runs end differently: model `{mend}`, \
             rtl `{rend}`"
        ));
    }
    Ok(Agreement {
        steps,
        end: mend,
        cycles: Err("not compared".into()),
    })
}

/// A line of the RTL's trace without its clock cycle (` @N` at its end), and the cycle.
pub fn strip_cycle(l: &str) -> (&str, Option<u64>) {
    match l.rsplit_once(" @") {
        Some((a, c)) if !c.is_empty() && c.bytes().all(|b| b.is_ascii_digit()) => {
            (a, c.parse().ok())
        }
        _ => (l, None),
    }
}

/// Build the RTL for `shape`, run both sides on the program at `path` in `mode`, compare.
pub fn lockstep(
    path: &Path,
    shape: Shape,
    mode: ReconvMode,
    planted_bug: bool,
) -> Result<Agreement, String> {
    let prog = load(path).map_err(|e| e.to_string())?;
    lockstep_program(&prog, shape, mode, planted_bug)
        .map_err(|e| format!("{} ({}): {e}", path.display(), mode.name()))
}

/// Build the RTL for `shape`, run both sides on `prog` in `mode`, compare.
pub fn lockstep_program(
    prog: &Program,
    shape: Shape,
    mode: ReconvMode,
    planted_bug: bool,
) -> Result<Agreement, String> {
    let bin = build(shape, planted_bug).map_err(|e| e.to_string())?;
    let clock = rtl_timing();
    let (model, retired) =
        run_model(prog, shape, mode, 4_000_000, clock.as_ref().ok()).map_err(|e| e.to_string())?;
    // The RTL takes a few cycles per warp-instruction, more for memory (six per lane),
    // division (33), fdiv and fsqrt (31 per lane) and the divergence unit's searches and
    // walks (up to one cycle per stack entry, three times): a bound from the model's count
    // stops an RTL that went astray.
    let steps = model.lines().count() as u64;
    let bound = steps * (48 + 32 * shape.lanes as u64 + 3 * shape.depth as u64) + 10_000;
    let rtl = rtl_trace(&bin, prog, mode, bound).map_err(|e| e.to_string())?;
    let mut a = compare(&model, &rtl)?;
    a.cycles = clock.and_then(|_| compare_cycles(&retired, &rtl));
    Ok(a)
}

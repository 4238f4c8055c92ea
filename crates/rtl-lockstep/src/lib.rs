//! Lockstep verification of the SystemVerilog core in `rtl/` against the functional model
//! (`weft-simt`), which is the golden reference.
//!
//! The RTL runs under Verilator with the C++ testbench `rtl/tb/tb_core.cpp`, which prints one
//! line per retired warp-instruction; [`model_trace`] runs the functional model on the same
//! program with an [`Observer`] printing the same format from each [`StepRecord`]:
//!
//! ```text
//! w<warp> pc=<pc> mask=<mask>[ x<rd>=<lane values>][ st<lane>@<addr>/<size>=<value>...]
//!     ( next=<pc>/<mask> | fault=<code> )
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
use std::path::{Path, PathBuf};
use std::process::Command;
use std::rc::Rc;
use weft_isa::Op;
use weft_simt::record::{memory_access, AccessKind, RegFile, StepRecord};
use weft_simt::Observer;
use weft_simt::{Config, Machine, Program, Reconv, RunEnd};

pub use weft_simt::ReconvMode;

pub mod board;

/// DRAM base and the DRAM size both sides use.
pub const DRAM_BASE: u32 = 0x8000_0000;
/// 16 MiB: enough for every test program, small for the testbench.
pub const DRAM_SIZE: u32 = 16 << 20;

/// Words in the core's reconvergence-table memory (`RT_WORDS`, weft_diverge.sv): one per
/// instruction word from the lowest branch with an entry to the highest (64 KiB of code, the
/// board's whole DRAM).
pub const RT_WORDS: usize = 16384;

/// The two reconvergence modes the RTL builds, table mode (the model's default) first.
pub const MODES: [ReconvMode; 2] = [ReconvMode::Table, ReconvMode::Converge];

/// The core's shape: the RTL's parameters and the model's configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Warps per core.
    pub warps: usize,
    /// Lanes per warp.
    pub lanes: usize,
    /// Divergence stack entries per warp.
    pub depth: usize,
}

impl Shape {
    /// The default core: 4 warps × 8 lanes, 8 stack entries.
    pub const DEFAULT: Shape = Shape {
        warps: 4,
        lanes: 8,
        depth: 8,
    };
    /// The other shape the tests check: 2 warps × 4 lanes, 4 stack entries.
    pub const SMALL: Shape = Shape {
        warps: 2,
        lanes: 4,
        depth: 4,
    };

    /// A `--shape` argument: `WARPSxLANESxDEPTH`, e.g. `4x8x8`.
    pub fn parse(s: Option<&str>) -> Result<Shape, String> {
        let v: Vec<usize> = s
            .unwrap_or_default()
            .split('x')
            .filter_map(|x| x.parse().ok())
            .collect();
        match v[..] {
            [warps, lanes, depth] => Ok(Shape {
                warps,
                lanes,
                depth,
            }),
            _ => Err("--shape wants WARPSxLANESxDEPTH, e.g. 4x8x8".into()),
        }
    }
}

/// A `--reconv` argument: `table` or `converge`.
pub fn parse_reconv(s: Option<&str>) -> Result<ReconvMode, String> {
    match s {
        Some("table") => Ok(ReconvMode::Table),
        Some("converge") => Ok(ReconvMode::Converge),
        _ => Err("--reconv wants `table` or `converge`".into()),
    }
}

/// Something that stops a lockstep run before it compares anything.
#[derive(Debug)]
pub enum Error {
    /// Verilator is not installed.
    NoVerilator(String),
    /// Building or running the testbench failed.
    Tool(String),
    /// The program cannot be loaded.
    Program(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::NoVerilator(s) => write!(
                f,
                "verilator is not installed ({s}): install it (`apt-get install -y verilator`, \
                 as .ci/run does); the RTL lockstep tests need Verilator 5"
            ),
            Error::Tool(s) | Error::Program(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for Error {}

/// The repository root (this crate is crates/rtl-lockstep).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The SystemVerilog sources of the core (every `rtl/weft_*.sv`, the core first) and the
/// testbench.
pub fn sources() -> Vec<PathBuf> {
    let r = repo_root().join("rtl");
    let mut units: Vec<PathBuf> = std::fs::read_dir(&r)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                    n.starts_with("weft_") && n.ends_with(".sv") && n != "weft_core.sv"
                })
                .collect()
        })
        .unwrap_or_default();
    units.sort();
    let mut v = vec![r.join("weft_core.sv")];
    v.extend(units);
    v.push(r.join("tb/tb_core.cpp"));
    v
}

/// Build (or reuse) the Verilator testbench for `shape`; `planted_bug` defines
/// `WEFT_PLANTED_BUG`, the deliberate RTL bug the lockstep must catch. Returns the binary.
/// A build is reused when it is newer than every source.
pub fn build(shape: Shape, planted_bug: bool) -> Result<PathBuf, Error> {
    build_with(shape, planted_bug, false)
}

/// [`build`], with Verilator's `--trace` when `trace` is set: the testbench can then dump a
/// VCD ([`rtl_vcd`]).
pub fn build_with(shape: Shape, planted_bug: bool, trace: bool) -> Result<PathBuf, Error> {
    let name = format!(
        "w{}l{}d{}{}{}",
        shape.warps,
        shape.lanes,
        shape.depth,
        if planted_bug { "-bug" } else { "" },
        if trace { "-trace" } else { "" }
    );
    let defines: &[&str] = if planted_bug {
        &["WEFT_PLANTED_BUG"]
    } else {
        &[]
    };
    verilate(&Verilate {
        top: "weft_core",
        dir: &name,
        bin: "tb_core",
        params: &shape_params(shape),
        defines,
        sources: &sources(),
        trace,
    })
}

/// The RTL parameters of `shape`.
pub(crate) fn shape_params(shape: Shape) -> Vec<(&'static str, usize)> {
    vec![
        ("WARPS", shape.warps),
        ("LANES", shape.lanes),
        ("DEPTH", shape.depth),
    ]
}

/// One Verilator testbench build: its top module, its directory under `target/rtl/`, the
/// binary's name, the top's parameters, the macros defined, the sources in order, and
/// whether it can dump a VCD.
pub(crate) struct Verilate<'a> {
    pub top: &'a str,
    pub dir: &'a str,
    pub bin: &'a str,
    pub params: &'a [(&'a str, usize)],
    pub defines: &'a [&'a str],
    pub sources: &'a [PathBuf],
    pub trace: bool,
}

/// Build (or reuse: when it is newer than every source) a Verilator testbench; the binary.
pub(crate) fn verilate(v: &Verilate<'_>) -> Result<PathBuf, Error> {
    let ver = Command::new("verilator")
        .arg("--version")
        .output()
        .map_err(|e| Error::NoVerilator(e.to_string()))?;
    if !ver.status.success() {
        return Err(Error::NoVerilator("`verilator --version` failed".into()));
    }
    let dir = repo_root().join("target/rtl").join(v.dir);
    let bin = dir.join(v.bin);
    // Tests run in parallel processes and may want the same build at once: one builds while
    // the others wait on this lock, then find the build fresh. (Without it, a second build
    // could move the first one's directory away while a test was about to run its binary.)
    std::fs::create_dir_all(repo_root().join("target/rtl"))
        .map_err(|e| Error::Tool(format!("target/rtl: {e}")))?;
    let lock_path = dir.with_extension("lock");
    let lock = std::fs::File::create(&lock_path)
        .map_err(|e| Error::Tool(format!("{}: {e}", lock_path.display())))?;
    lock.lock()
        .map_err(|e| Error::Tool(format!("{}: {e}", lock_path.display())))?;
    let newest = v
        .sources
        .iter()
        .filter_map(|p| p.metadata().and_then(|m| m.modified()).ok())
        .max();
    if let (Ok(m), Some(n)) = (bin.metadata().and_then(|m| m.modified()), newest) {
        if m > n {
            return Ok(bin);
        }
    }
    // Build in a directory of its own and move it into place when done, so an interrupted
    // build never leaves a half-built testbench where a fresh one is expected.
    let tmp = dir.with_extension(format!("build-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| Error::Tool(format!("{}: {e}", tmp.display())))?;
    let mut cmd = Command::new("verilator");
    cmd.args([
        "--cc",
        "--exe",
        "--build",
        "-j",
        "1",
        "-Wall",
        "--top-module",
    ])
    .arg(v.top)
    .arg("-Mdir")
    .arg(&tmp)
    .arg("-o")
    .arg(v.bin);
    for (k, val) in v.params {
        cmd.arg(format!("-G{k}={val}"));
    }
    for d in v.defines {
        cmd.arg(format!("-D{d}"));
    }
    if v.trace {
        cmd.arg("--trace");
    }
    for s in v.sources {
        cmd.arg(s.canonicalize().unwrap_or_else(|_| s.clone()));
    }
    let out = cmd
        .output()
        .map_err(|e| Error::Tool(format!("verilator: {e}")))?;
    if !out.status.success() {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(Error::Tool(format!(
            "verilator build failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    // The stale build is moved aside first (the lock is held: no other process uses it).
    let old = dir.with_extension(format!("old-{}", std::process::id()));
    if std::fs::rename(&dir, &old).is_ok() {
        let _ = std::fs::remove_dir_all(&old);
    }
    if std::fs::rename(&tmp, &dir).is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    if !bin.is_file() {
        return Err(Error::Tool(format!(
            "{}: the build left no testbench",
            bin.display()
        )));
    }
    Ok(bin)
}

/// Load a program file (assembly or ELF).
pub fn load(path: &Path) -> Result<Program, Error> {
    weft_simt::load::load_file(path)
        .map(|(p, _)| p)
        .map_err(|e| Error::Program(e.to_string()))
}

/// The DRAM image of `prog` from [`DRAM_BASE`] (segments zero-filled to their memory size).
pub fn dram_image(prog: &Program) -> Result<Vec<u8>, Error> {
    let mut img = Vec::new();
    for s in &prog.segments {
        let end = s.addr as u64 + s.mem_size.max(s.data.len() as u32) as u64;
        if s.addr < DRAM_BASE || end > DRAM_BASE as u64 + DRAM_SIZE as u64 {
            return Err(Error::Program(format!(
                "segment at {:#010x} is outside the testbench's {} MiB of DRAM",
                s.addr,
                DRAM_SIZE >> 20
            )));
        }
        let off = (s.addr - DRAM_BASE) as usize;
        let need = (end - DRAM_BASE as u64) as usize;
        if img.len() < need {
            img.resize(need, 0);
        }
        img[off..off + s.data.len()].copy_from_slice(&s.data);
    }
    Ok(img)
}

/// The image of `prog`'s reconvergence table for the core's table memory: the code address of
/// its first word and one 18-bit word per instruction word from there, `offset << 2 | kind`
/// (kind 1: At(pc + 4 * offset), offset a signed 16-bit count of instruction words; 2:
/// AtExit; 0: none) — empty in converge mode. The RTL has no C: an entry of a branch at a
/// halfword address is left out (the core reports an instruction there as unsupported in
/// table mode), and a point at a halfword address is kind 3 (a split there is unsupported). A
/// table spanning more than `words` words, or a point farther than the offset reaches, is
/// refused.
pub fn reconv_table(
    prog: &Program,
    mode: ReconvMode,
    words: usize,
) -> Result<(u32, Vec<u32>), Error> {
    if mode != ReconvMode::Table {
        return Ok((0, Vec::new()));
    }
    let entries: BTreeMap<u32, u32> = prog
        .reconv
        .iter()
        .filter_map(|(&pc, r)| match *r {
            _ if pc % 4 != 0 => None,
            Reconv::At(p) if p % 4 != 0 => Some((pc, pc, 3)),
            Reconv::At(p) => Some((pc, p, 1)),
            Reconv::AtExit => Some((pc, pc, 2)),
            Reconv::None => None,
        })
        .map(|(pc, p, k)| {
            let off = (p as i64 - pc as i64) / 4;
            if i16::try_from(off).is_err() {
                Err(Error::Program(format!(
                    "reconvergence-table entry {pc:#010x} -> {p:#010x}: the point is farther \
                     than the table's 16-bit word offset reaches"
                )))
            } else {
                Ok((pc, (off as i16 as u16 as u32) << 2 | k))
            }
        })
        .collect::<Result<_, _>>()?;
    let (Some((&lo, _)), Some((&hi, _))) = (entries.first_key_value(), entries.last_key_value())
    else {
        return Ok((0, Vec::new()));
    };
    let span = ((hi - lo) / 4 + 1) as usize;
    if span > words {
        return Err(Error::Program(format!(
            "the reconvergence table spans {span} instruction words ({lo:#010x}..={hi:#010x}, \
             {} entries); the core's table memory holds {words} (RT_WORDS)",
            entries.len()
        )));
    }
    let mut v = vec![0u32; span];
    for (pc, w) in entries {
        v[((pc - lo) / 4) as usize] = w;
    }
    Ok((lo, v))
}

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
    let img = dram_image(prog)?;
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
/// before the instruction runs) are left out.
pub fn line(r: &StepRecord, trap_addr: Option<u32>) -> String {
    let mut s = format!("w{} pc={:08x} mask={:08x}", r.warp, r.pc, r.mask);
    if let Some(f) = &r.fault {
        s += &format!(" fault={}", f.code.code());
        return s;
    }
    let lanes = |mask: u32| (0..32usize).filter(move |l| mask >> l & 1 != 0);
    if let Some(w) = r.writes.iter().find(|w| w.file == RegFile::X) {
        let vals: Vec<String> = lanes(r.mask)
            .map(|l| format!("{:x}", w.values.get(l).copied().unwrap_or(0)))
            .collect();
        s += &format!(" x{}={}", w.index, vals.join(","));
    }
    let rs2 = |lane: u8| {
        if r.inst.rs2 == 0 {
            0
        } else {
            r.reads
                .iter()
                .find(|g| g.file == RegFile::X && g.index == r.inst.rs2)
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

struct Lines(Rc<RefCell<String>>);

impl Observer for Lines {
    fn step(&mut self, m: &Machine, r: &StepRecord) {
        // A memory instruction that went on anywhere but the next instruction trapped.
        let trap_addr = (r.fault.is_none()
            && !r.mem.is_empty()
            && r.next_pc != r.pc.wrapping_add(r.inst.len()))
        .then(|| m.cores[r.core].warps[r.warp].csr.mtval);
        let mut b = self.0.borrow_mut();
        b.push_str(&line(r, trap_addr));
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
    let mut m = Machine::new(model_config(shape, mode, max_cycles), prog)
        .map_err(|e| Error::Program(e.to_string()))?;
    m.set_console(Box::new(std::io::sink()));
    let buf = Rc::new(RefCell::new(String::new()));
    m.add_observer(Box::new(Lines(buf.clone())));
    let end = m.run();
    let mut s = buf.borrow().clone();
    match end {
        RunEnd::Exit(c) => s += &format!("exit {c}\n"),
        RunEnd::AllHalted | RunEnd::NoExit => s += "halt\n",
        RunEnd::Fault(f) => {
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
    Ok(s)
}

/// What the comparison found.
#[derive(Debug, PartialEq, Eq)]
pub struct Agreement {
    /// Warp-instructions compared.
    pub steps: usize,
    /// The last line of both (how the run ended).
    pub end: String,
}

/// Compare the model's trace with the RTL's, warp by warp. `Err` holds the report of the
/// first difference: the warp, the step, both lines, and the lines before it on each side.
pub fn compare(model: &str, rtl: &str) -> Result<Agreement, String> {
    let split = |t: &str| {
        let mut per: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut end = String::new();
        for l in t.lines() {
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
    Ok(Agreement { steps, end: mend })
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
    let model = model_trace(prog, shape, mode, 1_000_000).map_err(|e| e.to_string())?;
    // The RTL takes a few cycles per warp-instruction, more for memory (two per lane),
    // division (33) and the divergence unit's searches and walks (up to one cycle per stack
    // entry, three times): a bound from the model's count stops an RTL that went astray.
    let steps = model.lines().count() as u64;
    let bound = steps * (48 + 2 * shape.lanes as u64 + 3 * shape.depth as u64) + 10_000;
    let rtl = rtl_trace(&bin, prog, mode, bound).map_err(|e| e.to_string())?;
    compare(&model, &rtl)
}

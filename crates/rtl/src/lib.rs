//! weft-rtl: weft's SystemVerilog core (`rtl/`) as a machine the host can drive, under
//! Verilator. It builds the core's testbench (`rtl/tb/tb_core.cpp`) for a shape, cached in
//! `target/rtl/` until a source changes; lays a program out for it (the DRAM image and the
//! reconvergence table for the core's table memory); and runs it as a [`Device`] that the
//! command line (`weft run --rtl`) and the host runtime (its `rtl` backend) drive like the
//! functional model: memory reads and writes, restarts at an entry, runs to an end with the
//! console, and statistics counted by the testbench from what the RTL retired
//! ([`device::RtlDevice`]). The lockstep check against the functional model
//! (`weft-rtl-lockstep`) builds on it.
//!
//! Verilator (5) is needed at run time; without it every entry point fails with
//! [`Error::NoVerilator`], which says what to install. The RTL sources are read from the
//! repository this crate was built in ([`repo_root`]).
//!
//! [`Device`]: weft_device::Device

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use weft_simt::{Program, Reconv};

pub use weft_simt::ReconvMode;

pub mod device;
pub use device::RtlDevice;

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
/// testbench (it serves both the lockstep's trace and [`RtlDevice`]).
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

/// Build (or reuse) the Verilator testbench of one unit of the core: module `top` of
/// `rtl/<file>.sv` (with the other files it instantiates, `units`, from `rtl/`) driven by
/// `rtl/tb/<tb>.cpp`, in `target/rtl/<top>/`. The unit tests (the FPU against weft-sem, the
/// decompressor against weft-isa) use it.
pub fn build_unit(top: &str, units: &[&str], tb: &str) -> Result<PathBuf, Error> {
    let r = repo_root().join("rtl");
    let mut sources: Vec<PathBuf> = units.iter().map(|u| r.join(format!("{u}.sv"))).collect();
    sources.push(r.join(format!("tb/{tb}.cpp")));
    verilate(&Verilate {
        top,
        dir: top,
        bin: tb,
        params: &[],
        defines: &[],
        sources: &sources,
        trace: false,
    })
}

/// The RTL parameters of `shape`.
pub fn shape_params(shape: Shape) -> Vec<(&'static str, usize)> {
    vec![
        ("WARPS", shape.warps),
        ("LANES", shape.lanes),
        ("DEPTH", shape.depth),
    ]
}

/// One Verilator testbench build: its top module, its directory under `target/rtl/`, the
/// binary's name, the top's parameters, the macros defined, the sources in order, and
/// whether it can dump a VCD.
pub struct Verilate<'a> {
    pub top: &'a str,
    pub dir: &'a str,
    pub bin: &'a str,
    pub params: &'a [(&'a str, usize)],
    pub defines: &'a [&'a str],
    pub sources: &'a [PathBuf],
    pub trace: bool,
}

/// Build (or reuse: when it is newer than every source) a Verilator testbench; the binary.
pub fn verilate(v: &Verilate<'_>) -> Result<PathBuf, Error> {
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
    // The build is as new as the sources it read: a source saved while Verilator runs makes it
    // stale (the testbench's own time would be later than that change).
    let started = std::time::SystemTime::now();
    let mut cmd = Command::new("verilator");
    // (-O3 and the C++ at -O2 rather than Verilator's -Os: the models run about a fifth
    // faster, which the long lockstep runs feel)
    cmd.args([
        "--cc",
        "--exe",
        "--build",
        "-j",
        "1",
        "-Wall",
        "-O3",
        "-MAKEFLAGS",
        "OPT_FAST=-O2 OPT_GLOBAL=-O2",
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
    // (headers are sources for the freshness check only: the testbench includes them)
    for s in v
        .sources
        .iter()
        .filter(|s| s.extension().is_none_or(|e| e != "h"))
    {
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
    std::fs::File::options()
        .write(true)
        .open(&bin)
        .and_then(|f| f.set_modified(started))
        .map_err(|e| Error::Tool(format!("{}: {e}", bin.display())))?;
    Ok(bin)
}

/// Load a program file (assembly or ELF).
pub fn load(path: &Path) -> Result<Program, Error> {
    weft_simt::load::load_file(path)
        .map(|(p, _)| p)
        .map_err(|e| Error::Program(e.to_string()))
}

/// The DRAM image of `prog` from [`DRAM_BASE`] (segments zero-filled to their memory size),
/// for a DRAM of `size` bytes.
pub fn dram_image(prog: &Program, size: u32) -> Result<Vec<u8>, Error> {
    let mut img = Vec::new();
    for s in &prog.segments {
        let end = s.addr as u64 + s.mem_size.max(s.data.len() as u32) as u64;
        if s.addr < DRAM_BASE || end > DRAM_BASE as u64 + size as u64 {
            return Err(Error::Program(format!(
                "segment at {:#010x} is outside the RTL's {} MiB of DRAM",
                s.addr,
                size >> 20
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

/// The image of `prog`'s reconvergence table for the core's table memory: its base and one
/// 18-bit word per instruction slot from there, `offset << 2 | kind` (kind 1: At(pc + unit *
/// offset), offset a signed 16-bit count of slots; 2: AtExit; 0: none) — empty in converge
/// mode. A slot is 4 bytes of code (the base's bit 0 clear) unless some entry or point lies
/// at a halfword address (compressed code), in which case it is 2 bytes and the base's bit 0
/// is set (weft_diverge.sv reads it so: word mode covers twice the code). A table spanning
/// more than `words` slots, or a point farther than the offset reaches, is refused.
pub fn reconv_table(
    prog: &Program,
    mode: ReconvMode,
    words: usize,
) -> Result<(u32, Vec<u32>), Error> {
    if mode != ReconvMode::Table {
        return Ok((0, Vec::new()));
    }
    let half = prog
        .reconv
        .iter()
        .any(|(&pc, r)| pc % 4 != 0 || matches!(*r, Reconv::At(p) if p % 4 != 0));
    let unit: i64 = if half { 2 } else { 4 };
    let entries: BTreeMap<u32, u32> = prog
        .reconv
        .iter()
        .filter_map(|(&pc, r)| match *r {
            Reconv::At(p) => Some((pc, p, 1)),
            Reconv::AtExit => Some((pc, pc, 2)),
            Reconv::None => None,
        })
        .map(|(pc, p, k)| {
            let off = (p as i64 - pc as i64) / unit;
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
    let span = ((hi - lo) / unit as u32 + 1) as usize;
    if span > words {
        return Err(Error::Program(format!(
            "the reconvergence table spans {span} instruction slots of {unit} bytes \
             ({lo:#010x}..={hi:#010x}, {} entries); the core's table memory holds {words} \
             (RT_WORDS)",
            entries.len()
        )));
    }
    let mut v = vec![0u32; span];
    for (pc, w) in entries {
        v[((pc - lo) / unit as u32) as usize] = w;
    }
    Ok((lo | half as u32, v))
}

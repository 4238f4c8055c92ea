//! Running one generated program on weft (the library, one lane) and on
//! `qemu-system-riscv32 -machine spike` (a subprocess with a timeout), parsing the dumps, and
//! comparing them register by register.

use crate::gen::{TestProgram, DATA_SIZE, DUMP_WORDS, TOTAL_WORDS};
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use weft_simt::{Config, RunEnd};

/// The QEMU binary the comparison runs.
pub const QEMU: &str = "qemu-system-riscv32";

/// Why a program could not be compared.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiffError {
    /// weft's assembler rejected the generated source (a generator or assembler bug).
    #[error("assembler: {0}")]
    Asm(String),
    /// weft could not load the ELF.
    #[error("weft load: {0}")]
    Load(String),
    /// The weft run ended some other way than exit 0.
    #[error("weft run ended with {0}")]
    WeftEnd(String),
    /// QEMU could not be started or failed.
    #[error("qemu: {0}")]
    Qemu(String),
    /// QEMU did not finish in time.
    #[error("qemu timed out after {0:?}")]
    Timeout(Duration),
    /// The interpreter and the block engine disagree.
    #[error("weft engines: {0}")]
    Engines(String),
    /// The console output is not the expected dump.
    #[error("{0}: malformed dump: {1}")]
    Parse(&'static str, String),
}

/// The state a program printed: registers, fcsr, data region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dump(pub Vec<u32>);

impl Dump {
    /// Parse the console text (one 8-digit hex word per line).
    pub fn parse(who: &'static str, text: &[u8]) -> Result<Dump, DiffError> {
        let text = String::from_utf8_lossy(text);
        let words: Result<Vec<u32>, _> = text
            .lines()
            .map(|l| u32::from_str_radix(l.trim(), 16))
            .collect();
        let words = words.map_err(|e| DiffError::Parse(who, format!("{e} in {text:.200}")))?;
        if words.len() != TOTAL_WORDS {
            return Err(DiffError::Parse(
                who,
                format!("{} words, expected {TOTAL_WORDS}", words.len()),
            ));
        }
        Ok(Dump(words))
    }
}

/// The name of dump word `i` (`x5`, `f3`, `fcsr`, `data+0x1c`).
pub fn word_name(i: usize) -> String {
    match i {
        0..=31 => format!("x{i}"),
        32..=63 => format!("f{}", i - 32),
        64 => "fcsr".into(),
        _ => format!("data+{:#x}", (i - DUMP_WORDS) * 4),
    }
}

/// One differing word: (name, weft's value, QEMU's value).
pub type Difference = (String, u32, u32);

/// The words that differ (x31 holds the dump address on both sides and is skipped).
pub fn compare(weft: &Dump, qemu: &Dump) -> Vec<Difference> {
    weft.0
        .iter()
        .zip(&qemu.0)
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, (a, b))| (word_name(i), *a, *b))
        .collect()
}

/// Assemble a program with weft's assembler.
pub fn build(prog: &TestProgram) -> Result<Vec<u8>, DiffError> {
    weft_asm::assemble(&prog.source(), "difftest.s").map_err(|e| DiffError::Asm(e.to_string()))
}

/// Run an ELF on weft: one core, one warp, one lane, HTIF console on; on both functional
/// engines, which must agree in every respect.
pub fn run_weft(elf: &[u8]) -> Result<Dump, DiffError> {
    let (prog, _) =
        weft_simt::load::program_from_elf(elf).map_err(|e| DiffError::Load(e.to_string()))?;
    let fromhost = prog
        .symbols
        .iter()
        .find(|(n, _)| n == "fromhost")
        .map(|(_, a)| *a);
    let cfg = Config {
        cores: 1,
        warps: 1,
        lanes: 1,
        max_cycles: 5_000_000,
        ..Config::default()
    };
    let (m, end) = crate::engines::run_both(cfg, &prog, |m| m.mem.set_fromhost(fromhost))
        .map_err(DiffError::Engines)?;
    match end {
        RunEnd::Exit(0) => Dump::parse("weft", m.console()),
        end => Err(DiffError::WeftEnd(format!("{end:?}"))),
    }
}

static TEMP_SEQ: AtomicU64 = AtomicU64::new(0);

fn temp_path() -> PathBuf {
    std::env::temp_dir().join(format!(
        "weft-difftest-{}-{}.elf",
        std::process::id(),
        TEMP_SEQ.fetch_add(1, Ordering::Relaxed)
    ))
}

/// True if QEMU can be started.
pub fn qemu_available() -> bool {
    Command::new(QEMU)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// What a QEMU run printed and how it ended.
#[derive(Debug)]
pub struct QemuRun {
    /// Exit status (HTIF exit code in its low 8 bits).
    pub status: ExitStatus,
    /// Everything printed on the console.
    pub stdout: Vec<u8>,
    /// QEMU's own messages.
    pub stderr: String,
}

/// Run an ELF on `qemu-system-riscv32 -machine spike -bios none`, killed after `timeout`.
/// The one place QEMU is started (the difftest campaigns and the ISA suite use it).
pub fn qemu_raw(elf: &[u8], timeout: Duration) -> Result<QemuRun, DiffError> {
    let path = temp_path();
    std::fs::write(&path, elf).map_err(|e| DiffError::Qemu(format!("{}: {e}", path.display())))?;
    let result = run_qemu_file(&path, timeout);
    let _ = std::fs::remove_file(&path);
    result
}

/// Run a dump-printing program on QEMU and parse its dump.
pub fn run_qemu(elf: &[u8], timeout: Duration) -> Result<Dump, DiffError> {
    let run = qemu_raw(elf, timeout)?;
    if !run.status.success() {
        return Err(DiffError::Qemu(format!(
            "exit {}: {}",
            run.status,
            run.stderr.lines().next().unwrap_or("")
        )));
    }
    Dump::parse("qemu", &run.stdout)
}

fn run_qemu_file(path: &std::path::Path, timeout: Duration) -> Result<QemuRun, DiffError> {
    let mut child = Command::new(QEMU)
        .args([
            "-machine",
            "spike",
            "-bios",
            "none",
            "-nographic",
            "-kernel",
        ])
        .arg(path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| DiffError::Qemu(format!("cannot start {QEMU}: {e}")))?;
    let start = Instant::now();
    // The output is small (well under a pipe buffer), so waiting before reading is safe.
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(DiffError::Timeout(timeout));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return Err(DiffError::Qemu(e.to_string())),
        }
    };
    let mut stdout = Vec::new();
    let mut stderr = String::new();
    if let Some(mut s) = child.stdout.take() {
        let _ = s.read_to_end(&mut stdout);
    }
    if let Some(mut s) = child.stderr.take() {
        let _ = s.read_to_string(&mut stderr);
    }
    Ok(QemuRun {
        status,
        stdout,
        stderr,
    })
}

/// The result of comparing one program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Same registers and memory.
    Same,
    /// Both ran; these words differ.
    Differ(Vec<Difference>),
    /// One side (or the build) failed.
    Error(DiffError),
}

impl Verdict {
    /// Anything but `Same`.
    pub fn is_failure(&self) -> bool {
        *self != Verdict::Same
    }
}

/// Build once, run on both, compare.
pub fn check(prog: &TestProgram, timeout: Duration) -> Verdict {
    let elf = match build(prog) {
        Ok(e) => e,
        Err(e) => return Verdict::Error(e),
    };
    let w = match run_weft(&elf) {
        Ok(d) => d,
        Err(e) => return Verdict::Error(e),
    };
    let q = match run_qemu(&elf, timeout) {
        Ok(d) => d,
        Err(e) => return Verdict::Error(e),
    };
    let d = compare(&w, &q);
    if d.is_empty() {
        Verdict::Same
    } else {
        Verdict::Differ(d)
    }
}

/// Bytes of the data region (for documentation and messages).
pub const DATA_BYTES: u32 = DATA_SIZE;

//! Coverage-less mutation fuzzing on stable Rust (cargo-fuzz and cargo-afl need nightly
//! here). Each [`Target`] feeds bytes to one input-facing entry point and checks invariants;
//! [`fuzz`] mutates a seed corpus (the repository's assembly sources, ELFs assembled from
//! them, configuration samples), runs every input under `catch_unwind`, and returns the
//! inputs that panicked. The `weft-fuzz` binary drives it with a time bound and saves
//! crashes to `fuzz/artifacts/`.

use crate::rng::Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::time::{Duration, Instant};
use weft_simt::{Config, Machine, Program, Segment};

/// An entry point under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// `Inst::decode` on every word; decoded words re-encode and re-decode to themselves,
    /// and their text assembles back to the same word.
    Decode,
    /// The RISC-V assembler; an assembled ELF disassembles into text that assembles into the
    /// same loaded memory, and it loads and runs briefly.
    Asm,
    /// The SP v2a assembler; an assembled program also runs briefly on a 1-core array.
    Sp2aAsm,
    /// The disassembler, section appending, `read_elf` + `program_from_elf` +
    /// `Machine::new` + a short run.
    Elf,
    /// `Config::from_toml`.
    Config,
    /// Random bytes as the code of a program, run with a small cycle bound.
    RunBytes,
}

/// Every target.
pub const TARGETS: [Target; 6] = [
    Target::Decode,
    Target::Asm,
    Target::Sp2aAsm,
    Target::Elf,
    Target::Config,
    Target::RunBytes,
];

impl Target {
    /// Name used on the command line and in artifact file names.
    pub fn name(self) -> &'static str {
        match self {
            Target::Decode => "decode",
            Target::Asm => "asm",
            Target::Sp2aAsm => "sp2a-asm",
            Target::Elf => "elf",
            Target::Config => "config",
            Target::RunBytes => "run-bytes",
        }
    }

    /// The target with this name.
    pub fn from_name(s: &str) -> Option<Target> {
        TARGETS.into_iter().find(|t| t.name() == s)
    }

    /// Run one input. Panics (from the code under test or a broken invariant) are the
    /// findings.
    pub fn run(self, data: &[u8]) {
        match self {
            Target::Decode => {
                for w in data.chunks(4) {
                    let mut b = [0u8; 4];
                    b[..w.len()].copy_from_slice(w);
                    check_word(u32::from_le_bytes(b));
                }
            }
            Target::Asm => {
                let src = String::from_utf8_lossy(data);
                if let Ok(elf) = weft_asm::assemble(&src, "fuzz.s") {
                    check_disassembly(&elf);
                    run_elf(&elf);
                }
            }
            Target::Sp2aAsm => {
                let src = String::from_utf8_lossy(data);
                if let Ok(p) = weft_sp2a::assemble(&src, "fuzz.s") {
                    let _ = weft_sp2a::disasm::disassemble(&p);
                    if let Ok(mut a) = weft_sp2a::Array::new(&p, &weft_sp2a::ArrayConfig::default())
                    {
                        let _ = a.run(2_000);
                    }
                }
                let _ = weft_sp2a::Program::from_bytes(data);
            }
            Target::Elf => {
                let _ = weft_asm::disassemble(data);
                let _ = weft_elf::append_section(data, ".weft.reconv", b"x");
                run_elf(data)
            }
            Target::Config => {
                if let Ok(c) = Config::from_toml(&String::from_utf8_lossy(data)) {
                    c.validate().expect("a parsed config validates");
                }
            }
            Target::RunBytes => {
                let lanes = 1 + data.first().map_or(0, |b| b % 8) as usize;
                let prog = Program {
                    entry: weft_simt_dram_base(),
                    segments: vec![Segment {
                        addr: weft_simt_dram_base(),
                        data: data.to_vec(),
                        mem_size: data.len() as u32 + 64,
                        exec: true,
                    }],
                    ..Program::default()
                };
                run_program(&prog, lanes);
            }
        }
    }
}

/// A word that decodes re-encodes to itself, displays, and its text assembles back to it.
fn check_word(w: u32) {
    let Ok(i) = weft_isa::Inst::decode(w) else {
        return;
    };
    let text = i.to_string();
    let e = i.encode().expect("a decoded instruction encodes");
    let again = weft_isa::Inst::decode(e).expect("re-encoding decodes");
    assert_eq!(again, i, "decode(encode(decode({w:#010x})))");
    // (A compressed instruction is 2 bytes: the `.half 0` after it makes the word read.)
    let elf = weft_asm::assemble(&format!("_start: {text}\n .half 0\n"), "word.s")
        .unwrap_or_else(|e| panic!("`{text}` (decoded from {w:#010x}) does not assemble: {e}"));
    let img = weft_elf::read_elf(&elf).expect("the assembler's ELF reads");
    assert_eq!(
        img.read_u32(img.entry),
        Some(e),
        "`{text}` assembles to the word it was decoded from"
    );
}

/// An assembled program disassembles into text that assembles into the same loaded memory
/// (checked for programs that load at most 64 KiB: a `.fill` of millions of words would
/// spend the fuzzing time printing and parsing data).
fn check_disassembly(elf: &[u8]) {
    let small = weft_elf::read_elf(elf)
        .is_ok_and(|img| img.segments.iter().map(|s| s.memsz as u64).sum::<u64>() <= 64 << 10);
    let Some(text) = small.then(|| weft_asm::disassemble(elf).ok()).flatten() else {
        return;
    };
    let again = weft_asm::assemble(&text, "fuzz.dis.s")
        .unwrap_or_else(|e| panic!("the disassembly does not assemble: {e}\n{text}"));
    assert!(
        loaded_memory(elf) == loaded_memory(&again),
        "the disassembly assembles into different memory:\n{text}"
    );
}

/// Every byte an ELF loads, by address (segments capped at 1 MiB).
fn loaded_memory(elf: &[u8]) -> Option<std::collections::BTreeMap<u32, u8>> {
    let img = weft_elf::read_elf(elf).ok()?;
    let mut m = std::collections::BTreeMap::new();
    for s in &img.segments {
        for k in 0..s.memsz.min(1 << 20) {
            m.insert(
                s.vaddr.wrapping_add(k),
                s.data.get(k as usize).copied().unwrap_or(0),
            );
        }
    }
    Some(m)
}

fn weft_simt_dram_base() -> u32 {
    0x8000_0000
}

fn run_elf(elf: &[u8]) {
    if let Ok((prog, _)) = weft_simt::load::program_from_elf(elf) {
        run_program(&prog, 4);
    }
}

fn run_program(prog: &Program, lanes: usize) {
    let cfg = Config {
        warps: 2,
        lanes,
        max_cycles: 3_000,
        dram_size: 1 << 20,
        ..Config::default()
    };
    if let Ok(mut m) = Machine::new(cfg, prog) {
        let _ = m.run();
    }
}

/// Seed inputs for a target from the repository at `root`.
pub fn seeds(t: Target, root: &Path) -> Vec<Vec<u8>> {
    let read_dir = |d: &str, ext: &str| -> Vec<Vec<u8>> {
        let mut v: Vec<_> = std::fs::read_dir(root.join(d))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == ext))
            .collect();
        v.sort();
        v.iter().filter_map(|p| std::fs::read(p).ok()).collect()
    };
    let rv_src = || {
        let mut v = read_dir("tests/kernels", "s");
        v.extend(read_dir("tests/asm", "s"));
        v.extend(read_dir("examples", "s"));
        v.extend(read_dir("tests/bad_input", "s"));
        v
    };
    let elfs = || -> Vec<Vec<u8>> {
        let mut v: Vec<Vec<u8>> = rv_src()
            .iter()
            .filter_map(|s| weft_asm::assemble(&String::from_utf8_lossy(s), "seed.s").ok())
            .collect();
        v.extend(read_dir("tests/bad_input", "elf"));
        v
    };
    let mut out = match t {
        Target::Asm => rv_src(),
        Target::Sp2aAsm => read_dir("examples/sp2a", "s"),
        Target::Elf => elfs(),
        Target::Decode | Target::RunBytes => elfs()
            .iter()
            .filter_map(|e| weft_elf::read_elf(e).ok())
            .flat_map(|img| img.segments.into_iter().filter(|s| s.flags.may_execute()))
            .map(|s| s.data)
            .collect(),
        Target::Config => {
            let mut v: Vec<Vec<u8>> = CONFIG_SEEDS.iter().map(|s| s.as_bytes().to_vec()).collect();
            v.extend(read_dir("tests/bad_input", "toml"));
            v
        }
    };
    if out.is_empty() {
        out.push(Vec::new());
    }
    out
}

const CONFIG_SEEDS: &[&str] = &[
    "cores = 2\nwarps = 4\nlanes = 8\nreconv = \"table\"\n",
    "lanes = 32\nstack_depth = 16\nreconv = \"converge\"\nmax_cycles = 1000\n",
    "dram_size = 65536\nlocal_mem_size = 1024\nlocal_mem_base = 0xff000000\nbarriers = 4\n",
    "[display]\ncycles_per_line = 800\nlines_per_frame = 525\nvisible_lines = 480\n",
    "reconv = \"follow-last\"\nwarps = 32\n",
];

const TOKENS: &[&str] = &[
    "\n",
    " ",
    ",",
    ":",
    "(",
    ")",
    "%hi(",
    "%lo(",
    ".word ",
    ".space ",
    ".align ",
    ".org ",
    ".fill ",
    ".equ ",
    ".section ",
    ".data\n",
    ".text\n",
    ".globl ",
    "0x",
    "-",
    "0xffffffff",
    "2147483648",
    "-2147483649",
    "x0",
    "x31",
    "f31",
    "a0",
    "sp",
    "li ",
    "la ",
    "call ",
    "j ",
    "beq ",
    "converge ",
    "diverge ",
    "csrw ",
    "tmask",
    "warp_active",
    "1b",
    "1f",
    ".L",
    "lr.w ",
    "sc.w ",
    "fmadd.s ",
    "rtz",
    "\"",
    "'",
    "#",
    ";",
    "=",
    "[",
    "]",
    "{",
    "}",
    "\u{0}",
    "\u{feff}",
    "é",
    "LI ",
    "CALL ",
    "PUSH ",
    "FNSETUP ",
    "%F",
    "%G",
    "%H",
    "@",
    ".align 12",
    ".zero 100",
    "la a0, x",
    "x:",
    "/*",
    "*/",
    ".section .x, \"awx\"",
    "%pcrel_lo(",
    "zero",
    "ft0",
];

/// Mutate `buf` in place (1–4 edits: byte flips, inserts, deletes, tokens, splices).
pub fn mutate(r: &mut Rng, buf: &mut Vec<u8>, corpus: &[Vec<u8>]) {
    for _ in 0..r.range(1, 4) {
        let len = buf.len() as u32;
        let at = r.below(len + 1) as usize;
        match r.below(8) {
            0 if !buf.is_empty() => {
                let i = r.below(len) as usize;
                buf[i] ^= 1 << r.below(8);
            }
            1 if !buf.is_empty() => {
                let i = r.below(len) as usize;
                buf[i] = r.u32() as u8;
            }
            2 => buf.insert(at, r.u32() as u8),
            3 if !buf.is_empty() => {
                let n = (r.below(16) as usize).min(buf.len() - at.min(buf.len()));
                buf.drain(at.min(buf.len())..at.min(buf.len()) + n);
            }
            4 => {
                let t = r.pick(TOKENS).as_bytes();
                buf.splice(at..at, t.iter().copied());
            }
            5 if !corpus.is_empty() => {
                let other = r.pick(corpus);
                if !other.is_empty() {
                    let s = r.below(other.len() as u32) as usize;
                    let e = (s + r.below(64) as usize + 1).min(other.len());
                    buf.splice(at..at, other[s..e].iter().copied());
                }
            }
            6 if buf.len() >= 4 => {
                // An interesting word at an aligned spot (ELF fields, instruction words).
                let i = (r.below(len / 4) * 4) as usize;
                let w: u32 = *r.pick(&[0, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0xffff, 52]);
                buf[i..i + 4].copy_from_slice(&w.to_le_bytes());
            }
            _ => {
                if buf.len() > 1 {
                    let cut = r.below(len) as usize;
                    buf.truncate(cut.max(1));
                }
            }
        }
    }
    buf.truncate(64 << 10);
}

/// What a fuzzing session did.
#[derive(Debug, Default)]
pub struct FuzzReport {
    /// Inputs run.
    pub execs: u64,
    /// Inputs that panicked, with the panic message.
    pub crashes: Vec<(Vec<u8>, String)>,
    /// Wall time.
    pub elapsed: Duration,
}

/// Run one input, catching a panic; `Err` holds its message.
pub fn run_caught(t: Target, data: &[u8]) -> Result<(), String> {
    catch_unwind(AssertUnwindSafe(|| t.run(data))).map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "non-string panic".into())
    })
}

/// Fuzz `t` from `corpus` until `budget` runs out or `max_execs` inputs ran. Install a quiet
/// panic hook first (see the binary) if panic messages on stderr are unwanted.
pub fn fuzz(
    t: Target,
    corpus: &[Vec<u8>],
    seed: u64,
    budget: Duration,
    max_execs: u64,
) -> FuzzReport {
    let mut r = Rng::new(seed);
    let start = Instant::now();
    let mut rep = FuzzReport::default();
    while rep.execs < max_execs && start.elapsed() < budget {
        let mut input = if corpus.is_empty() {
            Vec::new()
        } else {
            r.pick(corpus).clone()
        };
        // Seeds themselves first, then mutants.
        if rep.execs >= corpus.len() as u64 {
            mutate(&mut r, &mut input, corpus);
        } else {
            input = corpus[rep.execs as usize].clone();
        }
        if let Err(msg) = run_caught(t, &input) {
            if !rep.crashes.iter().any(|(_, m)| *m == msg) {
                rep.crashes.push((input, msg));
            }
        }
        rep.execs += 1;
    }
    rep.elapsed = start.elapsed();
    rep
}

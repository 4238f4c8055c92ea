//! A stable-Rust fuzzer for the decoder, the assembler, the disassembler and the ELF reader:
//! a mutation loop seeded from `tests/asm/*.s` that runs for a fixed time and checks
//! invariants, not only "no panic":
//!
//! - decoder: every word that decodes re-encodes to itself, and its text assembles to it;
//! - assembler: mutated programs never panic; whatever assembles disassembles into text that
//!   assembles into the same loaded memory;
//! - ELF reader / disassembler: mutated and truncated executables never panic.
//!
//! `cargo run --release -p weft-asm --example fuzz -- --seconds 30 [--seed N] [--out DIR]`
//! Failing inputs are written to DIR (default `target/fuzz-failures`); exit status 1 if any.

use std::collections::BTreeMap;
use std::panic;
use std::time::{Duration, Instant};
use weft_isa::Inst;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn memory(elf: &[u8]) -> Option<BTreeMap<u32, u8>> {
    let img = weft_elf::read_elf(elf).ok()?;
    let mut m = BTreeMap::new();
    for s in &img.segments {
        for k in 0..s.memsz.min(1 << 20) {
            m.insert(s.vaddr + k, s.data.get(k as usize).copied().unwrap_or(0));
        }
    }
    Some(m)
}

const TOKENS: &[&str] = &[
    " ",
    "\n",
    ",",
    "(",
    ")",
    ":",
    "0x",
    "-",
    "1b",
    "1f",
    "%hi(",
    "%lo(",
    "%pcrel_lo(",
    ".",
    "a0",
    "zero",
    "ft0",
    ".word ",
    ".align 12",
    ".zero 100",
    "la a0, x",
    "x:",
    "#",
    "/*",
    "*/",
    "\"",
    "'",
    ".section .x, \"awx\"",
    "li a0, ",
    "0xffffffff",
    "2147483648",
    "converge ",
];

fn mutate_text(rng: &mut Rng, seeds: &[String]) -> String {
    let mut s: Vec<char> = seeds[rng.below(seeds.len())].chars().collect();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(s.len() + 1);
        match rng.below(5) {
            0 if !s.is_empty() => {
                let end = (at + rng.below(12)).min(s.len());
                s.drain(at.min(end)..end);
            }
            1 => {
                let t = TOKENS[rng.below(TOKENS.len())];
                s.splice(at..at, t.chars());
            }
            2 if !s.is_empty() => {
                let i = rng.below(s.len());
                s[i] = (32 + rng.below(95) as u8) as char;
            }
            3 => {
                // Splice a line from another seed.
                let other = &seeds[rng.below(seeds.len())];
                let lines: Vec<&str> = other.lines().collect();
                if !lines.is_empty() {
                    let l = lines[rng.below(lines.len())];
                    s.splice(at..at, format!("\n{l}\n").chars());
                }
            }
            _ => {
                let d = rng.below(10).to_string();
                s.splice(at..at, d.chars());
            }
        }
    }
    s.into_iter().collect()
}

#[derive(Default)]
struct Stats {
    words: u64,
    texts: u64,
    assembled: u64,
    elves: u64,
    failures: u64,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let seconds: u64 = arg("--seconds").and_then(|s| s.parse().ok()).unwrap_or(10);
    let seed: u64 = arg("--seed")
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_cafe);
    let out = arg("--out").unwrap_or_else(|| "target/fuzz-failures".into());
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/asm");
    let mut seeds: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .filter(|e| e.path().extension().is_some_and(|x| x == "s"))
                .filter_map(|e| std::fs::read_to_string(e.path()).ok())
                .collect()
        })
        .unwrap_or_default();
    if seeds.is_empty() {
        seeds.push("_start: li a0, 1\n j _start\n.data\nx: .word 1\n".into());
    }
    let elves: Vec<Vec<u8>> = seeds
        .iter()
        .filter_map(|s| weft_asm::assemble(s, "seed.s").ok())
        .collect();
    panic::set_hook(Box::new(|_| {}));
    let mut rng = Rng(seed | 1);
    let mut st = Stats::default();
    let start = Instant::now();
    let deadline = Duration::from_secs(seconds);
    let fail = |what: &str, data: &[u8], st: &mut Stats| {
        st.failures += 1;
        let _ = std::fs::create_dir_all(&out);
        let path = format!("{out}/{what}-{}.bin", st.failures);
        let _ = std::fs::write(&path, data);
        eprintln!("FAILURE ({what}): saved {path}");
    };
    while start.elapsed() < deadline {
        // Decoder: 256 random words.
        for _ in 0..256 {
            let w = rng.next() as u32 | 3;
            st.words += 1;
            let ok = panic::catch_unwind(|| {
                let Ok(i) = Inst::decode(w) else { return true };
                if i.encode() != Ok(w) {
                    return false;
                }
                let src = format!("_start: {i}\n");
                match weft_asm::assemble(&src, "w.s") {
                    Ok(elf) => {
                        weft_elf::read_elf(&elf)
                            .ok()
                            .and_then(|img| img.read_u32(img.entry))
                            == Some(w)
                    }
                    Err(_) => false,
                }
            });
            if !matches!(ok, Ok(true)) {
                fail("decode", &w.to_le_bytes(), &mut st);
            }
        }
        // Assembler: a mutated program.
        let text = mutate_text(&mut rng, &seeds);
        st.texts += 1;
        let r = panic::catch_unwind(|| match weft_asm::assemble(&text, "m.s") {
            Err(_) => Ok(false),
            Ok(elf) => {
                let dis = weft_asm::disassemble(&elf).map_err(|_| ())?;
                let again = weft_asm::assemble(&dis, "m.dis.s").map_err(|_| ())?;
                if memory(&elf) == memory(&again) {
                    Ok(true)
                } else {
                    Err(())
                }
            }
        });
        match r {
            Ok(Ok(true)) => st.assembled += 1,
            Ok(Ok(false)) => {}
            _ => fail("asm", text.as_bytes(), &mut st),
        }
        // ELF reader and disassembler: a mutated or truncated executable.
        if !elves.is_empty() {
            let mut e = elves[rng.below(elves.len())].clone();
            if rng.below(4) == 0 {
                e.truncate(rng.below(e.len()));
            } else {
                for _ in 0..1 + rng.below(6) {
                    let i = rng.below(e.len());
                    e[i] = rng.next() as u8;
                }
            }
            st.elves += 1;
            if panic::catch_unwind(|| {
                let _ = weft_asm::disassemble(&e);
                let _ = weft_elf::append_section(&e, ".weft.reconv", b"x");
            })
            .is_err()
            {
                fail("elf", &e, &mut st);
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "fuzz: {secs:.1} s; {} words ({:.0}/s), {} programs ({:.0}/s, {} assembled and round-tripped), {} executables ({:.0}/s); {} failures",
        st.words,
        st.words as f64 / secs,
        st.texts,
        st.texts as f64 / secs,
        st.assembled,
        st.elves,
        st.elves as f64 / secs,
        st.failures
    );
    std::process::exit(if st.failures > 0 { 1 } else { 0 });
}

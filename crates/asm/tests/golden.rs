//! Golden encodings: (word, text) for every row of the instruction table, several operand
//! variants each, plus pseudo-instructions — checked in both directions against
//! `tests/golden/encodings.txt`, whose words come from GNU binutils (an independent
//! assembler). `WEFT_BLESS=1 cargo test -p weft-asm --test golden` regenerates the file
//! with `riscv64-unknown-elf-as` (see `tests/golden/regen.sh`); without binutils the
//! committed file is the reference.

use std::fmt::Write;
use weft_isa::{Class, Inst, Op, TABLE};

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/encodings.txt");

/// Deterministic variants of every row: free bits all zero, all one, and pseudo-random.
fn variants() -> Vec<Inst> {
    let mut out = Vec::new();
    let mut seed: u32 = 0x2545_f491;
    for e in TABLE {
        let mut words = vec![e.matches, e.matches | !e.mask];
        for _ in 0..8 {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            words.push(e.matches | (seed & !e.mask));
        }
        let mut n = 0;
        for w in words {
            if let Ok(i) = Inst::decode(w) {
                if i.op == e.op && !out.contains(&i) {
                    out.push(i);
                    n += 1;
                }
            }
            if n >= 6 {
                break;
            }
        }
    }
    out
}

/// Pseudo-instructions and alternative spellings → the canonical real instruction(s).
const PSEUDO: &[&str] = &[
    "nop",
    "li a0, 0",
    "li a0, -2048",
    "li a0, 2047",
    "li a0, 2048",
    "li a0, 0x12345678",
    "li a0, -1",
    "li a0, 0x80000000",
    "li a0, 0xfffff800",
    "li t1, 0x7ffff800",
    "li s2, 0x1000",
    "mv a0, a1",
    "not a0, a1",
    "neg a0, a1",
    "seqz a0, a1",
    "snez a0, a1",
    "sltz a0, a1",
    "sgtz a0, a1",
    "beqz a0, .+16",
    "bnez a0, .-16",
    "blez a0, .+8",
    "bgez a0, .+8",
    "bltz a0, .+8",
    "bgtz a0, .+8",
    "bgt a0, a1, .+8",
    "ble a0, a1, .+8",
    "bgtu a0, a1, .+8",
    "bleu a0, a1, .+8",
    "j .+64",
    "j .-2048",
    "jal .+64",
    "jr a0",
    "jalr a0",
    "ret",
    "csrr a0, mscratch",
    "csrw mscratch, a0",
    "csrs mstatus, a0",
    "csrc mstatus, a0",
    "csrwi mscratch, 5",
    "csrsi mstatus, 8",
    "csrci mstatus, 8",
    "rdcycle a0",
    "rdcycleh a0",
    "rdinstret a0",
    "rdinstreth a0",
    "frcsr a0",
    "fscsr a0",
    "fscsr a0, a1",
    "frrm a0",
    "fsrm a0",
    "frflags a0",
    "fsflags a0",
    "fmv.s fa0, fa1",
    "fabs.s fa0, fa1",
    "fneg.s fa0, fa1",
    "fence",
    "fmv.x.s a0, fa0",
    "fmv.s.x fa0, a0",
    "unimp",
    "lw a0, 8(a1)",
    "lw a0, (a1)",
    "sw a0, -4(sp)",
    "jalr ra, a0, 12",
    "addi x10, x11, 0x10",
    "add s0, fp, x8",
    "fadd.s f1, f2, f3, dyn",
];

/// The same instruction as GNU as spells it (CSR numbers, `.insn` for custom opcodes).
fn gnu_text(i: &Inst) -> String {
    let e = i.op.entry();
    if e.matches & 0x7f == weft_isa::table::OP_CUSTOM2 {
        return format!(
            ".insn b 0x5b, {}, x{}, x0, .{:+}",
            (e.matches >> 12) & 7,
            i.rs1,
            i.imm
        );
    }
    if e.matches & 0x7f == weft_isa::table::OP_CUSTOM1 {
        return format!(
            ".insn r4 0x2b, {}, {}, x{}, x{}, x{}, x{}",
            (e.matches >> 12) & 7,
            i.imm,
            i.rd,
            i.rs1,
            i.rs2,
            i.rs3
        );
    }
    if e.matches & 0x7f == weft_isa::table::OP_CUSTOM0 {
        let w = i.encode().unwrap();
        // The register fields straight from the word: some rows fix them (`wmma.sp`'s rs2).
        return format!(
            ".insn r 0x0b, {}, {}, x{}, x{}, x{}",
            (w >> 12) & 7,
            w >> 25,
            (w >> 7) & 31,
            (w >> 15) & 31,
            (w >> 20) & 31
        );
    }
    if i.op == Op::Fence && (i.imm & 0xf == 0 || i.imm >> 4 == 0) {
        return format!(".insn i 0x0f, 0, x0, x0, {}", i.imm);
    }
    if e.class == Class::Csr {
        let text = i.text(None);
        let ops: Vec<&str> = text.split_once(' ').unwrap().1.split(", ").collect();
        return format!("{} {}, {:#x}, {}", e.name, ops[0], i.imm, ops[2]);
    }
    i.text(None)
}

fn assemble_words(text: &str) -> Result<Vec<u32>, String> {
    let src = format!("_start:\n    {text}\n");
    let elf = weft_asm::assemble(&src, "golden.s").map_err(|e| e.to_string())?;
    let img = weft_elf::read_elf(&elf).map_err(|e| e.to_string())?;
    let seg = &img.segments[0];
    Ok(seg
        .data
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect())
}

fn bless() {
    let gas = "/usr/bin/riscv64-unknown-elf-as";
    let objcopy = "/usr/bin/riscv64-unknown-elf-objcopy";
    let dir = std::env::temp_dir().join(format!("weft-golden-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let insts = variants();
    let mut lines: Vec<(String, String)> =
        insts.iter().map(|i| (i.text(None), gnu_text(i))).collect();
    for p in PSEUDO {
        let gnu = p
            .replace("fmv.x.s", "fmv.x.w")
            .replace("fmv.s.x", "fmv.w.x");
        lines.push((format!("pseudo {p}"), gnu));
    }
    // One GNU source per line, so each line's words are known exactly.
    let mut src = String::from(".option norvc\n");
    for (k, (_, gnu)) in lines.iter().enumerate() {
        let _ = writeln!(src, "L{k}:\n    {gnu}");
    }
    let _ = writeln!(src, "L{}:", lines.len());
    let s = dir.join("g.s");
    std::fs::write(&s, &src).unwrap();
    let o = dir.join("g.o");
    let st = std::process::Command::new(gas)
        .args([
            "-march=rv32imaf_zicsr_zifencei",
            "-mabi=ilp32f",
            "-mno-relax",
        ])
        .arg(&s)
        .arg("-o")
        .arg(&o)
        .status()
        .unwrap();
    assert!(st.success(), "GNU as failed on {}", s.display());
    let bin = dir.join("g.bin");
    let st = std::process::Command::new(objcopy)
        .args(["-O", "binary", "-j", ".text"])
        .arg(&o)
        .arg(&bin)
        .status()
        .unwrap();
    assert!(st.success());
    let bytes = std::fs::read(&bin).unwrap();
    let words: Vec<u32> = bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    // Word counts per line: one for a real instruction; pseudos from weft's own expansion
    // length, cross-checked by the total.
    let mut out = String::from(
        "# Golden encodings: words from GNU binutils (riscv64-unknown-elf-as), text is weft's\n\
         # canonical syntax. Regenerate: WEFT_BLESS=1 cargo test -p weft-asm --test golden\n",
    );
    let mut at = 0;
    for (text, _) in &lines {
        let n = match text.strip_prefix("pseudo ") {
            Some(p) => assemble_words(p).map(|w| w.len()).unwrap_or(1),
            None => 1,
        };
        let ws: Vec<String> = words[at..at + n]
            .iter()
            .map(|w| format!("{w:08x}"))
            .collect();
        at += n;
        let _ = writeln!(out, "{}  {text}", ws.join(" "));
    }
    assert_eq!(at, words.len(), "word count mismatch with GNU output");
    std::fs::write(GOLDEN, out).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn golden_encodings() {
    if std::env::var("WEFT_BLESS").is_ok_and(|v| v == "1") {
        bless();
    }
    let golden = std::fs::read_to_string(GOLDEN).expect("golden file (run with WEFT_BLESS=1)");
    let mut failures = Vec::new();
    let mut rows_seen = std::collections::HashSet::new();
    let mut count = 0;
    for line in golden
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (words, text) = line.split_once("  ").unwrap();
        let words: Vec<u32> = words
            .split(' ')
            .map(|w| u32::from_str_radix(w, 16).unwrap())
            .collect();
        count += 1;
        if let Some(p) = text.strip_prefix("pseudo ") {
            match assemble_words(p) {
                Ok(w) if w == words => {}
                other => failures.push(format!("{p}: expected {words:08x?}, got {other:08x?}")),
            }
            continue;
        }
        let w = words[0];
        // bits → instruction → text
        match Inst::decode(w) {
            Ok(i) => {
                rows_seen.insert(i.op);
                if i.text(None) != text {
                    failures.push(format!("{w:08x}: displays as `{}`, want `{text}`", i));
                }
                if i.encode() != Ok(w) {
                    failures.push(format!("{w:08x}: re-encodes as {:08x?}", i.encode()));
                }
            }
            Err(e) => failures.push(format!("{w:08x}: does not decode: {e}")),
        }
        // text → bits (through the assembler)
        match assemble_words(text) {
            Ok(ws) if ws == [w] => {}
            other => failures.push(format!(
                "`{text}`: expected {w:08x}, assembled {other:08x?}"
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} golden lines fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    for e in TABLE {
        assert!(rows_seen.contains(&e.op), "no golden line for `{}`", e.name);
    }
}

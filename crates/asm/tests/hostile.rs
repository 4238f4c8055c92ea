//! Hostile input for the assembler: every directive and a set of instructions with wrong,
//! huge, empty and deeply nested operands, and expressions nested or chained far beyond any
//! real program. Nothing may panic or overflow the stack; every rejection is one or more
//! `file:line:column: error: message` lines.

use std::panic::{catch_unwind, AssertUnwindSafe};

const DIRECTIVES: &[&str] = &[
    ".2byte",
    ".4byte",
    ".8byte",
    ".addrsig",
    ".addrsig_sym",
    ".align",
    ".ascii",
    ".asciz",
    ".attribute",
    ".balign",
    ".base",
    ".bss",
    ".byte",
    ".cfi_startproc",
    ".data",
    ".double",
    ".dword",
    ".entry",
    ".equ",
    ".equiv",
    ".file",
    ".fill",
    ".float",
    ".global",
    ".globl",
    ".half",
    ".ident",
    ".insn",
    ".int",
    ".loc",
    ".local",
    ".long",
    ".option",
    ".org",
    ".p2align",
    ".previous",
    ".quad",
    ".rodata",
    ".section",
    ".set",
    ".short",
    ".single",
    ".size",
    ".skip",
    ".space",
    ".string",
    ".text",
    ".type",
    ".weak",
    ".word",
    ".zero",
];

const MNEMONICS: &[&str] = &[
    "addi", "lw", "sw", "beq", "jal", "jalr", "lui", "csrrw", "fmadd.s", "lr.w", "amoadd.w", "li",
    "la", "call", "converge", "diverge", "vx_split", "fence",
];

fn operands() -> Vec<String> {
    let deep_parens = format!("{}1{}", "(".repeat(5000), ")".repeat(5000));
    let deep_unary = format!("{}1", "-".repeat(100_000));
    let long_chain = vec!["1"; 50_000].join("+");
    let long_name = "x".repeat(100_000);
    let mut v: Vec<String> = [
        "",
        "x",
        "\"s\"",
        "\"unterminated",
        "1, 2, 3, 4, 5, 6, 7, 8",
        "-1",
        "0x7fffffff",
        "0xffffffffffffffffffff",
        "1 << 63",
        "1 << 64",
        "1 >> -1",
        "1 / 0",
        "1 % 0",
        "(((((",
        ")",
        "%hi(",
        "%lo(x",
        "%pcrel_lo(1)",
        "undefined_symbol",
        ".",
        ". - 4",
        "a0, a1",
        "a0, 0(a1)",
        "a0, 0x7fffffff(a1)",
        "x99, x0, 1",
        "f0, f1, f2, f3, xyz",
        "@function",
        ".text, \"axw\", @progbits",
        "0x7fffffff, 8, 1",
        "1, 0x7fffffff",
        "'",
        "'ab'",
        "\\",
        "é",
        "\u{0}",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.extend([deep_parens, deep_unary, long_chain, long_name]);
    v
}

/// Assemble `src`: no panic, and on failure every line of the report says where and why.
fn check(src: &str) {
    let r = catch_unwind(AssertUnwindSafe(|| weft_asm::assemble(src, "h.s")));
    let r =
        r.unwrap_or_else(|_| panic!("the assembler panicked on:\n{}", &src[..src.len().min(300)]));
    if let Err(e) = r {
        for line in e.to_string().lines() {
            assert!(
                line.starts_with("h.s:") && line.contains(": error: "),
                "not a located error: {line}\nfor:\n{}",
                &src[..src.len().min(300)]
            );
        }
    }
}

#[test]
fn every_directive_with_hostile_operands() {
    let ops = operands();
    for d in DIRECTIVES {
        for o in &ops {
            check(&format!("_start: nop\n{d} {o}\n"));
            check(&format!(".data\nx: .word 1\n{d} {o}\n.text\n_start: nop\n"));
        }
    }
}

#[test]
fn instructions_with_hostile_operands() {
    let ops = operands();
    for m in MNEMONICS {
        for o in &ops {
            check(&format!("_start: {m} {o}\n"));
        }
    }
}

#[test]
fn nesting_and_size_limits_are_errors() {
    // Up to about a thousand levels (parentheses, unary operators, chained operators) are
    // accepted; beyond, one located error.
    for (depth, fits) in [(900usize, true), (1100, false), (100_000, false)] {
        let src = format!(
            "_start: addi a0, a0, {}0{}\n",
            "(".repeat(depth),
            ")".repeat(depth)
        );
        assert_eq!(
            weft_asm::assemble(&src, "h.s").is_ok(),
            fits,
            "parentheses {depth}"
        );
        let src = format!("_start: addi a0, a0, {}1\n", "-".repeat(depth));
        assert_eq!(
            weft_asm::assemble(&src, "h.s").is_ok(),
            fits,
            "minus signs {depth}"
        );
        let src = format!("_start: .word {}\n", vec!["1"; depth].join("+"));
        assert_eq!(
            weft_asm::assemble(&src, "h.s").is_ok(),
            fits,
            "chain {depth}"
        );
        let e = weft_asm::assemble(&src, "h.s").err().map(|e| e.to_string());
        if let Some(e) = e {
            assert_eq!(e.lines().count(), 1, "{e}");
            assert!(e.contains("nested too deeply or too long"), "{e}");
        }
    }
    // Many lines, many labels, a huge line: slow inputs must still end.
    let many: String = (0..20_000)
        .map(|i| format!("l{i}: addi a0, a0, {i}\n"))
        .collect();
    check(&format!("_start:\n{many}"));
    check(&format!("_start: .word {}\n", "1+".repeat(200_000) + "1"));
}

//! Error reporting: each kind of mistake gives `file:line:column: error: …` at the right
//! place, several errors come out of one run, and no input makes the assembler, the ELF
//! reader or the disassembler panic.

use proptest::prelude::*;
use weft_asm::{assemble, disassemble, AsmErrorKind};

fn errors(src: &str) -> Vec<String> {
    match assemble(src, "t.s") {
        Ok(_) => panic!("accepted:\n{src}"),
        Err(e) => e.0.iter().map(|e| e.to_string()).collect(),
    }
}

fn one(src: &str, want: &str) {
    let e = errors(src);
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0], want);
}

#[test]
fn each_error_kind_has_its_place_and_message() {
    one(
        "  addx a0, a1, a2\n",
        "t.s:1:3: error: unknown instruction `addx`",
    );
    one(
        "nop\n  c.ld a0, 0(a1)\n",
        "t.s:2:3: error: unknown instruction `c.ld` (not an RV32C or RV32FC instruction)",
    );
    one("  .wurd 1\n", "t.s:1:3: error: unknown directive `.wurd`");
    one(
        "  add a0, a1\n",
        "t.s:1:13: error: `add` takes rd, rs1, rs2, found 2 operand(s)",
    );
    one(
        "  add a0, a1, q7\n",
        "t.s:1:15: error: expected an integer register, found `q7`",
    );
    one(
        "  fadd.s fa0, a1, fa2\n",
        "t.s:1:15: error: expected a floating-point register, found `a1`",
    );
    one(
        "  j nowhere\n",
        "t.s:1:5: error: undefined symbol `nowhere`",
    );
    one(
        "x: nop\nx: nop\n",
        "t.s:2:1: error: symbol `x` is already defined",
    );
    one(
        "  addi a0, a0, 5000\n",
        "t.s:1:16: error: immediate 5000 out of range (-2048..=2047)",
    );
    one(
        "  slli a0, a0, 32\n",
        "t.s:1:16: error: shift amount 32 out of range (0..=31)",
    );
    one(
        "  beq a0, a1, far\n  .zero 8192\nfar: nop\n",
        "t.s:1:15: error: branch offset 8196 out of range (-4096..=4094)",
    );
    one(
        "  .byte 300\n",
        "t.s:1:9: error: value 300 does not fit in 1 byte(s) (-128..=255)",
    );
    one(
        "  .zero later\nlater:\n",
        "t.s:1:9: error: the size must be a constant known at this point",
    );
    one("  .ascii \"abc\n", "t.s:1:10: error: unterminated string");
    one(
        "  nop /* never closed\n",
        "t.s:1:7: error: unterminated `/*` comment",
    );
    let e = errors("  li a0, 1 ` 2\n");
    assert_eq!(e[0], "t.s:1:12: error: unexpected character ```");
    one(
        "  addi a0, a0, (1 + \n",
        "t.s:1:19: error: expected an expression, found end of line",
    );
    one("  li a0, 1/0\n", "t.s:1:11: error: division by zero");
    one(
        "  lw a0, 4(a1\n",
        "t.s:1:11: error: expected end of operand, found `(`",
    );
    one(
        "  csrr a0, not_a_csr\n",
        "t.s:1:12: error: undefined symbol `not_a_csr`",
    );
    one(
        "  fadd.s fa0, fa1, fa2, rxx\n",
        "t.s:1:25: error: expected a rounding mode (rne, rtz, rdn, rup, rmm, dyn), found `rxx`",
    );
    one(
        "  .option rvd\n",
        "t.s:1:11: error: expected rvc, norvc, push, pop, relax, norelax, pic, nopic or arch, found `rvd`",
    );
    one(
        "  .bss\n  .word 1\n",
        "t.s:2:9: error: section `.bss` holds no data: only zeros (.zero/.space/.skip) may go there",
    );
    one(
        "  .byte 1\n  nop\n",
        "t.s:2:3: error: instruction at an odd address (add `.align 1`)",
    );
    one(
        "  addi a0, %pcrel_lo(x)\nx: nop\n",
        "t.s:1:24: error: `addi` takes rd, rs1, imm, found 2 operand(s)",
    );
    one(
        "  sw a0, sym\nsym: .word 0\n",
        "t.s:1:13: error: `sw` takes rs, symbol, rt (a temporary register for the address), found 2 operand(s)",
    );
    one(
        "  1b: nop\n",
        "t.s:1:3: error: expected an instruction, directive or label, found `1b`",
    );
}

#[test]
fn several_errors_in_one_run() {
    let src = "start:\n  addx a0\n  nop\n  add a0, a1, 99\n  .wurd\n  j missing\n  li a0, 1\n";
    let e = errors(src);
    assert_eq!(e.len(), 4, "{e:#?}");
    assert!(e[0].starts_with("t.s:2:3:"), "{}", e[0]);
    assert!(e[1].starts_with("t.s:4:15:"), "{}", e[1]);
    assert!(e[2].starts_with("t.s:5:3:"), "{}", e[2]);
    assert!(e[3].starts_with("t.s:6:5:"), "{}", e[3]);
}

#[test]
fn error_kinds_are_typed() {
    let e = assemble("  frob\n", "k.s").unwrap_err();
    assert!(matches!(e.0[0].kind, AsmErrorKind::UnknownMnemonic { .. }));
    assert_eq!((e.0[0].span.line, e.0[0].span.col), (1, 3));
    assert_eq!(e.0[0].file, "k.s");
}

#[test]
fn bad_elves_are_errors() {
    assert!(disassemble(&[]).is_err());
    assert!(disassemble(b"\x7fELF\x02\x01\x01").is_err());
    let good = assemble("_start: nop\n", "g.s").unwrap();
    for n in 0..good.len() {
        let _ = disassemble(&good[..n]);
    }
}

/// Fragments of valid and invalid assembly, for the random-program strategy.
const PIECES: &[&str] = &[
    "nop",
    "li a0, 0x12345678",
    "la a1, x",
    "x:",
    "1:",
    "j 1b",
    "j 1f",
    "beqz a0, x",
    ".word x",
    ".data",
    ".text",
    ".bss",
    ".zero 4",
    ".align 3",
    ".byte 1, 2",
    ".asciz \"s\"",
    "call x",
    "addi a0, a0, -1",
    "lw a0, 4(sp)",
    "sw a0, x, t0",
    "%hi(x)",
    "%lo(",
    "(",
    ")",
    ",",
    "#",
    "/*",
    "*/",
    ";",
    "\"",
    "'",
    ".equ K, 3",
    "K",
    ".section .foo, \"aw\"",
    "converge x",
    "diverge a0, x",
    "tmc a0",
    "fadd.s fa0, fa1, fa2, rtz",
    "csrr a0, thread_id",
    ".org 8",
    ".insn r 0x33, 0, 0, a0, a1, a2",
    ".p2align 2",
    ".base 0x80001000",
    ".entry x",
    "1b",
    "99",
    "0x",
    "<<",
    ">>",
    ".float 1.5",
    "auipc a0, %pcrel_hi(x)",
    "addi a0, a0, %pcrel_lo(1b)",
    ".size x, . - x",
    ".type x, @function",
    ".globl x",
    "\n",
    "\n",
    " ",
    "-",
    "~",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, .. ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(s in "\\PC{0,200}") {
        let _ = assemble(&s, "r.s");
    }

    #[test]
    fn random_programs_never_panic_and_round_trip(
        picks in proptest::collection::vec(0..PIECES.len(), 0..40),
        seps in proptest::collection::vec(0..3usize, 40),
    ) {
        let mut src = String::new();
        for (k, p) in picks.iter().enumerate() {
            src.push_str(PIECES[*p]);
            src.push_str(["\n", " ", "\n  "][seps[k]]);
        }
        if let Ok(elf) = assemble(&src, "p.s") {
            // Whatever assembles must disassemble into the same memory.
            let text = disassemble(&elf).expect("own output disassembles");
            let again = assemble(&text, "p.dis.s");
            prop_assert!(again.is_ok(), "disassembly rejected: {:?}\n{}", again.err().map(|e| e.to_string()), src);
        }
    }

    #[test]
    fn random_bytes_never_panic_the_disassembler(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = disassemble(&bytes);
    }
}

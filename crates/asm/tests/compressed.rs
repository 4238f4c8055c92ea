//! Compressed instructions in the assembler and the disassembler: every halfword that
//! decodes, printed as text, assembles back to itself (and sets the ELF's RVC flag);
//! operands a compressed form cannot hold are errors naming the line; and a program mixing
//! 2- and 4-byte instructions disassembles with the right addresses into text that
//! assembles to the same bytes.

use weft_asm::{assemble, disassemble};
use weft_isa::Inst;

fn text_bytes(elf: &[u8]) -> Vec<u8> {
    let img = weft_elf::read_elf(elf).expect("ELF");
    img.segments
        .iter()
        .find(|s| s.flags.may_execute())
        .expect("code")
        .data
        .clone()
}

#[test]
fn every_compressed_instruction_assembles_from_its_text() {
    let mut src = String::from(".text\n.globl _start\n_start:\n");
    let mut want = Vec::new();
    for h in (0..=u16::MAX).filter(|h| h & 3 != 3) {
        if let Ok(i) = Inst::decode(h as u32) {
            src.push_str(&format!("    {}\n", i.text(None)));
            want.extend_from_slice(&h.to_le_bytes());
        }
    }
    let elf = assemble(&src, "all_c.s").unwrap_or_else(|e| panic!("{e}"));
    let got = text_bytes(&elf);
    assert_eq!(got.len(), want.len());
    for (k, (g, w)) in got.chunks(2).zip(want.chunks(2)).enumerate() {
        assert_eq!(
            g,
            w,
            "instruction {k}: {}",
            src.lines().nth(3 + k).unwrap_or("")
        );
    }
    let img = weft_elf::read_elf(&elf).unwrap();
    assert_eq!(
        img.flags & weft_elf::ef::RVC,
        weft_elf::ef::RVC,
        "EF_RISCV_RVC"
    );
    assert!(img.needs().is_empty(), "{:?}", img.needs());
}

#[test]
fn code_without_compressed_instructions_does_not_claim_rvc() {
    let elf = assemble(".text\n.globl _start\n_start: addi a0, a0, 1\n", "n.s").unwrap();
    assert_eq!(
        weft_elf::read_elf(&elf).unwrap().flags & weft_elf::ef::RVC,
        0
    );
}

#[test]
fn operands_a_compressed_form_cannot_hold_are_errors() {
    for (line, why) in [
        ("c.lw a0, 0(t0)", "base not in x8-x15"),
        ("c.lw a0, 2(a1)", "offset not a multiple of 4"),
        ("c.lw a0, 128(a1)", "offset above 124"),
        ("c.addi4spn a0, sp, 0", "zero immediate (reserved)"),
        ("c.addi4spn a0, a1, 4", "base must be sp"),
        ("c.addi16sp sp, 8", "not a multiple of 16"),
        ("c.addi16sp sp, 0", "zero immediate (reserved)"),
        ("c.lui a0, 0", "zero immediate (reserved)"),
        ("c.lui sp, 1", "rd = sp is c.addi16sp"),
        ("c.li a0, 32", "6-bit signed immediate"),
        ("c.slli a0, 32", "shift amount 32 (reserved on RV32)"),
        ("c.lwsp zero, 0(sp)", "rd = x0 (reserved)"),
        ("c.jr zero", "rs1 = x0 (reserved)"),
        ("c.mv a0, zero", "rs2 = x0 is c.jr"),
        ("c.sub a0, t0", "rs2 not in x8-x15"),
        ("c.beqz a0, .+256", "branch offset beyond ±256"),
        ("c.j .+2048", "jump offset beyond ±2 KiB"),
        ("c.ld a0, 0(a1)", "RV64 only"),
    ] {
        let src = format!(".text\n.globl _start\n_start:\n    {line}\n");
        match assemble(&src, "bad.s") {
            Ok(_) => panic!("`{line}` assembled ({why})"),
            Err(e) => assert!(e.to_string().contains("bad.s:4"), "{line}: {e}"),
        }
    }
}

const MIXED: &str = "
    .text
    .globl _start
_start:
    li s0, 5
    c.li a0, 0
    c.li a1, 3
1:  c.add a0, s0
    addi a1, a1, -1
    c.bnez a1, 1b
    c.mv a2, a0
    la a3, data
    c.sw a2, 0(a3)
    c.lw a4, 0(a3)
    c.jal f
    c.j 2f
    c.nop
2:  li t0, 0xffffff04
    sw a4, 0(t0)
f:  c.addi a4, 1
    c.jr ra
    .data
data: .word 0
";

#[test]
fn mixed_code_disassembles_at_the_right_addresses_and_round_trips() {
    let elf = assemble(MIXED, "mixed.s").unwrap_or_else(|e| panic!("{e}"));
    let text = disassemble(&elf).unwrap();
    // Addresses advance by each instruction's length.
    for (addr, inst) in [
        ("80000000", "addi s0, zero, 5"),
        ("80000004", "c.li a0, 0"),
        ("80000006", "c.li a1, 3"),
        ("80000008", "c.add a0, s0"),
        ("8000000a", "addi a1, a1, -1"),
        ("8000000e", "c.bnez a1, 0x80000008"),
        ("80000010", "c.mv a2, a0"),
        ("80000012", "auipc a3, "),
        ("8000001a", "c.sw a2, 0(a3)"),
        ("8000001c", "c.lw a4, 0(a3)"),
        ("8000001e", "c.jal 0x8000002c"),
        ("80000020", "c.j 0x80000024"),
        ("80000022", "c.nop"),
        ("8000002c", "c.addi a4, 1"),
        ("8000002e", "c.jr ra"),
    ] {
        let line = text
            .lines()
            .find(|l| l.contains(&format!("/* {addr} ")))
            .unwrap_or_else(|| panic!("no line at {addr}:\n{text}"));
        assert!(line.contains(inst), "{addr}: {line}");
    }
    let again = assemble(&text, "mixed.dis").unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(text_bytes(&again), text_bytes(&elf));
}

#[test]
fn option_rvc_compresses_what_a_compressed_form_holds() {
    let src = "
    .text
    .globl _start
_start:
    addi a0, a0, 1          # 4 bytes: .option rvc is not in effect yet
    .option push
    .option rvc
    addi a0, a0, 1          # c.addi a0, 1
    add a0, a0, a1          # c.add a0, a1
    mv a2, a3               # c.mv a2, a3
    li a4, -3               # c.li a4, -3
    lw a5, 4(s0)            # c.lw a5, 4(s0)
    sw ra, 8(sp)            # c.swsp ra, 8(sp)
    add a0, a1, a2          # no compressed form: 4 bytes
    addi a0, a0, 100        # immediate too wide: 4 bytes
    la a1, _start           # names a symbol: 4 + 4 bytes
    beqz a0, _start         # names a label: 4 bytes
    ret                     # c.jr ra
    .option pop
    addi a0, a0, 1          # 4 bytes again
";
    let elf = assemble(src, "rvc.s").unwrap_or_else(|e| panic!("{e}"));
    let text = disassemble(&elf).unwrap();
    let insts: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split("*/").nth(1))
        .map(|s| s.trim())
        .collect();
    assert_eq!(
        insts,
        [
            "addi a0, a0, 1",
            "c.addi a0, 1",
            "c.add a0, a1",
            "c.mv a2, a3",
            "c.li a4, -3",
            "c.lw a5, 4(s0)",
            "c.swsp ra, 8(sp)",
            "add a0, a1, a2",
            "addi a0, a0, 100",
            "auipc a1, 0x0",
            "addi a1, a1, -24",
            "beq a0, zero, 0x80000000  # <_start>",
            "c.jr ra",
            "addi a0, a0, 1",
        ],
        "{text}"
    );
}

//! Assembler diagnostics: positions, several errors per run, range checks, and no panics
//! on arbitrary input (assembler, decoder, image reader).

mod common;
use proptest::prelude::*;
use weft_sp2a::{assemble, Instr, Program};

fn errors(src: &str) -> Vec<String> {
    match assemble(src, "bad.s") {
        Ok(_) => panic!("expected errors for:\n{src}"),
        Err(e) => e.0.iter().map(|e| e.to_string()).collect(),
    }
}

#[test]
fn errors_name_file_line_column_and_expectation() {
    let e = errors("NOP\n  ADD %A %B\n  SHL %A %B 32\n  FOO %A\nx: NOP\nx: NOP\n  JMP nowhere\n");
    assert_eq!(e.len(), 5, "{e:#?}");
    assert_eq!(e[0], "bad.s:2:7: error: expected `ADD %A %B %D`");
    assert_eq!(
        e[1],
        "bad.s:3:13: error: bit number / shift amount 32 must be 0..=31"
    );
    assert_eq!(e[2], "bad.s:4:3: error: unknown instruction `FOO`");
    assert_eq!(e[3], "bad.s:6:1: error: `x` is already defined");
    assert_eq!(e[4], "bad.s:7:7: error: undefined symbol `nowhere`");
}

#[test]
fn operand_shape_errors_list_every_form() {
    let e = errors("ST 5\n");
    assert_eq!(
        e[0],
        "bad.s:1:4: error: expected `ST %A addr` or `ST %A %B simm16`"
    );
    let e = errors("LD %A %B %C\n");
    assert!(e[0].contains("`LD %D addr` or `LD %B %D simm16`"), "{e:?}");
}

#[test]
fn range_and_syntax_errors() {
    for (src, needle) in [
        ("SKBS %A -1", "must be 0..=31"),
        ("BSET %A %A 99", "must be 0..=31"),
        ("ADDI %A %A 70000", "does not fit"),
        ("LD %A 0x10000", "does not fit"),
        ("LI %A 0x100000000", "bad number"),
        ("ADD %A %B %Z", "unknown register `%Z`"),
        ("ADD %A, %B,", "expected an operand"),
        ("ADD %A %B $", "unexpected character"),
        (".data\nNOP", "instructions belong in .text"),
        (".bogus", "unknown directive"),
        (".org 0xFFFF\nNOP\nNOP", "passes 0xFFFF"),
        (".org 5\nNOP\n.org 5\nNOP", "already filled"),
        ("CALL %G", "impossible"),
        ("PUSH 5", "expected `PUSH %R`"),
        ("FNSETUP %A", "frame size"),
        ("RETURN 1", "expected `RETURN`"),
        (".include \"x.s\"", "needs a file"),
        ("LI %A (1 + 2", "expected `)`"),
        ("ST %A HALT\nHALT: NOP", "already defined"),
        ("x = later\nlater: NOP", "defined above"),
    ] {
        let e = errors(src);
        assert!(e.iter().any(|m| m.contains(needle)), "{src:?}: {e:?}");
    }
}

#[test]
fn expressions_constants_and_sections() {
    let p = common::program(
        "
        SIZE = 4
        .equ BASE, 0x40
        LI %A hi(0x12345678) + SIZE   ; operands may be expressions
        LLI %B lo(BASE - 1)
        ST %A data_end - 1
        .data
        .org BASE
buf:    .space SIZE
data_end:
        .word 'A', -1, buf
        .fb 32 16
    ",
    );
    assert_eq!(p.fb_size, Some((32, 16)));
    assert_eq!(p.symbol("data_end"), Some(0x44));
    assert_eq!(&p.data[0x44..], &[65, 0xFFFF_FFFF, 0x40]);
    assert_eq!(
        Instr::decode(p.text[1]).unwrap().to_string(),
        "LLI %A 0x1238"
    );
    assert_eq!(
        Instr::decode(p.text[2]).unwrap().to_string(),
        "LLI %B 0x003F"
    );
    assert_eq!(
        Instr::decode(p.text[3]).unwrap().to_string(),
        "ST %A 0x0043"
    );
}

#[test]
fn include_reads_relative_files() {
    let dir = std::env::temp_dir().join(format!("sp2a-inc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("lib.s"), "five: LI %A 5\n RETURN\n").unwrap();
    std::fs::write(
        dir.join("main.s"),
        "CALL five\nST %A HALT\n.include \"lib.s\"\n",
    )
    .unwrap();
    let p = weft_sp2a::assemble_file(&dir.join("main.s")).unwrap();
    assert_eq!(p.symbol("five"), Some(4));
    std::fs::write(dir.join("loop.s"), ".include \"loop.s\"\n").unwrap();
    let e = weft_sp2a::assemble_file(&dir.join("loop.s")).unwrap_err();
    assert!(e.to_string().contains("nested too deeply"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn image_round_trip_and_bad_images() {
    let p = common::program(".fb 8 8\nstart: LI %A 1\nST %A HALT\n.data\nv: .word 7, 8\n");
    let bytes = p.to_bytes();
    assert!(Program::is_image(&bytes));
    assert_eq!(Program::from_bytes(&bytes).unwrap(), p);
    for cut in 0..bytes.len() {
        assert!(Program::from_bytes(&bytes[..cut]).is_err());
    }
    let mut extra = bytes.clone();
    extra.push(0);
    assert!(Program::from_bytes(&extra).is_err());
}

#[test]
fn disassembly_reassembles_to_the_same_image() {
    let src = "start: LI %A 0x1234\nloop: ADDI %A %A -1\nSKZ %A\nJMP loop\n.word 0xFE000001\nST %A HALT\n.data\nx: .word 5\n";
    let p = common::program(src);
    let text = weft_sp2a::disasm::disassemble(&p);
    let q = common::program(&text);
    assert_eq!(p.text, q.text);
    assert_eq!(p.data, q.data);
    assert!(text.contains("loop:\n    ADDI %A %A -1"), "{text}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn assembler_never_panics_on_arbitrary_text(src in "\\PC{0,200}") {
        let _ = assemble(&src, "fuzz.s");
    }

    #[test]
    fn assembler_never_panics_on_asm_like_text(
        lines in proptest::collection::vec(
            "([a-z]{1,4}:)? ?(ADD|LD|ST|LI|CALL|JMP|SKBS|FNSETUP|RETURN|\\.word|\\.org|\\.data|\\.text|\\.fb|x =)? ?(%[A-Z0-9]{1,2}|-?[0-9]{1,6}|0x[0-9A-F]{1,9}|[a-z]{1,3}|[,+()'\"-]| ){0,6}",
            0..12)
    ) {
        let _ = assemble(&lines.join("\n"), "fuzz.s");
    }

    #[test]
    fn decoder_and_image_reader_never_panic(word in any::<u32>(), bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let _ = Instr::decode(word).map(|i| i.to_string());
        let mut img = b"WSP2\x01\0\0\0".to_vec();
        img.extend_from_slice(&bytes);
        let _ = Program::from_bytes(&img);
        let _ = Program::from_bytes(&bytes);
    }

    #[test]
    fn random_programs_run_without_panics(words in proptest::collection::vec(any::<u32>(), 1..64)) {
        let p = Program { text: words, ..Program::default() };
        let mut a = weft_sp2a::Array::new(&p, &common::config(2)).unwrap();
        let _ = a.run(2000);
    }
}

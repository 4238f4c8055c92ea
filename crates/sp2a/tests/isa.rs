//! The instruction table tested three ways: no overlapping encodings; a (bits, text) table
//! for every instruction both ways; decode/encode/text round trips on random words.

use proptest::prelude::*;
use weft_sp2a::isa::{opcode_listing, Op};
use weft_sp2a::{assemble, Instr};

/// (word, disassembly text), one or more rows per operation; words computed by hand from
/// the documented layout (opcode << 25 | A << 22 | B << 19 | D << 16 | IMM).
const TRIPLES: &[(u32, &str)] = &[
    (0x00000000, "NOP"),
    (0x02821234, "LUI %C 0x1234"),
    (0x0243FFFF, "LUI %B %D 0xFFFF"),
    (0x05C7BEEF, "LLI %H 0xBEEF"),
    (0x100A0000, "ADD %A %B %C"),
    (0x12E50000, "SUB %D %E %F"),
    (0x1587FFFF, "ADDI %G %H -1"),
    (0x14417FFF, "ADDI %B %B 32767"),
    (0x17F50000, "MUL %H %G %F"),
    (0x18530000, "CMP %B %C %D"),
    (0x212E0000, "AND %E %F %G"),
    (0x22000000, "OR %A %A %A"),
    (0x249C0000, "XOR %C %D %E"),
    (0x27460000, "NOT %F %G"),
    (0x3042001F, "BSET %B %C 31"),
    (0x32C30000, "BCLR %D %D 0"),
    (0x35050007, "SHL %E %F 7"),
    (0x37870010, "SHR %G %H 16"),
    (0x40800100, "ST %C 0x0100"),
    (0x4278FFFA, "ST %B %H -6"),
    (0x4404FF08, "LD %E 0xFF08"),
    (0x463E0007, "LD %H %G 7"),
    (0x50C00000, "SKZ %D"),
    (0x53400000, "SKNZ %F"),
    (0x54800004, "SKBS %C 4"),
    (0x57C0001F, "SKBC %H 31"),
    (0x60000042, "JMP 0x0042"),
    (0x63800000, "JMP %G"),
];

fn asm_one(text: &str) -> u32 {
    let p = assemble(text, "t.s").unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(p.text.len(), 1, "{text}");
    p.text[0]
}

#[test]
fn no_two_encodings_overlap() {
    let mut seen = std::collections::HashSet::new();
    for op in Op::ALL {
        assert!(op.opcode() < 128, "{op:?} opcode fits 7 bits");
        assert!(seen.insert(op.opcode()), "{op:?} shares opcode");
        assert_eq!(Op::from_opcode(op.opcode()), Some(*op));
    }
    let decodable = (0u8..128).filter(|o| Op::from_opcode(*o).is_some()).count();
    assert_eq!(decodable, Op::ALL.len());
    // Every word decodes to at most one operation: decoding depends on the opcode alone.
    for opcode in 0u32..128 {
        let w = opcode << 25 | 0x01FF_FFFF;
        match Instr::decode(w) {
            Ok(i) => assert_eq!(u32::from(i.op.opcode()), opcode),
            Err(e) => assert!(e.is_unknown_opcode()),
        }
    }
}

#[test]
fn triples_cover_every_operation() {
    let covered: std::collections::HashSet<Op> = TRIPLES
        .iter()
        .map(|(w, _)| Instr::decode(*w).unwrap().op)
        .collect();
    for op in Op::ALL {
        assert!(covered.contains(op), "{op:?} has no triple");
    }
}

#[test]
fn triples_both_ways() {
    for &(word, text) in TRIPLES {
        let i = Instr::decode(word).unwrap();
        assert_eq!(i.to_string(), text, "disassembly of {word:08X}");
        assert_eq!(i.encode(), word, "re-encode of {text}");
        assert_eq!(asm_one(text), word, "assembly of {text}");
        // Lower case, commas and numbered registers are accepted too.
        let alt = text
            .to_lowercase()
            .replace("%a", "%r0")
            .replace("%h", "%sp")
            .replacen(' ', "  ", 1)
            .replace(" %", ", %")
            .replacen(", %", " %", 1);
        assert_eq!(asm_one(&alt), word, "assembly of {alt}");
    }
}

#[test]
fn unused_fields_are_ignored() {
    // NOP with junk in every field, ADD with junk immediate, SHL with IMM 33 (hardware
    // uses the low 5 bits: shift by 1).
    assert_eq!(Instr::decode(0x01FF_FFFF).unwrap().op, Op::Nop);
    assert_eq!(
        Instr::decode(0x100A_1234).unwrap().to_string(),
        "ADD %A %B %C"
    );
    assert_eq!(
        Instr::decode(0x3505_0021).unwrap().to_string(),
        "SHL %E %F 1"
    );
    assert!(Instr::decode(0xFE00_0000).is_err());
}

#[test]
fn docs_listing_matches_the_table() {
    let doc = include_str!("../../../docs/sp2a.md");
    let listing = opcode_listing();
    assert!(
        doc.contains(&listing),
        "docs/sp2a.md opcode table is stale; regenerate it with:\n{listing}"
    );
    let bus = weft_sp2a::bus::bus_listing();
    assert!(doc.contains(&bus), "docs/sp2a.md bus map is stale:\n{bus}");
}

proptest! {
    #[test]
    fn decode_encode_text_round_trip(word in any::<u32>()) {
        if let Ok(i) = Instr::decode(word) {
            let canon = i.encode();
            prop_assert_eq!(Instr::decode(canon).unwrap(), i);
            let text = i.to_string();
            let p = assemble(&text, "rt.s").map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(p.text, vec![canon]);
        }
    }
}

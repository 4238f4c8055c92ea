//! Properties of the instruction table itself: no two encodings overlap, every row is
//! well-formed, and decode/encode are inverse on every word that decodes.

use proptest::prelude::*;
use weft_isa::{Inst, TABLE};

#[test]
fn no_two_encodings_overlap() {
    for (i, a) in TABLE.iter().enumerate() {
        for b in &TABLE[i + 1..] {
            let common = a.mask & b.mask;
            assert!(
                (a.matches ^ b.matches) & common != 0,
                "{} and {} overlap: a word can match both",
                a.name,
                b.name
            );
        }
    }
}

#[test]
fn rows_are_well_formed() {
    for (i, e) in TABLE.iter().enumerate() {
        assert_eq!(e.op as usize, i, "{} is out of order", e.name);
        assert_eq!(
            e.matches & !e.mask,
            0,
            "{}: match has bits outside its mask",
            e.name
        );
        assert_eq!(
            e.mask & 0x7f,
            0x7f,
            "{}: the major opcode must be fixed",
            e.name
        );
        assert_eq!(e.matches & 3, 3, "{}: not a 32-bit encoding", e.name);
        // Every bit is either fixed or belongs to an operand: decoding the all-ones word under
        // the row's mask and re-encoding it must give the same word.
        let w = e.matches | !e.mask;
        if let Ok(inst) = Inst::decode(w) {
            assert_eq!(inst.op, e.op);
            assert_eq!(
                inst.encode().unwrap(),
                w,
                "{}: bits lost in decode/encode",
                e.name
            );
        }
    }
}

#[test]
fn unique_mnemonics() {
    for (i, a) in TABLE.iter().enumerate() {
        assert!(
            TABLE[i + 1..].iter().all(|b| b.name != a.name),
            "{} appears twice",
            a.name
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]
    #[test]
    fn decode_encode_is_identity(w in any::<u32>()) {
        if let Ok(inst) = Inst::decode(w) {
            // A 16-bit instruction occupies the low half; the high half is not its.
            let want = if inst.len() == 2 { w & 0xffff } else { w };
            prop_assert_eq!(inst.encode().unwrap(), want, "{}", inst);
        }
    }
}

#[test]
fn a_fence_with_reserved_fields_executes_as_the_fence() {
    use weft_isa::Op;
    for (w, op, sets) in [
        (0x0000_008f, Op::Fence, 0),    // rd = x1
        (0x0000_800f, Op::Fence, 0),    // rs1 = x1
        (0x1ff0_000f, Op::Fence, 0xff), // fm = 0001
        (0x0010_100f, Op::FenceI, 0),   // imm = 1
        (0x8000_100f, Op::FenceI, 0),   // imm = 0x800
    ] {
        assert!(Inst::decode(w).is_err(), "{w:#x} is not canonical");
        let i = Inst::decode_exec(w).unwrap();
        assert_eq!((i.op, i.imm), (op, sets), "{w:#x}");
    }
    assert_eq!(
        Inst::decode_exec(0x0000_200f),
        Inst::decode(0x0000_200f),
        "other funct3"
    );
    assert_eq!(
        Inst::decode_exec(0x0330_000f),
        Inst::decode(0x0330_000f),
        "canonical"
    );
    assert_eq!(
        Inst::decode_exec(0x0000_0013),
        Inst::decode(0x0000_0013),
        "not a fence"
    );
}

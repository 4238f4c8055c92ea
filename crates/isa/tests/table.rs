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
            prop_assert_eq!(inst.encode().unwrap(), w, "{}", inst);
        }
    }
}

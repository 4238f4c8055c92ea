//! Property tests of the `.weft.reconv` section format: tables round-trip, valid sections are
//! canonical, and the parser returns typed errors — never panics — on arbitrary bytes.

use proptest::prelude::*;
use weft_reconv::{Reconv, ReconvTable, SectionError, AT_EXIT};

fn reconv() -> impl Strategy<Value = Reconv> {
    prop_oneof![
        Just(Reconv::AtExit),
        any::<u32>().prop_map(|pc| Reconv::At(pc & !1)),
    ]
}

fn table() -> impl Strategy<Value = ReconvTable> {
    proptest::collection::vec((any::<u32>().prop_map(|pc| pc & !1), reconv()), 0..40)
        .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn round_trip(t in table()) {
        let b = t.to_section_bytes();
        prop_assert_eq!(b.len(), 12 + 8 * t.len());
        prop_assert_eq!(ReconvTable::from_section_bytes(&b), Ok(t));
    }

    #[test]
    fn random_bytes_never_panic(b in proptest::collection::vec(any::<u8>(), 0..64)) {
        if let Ok(t) = ReconvTable::from_section_bytes(&b) {
            prop_assert_eq!(t.to_section_bytes(), b);
        }
    }

    #[test]
    fn corrupted_sections_never_panic_and_stay_canonical(
        t in table(),
        flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..4),
        cut in any::<usize>(),
        truncate in any::<bool>(),
    ) {
        let mut b = t.to_section_bytes();
        for (at, x) in flips {
            let i = at % b.len();
            b[i] ^= x;
        }
        if truncate {
            b.truncate(cut % (b.len() + 1));
        }
        if let Ok(t2) = ReconvTable::from_section_bytes(&b) {
            prop_assert_eq!(t2.to_section_bytes(), b);
        }
    }
}

fn header(count: u32) -> Vec<u8> {
    let mut b = b"WRCV".to_vec();
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&0u16.to_le_bytes());
    b.extend_from_slice(&count.to_le_bytes());
    b
}

fn entry(b: &mut Vec<u8>, pc: u32, r: u32) {
    b.extend_from_slice(&pc.to_le_bytes());
    b.extend_from_slice(&r.to_le_bytes());
}

#[test]
fn typed_errors() {
    let parse = ReconvTable::from_section_bytes;
    assert_eq!(parse(b"WRC"), Err(SectionError::TooShort { len: 3 }));
    let mut b = header(0);
    b[0] = b'X';
    assert!(matches!(parse(&b), Err(SectionError::BadMagic { .. })));
    let mut b = header(0);
    b[4] = 2;
    assert_eq!(
        parse(&b),
        Err(SectionError::UnsupportedVersion { found: 2 })
    );
    let mut b = header(0);
    b[6] = 1;
    assert_eq!(parse(&b), Err(SectionError::Reserved { found: 1 }));
    let b = header(u32::MAX);
    assert!(matches!(
        parse(&b),
        Err(SectionError::Length {
            count: u32::MAX,
            ..
        })
    ));
    let mut b = header(1);
    entry(&mut b, 8, 12);
    b.push(0);
    assert!(matches!(
        parse(&b),
        Err(SectionError::Length { actual: 21, .. })
    ));
    let mut b = header(2);
    entry(&mut b, 8, 12);
    entry(&mut b, 8, 16);
    assert_eq!(
        parse(&b),
        Err(SectionError::Unsorted {
            index: 1,
            pc: 8,
            prev: 8
        })
    );
    let mut b = header(2);
    entry(&mut b, 8, 12);
    entry(&mut b, 4, 16);
    assert!(matches!(
        parse(&b),
        Err(SectionError::Unsorted { index: 1, .. })
    ));
    let mut b = header(1);
    entry(&mut b, 9, 12);
    assert!(matches!(
        parse(&b),
        Err(SectionError::OddPc {
            what: "branch pc",
            ..
        })
    ));
    let mut b = header(1);
    entry(&mut b, 8, 13);
    assert!(matches!(
        parse(&b),
        Err(SectionError::OddPc {
            what: "reconvergence pc",
            ..
        })
    ));
    let mut b = header(1);
    entry(&mut b, 8, AT_EXIT);
    assert_eq!(parse(&b).map(|t| t.get(8)), Ok(Some(Reconv::AtExit)));
    // Every error has a message naming the section.
    assert!(SectionError::TooShort { len: 0 }
        .to_string()
        .contains(".weft.reconv"));
}

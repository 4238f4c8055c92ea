//! Integer semantics checked against i64/u64 arithmetic computed here, on edge values and
//! random inputs.

use proptest::prelude::*;
use weft_sem::alu::*;

const EDGES: [u32; 12] = [
    0,
    1,
    2,
    3,
    0x7fff_ffff,
    0x8000_0000,
    0x8000_0001,
    0xffff_ffff,
    0xffff_fffe,
    0x0000_ffff,
    0x1234_5678,
    0xdead_beef,
];

/// Reference for the M extension and shifts, in wide arithmetic.
fn check_pair(a: u32, b: u32) {
    let (sa, sb) = (a as i32 as i64, b as i32 as i64);
    let (ua, ub) = (a as u64, b as u64);
    assert_eq!(add(a, b), ((ua + ub) & 0xffff_ffff) as u32);
    assert_eq!(sub(a, b), ((ua + (1u64 << 32) - ub) & 0xffff_ffff) as u32);
    let sh = (b % 32) as u64;
    assert_eq!(sll(a, b), ((ua << sh) & 0xffff_ffff) as u32);
    assert_eq!(srl(a, b), (ua >> sh) as u32);
    assert_eq!(sra(a, b), ((sa >> sh) as u64 & 0xffff_ffff) as u32);
    assert_eq!(slt(a, b), (sa < sb) as u32);
    assert_eq!(sltu(a, b), (ua < ub) as u32);
    assert_eq!(blt(a, b), sa < sb);
    assert_eq!(bge(a, b), sa >= sb);
    assert_eq!(bltu(a, b), ua < ub);
    assert_eq!(bgeu(a, b), ua >= ub);
    assert_eq!(beq(a, b), a == b);
    assert_eq!(bne(a, b), a != b);
    assert_eq!(mul(a, b), ((ua * ub) & 0xffff_ffff) as u32);
    assert_eq!(mulh(a, b), (((sa * sb) >> 32) as u64 & 0xffff_ffff) as u32);
    assert_eq!(
        mulhsu(a, b),
        (((sa as i128 * ub as i128) >> 32) as u64 & 0xffff_ffff) as u32
    );
    assert_eq!(mulhu(a, b), ((ua * ub) >> 32) as u32);
    // Division: the spec's table for b == 0 and overflow, else i64 truncating division.
    let (q, r) = if sb == 0 {
        (-1i64, sa)
    } else {
        // i64 holds i32::MIN / -1 = 2^31 exactly; truncate to 32 bits like the spec.
        (sa / sb, sa % sb)
    };
    assert_eq!(
        div(a, b),
        (q as u64 & 0xffff_ffff) as u32,
        "div {a:#x} {b:#x}"
    );
    assert_eq!(
        rem(a, b),
        (r as u64 & 0xffff_ffff) as u32,
        "rem {a:#x} {b:#x}"
    );
    // The spec's divide-by-zero row: quotient all ones, remainder the dividend.
    let qu = ua.checked_div(ub).unwrap_or(0xffff_ffff);
    let ru = ua.checked_rem(ub).unwrap_or(ua);
    assert_eq!(divu(a, b), qu as u32);
    assert_eq!(remu(a, b), ru as u32);
    assert_eq!(amo_add(a, b), add(a, b));
    assert_eq!(amo_swap(a, b), b);
    assert_eq!(amo_xor(a, b), a ^ b);
    assert_eq!(amo_and(a, b), a & b);
    assert_eq!(amo_or(a, b), a | b);
    assert_eq!(xor(a, b), a ^ b);
    assert_eq!(and(a, b), a & b);
    assert_eq!(or(a, b), a | b);
    assert_eq!(amo_min(a, b) as i32 as i64, sa.min(sb));
    assert_eq!(amo_max(a, b) as i32 as i64, sa.max(sb));
    assert_eq!(amo_minu(a, b) as u64, ua.min(ub));
    assert_eq!(amo_maxu(a, b) as u64, ua.max(ub));
}

#[test]
fn edge_pairs() {
    for &a in &EDGES {
        for &b in &EDGES {
            check_pair(a, b);
        }
        for sh in [0u32, 1, 31, 32, 33, 63, 0xffff_ffe1] {
            check_pair(a, sh);
        }
    }
}

#[test]
fn spec_division_table() {
    assert_eq!(div(7, 0), 0xffff_ffff);
    assert_eq!(divu(7, 0), 0xffff_ffff);
    assert_eq!(rem(7, 0), 7);
    assert_eq!(rem(0x8000_0000, 0), 0x8000_0000);
    assert_eq!(remu(7, 0), 7);
    assert_eq!(div(0x8000_0000, 0xffff_ffff), 0x8000_0000);
    assert_eq!(rem(0x8000_0000, 0xffff_ffff), 0);
    assert_eq!(div((-7i32) as u32, 2), (-3i32) as u32);
    assert_eq!(rem((-7i32) as u32, 2), (-1i32) as u32);
    assert_eq!(mulh(0x8000_0000, 0x8000_0000), 0x4000_0000);
    assert_eq!(mulhsu(0xffff_ffff, 0xffff_ffff), 0xffff_ffff);
    assert_eq!(mulhu(0xffff_ffff, 0xffff_ffff), 0xffff_fffe);
    assert_eq!(sll(1, 33), 2);
    assert_eq!(sra(0x8000_0000, 31), 0xffff_ffff);
}

#[test]
fn load_extension() {
    assert_eq!(sext8(0x80), 0xffff_ff80);
    assert_eq!(sext8(0x1234_567f), 0x7f);
    assert_eq!(sext16(0x8000), 0xffff_8000);
    assert_eq!(sext16(0xabcd_7fff), 0x7fff);
    assert_eq!(zext8(0xffff_ff80), 0x80);
    assert_eq!(zext16(0xffff_8000), 0x8000);
    for v in EDGES {
        assert_eq!(
            sext8(v) as i32 as i64,
            (v & 0xff) as i64 - if v & 0x80 != 0 { 256 } else { 0 }
        );
        assert_eq!(
            sext16(v) as i32 as i64,
            (v & 0xffff) as i64 - if v & 0x8000 != 0 { 65536 } else { 0 }
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]
    #[test]
    fn random_pairs(a in any::<u32>(), b in any::<u32>()) {
        check_pair(a, b);
    }

    #[test]
    fn random_small_divisors(
        a in any::<u32>(),
        b in prop::sample::select(vec![0u32, 1, 2, 3, 0xffff_ffff, 0xffff_fffe, 0x8000_0000]),
    ) {
        check_pair(a, b);
    }
}

//! The soft-float library (examples/sp2a/softfloat.s) against Rust's f32 on many values.

mod common;
use proptest::prelude::Rng;
use proptest::test_runner::{RngAlgorithm, TestRng};
use weft_sp2a::core::CoreConfig;
use weft_sp2a::{assemble, Array, ArrayConfig, Stop};

const LIB: &str = include_str!("../../../examples/sp2a/softfloat.s");

const DRIVER: &str = "
        LD %E count
        LI %D pairs
loop:   SKNZ %E
        JMP end
        LD %D %A 0
        LD %D %B 1
        ST %A %H -8
        ST %B %H -9
        CALL fadd
        LD %H %C -7
        ST %C %D 2
        ST %A %H -8
        ST %B %H -9
        CALL fmul
        LD %H %C -7
        ST %C %D 3
        ADDI %D %D 4
        ADDI %E %E -1
        JMP loop
end:    ST %H final_sp
        ST %A HALT
        .data
count:  .word 0
final_sp: .word 0
        .org 0x100
pairs:
        .text
";

/// A random normal float (neither zero/subnormal nor infinite/NaN), from proptest's seeded
/// generator so that every run checks the same values.
fn normal(rng: &mut TestRng) -> u32 {
    loop {
        let v = rng.next_u32();
        let e = (v >> 23) & 0xFF;
        if e != 0 && e != 255 {
            return v;
        }
    }
}

fn run_pairs(pairs: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let src = format!("{DRIVER}\n{LIB}");
    let p = assemble(&src, "softfloat_test.s").unwrap_or_else(|e| panic!("{e}"));
    let cfg = ArrayConfig {
        cores: 1,
        core: CoreConfig {
            dmem_words: 16384,
            ..CoreConfig::default()
        },
        fb_size: None,
    };
    let mut a = Array::new(&p, &cfg).unwrap();
    let m = a.cores_mut()[0].dmem_mut();
    m[0] = pairs.len() as u32;
    for (k, (x, y)) in pairs.iter().enumerate() {
        m[0x100 + 4 * k] = *x;
        m[0x100 + 4 * k + 1] = *y;
    }
    assert_eq!(a.run(200_000_000).unwrap(), Stop::Halted);
    let m = a.cores()[0].dmem();
    assert_eq!(m[1], 16383, "stack balanced");
    (0..pairs.len())
        .map(|k| (m[0x100 + 4 * k + 2], m[0x100 + 4 * k + 3]))
        .collect()
}

/// Compare with Rust, allowing only the documented flush-to-zero of subnormal results.
fn check(op: &str, a: u32, b: u32, got: u32, want: f32) -> Result<(), String> {
    let w = want.to_bits();
    let ok = if want.is_nan() {
        f32::from_bits(got).is_nan()
    } else if want.is_subnormal() {
        got == w & 0x8000_0000
    } else {
        got == w
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{op}({a:08X} = {}, {b:08X} = {}) = {got:08X} ({}), Rust says {w:08X} ({want})",
            f32::from_bits(a),
            f32::from_bits(b),
            f32::from_bits(got)
        ))
    }
}

fn check_all(pairs: &[(u32, u32)]) {
    let got = run_pairs(pairs);
    let mut bad = Vec::new();
    for (&(a, b), &(sum, prod)) in pairs.iter().zip(&got) {
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        bad.extend(check("fadd", a, b, sum, x + y).err());
        bad.extend(check("fmul", a, b, prod, x * y).err());
    }
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad[..bad.len().min(20)].join("\n")
    );
}

#[test]
fn special_values() {
    let specials: Vec<u32> = [
        0.0f32,
        -0.0,
        1.0,
        -1.0,
        0.5,
        2.0,
        3.0,
        1.5,
        0.1,
        -0.1,
        1e30,
        -1e30,
        3.4e38,
        -3.4e38,
        1.2e-38,
        -1.2e-38,
        f32::MIN_POSITIVE,
        f32::MAX,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        16777216.0,
        16777217.0,
        1.0 + f32::EPSILON,
        1e-20,
        7.0e-39,
    ]
    .iter()
    .map(|f| f.to_bits())
    .filter(|b| (b >> 23) & 0xFF != 0 || b & 0x7F_FFFF == 0) // no subnormal inputs
    .collect();
    let mut pairs = Vec::new();
    for &a in &specials {
        for &b in &specials {
            pairs.push((a, b));
        }
    }
    check_all(&pairs);
}

#[test]
fn random_normals_wide_range() {
    let mut rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[0x9E; 32]);
    let pairs: Vec<(u32, u32)> = (0..1500)
        .map(|_| (normal(&mut rng), normal(&mut rng)))
        .collect();
    check_all(&pairs);
}

#[test]
fn random_normals_close_exponents_and_cancellation() {
    // Exponents within a few steps of each other exercise alignment, cancellation and ties.
    let mut rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[0x12; 32]);
    let mut pairs = Vec::new();
    for k in 0..1500 {
        let a = normal(&mut rng);
        let e = ((a >> 23) & 0xFF) as i32 + (rng.next_u32() % 7) as i32 - 3;
        let e = e.clamp(1, 254) as u32;
        let mut b = (rng.next_u32() & 0x807F_FFFF) | (e << 23);
        if k % 5 == 0 {
            b = (a ^ 0x8000_0000) ^ (rng.next_u32() & 0xF); // nearly cancelling
        }
        if k % 7 == 0 {
            b = (b & 0xFFFF_FF00) | 0x80; // low bits that produce ties
        }
        pairs.push((a, b));
    }
    check_all(&pairs);
}

#[test]
fn small_integers_are_exact() {
    let mut pairs = Vec::new();
    for i in -20i32..20 {
        for j in [-7i32, -1, 0, 1, 3, 100] {
            pairs.push(((i as f32).to_bits(), (j as f32).to_bits()));
        }
    }
    check_all(&pairs);
}

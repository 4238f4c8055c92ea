//! Tests of the TCU semantics against independent host references: conversions against
//! `rustc_apfloat`, dot products against host `f32` arithmetic, whole `wmma`s against a plain
//! `i64`/`f64` matrix multiply with the fragments placed the way Vortex's `vx_tensor.h` places
//! them (its inverse register permutation, written out here on its own).

use super::*;
use rustc_apfloat::ieee::{BFloat, Float8E4M3FN, Float8E5M2, Half, Single};
use rustc_apfloat::{Float, FloatConvert};

fn apf_to_f32<F: Float + FloatConvert<Single>>(f: F) -> u32 {
    let mut lost = false;
    let s: Single = f.convert(&mut lost).value;
    s.to_bits() as u32
}

fn canon(x: u32) -> u32 {
    if x & 0x7fff_ffff > 0x7f80_0000 {
        0x7fc0_0000
    } else {
        x
    }
}

#[test]
fn widening_matches_apfloat() {
    for v in 0..=0xffffu32 {
        assert_eq!(
            num::to_f32(FP16, v),
            canon(apf_to_f32(Half::from_bits(v as u128))),
            "fp16 {v:#x}"
        );
        assert_eq!(
            canon(num::to_f32(BF16, v)),
            canon(apf_to_f32(BFloat::from_bits(v as u128))),
            "bf16 {v:#x}"
        );
    }
    for v in 0..=0xffu32 {
        assert_eq!(
            canon(num::to_f32(FP8, v)),
            canon(apf_to_f32(Float8E4M3FN::from_bits(v as u128))),
            "e4m3 {v:#x}"
        );
        assert_eq!(
            canon(num::to_f32(BF8, v)),
            canon(apf_to_f32(Float8E5M2::from_bits(v as u128))),
            "e5m2 {v:#x}"
        );
    }
    // tf32: the top 19 bits of an f32, in the low bits of the word.
    for v in 0..1u32 << 19 {
        let want = canon(v << 13);
        assert_eq!(canon(num::to_f32(TF32, v)), want, "tf32 {v:#x}");
        // Bits above the 19 are ignored.
        assert_eq!(num::to_f32(TF32, v | 0xfff8_0000), num::to_f32(TF32, v));
    }
}

/// Every f32 pattern in a sweep that covers all exponents, with mantissas near rounding ties.
fn f32_sweep() -> Vec<u32> {
    let mut v = Vec::new();
    for e in 0..=255u32 {
        for m in [
            0u32, 1, 0x1000, 0x0fff, 0x1001, 0x2000, 0x6000, 0x8000, 0x7fff, 0x8001, 0x10_0000,
            0x0f_ffff, 0x10_0001, 0x18_0000, 0x7f_ffff, 0x40_0000, 0x3f_ffff, 0x20_0000, 0x60_0000,
            0x50_0000,
        ] {
            for s in [0u32, 1] {
                v.push(s << 31 | e << 23 | m);
            }
        }
    }
    v
}

#[test]
fn narrowing_fp16_bf16_matches_apfloat() {
    for x in f32_sweep() {
        let f = Single::from_bits(x as u128);
        let mut lost = false;
        let h: Half = f.convert(&mut lost).value;
        let b: BFloat = f.convert(&mut lost).value;
        let (want_h, want_b) = if f.is_nan() {
            (0x7e00, 0x7fc0)
        } else {
            (h.to_bits() as u32, b.to_bits() as u32)
        };
        assert_eq!(num::from_f32(FP16, x), want_h, "fp16 of {x:#010x}");
        assert_eq!(num::from_f32(BF16, x), want_b, "bf16 of {x:#010x}");
    }
}

#[test]
fn narrowing_fp8_follows_vortex_in_the_normal_range_and_its_quirks_outside() {
    for x in f32_sweep() {
        let f = Single::from_bits(x as u128);
        let mut lost = false;
        let e5: Float8E5M2 = f.convert(&mut lost).value;
        let e4: Float8E4M3FN = f.convert(&mut lost).value;
        let a = f.abs().to_bits() as u32;
        // Normal results below the largest finite value round once, as IEEE does.
        if (0x3880_0000..0x4770_0000).contains(&a) {
            assert_eq!(num::from_f32(BF8, x), e5.to_bits() as u32, "e5m2 {x:#010x}");
        }
        if (0x3c80_0000..0x4370_0000).contains(&a) {
            assert_eq!(num::from_f32(FP8, x), e4.to_bits() as u32, "e4m3 {x:#010x}");
        }
    }
    // Vortex's converter: overflow is the all-ones exponent with a zero mantissa (E4M3 0x78,
    // which reads back as 256), NaN keeps its sign with the top mantissa bit set.
    assert_eq!(num::from_f32(FP8, 0x43f0_0000), 0x78); // 480
    assert_eq!(num::from_f32(FP8, 0x43e0_0000), 0x78); // 448: exponent 8 > emax 7
    assert_eq!(num::from_f32(FP8, 0x4370_0000), 0x77); // 240
    assert_eq!(num::from_f32(FP8, 0xffc0_0000), 0xfc);
    assert_eq!(num::from_f32(BF8, 0x7f80_0000), 0x7c);
    assert_eq!(num::from_f32(BF8, 0x7fc0_0000), 0x7e);
    // Double rounding below the normal range: 1.0625 × 2^-7 (E4M3's emin is -6) first
    // rounds to 1.0 × 2^-7 (tie to even at 3 bits), then to 0.5 × 2^-6 = mantissa 4 exactly;
    // 1.1875 × 2^-7 first rounds to 1.25 × 2^-7, then ties to 0.625 → mantissa 5 (odd kept,
    // no tie left): one rounding of the exact value (0.59375 × 2^-6 → 4.75/8) gives 5 too.
    assert_eq!(num::from_f32(FP8, 0x3c08_0000), 0x04);
    // 1.3125 × 2^-8 → (first) 1.25 × 2^-8 → 0.3125 × 2^-6 = 2.5/8 → tie to even 2; a single
    // rounding of 0.328125 × 2^-6 = 2.625/8 gives 3.
    assert_eq!(
        num::from_f32(FP8, 0x3baa_0000 & 0xfff0_0000 | 0x0028_0000),
        0x02
    );
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

#[test]
fn fp32_accumulation_order_and_rounding() {
    // tf32 words: 19-bit patterns of 1.0 and 2^-24 etc. One word per element, tcK words.
    let tf = |x: f32| x.to_bits() >> 13;
    let k = Kind::new(TF32, FP32).unwrap();
    // s = (+0 + 1·1) then + 2^-24·1 (lost: rounds to 1), then c.
    let a = [tf(1.0), tf(1.0 / 16_777_216.0)];
    let b = [tf(1.0), tf(1.0)];
    let want = 0.5f32 + (1.0f32 + 1.0 / 16_777_216.0);
    assert_eq!(k.dot(&a, &b, f(0.5)), f(want));
    // Host reference for fp16 pairs: p = a1·b1 + (a0·b0 + 0) per word, s += p, then c + s.
    let h = |x: f32| {
        let mut lost = false;
        let s = Single::from_bits(x.to_bits() as u128);
        let v: Half = s.convert(&mut lost).value;
        v.to_bits() as u32
    };
    let hw = |lo: f32, hi: f32| h(lo) | h(hi) << 16;
    let k = Kind::new(FP16, FP32).unwrap();
    let (x0, x1, x2, x3) = (1.5f32, -0.099975586, 3.0e-3, 1024.0);
    let (y0, y1, y2, y3) = (0.333_251_95_f32, 7.0, -65504.0, 0.0009765625);
    let a = [hw(x0, x1), hw(x2, x3)];
    let b = [hw(y0, y1), hw(y2, y3)];
    let v = |x: f32| f32::from_bits(num::to_f32(FP16, h(x)));
    let p0 = v(x1) * v(y1) + (v(x0) * v(y0) + 0.0);
    let p1 = v(x3) * v(y3) + (v(x2) * v(y2) + 0.0);
    let s = p1 + (p0 + 0.0);
    assert_eq!(k.dot(&a, &b, f(-2.25)), f(-2.25 + s));
}

#[test]
fn narrow_accumulators_round_each_element_twice() {
    // fp16 -> fp16: acc = round16(round32(a·b + acc)) for each element.
    let k = Kind::new(FP16, FP16).unwrap();
    let one = 0x3c00;
    let eps = 0x1400; // 2^-10: 1 + 2^-10 is the next fp16 above 1
    let half_eps = 0x1000; // 2^-11: a tie at 1.0, rounds to even (1.0)
                           // Two ties in a row: each rounds back to 1.0 (an f32 accumulator would reach 1 + 2^-10).
    assert_eq!(
        k.dot(&[one | one << 16], &[half_eps | half_eps << 16], one),
        one
    );
    assert_eq!(k.dot(&[one], &[half_eps], one), one);
    assert_eq!(k.dot(&[one], &[eps], one), one + 1);
    // i8 -> i32 wraps.
    let k = Kind::new(I8, I32).unwrap();
    let w = |a: [i8; 4]| u32::from_le_bytes(a.map(|x| x as u8));
    assert_eq!(
        k.dot(
            &[w([-128, 127, 1, -1])],
            &[w([-128, -128, 5, 7])],
            i32::MAX as u32
        ),
        (i32::MAX as i64 + 16384 - 16256 + 5 - 7) as i32 as u32
    );
    // Unsupported pairs are errors, not panics.
    assert_eq!(
        Kind::new(FP32, FP32),
        Err(TcuError::Formats { fmt_s: 0, fmt_d: 0 })
    );
    assert!(Kind::new(FP16, BF16).is_err());
    assert!(Kind::new(I8, FP32).is_err());
}

#[test]
fn geometry_follows_vortex_tensor_cfg() {
    let g = |nt| {
        let g = Geometry::new(nt).unwrap();
        (
            g.tcm,
            g.tcn,
            g.tck,
            g.m_steps,
            g.n_steps,
            g.k_steps,
            g.b_sub_blocks,
            g.nrb,
        )
    };
    assert_eq!(g(4), (2, 2, 2, 4, 2, 2, 1, 4));
    assert_eq!(g(8), (4, 2, 2, 2, 4, 4, 2, 8));
    assert_eq!(g(16), (4, 4, 4, 4, 2, 2, 1, 4));
    assert_eq!(g(32), (8, 4, 4, 2, 4, 4, 2, 8));
    assert_eq!(g(2), (2, 1, 1, 2, 4, 4, 2, 8));
    assert_eq!(Geometry::new(1), Err(TcuError::Lanes(1)));
    assert_eq!(Geometry::new(64), Err(TcuError::Lanes(64)));
    for nt in [2, 4, 8, 16, 32] {
        let g = Geometry::new(nt).unwrap();
        for sparse in [false, true] {
            let steps = g.steps(sparse);
            let k_count = if sparse { g.k_steps / 2 } else { g.k_steps };
            for s in &steps {
                assert!((10..18).contains(&s.a) && s.b >= 24 && s.c < 8, "{s:?}");
            }
            if !(sparse && g.sym_sparse()) {
                // Each K layer writes every C register exactly once.
                assert_eq!(steps.len() as u32, g.m_steps * g.n_steps * k_count);
                for k in 0..k_count {
                    let mut cs: Vec<u8> = steps.iter().filter(|s| s.k == k).map(|s| s.c).collect();
                    cs.sort();
                    assert_eq!(cs, (0..8).collect::<Vec<u8>>(), "nt {nt} sparse {sparse}");
                }
            }
        }
    }
}

/// The logical → physical register placement `vx_tensor.h` uses (its inverse maps, dense).
/// Returns the logical fragment index held by physical offset `off` of A, B and C.
fn logical(g: &Geometry, off: u32) -> (u32, u32, u32) {
    if g.b_sub_blocks == 1 {
        let m = (1 - ((off >> 1) & 1)) << 1 | off >> 2;
        let a = m * g.k_steps + (off & 1);
        let k = 1 - (off & 1);
        let b = k * g.n_steps + (((off >> 1) & 1) ^ k);
        let m_hi = 1 - ((off >> 1) & 1);
        let mc = m_hi << 1 | off >> 2;
        let c = mc * g.n_steps + (1 - (m_hi ^ (off & 1)));
        (a, b, c)
    } else {
        let m = 1 - ((off >> 1) & 1);
        let a = m * g.k_steps + ((m ^ (off & 1)) << 1 | off >> 2);
        let n_pair = 1 - (off & 1);
        let k_hi = ((off >> 1) & 1) ^ n_pair;
        let b = (k_hi << 1 | off >> 2) * g.b_sub_blocks + n_pair;
        let c = m * g.n_steps + ((off & 1) << 1 | off >> 2);
        (a, b, c)
    }
}

/// A dense matrix multiply through `wmma` with Vortex's fragment layout, against `reference`.
/// `elem(x)` encodes a small integer as the input format; `acc(x)`/`out(bits)` the accumulator.
fn dense_case(
    nt: u32,
    fmt_s: u8,
    fmt_d: u8,
    elem: impl Fn(i64) -> u32,
    acc: impl Fn(i64) -> u32,
    out: impl Fn(u32) -> i64,
    (lo, hi): (i64, i64),
) {
    let g = Geometry::new(nt).unwrap();
    let kind = Kind::new(fmt_s, fmt_d).unwrap();
    let per = 32 / input_bits(fmt_s).unwrap();
    let (tm, tn) = (g.m_steps * g.tcm, g.n_steps * g.tcn);
    let tk = g.k_steps * g.tck * per;
    let mut seed = 0x9e37_79b9u32 ^ nt ^ (fmt_s as u32) << 8;
    let mut rnd = || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        (seed % ((hi - lo) as u32 + 1)) as i64 + lo
    };
    let a: Vec<Vec<i64>> = (0..tm).map(|_| (0..tk).map(|_| rnd()).collect()).collect();
    let b: Vec<Vec<i64>> = (0..tk).map(|_| (0..tn).map(|_| rnd()).collect()).collect();
    let c: Vec<Vec<i64>> = (0..tm)
        .map(|_| (0..tn).map(|_| rnd() * 3 - 1).collect())
        .collect();
    let bits = 32 / per;
    let pack = |vals: &mut dyn Iterator<Item = i64>| {
        vals.enumerate().fold(0u32, |w, (i, v)| {
            let e = elem(v);
            w | if bits == 32 {
                e
            } else {
                (e & ((1 << bits) - 1)) << (i as u32 * bits)
            }
        })
    };
    let mut f = [[0u32; 32]; 32];
    let b_sub_steps = g.n_steps / g.b_sub_blocks;
    for off in 0..8u32 {
        let (la, lb, lc) = logical(&g, off);
        for lane in 0..nt {
            // A: row-major, register la = (block_m, block_k).
            let (bm, bk) = (la / g.k_steps, la % g.k_steps);
            let row = bm * g.tcm + lane / g.tck;
            let col = bk * g.tck * per + (lane % g.tck) * per;
            f[10 + off as usize][lane as usize] =
                pack(&mut (0..per).map(|e| a[row as usize][(col + e) as usize]));
            // B: K × N, register lb = (block_k, block_n); each lane packs `per` rows.
            if off < g.nrb {
                let (bk, bn) = (lb / b_sub_steps, lb % b_sub_steps);
                let blk = g.tck * g.tcn;
                let (idx, inb) = (lane / blk, lane % blk);
                let col = inb / g.tck + idx * g.tcn + bn * g.b_sub_blocks * g.tcn;
                let row = (inb % g.tck) * per + bk * g.tck * per;
                let base = if g.nrb == 4 { 28 } else { 24 };
                f[base + off as usize][lane as usize] =
                    pack(&mut (0..per).map(|e| b[(row + e) as usize][col as usize]));
            }
            // C: register lc = (block_m, block_n).
            let (bm, bn) = (lc / g.n_steps, lc % g.n_steps);
            let (r, cc) = (bm * g.tcm + lane / g.tcn, bn * g.tcn + lane % g.tcn);
            f[off as usize][lane as usize] = acc(c[r as usize][cc as usize]);
        }
    }
    wmma(&g, kind, None, &mut f, u32::MAX).unwrap();
    for off in 0..8u32 {
        let (_, _, lc) = logical(&g, off);
        for lane in 0..nt {
            let (bm, bn) = (lc / g.n_steps, lc % g.n_steps);
            let (r, cc) = (
                (bm * g.tcm + lane / g.tcn) as usize,
                (bn * g.tcn + lane % g.tcn) as usize,
            );
            let want: i64 = c[r][cc] + (0..tk as usize).map(|k| a[r][k] * b[k][cc]).sum::<i64>();
            assert_eq!(
                out(f[off as usize][lane as usize]),
                want,
                "nt {nt} fmt {fmt_s}->{fmt_d}: D[{r}][{cc}]"
            );
        }
    }
}

fn f32_of(x: i64) -> u32 {
    (x as f32).to_bits()
}
fn from_f32(w: u32) -> i64 {
    f32::from_bits(w) as i64
}

#[test]
fn dense_wmma_is_a_matrix_multiply_for_every_format_and_warp_width() {
    let via = |fmt: u8| move |x: i64| num::from_f32(fmt, f32_of(x));
    for nt in [2, 4, 8, 16, 32] {
        for fmt in [FP16, BF16, FP8, BF8] {
            dense_case(nt, fmt, FP32, via(fmt), f32_of, from_f32, (-3, 3));
        }
        dense_case(
            nt,
            TF32,
            FP32,
            |x| f32_of(x) >> 13,
            f32_of,
            from_f32,
            (-100, 100),
        );
        // Same-format accumulators, with sums small enough to stay exact in the format.
        for fmt in [FP16, BF16] {
            let back = move |w: u32| f32::from_bits(num::to_f32(fmt, w)) as i64;
            dense_case(nt, fmt, fmt, via(fmt), via(fmt), back, (-2, 2));
        }
        let int = |x: i64| x as u32;
        let back = |w: u32| w as i32 as i64;
        dense_case(nt, I8, I32, int, int, back, (-128, 127));
        dense_case(nt, U8, I32, int, int, back, (0, 255));
        dense_case(nt, I4, I32, int, int, back, (-8, 7));
        dense_case(nt, U4, I32, int, int, back, (0, 15));
    }
}

#[test]
fn inactive_lanes_keep_their_accumulators() {
    let g = Geometry::new(8).unwrap();
    let kind = Kind::new(I8, I32).unwrap();
    let mut f = [[0x0101_0101u32; 32]; 32];
    let before = f;
    wmma(&g, kind, None, &mut f, 0b0000_0101).unwrap();
    for r in 0..8 {
        for l in 0..8 {
            let changed = f[r][l] != before[r][l];
            assert_eq!(changed, l == 0 || l == 2, "f{r} lane {l}");
        }
    }
}

#[test]
fn gather_packs_the_selected_elements_in_order() {
    // 8-bit: pick elements 1, 3 of w0 and 0, 2 of w1.
    assert_eq!(
        gather(0x4433_2211, 0x8877_6655, 0b1010, 0b0101, 8),
        0x7755_4422
    );
    // 16-bit: element 1 of w0, element 0 of w1.
    assert_eq!(
        gather(0xbbbb_aaaa, 0xdddd_cccc, 0b10, 0b01, 16),
        0xcccc_bbbb
    );
    // tf32: one word or the other.
    assert_eq!(gather(7, 9, 0, 1, 32), 9);
}

#[test]
fn tcu_ld_cells_for_eight_lanes() {
    // 8 lanes: 4 banks (2 M steps × 1 sparse K step), 4 words each; a load fills two words of
    // every bank: lanes 0–3 the banks' word 2·slot, lanes 4–7 word 2·slot + 1.
    let g = Geometry::new(8).unwrap();
    let cells = |slot| meta_load_cells(&g, slot);
    let want = |slot: usize| -> Vec<(u32, usize)> {
        (0..8u32)
            .map(|t| (t, (t % 4) as usize * 4 + 2 * slot + (t / 4) as usize))
            .collect()
    };
    assert_eq!(cells(0), want(0));
    assert_eq!(cells(1), want(1));
    assert!(cells(2).is_empty());
}

/// A 2:4-sparse multiply through `wmma.sp`, against a dense `i64` multiply of the uncompressed
/// A. With 2, 8 and 32 lanes (the interleaved layout) the fragments are placed by
/// `vx_tensor.h`'s sparse layout and inverse permutation; with 4 and 16 (the symmetric layout:
/// B register `2n + h` holds half `h` of N block `n`'s columns over all of K, C register
/// `m·n_steps + n` block `(m, n)`) as SimX reads them.
fn sparse_case(nt: u32, fmt_s: u8, fmt_d: u8, elem: impl Fn(i64) -> u32, out: impl Fn(u32) -> i64) {
    let g = Geometry::new(nt).unwrap();
    let sym = g.sym_sparse();
    let kind = Kind::new(fmt_s, fmt_d).unwrap();
    let bits = input_bits(fmt_s).unwrap();
    let per = 32 / bits;
    let (tm, tn) = (g.m_steps * g.tcm, g.n_steps * g.tcn);
    let tk = g.k_steps * g.tck * per; // dense K elements
    let mut seed = 0x1234_5678u32 ^ nt ^ (fmt_s as u32) << 12;
    let mut rnd = |n: u32| {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed % n
    };
    // Dense A with, in every group of 2·per K elements (two B words), exactly per non-zeros
    // at chosen positions; `sel[r][g]` is the mask of those positions.
    let groups = tk / (2 * per);
    let mut a = vec![vec![0i64; tk as usize]; tm as usize];
    let mut sel = vec![vec![0u64; groups as usize]; tm as usize];
    for r in 0..tm as usize {
        for gi in 0..groups as usize {
            let mut m = 0u64;
            while m.count_ones() < per {
                m |= 1 << rnd(2 * per);
            }
            sel[r][gi] = m;
            for p in 0..2 * per as usize {
                if m >> p & 1 == 1 {
                    a[r][gi * 2 * per as usize + p] = rnd(5) as i64 - 2;
                }
            }
        }
    }
    let b: Vec<Vec<i64>> = (0..tk)
        .map(|_| (0..tn).map(|_| rnd(5) as i64 - 2).collect())
        .collect();
    let pack = |vals: &[i64]| {
        vals.iter().enumerate().fold(0u32, |w, (i, &v)| {
            let e = elem(v);
            w | if bits == 32 {
                e
            } else {
                (e & ((1 << bits) - 1)) << (i as u32 * bits)
            }
        })
    };
    let mut f = [[0u32; 32]; 32];
    let ks = g.k_steps / 2;
    for off in 0..8u32 {
        for lane in 0..nt {
            // Compressed A, identity placement: register (block_m, block_k).
            if off < g.m_steps * ks {
                let (bm, bk) = (off / ks, off % ks);
                let row = (bm * g.tcm + lane / g.tck) as usize;
                let word = bk * g.tck + lane % g.tck; // compressed word = dense group
                let vals: Vec<i64> = (0..2 * per)
                    .filter(|p| sel[row][word as usize] >> p & 1 == 1)
                    .map(|p| a[row][(word * 2 * per + p) as usize])
                    .collect();
                f[10 + off as usize][lane as usize] = pack(&vals);
            }
            if sym {
                if off < g.nrb {
                    let (n, h) = (off / 2, off % 2);
                    let col = (n * g.tcn + h * (g.tcn / 2) + lane / (2 * g.tck)) as usize;
                    let word = lane % (2 * g.tck);
                    let vals: Vec<i64> = (0..per)
                        .map(|e| b[(word * per + e) as usize][col])
                        .collect();
                    f[28 + off as usize][lane as usize] = pack(&vals);
                }
                continue;
            }
            // B: lane l holds column l / (2 tcK), dense word l % (2 tcK) of K block block_k.
            let k = 1 - (off & 1);
            let n = (off >> 2) << 1 | ((1 - ((off >> 1) & 1)) ^ k);
            let lb = k * g.n_steps + n;
            let (bk, bn) = (lb / g.n_steps, lb % g.n_steps);
            let col = (lane / (2 * g.tck) + bn * g.tcn) as usize;
            let word = lane % (2 * g.tck) + bk * 2 * g.tck;
            let vals: Vec<i64> = (0..per)
                .map(|e| b[(word * per + e) as usize][col])
                .collect();
            f[24 + off as usize][lane as usize] = pack(&vals);
        }
    }
    // Metadata: bank (m, k); row i's lo masks for words z, then its hi masks.
    let mut meta = vec![0u32; (g.meta_banks() * g.meta_cols()) as usize];
    for bm in 0..g.m_steps {
        for bk in 0..ks {
            let bank = (bm * ks + bk) as usize;
            for i in 0..g.tcm {
                for z in 0..g.tck {
                    let m = sel[(bm * g.tcm + i) as usize][(bk * g.tck + z) as usize];
                    let (lo, hi) = (m & ((1 << per) - 1), m >> per);
                    let base = i * g.tck * 2 * per;
                    for (at, mask) in [(base + per * z, lo), (base + per * (g.tck + z), hi)] {
                        for e in 0..per {
                            let bit = at + e;
                            let cell = bank * g.meta_cols() as usize + bit as usize / 32;
                            meta[cell] |= ((mask >> e & 1) as u32) << (bit % 32);
                        }
                    }
                }
            }
        }
    }
    wmma(&g, kind, Some(&meta), &mut f, u32::MAX).unwrap();
    for off in 0..8u32 {
        let (m, n) = if sym {
            (off / g.n_steps, off % g.n_steps)
        } else {
            let m = (off >> 1) & 1;
            (m, (off >> 2) << 1 | ((1 - (off & 1)) ^ m))
        };
        for lane in 0..nt {
            let r = (m * g.tcm + lane / g.tcn) as usize;
            let c = (n * g.tcn + lane % g.tcn) as usize;
            let want: i64 = (0..tk as usize).map(|k| a[r][k] * b[k][c]).sum();
            assert_eq!(
                out(f[off as usize][lane as usize]),
                want,
                "nt {nt} fmt {fmt_s}: D[{r}][{c}]"
            );
        }
    }
}

#[test]
fn sparse_wmma_is_a_matrix_multiply_of_the_uncompressed_a() {
    let via = |fmt: u8| move |x: i64| num::from_f32(fmt, f32_of(x));
    let int = |x: i64| x as u32;
    let back = |w: u32| w as i32 as i64;
    for nt in [2, 4, 8, 16, 32] {
        for fmt in [FP16, BF16, FP8, BF8] {
            sparse_case(nt, fmt, FP32, via(fmt), from_f32);
        }
        sparse_case(nt, TF32, FP32, |x| f32_of(x) >> 13, from_f32);
        sparse_case(nt, I8, I32, int, back);
        sparse_case(nt, I4, I32, int, back);
    }
}

/// A dense `wgmma` with A and B in a byte array standing for shared memory, against a plain
/// matrix multiply. `block` selects the block-major layouts of `vx_tensor.h`'s cooperative
/// loads; otherwise A is row-major and B K-major (one row of K per column of N).
fn wgmma_case(nt: u32, nrc: u32, a_smem: bool, block: bool, fmt_s: u8, fmt_d: u8) {
    let g = Geometry::new(nt).unwrap();
    let kind = Kind::new(fmt_s, fmt_d).unwrap();
    wgmma_check(kind).unwrap();
    let bits = input_bits(fmt_s).unwrap();
    let (per, bytes) = (32 / bits, bits / 8);
    let (tm, n_steps) = (2 * g.tcm, nrc * nt / (2 * g.tcm) / g.tcn);
    let tn = n_steps * g.tcn;
    let tk = 2 * g.tck * per;
    let mut seed = 0xdead_beefu32 ^ nt ^ nrc << 8 ^ (fmt_s as u32) << 16;
    let lo = if fmt_s == U8 { 0 } else { -3 };
    let mut rnd = || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        (seed % 7) as i64 + lo
    };
    let a: Vec<Vec<i64>> = (0..tm).map(|_| (0..tk).map(|_| rnd()).collect()).collect();
    let b: Vec<Vec<i64>> = (0..tk).map(|_| (0..tn).map(|_| rnd()).collect()).collect();
    let enc = |x: i64| match fmt_s {
        I8 | U8 => x as u32 & 0xff,
        TF32 => (x as f32).to_bits() >> 13,
        _ => num::from_f32(fmt_s, (x as f32).to_bits()),
    };
    let kb = g.tck * per;
    let (a_at, b_at) = (0x100u32, 0x2000u32);
    let (lda, ldb) = if block { (0, 0) } else { (tk + 4, tk + 8) };
    let mut mem = vec![0u8; 0x8000];
    let mut put = |addr: u32, v: u32| {
        for i in 0..bytes {
            mem[(addr + i) as usize] = (v >> (8 * i)) as u8;
        }
    };
    for r in 0..tm {
        for c in 0..tk {
            let off = if block {
                ((c / kb) * 2 + r / g.tcm) * g.tcm * kb + (r % g.tcm) * kb + c % kb
            } else {
                r * lda + c
            };
            put(a_at + off * bytes, enc(a[r as usize][c as usize]));
        }
    }
    for k in 0..tk {
        for n in 0..tn {
            let off = if block {
                ((k / kb) * n_steps + n / g.tcn) * kb * g.tcn + (n % g.tcn) * kb + k % kb
            } else {
                n * ldb + k
            };
            put(b_at + off * bytes, enc(b[k as usize][n as usize]));
        }
    }
    let mut f = [[0u32; 32]; 32];
    let acc = |x: i64| match fmt_d {
        I32 => x as u32,
        FP32 => (x as f32).to_bits(),
        _ => num::from_f32(fmt_d, (x as f32).to_bits()),
    };
    let c0 = |r: u32, c: u32| (r as i64 * 3 + c as i64) % 5 - 2;
    for m in 0..2 {
        for n in 0..n_steps {
            for lane in 0..nt {
                let (r, c) = (m * g.tcm + lane / g.tcn, n * g.tcn + lane % g.tcn);
                f[(n * 2 + m) as usize][lane as usize] = acc(c0(r, c));
            }
        }
        if !a_smem {
            for k in 0..2 {
                for lane in 0..nt {
                    let row = (m * g.tcm + lane / g.tck) as usize;
                    let w = (k * g.tck + lane % g.tck) * per;
                    let v = (0..per).fold(0u32, |acc, e| {
                        let x = enc(a[row][(w + e) as usize]);
                        acc | if bits == 32 { x } else { x << (e * bits) }
                    });
                    f[(24 + m * 2 + k) as usize][lane as usize] = v;
                }
            }
        }
    }
    let flags = WgFlags::new(
        ([8, 16, 32].iter().position(|&x| x == nrc).unwrap() as u8) << 1 | (a_smem as u8) << 3,
    );
    assert_eq!(flags.nrc, nrc);
    let base = 0x1000_0000u32;
    let descs = ((lda * bytes) << 16 | a_at, (ldb * bytes) << 16 | b_at, base);
    let mut load = |addr: u32, n: u32| -> Result<u32, String> {
        let at = addr.checked_sub(base).ok_or("below shared memory")? as usize;
        Ok((0..n as usize).fold(0u32, |v, i| v | (mem[at + i] as u32) << (8 * i)))
    };
    wgmma(&g, kind, flags, descs, None, &mut f, u32::MAX, &mut load).unwrap();
    let back = |w: u32| -> i64 {
        match fmt_d {
            I32 => w as i32 as i64,
            FP32 => f32::from_bits(w) as i64,
            _ => f32::from_bits(num::to_f32(fmt_d, w)) as i64,
        }
    };
    for m in 0..2 {
        for n in 0..n_steps {
            for lane in 0..nt {
                let (r, c) = (m * g.tcm + lane / g.tcn, n * g.tcn + lane % g.tcn);
                let want = c0(r, c)
                    + (0..tk as usize)
                        .map(|k| a[r as usize][k] * b[k][c as usize])
                        .sum::<i64>();
                assert_eq!(
                    back(f[(n * 2 + m) as usize][lane as usize]),
                    want,
                    "nt {nt} nrc {nrc} smem {a_smem} block {block} fmt {fmt_s}: D[{r}][{c}]"
                );
            }
        }
    }
}

#[test]
fn wgmma_is_a_matrix_multiply_from_shared_memory() {
    for nt in [4, 8, 16, 32] {
        for nrc in [8, 16, 32] {
            for a_smem in [true, false] {
                if !a_smem && nrc == 32 {
                    continue; // A's registers f24–f27 are C registers then (Vortex forbids it).
                }
                for block in [false, true] {
                    for (s, d) in [
                        (FP16, FP32),
                        (BF16, FP32),
                        (FP8, FP32),
                        (TF32, FP32),
                        (I8, I32),
                        (U8, I32),
                    ] {
                        wgmma_case(nt, nrc, a_smem, block, s, d);
                    }
                }
            }
        }
    }
    assert_eq!(
        wgmma_check(Kind::new(I4, I32).unwrap()),
        Err(TcuError::WgmmaNibbles(I4))
    );
}

//! The example programs in `examples/` give the results a host computation gives.

mod common;
use common::*;
use weft_simt::{Config, ReconvMode, RunEnd};

#[test]
fn matmul_matches_host_reference_on_many_shapes() {
    let src = std::fs::read_to_string(format!(
        "{}/../../examples/matmul.s",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let n = 32i64;
    let c: Vec<u32> = (0..n * n)
        .map(|e| {
            let (i, j) = (e / n, e % n);
            (0..n).map(|k| (i + k) * (k - j)).sum::<i64>() as u32
        })
        .collect();
    let checksum = c.iter().enumerate().fold(0u32, |s, (i, &v)| {
        s.wrapping_add(v.wrapping_mul(i as u32 + 1))
    });
    for (cores, warps, lanes) in [(1, 4, 8), (1, 1, 1), (2, 8, 16), (3, 2, 3), (1, 32, 32)] {
        for reconv in [ReconvMode::Table, ReconvMode::Converge] {
            let cfg = Config {
                cores,
                warps,
                lanes,
                reconv,
                max_cycles: 5_000_000,
                ..Config::default()
            };
            let r = run_src(&src, cfg);
            assert_eq!(r.end, RunEnd::Exit(0), "{cores}x{warps}x{lanes} {reconv:?}");
            assert_eq!(r.words("C", (n * n) as usize), c, "{cores}x{warps}x{lanes}");
            assert_eq!(r.word("checksum"), checksum);
            assert_eq!(
                String::from_utf8_lossy(r.m.console()),
                format!("matmul 32x32 checksum {checksum:#010x}\n")
            );
        }
    }
}

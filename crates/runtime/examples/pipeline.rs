//! A Rust host program for weft: vecadd, a tiled sgemm, a block reduction and a two-launch
//! pipeline, each checked against a reference computed here. With `--rtl` it runs on the RTL
//! (weft's SystemVerilog core under Verilator, one core) instead of the functional model.
//!
//! ```sh
//! cargo run --release -p weft-runtime --example pipeline
//! cargo run --release -p weft-runtime --example pipeline -- --rtl
//! ```

use std::path::PathBuf;
use weft_runtime::{Args, BackendKind, Device, DeviceConfig, Dim3, RuntimeError};

pub fn main() -> Result<(), RuntimeError> {
    let rtl = std::env::args().any(|a| a == "--rtl");
    run(DeviceConfig {
        cores: if rtl { 1 } else { 2 },
        warps: 4,
        lanes: 8,
        backend: if rtl {
            BackendKind::Rtl
        } else {
            BackendKind::Functional
        },
        ..DeviceConfig::default()
    })
}

/// The four programs on a device of configuration `cfg`.
pub fn run(cfg: DeviceConfig) -> Result<(), RuntimeError> {
    let kernels = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/host/kernels.c");

    // vecadd and sgemm (examples/host/kernels.c)
    let mut d = Device::from_c(cfg, &[kernels.as_path()])?;
    let n = 10_000u32;
    let a: Vec<f32> = (0..n).map(|i| (i % 97) as f32 * 0.5).collect();
    let b: Vec<f32> = (0..n).map(|i| (i % 13) as f32 - 6.0).collect();
    let (ba, bb, bc) = (d.alloc_from(&a)?, d.alloc_from(&b)?, d.alloc(4 * n)?);
    let args = Args::new().buffer(&ba).buffer(&bb).buffer(&bc).push(n);
    d.launch("vecadd", Dim3::x(n.div_ceil(64)), Dim3::x(64), &args)?;
    d.wait(None)?;
    let c: Vec<f32> = d.read(&bc)?;
    assert!(
        c.iter()
            .zip(a.iter().zip(&b))
            .all(|(c, (a, b))| *c == a + b),
        "vecadd"
    );
    println!("vecadd: {n} elements correct");

    let (m, tile) = (32u32, 4u32);
    let ma: Vec<f32> = (0..m * m).map(|i| ((i * 7) % 11) as f32 - 5.0).collect();
    let mb: Vec<f32> = (0..m * m).map(|i| ((i * 5) % 9) as f32 - 4.0).collect();
    let (pa, pb, pc) = (d.alloc_from(&ma)?, d.alloc_from(&mb)?, d.alloc(4 * m * m)?);
    let args = Args::new().buffer(&pa).buffer(&pb).buffer(&pc).push(m);
    d.launch_shared(
        "sgemm",
        Dim3::new(m / tile, m / tile, 1),
        Dim3::new(tile, tile, 1),
        2 * tile * tile * 4,
        &args,
    )?;
    d.wait(None)?;
    let got: Vec<f32> = d.read(&pc)?;
    for r in 0..m as usize {
        for col in 0..m as usize {
            let want: f32 = (0..m as usize)
                .map(|k| ma[r * m as usize + k] * mb[k * m as usize + col])
                .sum();
            assert_eq!(got[r * m as usize + col], want, "sgemm [{r}][{col}]");
        }
    }
    println!("sgemm: {m}x{m} correct, {} cycles so far", d.cycles());

    // a reduction, then a pipeline: the sum feeds the next launch's input
    let v: Vec<u32> = (0..5000).map(|i| (i * 31) % 1000).collect();
    let (bin, bout) = (d.alloc_from(&v)?, d.alloc_from(&[0u32])?);
    let args = Args::new().buffer(&bin).push(5000u32).buffer(&bout);
    d.launch_shared(
        "block_sum",
        Dim3::x(5000u32.div_ceil(32)),
        Dim3::x(32),
        128,
        &args,
    )?;
    d.wait(None)?;
    let sum = d.read::<u32>(&bout)?[0];
    assert_eq!(sum, v.iter().sum::<u32>(), "reduction");
    let xs: Vec<f32> = vec![sum as f32; 100];
    let ys: Vec<f32> = (0..100).map(|i| i as f32).collect();
    let (bx, by, bz) = (d.alloc_from(&xs)?, d.alloc_from(&ys)?, d.alloc(400)?);
    d.launch(
        "vecadd",
        Dim3::x(4),
        Dim3::x(32),
        &Args::new().buffer(&bx).buffer(&by).buffer(&bz).push(100u32),
    )?;
    d.wait(None)?;
    let z: Vec<f32> = d.read(&bz)?;
    assert!(
        z.iter()
            .enumerate()
            .all(|(i, &z)| z == sum as f32 + i as f32),
        "pipeline"
    );
    println!("reduction: sum {sum} correct; pipeline: correct");
    Ok(())
}

//! The Rust host example (crates/runtime/examples/pipeline.rs: vecadd, sgemm, a block
//! reduction, a two-launch pipeline, each checked against a reference computed on the host)
//! runs and its checks pass: on the functional model (two cores), and on the RTL backend
//! (weft's SystemVerilog core under Verilator; Verilator missing is a failure with a message,
//! never a skip).

#[path = "../examples/pipeline.rs"]
mod pipeline;

use weft_runtime::{BackendKind, DeviceConfig};

#[test]
fn the_rust_example_runs() {
    pipeline::main().expect("the example runs");
}

#[test]
fn the_rust_example_runs_on_the_rtl() {
    pipeline::run(DeviceConfig {
        cores: 1,
        warps: 4,
        lanes: 8,
        backend: BackendKind::Rtl,
        ..DeviceConfig::default()
    })
    .unwrap_or_else(|e| panic!("the example on the RTL: {e}"));
}

/// Each launch's own counters on the RTL (kept by its testbench at the launch CSR's writes):
/// the functional model's, instruction for instruction, launch by launch.
#[test]
fn the_rtl_keeps_each_launchs_counters() {
    use weft_runtime::{Args, Device, Dim3};
    let kernels =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/host/kernels.c");
    let launches = |backend| {
        let cfg = DeviceConfig {
            cores: 1,
            warps: 4,
            lanes: 8,
            backend,
            ..DeviceConfig::default()
        };
        let mut d = Device::from_c(cfg, &[kernels.as_path()]).expect("the device");
        for n in [1000u32, 300] {
            let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
            let (ba, bb, bc) = (
                d.alloc_from(&a).unwrap(),
                d.alloc_from(&a).unwrap(),
                d.alloc(4 * n).unwrap(),
            );
            let args = Args::new().buffer(&ba).buffer(&bb).buffer(&bc).push(n);
            d.launch("vecadd", Dim3::x(n.div_ceil(64)), Dim3::x(64), &args)
                .unwrap();
            d.wait(None).unwrap();
            let c: Vec<f32> = d.read(&bc).unwrap();
            assert!(c.iter().enumerate().all(|(i, &c)| c == 2.0 * i as f32));
        }
        d.launch_stats()
    };
    let (model, rtl) = (
        launches(BackendKind::Functional),
        launches(BackendKind::Rtl),
    );
    assert_eq!(model.len(), 2, "{model:?}");
    assert_eq!(rtl.len(), 2, "{rtl:?}");
    for (r, m) in rtl.iter().zip(&model) {
        assert_eq!(r["kernel"], "vecadd");
        for k in [
            "kernel",
            "complete",
            "warp_instructions",
            "thread_instructions",
            "loads",
            "stores",
            "divergences",
            "classes",
        ] {
            assert_eq!(r[k], m[k], "{k}: rtl {r} model {m}");
        }
        assert!(r["cycles"].as_u64().unwrap() > m["cycles"].as_u64().unwrap());
    }
    assert_ne!(rtl[0]["warp_instructions"], rtl[1]["warp_instructions"]);
}

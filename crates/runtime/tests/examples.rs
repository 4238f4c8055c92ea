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

//! The Rust host example (crates/runtime/examples/pipeline.rs) runs and its checks pass.

#[path = "../examples/pipeline.rs"]
mod pipeline;

#[test]
fn the_rust_example_runs() {
    pipeline::main().expect("the example runs");
}

//! The compile-fail tests of weft-kernel's typed warps (`device/rust/weft-kernel/src/warp.rs`,
//! docs/warp.md) live in this crate's `tests/compile_fail.rs`; it has no code of its own.
//! The programs are `device/rust/weft-kernel/tests/ui/*.rs`, and the compiler's message for
//! each is the `.stderr` file beside it.

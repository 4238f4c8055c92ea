//! weft-kernel's typed warps reject each misuse at compile time: a collective on a diverged
//! sub-warp, keeping a sub-warp past its branch, merging sub-warps of different branches, the
//! whole warp inside its own branch, a diverge left without merging. The programs are
//! device/rust/weft-kernel/tests/ui/*.rs; the compiler's messages are the `.stderr` files
//! beside them (docs/warp.md shows them). After a deliberate change, regenerate those with
//! `TRYBUILD=overwrite cargo test --release -p weft-warp-types`, and read the diff.

use std::path::PathBuf;

#[test]
fn warp_misuse_does_not_compile() {
    let ui = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../device/rust/weft-kernel/tests/ui")
        .canonicalize()
        .expect("device/rust/weft-kernel/tests/ui");
    let mut names: Vec<String> = std::fs::read_dir(&ui)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".rs"))
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "collective_on_a_diverged_warp.rs",
            "keeping_a_sub_warp_past_its_branch.rs",
            "leaving_diverge_without_merging.rs",
            "merging_sub_warps_of_different_branches.rs",
            "the_whole_warp_inside_its_branch.rs",
        ]
    );
    let t = trybuild::TestCases::new();
    for n in &names {
        t.compile_fail(ui.join(n));
    }
}

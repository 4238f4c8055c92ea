//! The crates stay layered: every dependency of a weft crate (normal or dev) points to a crate
//! on a lower level, never sideways into a higher one and never upward. A new crate must be
//! given its level here; the levels are drawn in docs/architecture.md.

use std::collections::BTreeMap;
use std::process::Command;

/// Level of each workspace crate: 0 = leaves, higher levels build on lower ones.
const LEVELS: &[(&str, u32)] = &[
    ("weft-isa", 0),
    ("weft-elf", 0),
    ("weft-mem", 0),
    ("weft-fb", 0),
    ("weft-config", 0),
    // Only compile-fail tests of device/rust's weft-kernel (not a workspace crate).
    ("weft-warp-types", 0),
    ("weft-asm", 1),
    // Per-lane semantics; the tensor core's format ids are the instruction table's.
    ("weft-sem", 1),
    ("weft-reconv", 1),
    ("weft-device", 1),
    // The device bus and its devices (display, DMA), beside weft-fb.
    ("weft-devices", 1),
    ("weft-sp2a", 2),
    ("weft-simt", 2),
    ("weft-cc", 3),
    ("weft-jit", 3),
    ("weft-timing", 3),
    // The RTL under Verilator as a device (the runtime's RTL backend, `weft run --rtl`).
    ("weft-rtl", 3),
    ("weft-view", 3),
    ("weft-gdb", 4),
    ("weft-difftest", 4),
    ("weft-runtime", 4),
    ("weft-runtime-c", 5),
    // Above weft-difftest: its random-kernel test draws kernels from the SIMT consistency
    // generator.
    ("weft-rtl-lockstep", 5),
    ("weft-vortex-rt", 5),
    ("weft-opencl", 5),
    // The command line sits on top of everything, the RTL board runner included.
    ("weft", 6),
    // Hostile-input campaigns over the C ABI and the GDB stub (the fuzz runs' binary).
    ("weft-hostile", 6),
];

#[test]
fn no_crate_depends_on_one_at_its_own_level_or_above() {
    let out = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata JSON");
    let levels: BTreeMap<&str, u32> = LEVELS.iter().copied().collect();
    let mut seen = 0;
    let mut wrong = Vec::new();
    for pkg in meta["packages"].as_array().expect("packages") {
        let name = pkg["name"].as_str().unwrap();
        let Some(&lvl) = levels.get(name) else {
            panic!("crate {name} has no level in tests/layering.rs: give it one");
        };
        seen += 1;
        for dep in pkg["dependencies"].as_array().unwrap() {
            let d = dep["name"].as_str().unwrap();
            if let Some(&dl) = levels.get(d) {
                if dl >= lvl {
                    wrong.push(format!("{name} (level {lvl}) -> {d} (level {dl})"));
                }
            }
        }
    }
    assert_eq!(seen, LEVELS.len(), "every listed crate is in the workspace");
    assert!(
        wrong.is_empty(),
        "dependencies against the layering: {wrong:?}"
    );
}

//! The one configuration file: the documented defaults (docs/configuration.md's example) are
//! the code's defaults, a partial cache section keeps that cache's own defaults, the shipped
//! files load, and impossible values are refused naming their key.

use std::path::Path;
use weft_timing::config::{SchedPolicy, WritePolicy};
use weft_timing::MachineConfig;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

#[test]
fn the_documented_defaults_are_the_defaults() {
    let doc = std::fs::read_to_string(root().join("docs/configuration.md")).unwrap();
    let example = doc.split("## Example").nth(1).expect("an Example section");
    let toml = example
        .split("```toml")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a toml block");
    let c = MachineConfig::from_toml(toml).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c, MachineConfig::default());
}

#[test]
fn a_partial_section_keeps_its_own_caches_defaults() {
    let c = MachineConfig::from_toml("[l2]\nenabled = true\n[l1]\nways = 4\n").unwrap();
    assert!(c.timing.l2.enabled);
    assert_eq!(
        c.timing.l2.size,
        MachineConfig::default().timing.l2.size,
        "the L2's own size"
    );
    assert_eq!(c.timing.l1.ways, 4);
    assert_eq!(c.timing.l1.line, 256);
    let c = MachineConfig::from_toml(
        "[pipeline]\nscheduler = \"two-level\"\n[l1]\nwrite_policy = \"write-back\"\n",
    )
    .unwrap();
    assert_eq!(c.timing.pipeline.scheduler, SchedPolicy::TwoLevel);
    assert_eq!(c.timing.l1.write_policy, WritePolicy::WriteBack);
}

#[test]
fn the_shipped_configurations_load() {
    for f in ["configs/vortex-paper.toml", "configs/warp-core.toml"] {
        let text = std::fs::read_to_string(root().join(f)).unwrap();
        let c = MachineConfig::from_toml(&text).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert!(c.machine.timing, "{f}");
    }
}

#[test]
fn impossible_values_name_their_key() {
    for (toml, key) in [
        ("[l1]\nsize = 3000\n", "l1.size"),
        ("[l1]\nline = 2\n", "l1.line"),
        ("[icache]\nways = 3\n", "icache.ways"),
        ("[l2]\nmshrs = 0\n", "l2.mshrs"),
        ("[l1]\nsize = 256\nline = 256\nways = 2\n", "l1.size"),
        ("[units.fdiv]\ninterval = 0\n", "units.fdiv.interval"),
        ("[units.mul]\ncount = 33\n", "units.mul.count"),
        ("[pipeline]\nactive_warps = 0\n", "pipeline.active_warps"),
        ("[smem]\nbanks = 65\n", "smem.banks"),
        ("[dram]\nmax_outstanding = 0\n", "dram.max_outstanding"),
        ("[l1]\nenabled = false\n", "l1.enabled"),
        ("[l2]\nenabled = true\nline = 128\n", "l2.line"),
        ("[units.alu]\nlatencyy = 1\n", "latencyy"),
        ("[pipeline]\nscheduler = \"round-robin\"\n", "round-robin"),
        ("[l1]\nprefetch = 1\n", "l1.prefetch"),
        ("[icache]\nprefetch = 17\n", "icache.prefetch"),
        (
            "[l2]\nenabled = true\nwrite_policy = \"write-back\"\nallocate = \"fill\"\n",
            "l2.allocate",
        ),
    ] {
        let e = MachineConfig::from_toml(toml).expect_err(toml).to_string();
        assert!(e.contains(key), "{toml}: {e}");
    }
}

/// Every refused cache value names the rule it breaks, with its bounds: a cache smaller than
/// one set (line × ways), a line or way count that is no power of two or out of bounds.
#[test]
fn every_cache_refusal_names_its_rule_and_bounds() {
    for (text, want) in [
        (
            "[icache]\nsize = 32\n",
            "icache.size = 32 is out of range (allowed a power of two from icache.line × icache.ways = 64 × 2 = 128 (one set) to 64 MiB)",
        ),
        (
            "[l1]\nsize = 1024\nline = 256\nways = 8\n",
            "l1.size = 1024 is out of range (allowed a power of two from l1.line × l1.ways = 256 × 8 = 2048 (one set) to 64 MiB)",
        ),
        (
            "[l2]\nsize = 3000\n",
            "l2.size = 3000 is out of range (allowed a power of two from",
        ),
        (
            "[l1]\nline = 3\n",
            "l1.line = 3 is out of range (allowed a power of two, 4..=4096)",
        ),
        (
            "[l1]\nways = 128\n",
            "l1.ways = 128 is out of range (allowed a power of two, 1..=64)",
        ),
    ] {
        let e = MachineConfig::from_toml(text).expect_err(text);
        assert!(e.to_string().starts_with(want), "{text}: {e}");
    }
}

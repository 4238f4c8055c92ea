//! SIMT consistency: random lane-dependent kernels (if/else on id-derived values, loops with
//! id-dependent trip counts and early exits, calls from divergent code, per-lane memory and
//! AMOs) run with 4, 8 and 32 lanes under `ReconvMode::Table` and `ReconvMode::Converge`
//! must leave, in every lane's slot, exactly what a 1-lane run with that lane's id leaves.
//! (`Converge` with no `converge` instructions reconverges less, but per-lane results must
//! still be right.) `FollowLast` is Vortex's known-wrong mode and is not checked.

use weft_difftest::kernel::{Kernel, SLOT};
use weft_simt::{Config, ReconvMode, RunEnd};

const KERNELS: u64 = 80;
const SEED: u64 = 0x51_4700;

fn out_addr(elf: &[u8]) -> u32 {
    let img = weft_elf::read_elf(elf).expect("own ELF reads");
    img.symbol("out").expect("out symbol").value
}

/// Run `src` with `lanes` lanes; return the slots of ids `0..slots`.
fn run(src: &str, lanes: usize, mode: ReconvMode, slots: &[u32]) -> Result<Vec<Vec<u8>>, String> {
    let elf = weft_asm::assemble(src, "kernel.s").map_err(|e| format!("asm: {e}\n{src}"))?;
    let (prog, _) = weft_simt::load::program_from_elf(&elf).map_err(|e| format!("load: {e}"))?;
    let cfg = Config {
        cores: 1,
        warps: 1,
        lanes,
        reconv: mode,
        stack_depth: 1024,
        max_cycles: 2_000_000,
        ..Config::default()
    };
    let (m, end) = weft_difftest::engines::run_both(cfg, &prog, |_| {})
        .map_err(|e| format!("{lanes} lanes, {mode:?}: {e}"))?;
    match end {
        RunEnd::AllHalted => {}
        end => return Err(format!("{lanes} lanes, {mode:?}: run ended {end:?}")),
    }
    let base = out_addr(&elf);
    slots
        .iter()
        .map(|&id| {
            m.mem
                .read_bytes(0, base + id * SLOT, SLOT as usize)
                .map_err(|e| e.to_string())
        })
        .collect()
}

fn describe(a: &[u8], b: &[u8]) -> String {
    let word = |s: &[u8], i: usize| u32::from_le_bytes([s[i], s[i + 1], s[i + 2], s[i + 3]]);
    (0..a.len() / 4)
        .filter(|&w| word(a, 4 * w) != word(b, 4 * w))
        .map(|w| {
            let name = match w {
                0..=31 => format!("x{w}"),
                32..=39 => format!("f{}", w - 32),
                40 => "fcsr".into(),
                _ => format!("data+{}", 4 * w - 192),
            };
            format!(
                "{name}: L-lane {:#x} vs 1-lane {:#x}",
                word(a, 4 * w),
                word(b, 4 * w)
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[test]
fn every_lane_matches_its_one_lane_run() {
    let mut failures = Vec::new();
    for k in 0..KERNELS {
        let kernel = Kernel::generate(SEED + k, 14);
        // Reference: one lane per id.
        let reference: Result<Vec<Vec<u8>>, String> = (0..32u32)
            .map(|id| {
                run(&kernel.source(&[id]), 1, ReconvMode::Table, &[id]).map(|mut v| v.remove(0))
            })
            .collect();
        let reference = match reference {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("seed {:#x}: 1-lane run: {e}", kernel.seed));
                continue;
            }
        };
        let ids: Vec<u32> = (0..32).collect();
        let src = kernel.source(&ids);
        for lanes in [4usize, 8, 32] {
            for mode in [ReconvMode::Table, ReconvMode::Converge] {
                match run(&src, lanes, mode, &ids[..lanes]) {
                    Ok(slots) => {
                        for (id, slot) in slots.iter().enumerate() {
                            if *slot != reference[id] {
                                failures.push(format!(
                                    "seed {:#x}, {lanes} lanes, {mode:?}, lane {id}: {}",
                                    kernel.seed,
                                    describe(slot, &reference[id])
                                ));
                            }
                        }
                    }
                    Err(e) => failures.push(format!("seed {:#x}: {e}", kernel.seed)),
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

/// The kernels really diverge: under Table mode the 32-lane runs see divergences.
#[test]
fn kernels_diverge() {
    let mut diverged = 0;
    for k in 0..10 {
        let kernel = Kernel::generate(SEED + k, 14);
        let ids: Vec<u32> = (0..32).collect();
        let elf = weft_asm::assemble(&kernel.source(&ids), "k.s").expect("assembles");
        let (prog, _) = weft_simt::load::program_from_elf(&elf).expect("loads");
        let cfg = Config {
            warps: 1,
            lanes: 32,
            stack_depth: 1024,
            max_cycles: 2_000_000,
            ..Config::default()
        };
        let (m, end) = weft_difftest::engines::run_both(cfg, &prog, |_| {}).expect("run");
        assert_eq!(end, RunEnd::AllHalted);
        if m.cores[0].warps[0].stats.divergences > 0 {
            diverged += 1;
        }
    }
    assert!(diverged >= 8, "only {diverged} of 10 kernels diverged");
}

/// The property has teeth: Vortex's follow-the-last-lane mode, which is wrong for divergent
/// code by design, fails it.
#[test]
fn follow_last_is_caught() {
    let caught = (0..10).any(|k| {
        let kernel = Kernel::generate(SEED + k, 14);
        let ids: Vec<u32> = (0..8).collect();
        let reference: Vec<Vec<u8>> = ids
            .iter()
            .map(|&id| {
                run(&kernel.source(&[id]), 1, ReconvMode::Table, &[id])
                    .unwrap()
                    .remove(0)
            })
            .collect();
        match run(&kernel.source(&ids), 8, ReconvMode::FollowLast, &ids) {
            Ok(slots) => slots != reference,
            Err(_) => true,
        }
    });
    assert!(
        caught,
        "FollowLast passed the consistency property on 10 kernels"
    );
}

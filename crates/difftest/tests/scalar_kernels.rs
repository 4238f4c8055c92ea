//! Scalar translations (weft-jit, docs/engine.md § One active lane) on compiled kernels:
//! kernels of examples/kernels built by `weft cc -O2` run on the interpreter and on the
//! block engine (the eager one: every block translated at once) at 8 and 32 lanes; the two
//! must end alike with the same whole state, the kernel must print its own PASS (its `main`
//! checks the launch against a sequential reference), and most of `main`'s one-lane
//! set-up and check must have run in scalar translations. (Here rather than in weft-jit's
//! tests: weft-cc sits on weft-jit's level of the crate layers.)

use weft_simt::load::program_from_elf;
use weft_simt::{Config, Machine, RunEnd};

fn build(name: &str, dir: &std::path::Path) -> Vec<u8> {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/kernels")
        .join(name);
    weft_difftest::compiled::weft_cc_o2(&src, dir).unwrap_or_else(|e| panic!("{e}"))
}

/// Run the ELF at `lanes` lanes, one warp, on the interpreter or the eager block engine.
fn run(elf: &[u8], lanes: usize, jit: bool) -> (Machine, RunEnd) {
    let (prog, _) = program_from_elf(elf).expect("load");
    let cfg = Config {
        lanes,
        warps: 1,
        cores: 1,
        max_cycles: 2_000_000_000,
        ..Config::default()
    };
    let mut m = Machine::new(cfg, &prog).expect("machine");
    if jit {
        m.set_engine(Some(Box::new(
            weft_jit::Jit::eager().expect("a Cranelift back end"),
        )));
    }
    let end = m.run();
    (m, end)
}

#[test]
fn mains_one_lane_code_runs_in_scalar_translations_with_the_interpreters_results() {
    let dir = weft_difftest::compiled::scratch_dir("scalar-kernels").unwrap();
    // (kernel, the least share of all warp-instructions run in scalar translations, in %):
    // their `main`s' set-up and check loops are plain loads, stores and arithmetic (and
    // float multiply-adds in sgemm's; in saxpy's a call per element into the soft-float
    // library, `__extendsfdf2` and `__adddf3`, each reading `frm`). Measured at 8 / 32
    // lanes: vecadd 49 / 78 %, bitonic 62 / 95 %, histogram 88 / 96 %, sgemm 52 / 85 %,
    // saxpy 79 / 93 % (the rest: the launches, CSR writes, atomics).
    for (name, share) in [
        ("vecadd.c", 40),
        ("bitonic.c", 55),
        ("histogram.c", 70),
        ("sgemm.c", 40),
        ("saxpy.c", 70),
    ] {
        let elf = build(name, &dir);
        for lanes in [8, 32] {
            let (a, ea) = run(&elf, lanes, false);
            let (b, eb) = run(&elf, lanes, true);
            assert_eq!(
                ea, eb,
                "{name} at {lanes} lanes: the engines end differently"
            );
            if let Some(d) = a.first_difference(&b, "interp", "jit") {
                panic!("{name} at {lanes} lanes: the engines differ: {d}");
            }
            let out = String::from_utf8_lossy(b.console()).into_owned();
            assert!(
                matches!(eb, RunEnd::Exit(0) | RunEnd::AllHalted) && out.contains(": PASS"),
                "{name} at {lanes} lanes ended with {eb:?}:\n{out}"
            );
            let all = b.report().warp_instructions;
            let scalar = b.engine_counts().scalar;
            assert!(
                scalar * 100 > all * share,
                "{name} at {lanes} lanes: {scalar} of {all} warp-instructions in scalar \
                 translations"
            );
        }
    }
}

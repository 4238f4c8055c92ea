//! Functional and timing runs of every example and test program give the same console
//! output, exit status, memory and instruction counts (the timing model only decides when a
//! warp issues; the functional model executes it), under each scheduling policy, and timing
//! runs are deterministic.

mod common;

use common::{check_identities, run, Run};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use weft_simt::config::SchedPolicy;
use weft_simt::{Config, Machine, Observer, Program, StepRecord};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every assembly program the repository runs as a whole: examples, divergence examples,
/// kernels and the per-instruction ISA suite.
fn programs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in [
        "examples",
        "examples/divergence",
        "tests/kernels",
        "tests/isa",
    ] {
        let mut v: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "s"))
            .collect();
        v.sort();
        out.extend(v);
    }
    assert!(out.len() >= 25, "found only {} programs", out.len());
    out
}

/// Memory a program can have changed: its segments, the stack area below DRAM's top, and
/// every core's shared memory.
fn memory(r: &Run, prog: &Program) -> Vec<u8> {
    let mut out = Vec::new();
    let cfg = &r.m.cfg;
    let mut ranges: Vec<(u32, u32)> = prog
        .segments
        .iter()
        .map(|s| (s.addr, s.mem_size.max(s.data.len() as u32)))
        .collect();
    let top = weft_mem::DRAM_BASE.wrapping_add(cfg.dram_size);
    ranges.push((top - 65536, 65536));
    for (a, n) in ranges {
        let mut buf = vec![0; n as usize];
        for (i, b) in buf.iter_mut().enumerate() {
            *b = r.m.mem.load(0, a + i as u32, 1).unwrap_or(0xEE) as u8;
        }
        out.extend(buf);
    }
    for c in 0..cfg.cores {
        for i in 0..cfg.local_mem_size / 4 {
            out.extend(
                r.m.mem
                    .load(c, cfg.local_mem_base + 4 * i, 4)
                    .unwrap_or(0)
                    .to_le_bytes(),
            );
        }
    }
    out
}

/// Programs that spin-wait on another warp: how many times they poll (their instruction
/// counts, and `remote_done.s`'s stored poll count) depends on timing, as on hardware. Their
/// end, exit status and console output must still agree.
const POLLING: [&str; 2] = ["remote_done.s", "spawn.s"];

fn compare(path: &Path, cfg: &Config) {
    let name = path.display().to_string();
    let src = std::fs::read_to_string(path).unwrap();
    let prog = common::program(&src, &name);
    let f = run(cfg, &prog);
    let tcfg = Config {
        timing: true,
        ..cfg.clone()
    };
    let t = run(&tcfg, &prog);
    assert_eq!(f.end, t.end, "{name}: how the run ended");
    assert_eq!(
        f.end.exit_status(),
        t.end.exit_status(),
        "{name}: exit status"
    );
    assert_eq!(f.m.console(), t.m.console(), "{name}: console output");
    check_identities(&t, cfg.cores);
    if POLLING.iter().any(|p| name.ends_with(p)) {
        return;
    }
    let (fr, tr) = (f.m.report(), t.m.report());
    assert_eq!(
        fr.warp_instructions, tr.warp_instructions,
        "{name}: warp-instructions"
    );
    assert_eq!(
        fr.thread_instructions, tr.thread_instructions,
        "{name}: thread-instructions"
    );
    assert_eq!(fr.mnemonics, tr.mnemonics, "{name}: instruction mix");
    assert!(
        memory(&f, &prog) == memory(&t, &prog),
        "{name}: memory differs"
    );
}

fn base() -> Config {
    Config {
        max_cycles: 50_000_000,
        ..Config::default()
    }
}

#[test]
fn every_program_gives_the_same_results_functional_and_timed() {
    let mut failed = Vec::new();
    for p in programs() {
        if let Err(e) = std::panic::catch_unwind(|| compare(&p, &base())) {
            failed.push(format!("{}: {:?}", p.display(), e.downcast_ref::<String>()));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn results_are_the_same_under_every_policy_and_machine_shape() {
    let matmul = root().join("examples/matmul.s");
    let barrier = root().join("tests/kernels/barrier.s");
    for policy in [SchedPolicy::Lrr, SchedPolicy::Gto, SchedPolicy::TwoLevel] {
        for (cores, warps, lanes) in [(1, 4, 8), (2, 8, 4), (1, 1, 1), (4, 2, 32)] {
            let mut cfg = Config {
                cores,
                warps,
                lanes,
                ..base()
            };
            cfg.pipeline.scheduler = policy;
            compare(&matmul, &cfg);
        }
        let mut cfg = base();
        cfg.pipeline.scheduler = policy;
        cfg.l2.enabled = true;
        cfg.l1.write_policy = weft_simt::config::WritePolicy::WriteBack;
        compare(&barrier, &cfg);
        compare(&matmul, &cfg);
    }
}

#[derive(Clone, Default)]
struct Popcount(Rc<RefCell<(u64, Vec<String>)>>);

impl Observer for Popcount {
    fn step(&mut self, m: &Machine, r: &StepRecord) {
        let mut s = self.0.borrow_mut();
        s.0 += r.mask.count_ones() as u64;
        s.1.push(weft_simt::TextTrace::line(m, r));
    }
}

#[test]
fn timing_runs_are_deterministic_and_thread_instructions_are_the_masks_popcounts() {
    let src = std::fs::read_to_string(root().join("examples/matmul.s")).unwrap();
    let prog = common::program(&src, "matmul.s");
    let cfg = Config {
        timing: true,
        cores: 2,
        ..base()
    };
    let mut seen = Vec::new();
    for _ in 0..2 {
        let mut m = Machine::new(cfg.clone(), &prog).unwrap();
        let pop = Popcount::default();
        m.add_observer(Box::new(pop.clone()));
        let mut t = weft_timing::TimingModel::new(&cfg);
        let end = t.run(&mut m, u64::MAX);
        let report = t.report(&m);
        let (threads, trace) = pop.0.borrow().clone();
        assert_eq!(threads, m.report().thread_instructions);
        seen.push((end, serde_json::to_string(&report).unwrap(), trace));
    }
    assert!(seen[0] == seen[1], "two timing runs differ");
}

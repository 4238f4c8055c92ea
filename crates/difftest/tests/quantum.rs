//! The scheduling quantum (`Config::quantum`, `weft run --quantum N`; docs/engine.md § The
//! scheduling quantum): a core issues up to N warp-instructions in a row from one warp before
//! its round-robin moves on. Checked on both engines (the interpreter and the eager block
//! engine, whose super-steps run the warp holding each core's quantum): the order in which
//! warps take tickets from an atomic counter is the order a model of the rule written here
//! gives, and every kernel of examples/kernels prints under a large quantum what it prints
//! one warp-instruction per cycle in rotation (its own sequential check included), at two
//! shapes. (Here rather than in weft-simt's tests: the block engine is weft-jit's.)

use weft_simt::load::program_from_elf;
use weft_simt::{Config, Machine, RunEnd};

/// Run `elf` on `cfg` on both engines (`weft_difftest::engines::run_both`: they must end
/// alike with the same whole state); the interpreter's machine and end.
fn run_both(elf: &[u8], cfg: &Config, what: &str) -> (Machine, RunEnd) {
    let (prog, _) = program_from_elf(elf).expect("load");
    weft_difftest::engines::run_both(cfg.clone(), &prog, |_| {})
        .unwrap_or_else(|e| panic!("{what}: {e}"))
}

/// Iterations of the ticket loop per warp.
const ITER: u32 = 60;

/// Warp 0 starts all four warps at `body` (itself included), five instructions in; each warp
/// then takes ITER tickets, one per pass of a six-instruction loop, and writes its id into
/// the log at its ticket.
const TICKETS: &str = "
    .text
    .globl _start
_start:
    la t0, body
    csrw spawn_pc, t0
    li t0, 15
    csrw warp_active, t0
body:
    csrr s0, warp_id
    la a0, ticket
    la a1, log
    li s1, 60
    li t2, 1
loop:
    amoadd.w t0, t2, (a0)
    slli t0, t0, 2
    add t0, t0, a1
    sw s0, 0(t0)
    addi s1, s1, -1
    bnez s1, loop
    csrw tmask, zero
    .data
ticket: .word 0
log: .space 960
";

/// The rule, written out: each cycle the warp that issued last issues again while it has
/// issued fewer than `q` in a row and can; else the next warp after it (in index order,
/// wrapping) that can. Warp 0 alone runs the five instructions of `_start`, after which
/// all four run `body` (7 instructions), the loop (6 × ITER, the atomic first) and the
/// halting write. Returns the log: the warp that took each ticket.
fn model(q: u64) -> Vec<u32> {
    let body = 7 + 6 * ITER as usize + 1;
    // Instructions each warp has issued, and how many it has in all (warp 0: `_start` too).
    let mut done = [0usize; 4];
    let total = [5 + body, body, body, body];
    let mut started = false;
    let (mut last, mut run) = (usize::MAX, 0u64);
    let mut log = Vec::new();
    loop {
        let can = |w: usize, done: &[usize; 4]| (w == 0 || started) && done[w] < total[w];
        let w = if last != usize::MAX && run < q && can(last, &done) {
            run += 1;
            last
        } else {
            let from = if last == usize::MAX { 0 } else { last + 1 };
            let Some(w) = (0..4).map(|i| (from + i) % 4).find(|&w| can(w, &done)) else {
                break;
            };
            run = 1;
            w
        };
        last = w;
        // The instruction warp w issues: its index in body (warp 0 first runs `_start`).
        let i = done[w] as isize - if w == 0 { 5 } else { 0 };
        if i >= 7 && (i - 7) % 6 == 0 && ((i - 7) / 6) < ITER as isize {
            log.push(w as u32);
        }
        done[w] += 1;
        if w == 0 && done[0] == 5 {
            started = true;
        }
    }
    log
}

#[test]
fn warps_take_turns_of_a_quantum_on_both_engines() {
    let elf = weft_asm::assemble(TICKETS, "tickets.s").expect("assemble");
    let img = weft_elf::read_elf(&elf).expect("elf");
    let log_at = img.symbol("log").expect("log").value;
    let mut seen = Vec::new();
    for q in [1u64, 2, 5, 6, 7, 64, 100, 361, 100_000] {
        let cfg = Config {
            warps: 4,
            lanes: 1,
            quantum: q,
            max_cycles: 1_000_000,
            ..Config::default()
        };
        let (m, end) = run_both(&elf, &cfg, &format!("quantum {q}"));
        assert_eq!(end, RunEnd::AllHalted, "quantum {q}");
        let log: Vec<u32> = (0..4 * ITER)
            .map(|i| m.mem.load(0, log_at + 4 * i, 4).unwrap())
            .collect();
        assert_eq!(log, model(q), "quantum {q}: the order of the tickets");
        // Every warp took its ITER tickets, whatever the order; a warp issued in every cycle
        // (the quantum never idles a core), and the last cycle found none left.
        for w in 0..4 {
            assert_eq!(log.iter().filter(|&&x| x == w).count(), ITER as usize);
        }
        assert_eq!(
            m.cycle,
            5 + 4 * (7 + 6 * ITER as u64 + 1) + 1,
            "quantum {q}"
        );
        seen.push(log);
    }
    // The rule's extremes, read off the logs themselves: one ticket each in rotation, and
    // whole warps one after the other.
    assert_eq!(seen[0][..8], [1, 2, 3, 0, 1, 2, 3, 0]);
    let last = seen.last().unwrap();
    for w in 0..4 {
        let at = w as usize * ITER as usize;
        assert!(last[at..at + ITER as usize].iter().all(|&x| x == w));
    }
}

/// Warp 0 starts warps 1–3 at `work`, where each runs a loop of WORK passes (3
/// instructions) and halts, and polls `warp_active` until they have: its poll loop is
/// `csrr`, `and`, `bnez` (3 instructions).
const POLL: &str = "
    .text
    .globl _start
_start:
    la t0, work
    csrw spawn_pc, t0
    li t0, 14
    csrw warp_active, t0
    li t1, -2
wait:
    csrr t0, warp_active
    and t0, t0, t1
    bnez t0, wait
    csrw tmask, zero
work:
    li s1, 2000
1:  addi s2, s2, 3
    addi s1, s1, -1
    bnez s1, 1b
    csrw tmask, zero
";

/// A warp reading `warp_active` (polling for other warps, as the device runtime's waits do)
/// gives up the rest of its quantum: under a quantum far longer than the others' work, the
/// poller does not spin through it at each of its turns.
#[test]
fn a_warp_polling_warp_active_gives_up_its_quantum() {
    let elf = weft_asm::assemble(POLL, "poll.s").expect("assemble");
    // The three workers' instructions: set-up, 2,000 passes of 3, the halt.
    let work = 3 * (1 + 3 * 2000 + 1);
    for q in [1u64, 50, 100_000] {
        let cfg = Config {
            warps: 4,
            lanes: 4,
            quantum: q,
            max_cycles: 10_000_000,
            ..Config::default()
        };
        let (m, end) = run_both(&elf, &cfg, &format!("quantum {q}"));
        assert_eq!(end, RunEnd::AllHalted, "quantum {q}");
        // Warp 0 polls once (3 instructions) per turn it gets: at quantum 1 a turn in every
        // four cycles; above, one a quantum of some worker (so at most one per worker's
        // quantum, plus the last) — without giving up its quantum it would spin through
        // 100,000 cycles at its first turn.
        let polls_max = if q == 1 { work } else { 3 * (work / q + 4) };
        assert!(
            m.cycle < work + polls_max + 20,
            "quantum {q}: {} cycles for {work} of work",
            m.cycle
        );
    }
}

#[test]
fn a_quantum_is_refused_under_the_timing_model_and_out_of_range() {
    for (timing, q) in [(true, 2u64), (false, 0), (false, (1 << 30) + 1)] {
        let cfg = Config {
            timing,
            quantum: q,
            ..Config::default()
        };
        let e = cfg.validate().expect_err("refused").to_string();
        assert!(e.contains("quantum"), "{e}");
    }
}

/// Every library kernel, built by `weft cc -O2`, prints under quanta of 64 and 5,000 what it
/// prints at quantum 1 (its own check's PASS included), at 1 × 4 × 8 and 2 × 4 × 4, on both
/// engines. (The runtime's launch used to start the next launch's warps before the last
/// launch's had halted; with a quantum of 5,000 matrix.c's second launch then lost two warps
/// and deadlocked at its end barrier.)
#[test]
fn library_kernels_print_the_same_under_a_quantum() {
    let dir = weft_difftest::compiled::scratch_dir("quantum-kernels").unwrap();
    let lib = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/kernels");
    let mut srcs: Vec<_> = std::fs::read_dir(&lib)
        .expect("examples/kernels")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    srcs.sort();
    assert!(srcs.len() >= 12, "{} kernels", srcs.len());
    for src in &srcs {
        let name = src.file_stem().unwrap().to_string_lossy().into_owned();
        let elf = weft_difftest::compiled::weft_cc_o2(src, &dir).unwrap_or_else(|e| panic!("{e}"));
        for (cores, warps, lanes) in [(1, 4, 8), (2, 4, 4)] {
            let cfg = |quantum| Config {
                cores,
                warps,
                lanes,
                quantum,
                max_cycles: 2_000_000_000,
                ..Config::default()
            };
            let (prog, _) = program_from_elf(&elf).expect("load");
            let mut m = Machine::new(cfg(1), &prog).expect("machine");
            let end = m.run();
            let want = String::from_utf8_lossy(m.console()).into_owned();
            assert!(
                matches!(end, RunEnd::Exit(0)) && want.contains(&format!("{name}: PASS")),
                "{name} at {cores}x{warps}x{lanes}, quantum 1: {end:?}\n{want}"
            );
            for q in [64, 5000] {
                let what = format!("{name} at {cores}x{warps}x{lanes}, quantum {q}");
                let (m, end) = run_both(&elf, &cfg(q), &what);
                let got = String::from_utf8_lossy(m.console()).into_owned();
                assert_eq!(
                    (end, got.as_str()),
                    (RunEnd::Exit(0), want.as_str()),
                    "{what}"
                );
            }
        }
    }
}

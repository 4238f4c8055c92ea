//! Microbenchmarks with known answers: each runs a small program under the timing model and
//! checks a figure computed by hand from the configuration — a dependent ALU chain shows the
//! configured latency and independent warps hide it; a stride-k shared-memory access has a
//! conflict degree of gcd(k, banks); a streaming kernel approaches the configured DRAM
//! bandwidth; a cache-resident loop hits 100 % after warm-up (read by the kernel itself
//! through the hpm counters); divergence and scheduling policies cost what they say; a run
//! that waits for writeback ends a division's latency after its last warp halts.

mod common;

use common::{check_identities, program, run, word};
use weft_simt::{Config, RunEnd};
use weft_timing::config::{SchedPolicy, Unit};
use weft_timing::MachineConfig;

const EXIT: &str = "    li t6, 0xffffff04\n    sw zero, 0(t6)\n";

fn timed(warps: usize, lanes: usize) -> MachineConfig {
    MachineConfig {
        machine: Config {
            timing: true,
            warps,
            lanes,
            max_cycles: 10_000_000,
            ..Config::default()
        },
        ..MachineConfig::default()
    }
}

/// Warps `0..n` each run `body` `passes` times, each pass between two reads of mcycle, and
/// store the last pass's difference at `out[warp]` (a first pass warms the I-cache); then
/// they meet at a barrier and warp 0 exits.
fn per_warp_timed(n: usize, passes: usize, setup: &str, body: &str) -> String {
    format!(
        "    .text\n    .globl _start\n_start:\n    la t0, worker\n    csrw spawn_pc, t0\n    \
         li t0, {mask}\n    csrw warp_active, t0\nworker:\n{setup}    li s7, {passes}\n\
         9:\n    csrr s0, mcycle\n{body}    csrr s1, mcycle\n    addi s7, s7, -1\n    \
         bnez s7, 9b\n    sub s1, s1, s0\n    csrr t1, warp_id\n    slli t1, t1, 2\n    \
         la t2, out\n    add t2, t2, t1\n    sw s1, 0(t2)\n    li t0, {bar}\n    \
         csrw barrier, t0\n    csrr t1, warp_id\n    bnez t1, halt\n{EXIT}halt:\n    \
         csrw tmask, zero\n    .data\nout: .zero 128\n",
        mask = (1u64 << n) - 1,
        bar = n << 16,
    )
}

fn chain(n: usize) -> String {
    "    addi t3, t3, 1\n".repeat(n)
}

#[test]
fn a_dependent_alu_chain_shows_the_configured_latency_and_warps_hide_it() {
    for latency in [1u64, 2, 4, 6] {
        let mut cfg = timed(1, 1);
        cfg.timing.units[Unit::Alu].latency = latency as u32;
        let prog = program(&per_warp_timed(1, 2, "", &chain(400)), "chain.s");
        let r = run(&cfg, &prog);
        assert_eq!(r.end, RunEnd::Exit(0));
        check_identities(&r, 1);
        let d = word(&r, &prog, "out", 0) as u64;
        // 400 dependent instructions (the chain of the previous pass long done): 399 gaps of
        // `latency`, plus the two csrr around them.
        assert_eq!(d, 399 * latency + 2, "latency {latency}");
        // As many warps as the latency: each warp's chain takes no longer (the others fill
        // the gaps), so the core issues one instruction per cycle.
        let mut cfg4 = timed(latency as usize, 1);
        cfg4.timing.units[Unit::Alu].latency = latency as u32;
        let prog4 = program(
            &per_warp_timed(latency as usize, 2, "", &chain(400)),
            "chain4.s",
        );
        let r4 = run(&cfg4, &prog4);
        assert_eq!(r4.end, RunEnd::Exit(0));
        check_identities(&r4, 1);
        for w in 0..latency as u32 {
            let dw = word(&r4, &prog4, "out", w) as u64;
            assert!(
                dw <= 399 * latency + 2 + 2 * latency,
                "latency {latency}, warp {w}: {dw} cycles"
            );
        }
        let t = r4.timing.as_ref().unwrap();
        let one = r.timing.as_ref().unwrap();
        assert!(
            t.cycles < one.cycles + 100 * latency,
            "latency {latency}: {latency} warps take {} cycles, one warp {}",
            t.cycles,
            one.cycles
        );
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[test]
fn a_stride_k_shared_memory_access_conflicts_gcd_k_banks_ways() {
    for lanes in [8usize, 32] {
        for k in 1..=17u32 {
            let src = format!(
                "    .text\n    .globl _start\n_start:\n    li t0, -1\n    csrw tmask, t0\n    \
                 csrr t1, thread_id\n    li t2, {}\n    mul t1, t1, t2\n    \
                 csrr t3, local_mem_base\n    add t3, t3, t1\n{}{EXIT}",
                4 * k,
                "    lw t4, 0(t3)\n".repeat(10)
            );
            let prog = program(&src, "stride.s");
            let r = run(&timed(1, lanes), &prog);
            assert_eq!(r.end, RunEnd::Exit(0));
            check_identities(&r, 1);
            let t = r.timing.unwrap();
            let degree = gcd(k, lanes as u32) as u64;
            assert_eq!(t.memory.smem_accesses, 10);
            assert_eq!(
                t.memory.smem_bank_conflicts,
                10 * (degree - 1),
                "{lanes} lanes, stride {k} words: degree {degree}"
            );
        }
    }
}

/// `warps` warps × 32 lanes stream through `iters` × `warps` × 256 bytes: each warp reads
/// one 256-byte line per iteration with two independent loads, and sums them.
fn stream(iters: usize, warps: usize) -> String {
    per_warp_timed(
        warps,
        1,
        &format!(
            "    csrr t0, warp_id\n    csrr s1, thread_id\n    slli s1, s1, 2\n    la s2, A\n    \
             slli t0, t0, 8\n    add s2, s2, t0\n    add s2, s2, s1\n    li s3, {iters}\n    \
             li s4, 0\n    li s5, {}\n",
            warps * 256
        ),
        "1:\n    lw a0, 0(s2)\n    lw a1, 128(s2)\n    add s4, s4, a0\n    add s4, s4, a1\n    \
         add s2, s2, s5\n    addi s3, s3, -1\n    bnez s3, 1b\n",
    ) + &format!("    .balign 256\nA: .zero {}\n", iters * warps * 256)
}

#[test]
fn a_streaming_kernel_approaches_the_configured_dram_bandwidth() {
    let (iters, warps) = (64, 8);
    let prog = program(&stream(iters, warps), "stream.s");
    let bytes = (iters * warps * 256) as u64;
    for bpc in [4u32, 16] {
        let mut cfg = timed(warps, 32);
        cfg.timing.dram.bytes_per_cycle = bpc as f64;
        let r = run(&cfg, &prog);
        assert_eq!(r.end, RunEnd::Exit(0));
        check_identities(&r, 1);
        let t = r.timing.as_ref().unwrap();
        let ifills = t.icache.misses - t.icache.mshr_merges + t.icache.prefetches;
        assert_eq!(t.memory.dram_read_bytes, bytes + ifills * 64);
        // The streaming part: the longest warp's measured cycles.
        let cycles = (0..warps as u32)
            .map(|w| word(&r, &prog, "out", w))
            .max()
            .unwrap() as f64;
        let achieved = bytes as f64 / cycles;
        eprintln!("{bpc} bytes/cycle configured: {achieved:.2} achieved");
        assert!(
            achieved <= bpc as f64 && achieved >= 0.85 * bpc as f64,
            "{achieved:.2} bytes/cycle against {bpc} configured"
        );
        // One fill per line: each warp's first load of a line misses and its second merges
        // into that miss or, if the fill is done by then, hits; the stores of the results
        // miss too (write-through, no allocation).
        let lines = bytes / 256;
        assert_eq!(t.l1.accesses, lines * 2 + warps as u64);
        assert_eq!(t.l1.misses - t.l1.mshr_merges, lines + warps as u64);
        assert_eq!(t.l1.mshr_merges + t.l1.hits, lines);
    }
}

/// One pass of 8 lanes over `A` (1 KiB): 32 warp-loads into t4, each a line request.
fn pass_over_a() -> String {
    (0..32)
        .map(|k| format!("    lw t4, {}(t3)\n", 32 * k))
        .collect()
}

#[test]
fn a_cache_resident_loop_hits_every_time_after_warm_up() {
    // 1 KiB read 20 times by 8 lanes: 32 warp-loads per pass, one line request each. The
    // kernel reads the L1 counters itself (mhpmcounter13 hits, 14 misses).
    let loads = pass_over_a();
    let src = format!(
        "    .text\n    .globl _start\n_start:\n    li t0, -1\n    csrw tmask, t0\n    \
         csrr t1, thread_id\n    slli t1, t1, 2\n    la t3, A\n    add t3, t3, t1\n    \
         la s5, out\n    li s3, 20\n1:\n{loads}    li t5, 20\n    bne s3, t5, 2f\n    \
         csrr t5, mhpmcounter13\n    csrr t6, mhpmcounter14\n    sw t5, 0(s5)\n    \
         sw t6, 4(s5)\n2:\n    addi s3, s3, -1\n    bnez s3, 1b\n    \
         csrr t5, mhpmcounter13\n    csrr t6, mhpmcounter14\n    sw t5, 8(s5)\n    \
         sw t6, 12(s5)\n{EXIT}    .data\nout: .zero 16\n    .balign 256\nA: .zero 1024\n"
    );
    let prog = program(&src, "resident.s");
    let r = run(&timed(1, 8), &prog);
    assert_eq!(r.end, RunEnd::Exit(0));
    check_identities(&r, 1);
    let (hits1, misses1) = (word(&r, &prog, "out", 0), word(&r, &prog, "out", 1));
    let (hits2, misses2) = (word(&r, &prog, "out", 2), word(&r, &prog, "out", 3));
    assert_eq!(hits1 + misses1, 32, "the first pass: 32 line requests");
    // Every load writes t4, so each waits for the one before (write after write): the
    // first load of each of the 4 lines misses, the other 7 find it filled.
    assert_eq!(misses1, 4, "cold: one miss per line");
    // After warm-up only the two stores into `out` miss (write-through, no allocation).
    assert_eq!(misses2 - misses1, 2, "no load misses after warm-up");
    assert_eq!(hits2 - hits1, 19 * 32, "every later load hits");
    let t = r.timing.unwrap();
    assert_eq!(t.l1.evictions, 0);
}

#[test]
fn divergence_costs_the_configured_push_and_pop_cycles() {
    // Lanes split on an if/else and reconverge: the same program with a larger divergence
    // cost takes exactly (push + pop) × the extra cycles longer per divergent region.
    let src = "    .text\n    .globl _start\n_start:\n    li t0, -1\n    csrw tmask, t0\n    \
               csrr t1, thread_id\n    andi t1, t1, 1\n    li s3, 10\n1:\n    beqz t1, 2f\n    \
               addi t2, t2, 1\n    j 3f\n2:\n    addi t2, t2, 2\n3:\n    addi s3, s3, -1\n    \
               bnez s3, 1b\n"
        .to_string()
        + EXIT;
    let prog = program(&src, "div.s");
    let cycles = |push: u32, pop: u32| {
        let mut cfg = timed(1, 8);
        cfg.timing.pipeline.divergence_push = push;
        cfg.timing.pipeline.divergence_pop = pop;
        let r = run(&cfg, &prog);
        assert_eq!(r.end, RunEnd::Exit(0));
        check_identities(&r, 1);
        let t = r.timing.unwrap();
        (t.cycles, t.stalls["divergence"])
    };
    let (base, _) = cycles(0, 0);
    let (more, div) = cycles(10, 10);
    assert!(div > 0, "divergence stalls are charged");
    assert!(more > base, "{more} vs {base}");
}

#[test]
fn schedulers_differ_in_order_not_results() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/matmul.s"
    ))
    .unwrap();
    let prog = program(&src, "matmul.s");
    let mut cycles = Vec::new();
    for p in [
        SchedPolicy::Lrr,
        SchedPolicy::Gto,
        SchedPolicy::TwoLevel,
        SchedPolicy::GtoWait,
    ] {
        let mut cfg = timed(8, 8);
        cfg.timing.pipeline.scheduler = p;
        let r = run(&cfg, &prog);
        assert_eq!(r.end, RunEnd::Exit(0));
        assert_eq!(
            r.m.console(),
            b"matmul 32x32 checksum 0x502bf000\n".as_slice(),
            "{p:?}"
        );
        check_identities(&r, 1);
        cycles.push(r.timing.unwrap().cycles);
    }
    assert!(
        cycles[0] != cycles[1] || cycles[1] != cycles[2],
        "three policies, one schedule: {cycles:?}"
    );
}

#[test]
fn wsync_waits_for_the_loads_in_flight() {
    // Eight loads to distinct cold lines, then mcycle, then (Vortex's vx_rdcycle_sync)
    // wsync and mcycle again: the second read comes after the loads land, so the gap is at
    // least what is left of a DRAM round trip; without wsync it is the csrr's own issue.
    let loads: String = (0..8)
        .map(|k| format!("    lw a{k}, {}(s2)\n", k * 64))
        .collect();
    for (sync, min_gap, max_gap) in [(true, 100u32, 400u32), (false, 1, 3)] {
        let wsync = if sync { "    wsync\n" } else { "" };
        let src = format!(
            "    .text\n    .globl _start\n_start:\n    la s2, buf\n{loads}    \
             csrr s0, mcycle\n{wsync}    csrr s1, mcycle\n    sub s1, s1, s0\n    la t2, out\n    \
             sw s1, 0(t2)\n    add t3, a0, a7\n{EXIT}    .data\nout: .zero 4\n    .balign 64\n\
             buf: .zero 1024\n"
        );
        let prog = program(&src, "wsync.s");
        let cfg = timed(1, 4);
        let r = run(&cfg, &prog);
        assert_eq!(r.end, RunEnd::Exit(0));
        check_identities(&r, 1);
        let gap = word(&r, &prog, "out", 0);
        assert!(
            (min_gap..=max_gap).contains(&gap),
            "wsync {sync}: gap {gap} cycles, expected {min_gap}..={max_gap} (DRAM latency {})",
            cfg.timing.dram.latency
        );
    }
}

#[test]
fn the_icache_prefetcher_turns_sequential_misses_into_early_fills() {
    // 1 024 straight-line instructions from a cold I-cache: 64 lines of 16. Without the
    // prefetcher every line is a demand miss. With tagged sequential prefetch the first line
    // misses and every later one was requested before it was needed (a hit, or a merge into
    // the prefetch still in flight), so fetch waits less, and more with a deeper prefetch.
    let src = format!(
        "    .text\n    .globl _start\n_start:\n{}{EXIT}",
        "    addi t3, t3, 1\n".repeat(1024)
    );
    let prog = program(&src, "straight.s");
    let lines = (1024u64 * 4).div_ceil(64) + 1; // the body and the exit sequence
    let mut cycles = Vec::new();
    for depth in [0u32, 1, 4] {
        let mut cfg = timed(1, 1);
        cfg.timing.icache.prefetch = depth;
        let r = run(&cfg, &prog);
        assert_eq!(r.end, RunEnd::Exit(0));
        check_identities(&r, 1);
        let ic = r.timing.as_ref().unwrap().icache;
        let demand_fills = ic.misses - ic.mshr_merges;
        if depth == 0 {
            assert_eq!(ic.prefetches, 0);
            assert_eq!(demand_fills, lines, "every line a demand miss");
        } else {
            assert_eq!(
                demand_fills, 1,
                "prefetch {depth}: only the first line misses"
            );
            assert!(
                ic.prefetches >= lines - 1 && ic.prefetches <= lines - 1 + depth as u64,
                "prefetch {depth}: {} prefetches for {lines} lines",
                ic.prefetches
            );
        }
        cycles.push(r.timing.as_ref().unwrap().cycles);
    }
    assert!(
        cycles[0] > cycles[1] && cycles[1] > cycles[2],
        "cycles without, with one-line and with four-line prefetch: {cycles:?}"
    );
}

#[test]
fn a_run_ending_on_a_long_division_waits_for_it_with_end_waits_for_writeback() {
    // The last warp halts right after issuing a division: by default the run ends then;
    // with pipeline.end_waits_for_writeback (SimX's end) it ends when the quotient is
    // written back, the division's latency (and the writeback) later.
    let src = "    .text\n    .globl _start\n_start:\n    li t0, 7\n    div t1, t0, t0\n    \
               csrw tmask, zero\n";
    let prog = program(src, "div_end.s");
    let mut cfg = timed(1, 1);
    cfg.timing.units[Unit::Div] = weft_timing::config::UnitConfig::new(40, 40, 1);
    let early = run(&cfg, &prog);
    assert_eq!(early.end, RunEnd::AllHalted);
    cfg.timing.pipeline.end_waits_for_writeback = true;
    cfg.timing.pipeline.writeback = 3;
    let late = run(&cfg, &prog);
    assert_eq!(late.end, RunEnd::AllHalted);
    check_identities(&late, 1);
    let (a, b) = (early.timing.unwrap().cycles, late.timing.unwrap().cycles);
    assert!(b >= a + 40 - 3 && b <= a + 40 + 3, "{a} then {b}");
}

/// Lanes (all of warp 0's) storing words `stride` bytes apart: the coalescer merges the lanes whose words fall
/// in one block — an L1 line, or with `pipeline.coalesce_lane_bytes = 4` a block of
/// min(lanes × 4, line) bytes, as SimX's coalescer — and the L1 takes one access per block.
#[test]
fn lanes_coalesce_within_blocks_of_the_configured_width() {
    const REPS: u64 = 10;
    // (lanes, coalesce_lane_bytes, [blocks per store for strides 4, 8, 16, 32]), by hand:
    // blocks of 64 bytes (lines), 16 (4 lanes x 4) and 32 (8 lanes x 4)
    let cases = [
        (4, 0, [1, 1, 1, 2]),
        (4, 4, [1, 2, 4, 4]),
        (8, 0, [1, 1, 2, 4]),
        (8, 4, [1, 2, 4, 8]),
    ];
    for (lanes, per_lane, want) in cases {
        for (stride, want) in [4u32, 8, 16, 32].into_iter().zip(want) {
            let src = format!(
                "    .text\n    .globl _start\n_start:\n    li t0, -1\n    csrw tmask, t0\n    \
                 csrr t0, thread_id\n    \
                 li t1, {stride}\n    mul t0, t0, t1\n    la t2, A\n    add t2, t2, t0\n{}{EXIT}\
                 \n    .data\n    .balign 64\nA: .zero 1024\n",
                "    sw t0, 0(t2)\n".repeat(REPS as usize)
            );
            let prog = program(&src, "coalesce.s");
            let mut cfg = timed(1, lanes);
            cfg.timing.pipeline.coalesce_lane_bytes = per_lane;
            cfg.timing.l1.line = 64;
            let r = run(&cfg, &prog);
            assert_eq!(r.end, RunEnd::Exit(0));
            let t = r.timing.as_ref().unwrap();
            assert_eq!(
                t.l1.accesses,
                REPS * want,
                "{lanes} lanes, {per_lane} bytes per lane, stride {stride}"
            );
            // every word written through on its own block's request
            assert_eq!(t.memory.dram_write_bytes, REPS * 4 * lanes as u64);
        }
    }
}

#[test]
fn a_second_operand_collector_adds_the_route_to_every_dependent_instruction() {
    // One warp runs a 400-instruction chain on a core of 4 or of 8 warps, one operand
    // collector per 4 warps: with two collectors each instruction reaches its unit
    // `collector_route` cycles later, so the chain's 399 gaps grow by that much each.
    let measure = |warps: usize, route: u32| {
        let mut cfg = timed(warps, 1);
        cfg.timing.pipeline.issue_to_execute = 2;
        cfg.timing.pipeline.warps_per_collector = 4;
        cfg.timing.pipeline.collector_route = route;
        let prog = program(&per_warp_timed(1, 2, "", &chain(400)), "route.s");
        let r = run(&cfg, &prog);
        assert_eq!(r.end, RunEnd::Exit(0));
        check_identities(&r, 1);
        word(&r, &prog, "out", 0) as u64
    };
    for route in [0u32, 1, 3] {
        let one = measure(4, route);
        let two = measure(8, route);
        assert_eq!(
            two,
            one + 399 * route as u64,
            "route {route}: {one} → {two}"
        );
    }
    // The route is not charged with a single collector.
    assert_eq!(measure(4, 0), measure(4, 3));
}

#[test]
fn an_uncached_range_sends_every_access_to_dram() {
    // The resident loop above with `A` inside `dram.uncached`: no load reaches the L1, every
    // warp-load is one DRAM request of a line (the lanes' 32 bytes are one 64-byte line),
    // and each waits for DRAM, so the loop takes longer; the stores into `out` stay cached.
    let loads = pass_over_a();
    let src = format!(
        "    .text\n    .globl _start\n_start:\n    li t0, -1\n    csrw tmask, t0\n    \
         csrr t1, thread_id\n    slli t1, t1, 2\n    la t3, A\n    add t3, t3, t1\n    \
         li s3, 20\n1:\n{loads}    addi s3, s3, -1\n    bnez s3, 1b\n    la s5, out\n    \
         sw zero, 0(s5)\n{EXIT}    .data\nout: .zero 16\n    .balign 256\nA: .zero 1024\n"
    );
    let prog = program(&src, "uncached.s");
    let a = prog.symbols.iter().find(|(n, _)| n == "A").unwrap().1;
    let cached = run(&timed(1, 8), &prog);
    let mut cfg = timed(1, 8);
    cfg.timing.dram.uncached = [a, a + 1024];
    let r = run(&cfg, &prog);
    assert_eq!(r.end, RunEnd::Exit(0));
    check_identities(&r, 1);
    let (t, c) = (r.timing.unwrap(), cached.timing.unwrap());
    assert_eq!(
        t.memory.io_accesses - c.memory.io_accesses,
        20 * 32 * 8,
        "every lane's load, counted (besides the exit word's store in both)"
    );
    assert_eq!(
        c.l1.accesses - t.l1.accesses,
        20 * 32,
        "the loads never reach the L1"
    );
    let line = cfg.timing.l1.line as u64;
    assert_eq!(
        t.memory.dram_read_bytes - c.memory.dram_read_bytes,
        20 * 32 * line - 1024,
        "a line per warp-load, where the cached run read A's 16 lines once"
    );
    // Each load waits for the one before (write after write on t4) and for DRAM.
    let dram = cfg.timing.dram.latency as u64;
    assert!(
        t.cycles >= c.cycles + 19 * 32 * dram / 2,
        "{} vs {}",
        t.cycles,
        c.cycles
    );
    // The range must be a range.
    let mut bad = timed(1, 8);
    bad.timing.dram.uncached = [a + 1024, a];
    assert!(bad.timing.validate().is_err());
}

//! `weft bench`: simulator speed on built-in kernels. Prints warp-instructions/s,
//! thread-instructions/s and simulated cycles/s for each kernel and lane count, and the ratio
//! to the reference figures in docs/performance.md. `--timing` runs the kernels under the
//! cycle-level timing model instead. Speed lives here, never in timed tests.

use clap::Args;
use std::time::Instant;
use weft_simt::load::program_from_elf;
use weft_simt::{Config, Machine, RunEnd};

/// Flags of `weft bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Kernels to run (alu, mem, diverge, fpu, sgemm, stride; with --vs-qemu also the C kernels of
    /// examples/kernels, named NAME.c); default all.
    #[arg(long, value_delimiter = ',')]
    pub kernel: Vec<String>,
    /// Lane counts to run; default 8 and 32.
    #[arg(long, value_delimiter = ',')]
    pub lanes: Vec<usize>,
    /// Warps per core.
    #[arg(long, default_value_t = 4)]
    pub warps: usize,
    /// Loop iterations per lane (the work per run).
    #[arg(long, default_value_t = 200_000)]
    pub iterations: u32,
    /// Repetitions; the best is reported.
    #[arg(long, default_value_t = 3)]
    pub repeat: u32,
    /// Run under the cycle-level timing model (simulated cycles/s is then the figure).
    #[arg(long)]
    pub timing: bool,
    /// Cores.
    #[arg(long, default_value_t = 1)]
    pub cores: usize,
    /// Functional engines to run each kernel on (interp, jit); default both where the block
    /// engine is available, with the speed-up of jit over interp.
    #[arg(long, value_delimiter = ',', value_parser = crate::engine::parse_engine)]
    pub engine: Vec<crate::engine::Engine>,
    /// Compare with QEMU user mode (`qemu-riscv32`): each kernel on one warp of one core
    /// against one scalar thread running lanes × the iterations of the same loop, time per
    /// thread-instruction, best of --repeat, side by side (needs qemu-user, clang and lld).
    #[arg(long)]
    pub vs_qemu: bool,
    /// With --vs-qemu, the C kernels' problem size: a factor (`SCALE=N`, 1 is the size the
    /// tests use) or `bench`, each kernel's benchmark size (QEMU runs it 0.5–1 s).
    #[arg(long, default_value = "1")]
    pub scale: crate::bench_c::Scale,
    /// Scheduling quantum of the functional model (`weft run --quantum`): warp-instructions a
    /// core issues from one warp in a row.
    #[arg(long, default_value_t = 1)]
    pub quantum: u64,
}

const PRELUDE: &str = "
    .text
    .globl _start
_start:
    la t0, body
    csrw spawn_pc, t0
    li t0, -1
    csrw warp_active, t0      # every warp (own bit: restart) at body, all lanes
body:
    csrr a0, thread_id
    csrr s0, warp_id
    li a1, ITER
";

const EPILOGUE: &str = "
    la t1, out
    slli t2, s0, 7
    add t1, t1, t2
    slli t3, a0, 2
    add t1, t1, t3
    sw a2, 0(t1)
    csrw tmask, zero
    .data
out: .zero 4096
";

/// An ALU-heavy loop: 9 instructions per iteration, uniform back edge.
const ALU: &str = "
    li a2, 0x12345
1:  add a3, a0, a2
    xor a4, a3, a1
    slli a5, a4, 3
    srli a6, a5, 7
    or a2, a6, a3
    sub a0, a0, a5
    and a7, a0, a2
    addi a1, a1, -1
    bnez a1, 1b
    csrr a0, thread_id
";

/// Loads and stores to per-lane words in DRAM.
const MEM: &str = "
    la a3, buf
    slli a4, a0, 2
    add a3, a3, a4
    slli a5, s0, 7
    add a3, a3, a5
    li a2, 0
1:  lw a4, 0(a3)
    add a4, a4, a1
    sw a4, 0(a3)
    add a2, a2, a4
    addi a1, a1, -1
    bnez a1, 1b
    .data
buf: .zero 4096
    .text
";

/// A loop with a divergent if/else in its body (half the lanes each way).
const DIVERGE: &str = "
    li a2, 0
    andi a6, a0, 1
1:  beqz a6, 2f
    addi a2, a2, 3
    xor a2, a2, a1
    j 3f
2:  addi a2, a2, 5
    sub a2, a2, a1
3:  addi a1, a1, -1
    bnez a1, 1b
";

/// Single-precision multiply-add chain.
const FPU: &str = "
    fcvt.s.w fa0, a0
    li a2, 3
    fcvt.s.w fa1, a2
    fmv.w.x fa2, zero
1:  fmadd.s fa2, fa0, fa1, fa2
    fmul.s fa3, fa2, fa1
    fadd.s fa2, fa3, fa0
    addi a1, a1, -1
    bnez a1, 1b
    fmv.x.w a2, fa2
";

/// A 32×32 single-precision matrix multiply (`C = A·B`, one fused multiply-add per step),
/// repeated ITER / 10000 times: thread g of T computes elements g, g+T, ….
const SGEMM: &str = "
    li a2, 0
    csrr t0, num_threads
    mul t1, s0, t0
    add t1, t1, a0
    csrr t2, num_warps
    mul t2, t2, t0
    csrr t0, core_id
    li a3, 10000
    divu a1, a1, a3
    bnez a1, 1f
    li a1, 1
1:  mv t3, t1
2:  li t4, 1024
    bgeu t3, t4, 4f
    srli t5, t3, 5
    andi t6, t3, 31
    la a3, SA
    slli a4, t5, 7
    add a3, a3, a4
    la a5, SB
    slli a6, t6, 2
    add a5, a5, a6
    fmv.w.x fa0, zero
    li a7, 32
3:  flw fa1, 0(a3)
    flw fa2, 0(a5)
    fmadd.s fa0, fa1, fa2, fa0
    addi a3, a3, 4
    addi a5, a5, 128
    addi a7, a7, -1
    bnez a7, 3b
    la a4, SC
    slli a6, t3, 2
    add a4, a4, a6
    fsw fa0, 0(a4)
    add t3, t3, t2
    j 2b
4:  addi a1, a1, -1
    bnez a1, 1b
    csrr a0, thread_id
    .data
SA: .zero 4096
SB: .zero 4096
SC: .zero 4096
    .text
";

/// A grid-stride loop as compilers emit one (`for (i = g; i < n; i += G) y[i] += 3 * x[i]`,
/// rotated): thread g of the G threads of the core's warps handles words g, g + G, … of two
/// 1024-word arrays, ITER / 100 passes. The warps' address ranges interleave, their words
/// never meet.
const STRIDE: &str = "
    li a2, 0
    csrr t0, num_threads
    mul t1, s0, t0
    add t1, t1, a0
    csrr t2, num_warps
    mul t2, t2, t0
    slli t2, t2, 2
    li a3, 100
    divu a1, a1, a3
    bnez a1, 1f
    li a1, 1
1:  la a4, SX
    la a6, SY
    slli t5, t1, 2
    add a4, a4, t5
    add a6, a6, t5
    la t4, SX + 4096
2:  lw a5, 0(a4)
    lw a7, 0(a6)
    slli t6, a5, 1
    add t6, t6, a5
    add a7, a7, t6
    sw a7, 0(a6)
    add a2, a2, a7
    add a4, a4, t2
    add a6, a6, t2
    bltu a4, t4, 2b
    addi a1, a1, -1
    bnez a1, 1b
    .data
SX: .zero 4096
SY: .zero 4096
    .text
";

/// The built-in kernels.
pub const KERNELS: [&str; 6] = ["alu", "mem", "diverge", "fpu", "sgemm", "stride"];

fn kernel(name: &str) -> Option<&'static str> {
    Some(match name {
        "alu" => ALU,
        "mem" => MEM,
        "diverge" => DIVERGE,
        "fpu" => FPU,
        "sgemm" => SGEMM,
        "stride" => STRIDE,
        _ => return None,
    })
}

/// The source of kernel `k` with `iter` loop iterations per lane.
pub fn source(k: &str, iter: u64) -> Result<String, String> {
    let body = kernel(k).ok_or_else(|| format!("unknown kernel '{k}' ({})", KERNELS.join(", ")))?;
    Ok(format!(
        "{}{}{}",
        PRELUDE.replace("ITER", &iter.to_string()),
        body,
        EPILOGUE
    ))
}

/// Kernel `k` with `iter` loop iterations per lane, assembled and loaded.
pub fn program(k: &str, iter: u32) -> Result<weft_simt::Program, String> {
    let src = source(k, iter as u64)?;
    let elf = weft_asm::assemble(&src, &format!("<bench {k}>")).map_err(|e| e.to_string())?;
    Ok(program_from_elf(&elf).map_err(|e| e.to_string())?.0)
}

/// The engines to compare: those asked for, or interp and (where available) jit.
pub fn engines(a: &BenchArgs) -> Result<Vec<crate::engine::Engine>, String> {
    use crate::engine::Engine;
    if a.engine.contains(&Engine::Diff) {
        return Err("weft bench times interp and jit; diff is for weft run".into());
    }
    Ok(if !a.engine.is_empty() {
        a.engine.clone()
    } else if Engine::default_for_host() == Engine::Jit {
        vec![Engine::Interp, Engine::Jit]
    } else {
        vec![Engine::Interp]
    })
}

/// The kernels (default: `all`) and lane counts (default 8 and 32) a run asks for.
pub fn selection(a: &BenchArgs, all: &[&str]) -> (Vec<String>, Vec<usize>) {
    let kernels = if a.kernel.is_empty() {
        all.iter().map(|s| s.to_string()).collect()
    } else {
        a.kernel.clone()
    };
    let lanes = if a.lanes.is_empty() {
        vec![8, 32]
    } else {
        a.lanes.clone()
    };
    (kernels, lanes)
}

/// Run the benchmarks; returns the exit status.
pub fn bench(a: &BenchArgs) -> Result<i32, String> {
    // The timing model drives the interpreter (the block engine is for functional runs):
    // one row per kernel and lane count.
    let engines = if a.timing {
        vec![crate::engine::Engine::Interp]
    } else {
        engines(a)?
    };
    let (kernels, lane_counts) = selection(a, &KERNELS);
    let bar = crate::progress::bar(
        (kernels.len() * lane_counts.len() * engines.len()) as u64 * a.repeat.max(1) as u64,
        "runs",
    );
    println!(
        "{:<8} {:<6} {:>5} {:>6} {:>12} {:>10} {:>16} {:>14} {:>12}",
        "kernel",
        "engine",
        "lanes",
        "warps",
        "warp-instr",
        "seconds",
        "thread-instr/s",
        "warp-instr/s",
        "cycles/s"
    );
    for k in &kernels {
        let prog = program(k, a.iterations)?;
        for &lanes in &lane_counts {
            let mut first: Option<f64> = None;
            for &engine in &engines {
                let cfg = Config {
                    lanes,
                    warps: a.warps,
                    cores: a.cores,
                    timing: a.timing,
                    quantum: a.quantum,
                    ..Config::default()
                };
                cfg.validate().map_err(|e| format!("configuration: {e}"))?;
                let mut best: Option<(f64, u64, u64, u64)> = None;
                for _ in 0..a.repeat.max(1) {
                    let mut m = Machine::new(cfg.clone(), &prog).map_err(|e| e.to_string())?;
                    crate::engine::attach(&mut m, engine)?;
                    let t = Instant::now();
                    let end = if a.timing {
                        weft_timing::TimingModel::new(&cfg, &Default::default())
                            .run(&mut m, u64::MAX)
                    } else {
                        m.run()
                    };
                    let secs = t.elapsed().as_secs_f64();
                    bar.inc(1);
                    if end != RunEnd::AllHalted {
                        return Err(format!("bench kernel {k} ended with {end:?}"));
                    }
                    let r = m.report();
                    if best.is_none_or(|b| secs < b.0) {
                        best = Some((secs, r.warp_instructions, r.thread_instructions, r.cycles));
                    }
                }
                let (secs, wi, ti, cyc) = best.unwrap_or_default();
                let speedup = match first {
                    None => {
                        first = Some(secs);
                        String::new()
                    }
                    Some(f) => format!("  ({:.1}× the {})", f / secs, engines[0].name()),
                };
                bar.suspend(|| {
                    println!(
                "{:<8} {:<6} {:>5} {:>6} {:>12} {:>10.3} {:>14.1} M {:>12.1} M {:>10.1} M{speedup}",
                k,
                if a.timing { "timing" } else { engine.name() },
                lanes,
                a.warps,
                wi,
                secs,
                ti as f64 / secs / 1e6,
                wi as f64 / secs / 1e6,
                cyc as f64 / secs / 1e6
            )
                });
            }
        }
    }
    bar.finish_and_clear();
    if a.timing {
        println!("timing model; reference (docs/performance.md): Vortex SimX ≈ 0.25–0.3 M cycles/s on this kind of machine; the goal is ≥ 10 M cycles/s on sgemm at 1 × 4 × 8");
        return Ok(0);
    }
    println!("references (docs/performance.md): QEMU user-mode ≈ 370 M instr/s scalar; Vortex SimX ≈ 0.045–0.09 M warp-instr/s; GPGPU-Sim ≈ 0.1–0.2 M thread-instr/s");
    Ok(0)
}

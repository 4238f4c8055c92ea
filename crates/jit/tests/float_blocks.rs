//! Float instructions in translated blocks (docs/engine.md § Float operations in blocks):
//! the block engine must end every program in exactly the interpreter's state — float and
//! integer registers, each lane's `fflags` and `frm`, `mstatus`, statistics, memory — over
//! edge inputs (NaNs, infinities, signed zeros, subnormals, the smallest normals, overflow,
//! ties), every rounding mode, with `fflags` clear and set, under full and partial masks; and
//! where its guards hold it must actually run the float operations.

mod common;

use weft_jit::Jit;
use weft_simt::load::program_from_elf;
use weft_simt::{Config, Machine, RunEnd};

fn machine(src: &str, cfg: &Config, jit: bool) -> Machine {
    machine_with(
        src,
        cfg,
        jit.then(|| Jit::eager().expect("a Cranelift back end")),
    )
}

fn machine_with(src: &str, cfg: &Config, jit: Option<Jit>) -> Machine {
    let bytes = weft_asm::assemble(src, "t.s").unwrap_or_else(|e| panic!("assembly:\n{e}"));
    let (prog, _) = program_from_elf(&bytes).expect("load");
    let mut m = Machine::new(cfg.clone(), &prog).expect("machine");
    if let Some(j) = jit {
        m.set_engine(Some(Box::new(j)));
    }
    m
}

fn cfg(lanes: usize) -> Config {
    Config {
        lanes,
        warps: 1,
        cores: 1,
        max_cycles: 5_000_000,
        ..Config::default()
    }
}

/// Run `src` on both engines; assert the same final state; return the jit's machine.
fn same(src: &str, cfg: &Config) -> Machine {
    same_with(src, cfg, Jit::eager().expect("a Cranelift back end"))
}

fn same_with(src: &str, cfg: &Config, jit: Jit) -> Machine {
    let mut a = machine(src, cfg, false);
    let mut b = machine_with(src, cfg, Some(jit));
    let ea = a.run();
    let eb = b.run();
    assert_eq!(ea, eb, "run ends differ");
    assert_eq!(ea, RunEnd::AllHalted);
    if let Some(d) = a.first_difference(&b, "interp", "jit") {
        panic!("engines differ: {d}");
    }
    b
}

/// Float edge values (bits).
const EDGES: [u32; 40] = [
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x3f80_0000, // 1
    0xbf80_0000, // -1
    0x3fc0_0000, // 1.5
    0x4040_0000, // 3
    0x3dcc_cccd, // 0.1
    0xc020_0000, // -2.5
    0x3f00_0000, // 0.5
    0xbf00_0000, // -0.5
    0x4020_0000, // 2.5
    0x0000_0001, // smallest subnormal
    0x8000_0003,
    0x007f_ffff, // largest subnormal
    0x0080_0000, // smallest normal
    0x8080_0001,
    0x00ff_ffff, // largest of the smallest normal binade
    0x0100_0000, // 2^-125
    0x1f80_0000, // 2^-64
    0x2000_0001,
    0x5f80_0000, // 2^64
    0x7f00_0000, // 2^127
    0x7f7f_ffff, // largest finite
    0xff7f_ffff,
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7fc0_0000, // canonical qNaN
    0x7f80_0001, // sNaN
    0xffc0_0001, // negative qNaN
    0x4f00_0000, // 2^31
    0xcf00_0000, // -2^31
    0x4f80_0000, // 2^32
    0x4effffff,  // just below 2^31
    0x4b80_0001, // 16777218
    0x4b7f_ffff, // 16777215
    0xcb00_0001,
    0x3effffff, // just below 0.5
    0x3f7f_ffff,
    0x0000_0100,
    0x3400_0000, // 2^-23
];

/// A small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }

    /// An edge value most of the time, else random bits, else a "nice" float.
    fn value(&mut self) -> u32 {
        match self.next() % 8 {
            0 => self.next(),
            1 => ((self.next() % 2000) as f32 / 8.0 - 100.0).to_bits(),
            _ => EDGES[self.next() as usize % EDGES.len()],
        }
    }
}

/// The float operations of the kernel: (assembly with `D` for the destination, kind of
/// destination: `f` float register, `x` integer register).
const OPS: [(&str, char); 36] = [
    ("fadd.s D, fa0, fa1", 'f'),
    ("fsub.s D, fa0, fa1", 'f'),
    ("fmul.s D, fa0, fa1", 'f'),
    ("fdiv.s D, fa0, fa1", 'f'),
    ("fsqrt.s D, fa0", 'f'),
    ("fmadd.s D, fa0, fa1, fa2", 'f'),
    ("fmsub.s D, fa0, fa1, fa2", 'f'),
    ("fnmsub.s D, fa0, fa1, fa2", 'f'),
    ("fnmadd.s D, fa0, fa1, fa2", 'f'),
    ("fadd.s D, fa1, fa2, rne", 'f'),
    ("fmul.s D, fa1, fa2, rne", 'f'),
    ("fmul.s D, fa0, fa2, rtz", 'f'),
    ("fdiv.s D, fa2, fa0, rne", 'f'),
    ("fmadd.s D, fa2, fa0, fa1, rne", 'f'),
    ("fsqrt.s D, fa1, rne", 'f'),
    ("fmin.s D, fa0, fa1", 'f'),
    ("fmax.s D, fa0, fa1", 'f'),
    ("fmin.s D, fa1, fa2", 'f'),
    ("fsgnj.s D, fa0, fa1", 'f'),
    ("fsgnjn.s D, fa0, fa1", 'f'),
    ("fsgnjx.s D, fa0, fa1", 'f'),
    ("feq.s D, fa0, fa1", 'x'),
    ("flt.s D, fa0, fa1", 'x'),
    ("fle.s D, fa0, fa1", 'x'),
    ("fle.s D, fa2, fa2", 'x'),
    ("fcvt.w.s D, fa0, rtz", 'x'),
    ("fcvt.wu.s D, fa0, rtz", 'x'),
    ("fcvt.w.s D, fa1, rne", 'x'),
    ("fcvt.w.s D, fa1, rdn", 'x'),
    ("fcvt.wu.s D, fa2, rup", 'x'),
    ("fcvt.w.s D, fa2", 'x'),
    ("fcvt.s.w D, a5", 'f'),
    ("fcvt.s.wu D, a5", 'f'),
    ("fcvt.s.w D, a6, rne", 'f'),
    ("fmv.x.w D, fa0", 'x'),
    ("fmv.w.x D, a5", 'f'),
];

/// A kernel running every operation in `OPS` on `iters` input triples per lane (from a table
/// of `lanes × iters` triples), storing every result, and with `read_flags` each operation's
/// flags (read and cleared after it, so every operation is a block of its own), to memory.
fn kernel(
    lanes: usize,
    iters: usize,
    seed: u64,
    fflags: u32,
    frm: u32,
    mask: u32,
    read_flags: bool,
) -> String {
    let mut rng = Rng(seed);
    let mut table = String::new();
    for _ in 0..lanes * iters * 3 {
        table.push_str(&format!("    .word {:#x}\n", rng.value()));
    }
    let mut body = String::new();
    let mut slot = 0;
    let mut store = |body: &mut String, insn: &str| {
        body.push_str(&format!("    {insn}, {}(s3)\n", slot * 4));
        slot += 1;
    };
    for (k, (op, kind)) in OPS.iter().enumerate() {
        let d = if *kind == 'f' {
            format!("ft{}", k % 8)
        } else {
            format!("a{}", 2 + k % 2)
        };
        body.push_str(&format!("    {}\n", op.replace('D', &d)));
        if *kind == 'f' {
            store(&mut body, &format!("fsw {d}"));
        } else {
            store(&mut body, &format!("sw {d}"));
        }
        if read_flags {
            body.push_str("    csrrw t1, fflags, zero\n");
            store(&mut body, "sw t1");
        }
    }
    let stride = lanes * 12;
    let out_stride = lanes * 4 * slot;
    format!(
        "    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    li t0, {mask}
    csrw tmask, t0
    li t0, {fflags}
    csrw fflags, t0
    li t0, {frm}
    csrw frm, t0
    la s1, table
    li t0, 12
    mul t0, t0, s0
    add s1, s1, t0
    la s3, out
    li t0, {}
    mul t0, t0, s0
    add s3, s3, t0
    li s2, {iters}
1:  flw fa0, 0(s1)
    flw fa1, 4(s1)
    flw fa2, 8(s1)
    fmv.x.w a5, fa2
    srai a6, a5, 7
{body}    addi s1, s1, {stride}
    li t0, {out_stride}
    add s3, s3, t0
    addi s2, s2, -1
    bnez s2, 1b
    csrw tmask, zero
    .data
table:
{table}out: .zero {}
",
        4 * slot,
        out_stride * iters + 64
    )
}

#[test]
fn float_operations_match_the_interpreter_on_edge_inputs() {
    // One active lane: scalar translations (the fused four's exactness in `f64`).
    for (lanes, mask) in [
        (8, u32::MAX),
        (4, u32::MAX),
        (5, 0b10110),
        (32, 0xf0f0_ff0f),
        (8, 1 << 6),
        (32, 1 << 31),
    ] {
        let modes = [
            (0, 0),
            (0x1f, 0),
            (0x01, 0),
            (0x03, 1),
            (0x1f, 2),
            (0, 3),
            (0x1f, 4),
        ];
        // 32 lanes: 8 vectors a register, the slowest to translate; fewer modes.
        let modes = if lanes == 32 { &modes[..2] } else { &modes[..] };
        for &(fflags, frm) in modes {
            for read_flags in [false, true] {
                let seed = (lanes * 131 + fflags as usize * 7 + frm as usize) as u64 + 1;
                let src = kernel(lanes, 16, seed, fflags, frm, mask, read_flags);
                let m = same(&src, &cfg(lanes));
                assert!(
                    m.super_step_cycles() > 0,
                    "{lanes} lanes, fflags {fflags:#x}, frm {frm}: the engine ran"
                );
            }
        }
    }
}

/// With every flag already set and RNE, the guards fail only on NaNs: a run of float
/// operations on NaN-free inputs goes through the engine, and each result equals `weft-sem`'s.
#[test]
fn float_operations_run_in_blocks_and_equal_weft_sem() {
    use weft_sem::fpu::{self, Rm};
    let src = "    .text\n    .globl _start\n_start:
    fadd.s ft0, fa0, fa1
    fsub.s ft1, fa0, fa1
    fmul.s ft2, fa0, fa1
    fdiv.s ft3, fa0, fa1
    fsqrt.s ft4, fa0
    fmadd.s ft5, fa0, fa1, fa2
    fnmsub.s ft6, fa0, fa1, fa2
    fmin.s ft7, fa0, fa1
    fmax.s ft8, fa0, fa1
    fcvt.w.s a2, fa0, rtz
    fcvt.s.w ft9, a1
    flt.s a3, fa0, fa1
    csrw tmask, zero\n";
    let rne = Rm::Rne;
    let nan = |x: u32| x & 0x7fff_ffff > 0x7f80_0000;
    let vals: Vec<u32> = EDGES.iter().copied().filter(|&x| !nan(x)).collect();
    let mut rng = Rng(7);
    for round in 0..16 {
        let mut m = machine(src, &cfg(32), true);
        let w = &mut m.cores[0].warps[0];
        w.mask = u32::MAX;
        w.csr.mstatus |= 3 << 13;
        let mut inputs = Vec::new();
        for l in 0..32 {
            let pick = |r: &mut Rng| {
                if round % 2 == 0 {
                    vals[r.next() as usize % vals.len()]
                } else {
                    r.value()
                }
            };
            let (a, b, c) = (pick(&mut rng), pick(&mut rng), pick(&mut rng));
            let (a, b, c) = if [a, b, c].iter().any(|&x| nan(x)) {
                (0x3f80_0000, 0x4000_0000, 0x4040_0000)
            } else {
                (a, b, c)
            };
            let xi = rng.next();
            w.f[10][l] = a;
            w.f[11][l] = b;
            w.f[12][l] = c;
            w.x[11][l] = xi;
            w.fflags[l] = 0x1f;
            inputs.push((a, b, c, xi));
        }
        m.run();
        let w = &m.cores[0].warps[0];
        let results_nan = inputs.iter().any(|&(a, b, c, _)| {
            [
                fpu::fadd(a, b, rne).0,
                fpu::fsub(a, b, rne).0,
                fpu::fmul(a, b, rne).0,
                fpu::fdiv(a, b, rne).0,
                fpu::fsqrt(a, rne).0,
                fpu::fmadd(a, b, c, rne).0,
                fpu::fnmsub(a, b, c, rne).0,
            ]
            .iter()
            .any(|&r| nan(r))
        });
        let out_of_range = inputs
            .iter()
            .any(|&(a, ..)| fpu::fcvt_w_s(a, Rm::Rtz).1 .0 & 0x10 != 0);
        if !results_nan && !out_of_range {
            assert_eq!(m.super_step_cycles(), 13, "round {round}: all in one block");
        }
        for (l, &(a, b, c, xi)) in inputs.iter().enumerate() {
            let got = [
                w.f[0][l], w.f[1][l], w.f[2][l], w.f[3][l], w.f[4][l], w.f[5][l], w.f[6][l],
                w.f[7][l], w.f[28][l], w.x[12][l], w.f[29][l], w.x[13][l],
            ];
            let want = [
                fpu::fadd(a, b, rne).0,
                fpu::fsub(a, b, rne).0,
                fpu::fmul(a, b, rne).0,
                fpu::fdiv(a, b, rne).0,
                fpu::fsqrt(a, rne).0,
                fpu::fmadd(a, b, c, rne).0,
                fpu::fnmsub(a, b, c, rne).0,
                fpu::fmin(a, b).0,
                fpu::fmax(a, b).0,
                fpu::fcvt_w_s(a, Rm::Rtz).0,
                fpu::fcvt_s_w(xi, rne).0,
                fpu::flt(a, b).0,
            ];
            assert_eq!(got, want, "lane {l}: ({a:#x}, {b:#x}, {c:#x}, {xi:#x})");
            assert_eq!(w.fflags[l], 0x1f);
        }
    }
}

/// The bench's `fpu` loop: values grow to infinity on most lanes and stay zero on lane 0;
/// with the flags those raised once already set, the whole loop runs in the engine.
#[test]
fn a_float_loop_overflowing_to_infinity_runs_in_the_engine() {
    let src = "    .text\n    .globl _start\n_start:
    li t0, -1
    csrw tmask, t0
    csrr a0, thread_id
    li a1, 3000
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
    csrw tmask, zero\n";
    for lanes in [1, 8, 32] {
        let m = same(src, &cfg(lanes));
        let cycles = m.report().cycles;
        assert!(
            m.super_step_cycles() * 10 > cycles * 9,
            "{lanes} lanes: {} of {cycles} cycles in the engine",
            m.super_step_cycles()
        );
    }
}

/// The fused four on every lane of a warp, with exact results (small integers, as a matrix
/// multiply whose inputs have few bits): `fflags` never gets NX, so each result must be
/// proven exact in the translation (`f64x2` halves of each vector) for the loop to run
/// there — it did not before (sgemm.c's inner loop left the engine at every `fmadd.s`).
/// Full warps and a partial mask; the sums are checked against the host's.
#[test]
fn exact_fused_results_on_many_lanes_run_in_the_engine() {
    for (lanes, mask) in [
        (4, u32::MAX),
        (8, u32::MAX),
        (32, u32::MAX),
        (8, 0b1011_0110),
    ] {
        let src = format!(
            "    .text\n    .globl _start\n_start:
    li t0, {mask}
    csrw tmask, t0
    csrr a0, thread_id
    fcvt.s.w fa0, a0
    li a2, 3
    fcvt.s.w fa1, a2
    fmv.w.x fa2, zero
    fmv.w.x fa5, zero
    li a1, 2000
1:  fmadd.s fa2, fa0, fa1, fa2
    fmsub.s fa3, fa0, fa1, fa2
    fnmsub.s fa4, fa0, fa1, fa3
    fnmadd.s fa5, fa4, fa1, fa5
    addi a1, a1, -1
    bnez a1, 1b
    fcvt.w.s a2, fa2
    fcvt.w.s a3, fa5
    la t1, out
    slli t2, a0, 3
    add t1, t1, t2
    sw a2, 0(t1)
    sw a3, 4(t1)
    csrr t3, fflags
    bnez t3, 2f
    csrw tmask, zero
2:  ebreak
    .data
out: .space 256
"
        );
        let cfg = cfg(lanes);
        let m = same(&src, &cfg);
        let cycles = m.report().cycles;
        assert!(
            m.super_step_cycles() * 10 > cycles * 9,
            "{lanes} lanes, mask {mask:#x}: {} of {cycles} cycles in the engine",
            m.super_step_cycles()
        );
        let out = common::out_addr(&src);
        for l in (0..lanes).filter(|l| mask >> l & 1 != 0) {
            // fa2 = 3l·k after k passes; fa3 = 3l − fa2; fa4 = −3l + fa3 = −fa2; fa5 gains
            // −(fa4·3) − … each pass: fa5 = Σ 3·fa2 over the passes.
            let (mut acc, mut sum) = (0i64, 0i64);
            for _ in 0..2000 {
                acc += 3 * l as i64;
                let fa4 = -acc;
                sum = -(fa4 * 3) - sum;
            }
            let at = out + 8 * l as u32;
            let got = [0, 4].map(|o| m.mem.load(0, at + o, 4).expect("in memory") as i32);
            assert_eq!(got, [acc as i32, sum as i32], "lane {l} of {lanes}");
        }
    }
}

/// On an x86-64 host without FMA, AVX or SSE4.1, Cranelift turns each lane's fused
/// multiply-add and rounding to an integral value into calls (`fmaf`, `nearbyintf` …), which
/// weft-jit provides from Rust's correctly rounded functions: the same results.
#[cfg(target_arch = "x86_64")]
#[test]
fn without_host_fma_the_libm_fallback_gives_the_same_results() {
    for (lanes, mask) in [(8, u32::MAX), (5, 0b11011)] {
        for (fflags, frm) in [(0x1f, 0), (0, 0)] {
            let src = kernel(lanes, 16, 99 + lanes as u64, fflags, frm, mask, false);
            let jit =
                Jit::eager_with_features_off(&["has_fma", "has_avx", "has_sse41"]).expect("jit");
            let m = same_with(&src, &cfg(lanes), jit);
            assert!(m.super_step_cycles() > 0);
        }
    }
    let fma_loop = "    .text\n    .globl _start\n_start:
    li t0, -1
    csrw tmask, t0
    csrr a0, thread_id
    li t0, 0x1f
    csrw fflags, t0
    fcvt.s.w fa0, a0
    li a2, 3
    fcvt.s.w fa1, a2
    li a2, 0x3f8ccccd
    fmv.w.x fa2, a2
    li a1, 500
1:  fmadd.s fa2, fa2, fa1, fa0
    fnmsub.s fa3, fa2, fa1, fa0
    fmsub.s fa4, fa3, fa0, fa2
    fnmadd.s fa2, fa4, fa1, fa2
    addi a1, a1, -1
    bnez a1, 1b
    csrw tmask, zero\n";
    let jit = Jit::eager_with_features_off(&["has_fma", "has_avx", "has_sse41"]).expect("jit");
    let m = same_with(fma_loop, &cfg(8), jit);
    assert!(m.super_step_cycles() > 1000, "the loop ran in the engine");
}

//! The random program generator for the QEMU comparison: valid RV32IMAF programs (RV32IMAFC
//! with [`GenConfig::compressed`]) built from
//! *blocks* (one instruction, a forward branch over a few instructions, a small bounded loop,
//! a forward `jal`, an AMO, an LR/SC pair, an FP or fcsr operation). Blocks carry their own
//! labels, so any subset of a program's blocks is still a valid program: that is what the
//! minimizer deletes.
//!
//! Register conventions of generated code: `x31` holds the data region's base and is never
//! written by blocks; `x30` is the loop counter (only loop blocks write it; loops do not
//! nest); `x29` is the AMO/LR/SC address (only those blocks write it). Every other register
//! is fair game. Memory accesses stay inside the data region; AMOs and LR/SC are aligned,
//! plain loads and stores may be misaligned (QEMU 7.2's spike machine performs them without
//! a trap, as weft does). `frm` only ever holds a valid mode (0–4), so `dyn` never traps.
//!
//! The epilogue stores x1–x30, f0–f31 and fcsr to a dump area just before the data region
//! and prints the dump and the data region through the HTIF console as hex words, one per
//! line, then exits through `tohost` with 1 (pass).

use crate::rng::Rng;
use std::fmt::Write;

pub use crate::layout::{DATA_SIZE, DUMP_WORDS, TOTAL_WORDS};

/// What kinds of block the generator may use.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Blocks in the body.
    pub blocks: usize,
    /// Misaligned plain loads and stores.
    pub misaligned: bool,
    /// F-extension instructions and fcsr accesses.
    pub float: bool,
    /// Compressed (RV32C/RV32FC) instructions mixed in (`gen_c.rs`).
    pub compressed: bool,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            blocks: 60,
            misaligned: true,
            float: true,
            compressed: false,
        }
    }
}

/// One deletable unit of a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Assembly lines (labels are unique to this block).
    pub lines: Vec<String>,
}

/// A generated program: a fixed prologue (register and data initialization), the body of
/// blocks, and the fixed dump epilogue.
#[derive(Clone, Debug)]
pub struct TestProgram {
    /// The seed it was generated from.
    pub seed: u64,
    /// Prologue lines.
    pub init: Vec<String>,
    /// Initial data-region words.
    pub data: Vec<u32>,
    /// The body.
    pub body: Vec<Block>,
}

const INT_EDGE: &[u32] = &[
    0,
    1,
    2,
    0xffff_ffff,
    0xffff_fffe,
    0x8000_0000,
    0x7fff_ffff,
    0x8000_0001,
    0x0000_ffff,
    0xffff_8000,
    0x0000_0080,
    31,
    32,
    0x5555_5555,
    0xaaaa_aaaa,
];

const FP_EDGE: &[u32] = &[
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x3f80_0000, // 1
    0xbf80_0000, // -1
    0x3f00_0000, // 0.5
    0x4040_0000, // 3
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7fc0_0000, // canonical qNaN
    0x7f80_0001, // sNaN
    0xffc0_1234, // negative qNaN with payload
    0x0000_0001, // smallest subnormal
    0x807f_ffff, // largest negative subnormal
    0x0080_0000, // smallest normal
    0x7f7f_ffff, // largest finite
    0x4f00_0000, // 2^31
    0xcf00_0000, // -2^31
    0x4f80_0000, // 2^32
    0x4effffff,  // just under 2^31
    0x3eaa_aaab, // 1/3
    0x4b00_0001, // 2^23 + 1
    0x3fc0_0000, // 1.5
    0xbfc0_0000, // -1.5
    0x4020_0000, // 2.5
];

const RMS: &[&str] = &["", ", rne", ", rtz", ", rdn", ", rup", ", rmm", ", dyn"];

fn x_dst(r: &mut Rng) -> String {
    // x0..x28 (x0 writes are discarded); x29–x31 are reserved.
    format!("x{}", r.below(29))
}

fn x_src(r: &mut Rng) -> String {
    format!("x{}", r.below(32))
}

fn f_reg(r: &mut Rng) -> String {
    format!("f{}", r.below(32))
}

fn int_value(r: &mut Rng) -> u32 {
    match r.below(4) {
        0 | 1 => *r.pick(INT_EDGE),
        2 => r.range(-40, 40) as u32,
        _ => r.u32(),
    }
}

fn fp_value(r: &mut Rng) -> u32 {
    match r.below(4) {
        0 | 1 => *r.pick(FP_EDGE) ^ if r.chance(1, 4) { 0x8000_0000 } else { 0 },
        // A float of moderate exponent, so arithmetic stays in the interesting range.
        2 => (r.u32() & 0x807f_ffff) | ((r.range(110, 145) as u32) << 23),
        _ => r.u32(),
    }
}

/// A data-region offset for a `width`-byte plain access.
fn offset(r: &mut Rng, width: u32, misaligned: bool) -> u32 {
    let o = r.below(DATA_SIZE - width + 1);
    if misaligned && r.chance(1, 3) {
        o
    } else {
        o & !(width - 1)
    }
}

/// One straight-line instruction (no control flow, never writes x29–x31).
fn simple(r: &mut Rng, cfg: &GenConfig) -> String {
    if cfg.compressed && r.chance(1, 3) {
        return crate::gen_c::simple(r);
    }
    let kinds = if cfg.float { 10 } else { 6 };
    match r.below(kinds) {
        0 | 1 => {
            let op = r.pick(&[
                "add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and", "mul",
                "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu",
            ]);
            format!("{op} {}, {}, {}", x_dst(r), x_src(r), x_src(r))
        }
        2 => match r.below(5) {
            0 => format!("li {}, {:#x}", x_dst(r), int_value(r)),
            1 => format!("lui {}, {:#x}", x_dst(r), r.below(1 << 20)),
            2 => format!("auipc {}, {:#x}", x_dst(r), r.below(1 << 20)),
            3 => {
                let op = r.pick(&["slli", "srli", "srai"]);
                format!("{op} {}, {}, {}", x_dst(r), x_src(r), r.below(32))
            }
            _ => {
                let op = r.pick(&["addi", "slti", "sltiu", "xori", "ori", "andi"]);
                format!("{op} {}, {}, {}", x_dst(r), x_src(r), r.range(-2048, 2047))
            }
        },
        3 => {
            let (op, w) = *r.pick(&[("lb", 1), ("lh", 2), ("lw", 4), ("lbu", 1), ("lhu", 2)]);
            format!("{op} {}, {}(x31)", x_dst(r), offset(r, w, cfg.misaligned))
        }
        4 => {
            let (op, w) = *r.pick(&[("sb", 1), ("sh", 2), ("sw", 4)]);
            format!("{op} {}, {}(x31)", x_src(r), offset(r, w, cfg.misaligned))
        }
        5 => {
            let op = r.pick(&["add", "sub", "mul", "div", "divu", "rem", "remu", "mulh"]);
            // Edge operands: a register just loaded with an edge value is common in the
            // body anyway; here mix in x0 and repeated registers.
            let a = x_src(r);
            let b = if r.chance(1, 3) {
                a.clone()
            } else {
                "x0".into()
            };
            format!("{op} {}, {a}, {b}", x_dst(r))
        }
        6 => {
            let rm = r.pick(RMS);
            match r.below(6) {
                0 => {
                    let op = r.pick(&["fadd.s", "fsub.s", "fmul.s", "fdiv.s"]);
                    format!("{op} {}, {}, {}{rm}", f_reg(r), f_reg(r), f_reg(r))
                }
                1 => format!("fsqrt.s {}, {}{rm}", f_reg(r), f_reg(r)),
                2 => {
                    let op = r.pick(&["fmadd.s", "fmsub.s", "fnmsub.s", "fnmadd.s"]);
                    let (d, a, b, c) = (f_reg(r), f_reg(r), f_reg(r), f_reg(r));
                    format!("{op} {d}, {a}, {b}, {c}{rm}")
                }
                3 => {
                    let op = r.pick(&["fmin.s", "fmax.s", "fsgnj.s", "fsgnjn.s", "fsgnjx.s"]);
                    format!("{op} {}, {}, {}", f_reg(r), f_reg(r), f_reg(r))
                }
                4 => {
                    let op = r.pick(&["fcvt.w.s", "fcvt.wu.s"]);
                    format!("{op} {}, {}{rm}", x_dst(r), f_reg(r))
                }
                _ => {
                    let op = r.pick(&["fcvt.s.w", "fcvt.s.wu"]);
                    format!("{op} {}, {}{rm}", f_reg(r), x_src(r))
                }
            }
        }
        7 => match r.below(5) {
            0 => format!("fmv.x.w {}, {}", x_dst(r), f_reg(r)),
            1 => format!("fmv.w.x {}, {}", f_reg(r), x_src(r)),
            2 => {
                let op = r.pick(&["feq.s", "flt.s", "fle.s"]);
                format!("{op} {}, {}, {}", x_dst(r), f_reg(r), f_reg(r))
            }
            3 => format!("fclass.s {}, {}", x_dst(r), f_reg(r)),
            _ => {
                if r.chance(1, 2) {
                    format!("flw {}, {}(x31)", f_reg(r), offset(r, 4, cfg.misaligned))
                } else {
                    format!("fsw {}, {}(x31)", f_reg(r), offset(r, 4, cfg.misaligned))
                }
            }
        },
        8 => match r.below(10) {
            0 => format!("frcsr {}", x_dst(r)),
            1 => format!("frrm {}", x_dst(r)),
            2 => format!("frflags {}", x_dst(r)),
            3 => format!("fsrmi {}, {}", x_dst(r), r.below(5)),
            4 => format!("fsflagsi {}, {}", x_dst(r), r.below(32)),
            5 => format!("csrrwi {}, fcsr, {}", x_dst(r), r.below(32)),
            6 => {
                let op = r.pick(&["csrrw", "csrrs", "csrrc"]);
                format!("{op} {}, fflags, {}", x_dst(r), x_src(r))
            }
            // Clearing bits of a valid frm leaves a valid frm.
            7 => format!("csrrc {}, frm, {}", x_dst(r), x_src(r)),
            8 => format!("csrrci {}, fcsr, {}", x_dst(r), r.below(32)),
            _ => format!("csrr {}, fcsr", x_dst(r)),
        },
        _ => {
            // fcvt of an integer edge value, to exercise conversions with exact inputs.
            let x = x_dst(r);
            format!(
                "li {x}, {:#x}\n    fcvt.s.w {}, {x}{}",
                int_value(r),
                f_reg(r),
                r.pick(RMS)
            )
        }
    }
}

fn block(r: &mut Rng, cfg: &GenConfig, id: usize) -> Block {
    if cfg.compressed && r.chance(1, 4) {
        let lines = crate::gen_c::block(r, id, cfg.float, &mut |r| simple(r, cfg));
        return Block { lines };
    }
    let mut lines = Vec::new();
    let body = |r: &mut Rng, lines: &mut Vec<String>, n: u32| {
        for _ in 0..n {
            lines.push(simple(r, cfg));
        }
    };
    match r.below(20) {
        0 | 1 => {
            let op = r.pick(&["beq", "bne", "blt", "bge", "bltu", "bgeu"]);
            lines.push(format!("{op} {}, {}, .Lskip{id}", x_src(r), x_src(r)));
            let n = r.range(1, 4) as u32;
            body(r, &mut lines, n);
            lines.push(format!(".Lskip{id}:"));
        }
        2 => {
            lines.push(format!("li x30, {}", r.range(1, 4)));
            lines.push(format!(".Lloop{id}:"));
            let n = r.range(1, 4) as u32;
            body(r, &mut lines, n);
            lines.push("addi x30, x30, -1".into());
            lines.push(format!("bnez x30, .Lloop{id}"));
        }
        3 => {
            lines.push(format!("jal {}, .Ljal{id}", x_dst(r)));
            let n = r.range(1, 2) as u32;
            body(r, &mut lines, n);
            lines.push(format!(".Ljal{id}:"));
        }
        4 => {
            let op = r.pick(&[
                "amoswap.w",
                "amoadd.w",
                "amoxor.w",
                "amoand.w",
                "amoor.w",
                "amomin.w",
                "amomax.w",
                "amominu.w",
                "amomaxu.w",
            ]);
            let ord = r.pick(&["", ".aq", ".rl", ".aqrl"]);
            lines.push(format!("addi x29, x31, {}", r.below(DATA_SIZE / 4) * 4));
            lines.push(format!("{op}{ord} {}, {}, (x29)", x_dst(r), x_src(r)));
        }
        5 => {
            lines.push(format!("addi x29, x31, {}", r.below(DATA_SIZE / 4) * 4));
            lines.push(format!("lr.w {}, (x29)", x_dst(r)));
            for _ in 0..r.below(3) {
                let op = r.pick(&["add", "xor", "sub", "mul"]);
                lines.push(format!("{op} {}, {}, {}", x_dst(r), x_src(r), x_src(r)));
            }
            lines.push(format!("sc.w {}, {}, (x29)", x_dst(r), x_src(r)));
            if r.chance(1, 4) {
                // The reservation is gone: this one fails on every implementation.
                lines.push(format!("sc.w {}, {}, (x29)", x_dst(r), x_src(r)));
            }
        }
        _ => lines.push(simple(r, cfg)),
    }
    Block { lines }
}

impl TestProgram {
    /// Generate the program for `seed`.
    pub fn generate(seed: u64, cfg: &GenConfig) -> TestProgram {
        let mut r = Rng::new(seed);
        let mut init = vec![
            "li x5, 0x6000".to_string(),
            "csrs mstatus, x5          # FS = dirty: the FPU is on (QEMU starts with it off)"
                .into(),
        ];
        if cfg.float {
            for f in 0..32 {
                init.push(format!("li x5, {:#x}", fp_value(&mut r)));
                init.push(format!("fmv.w.x f{f}, x5"));
            }
            init.push(format!("fsrmi x0, {}", r.below(5)));
            init.push("fsflagsi x0, 0".into());
        }
        for x in 1..31 {
            init.push(format!("li x{x}, {:#x}", int_value(&mut r)));
        }
        init.push("la x31, data".into());
        let data = (0..DATA_SIZE / 4)
            .map(|_| {
                if r.chance(1, 2) {
                    fp_value(&mut r)
                } else {
                    int_value(&mut r)
                }
            })
            .collect();
        let body = (0..cfg.blocks).map(|i| block(&mut r, cfg, i)).collect();
        TestProgram {
            seed,
            init,
            data,
            body,
        }
    }

    /// The same program with another body (for minimization).
    pub fn with_body(&self, body: Vec<Block>) -> TestProgram {
        TestProgram {
            body,
            ..self.clone()
        }
    }

    /// Number of body instructions (lines that are not labels).
    pub fn body_len(&self) -> usize {
        self.body
            .iter()
            .flat_map(|b| &b.lines)
            .filter(|l| !l.ends_with(':'))
            .count()
    }

    /// The complete assembly source.
    pub fn source(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "# weft-difftest program, seed {:#x}", self.seed);
        s.push_str("    .text\n    .globl _start\n_start:\n");
        for l in &self.init {
            let _ = writeln!(s, "    {l}");
        }
        s.push_str("# --- body ---\n");
        for b in &self.body {
            for l in &b.lines {
                if l.ends_with(':') {
                    let _ = writeln!(s, "{l}");
                } else {
                    let _ = writeln!(s, "    {l}");
                }
            }
        }
        s.push_str("# --- dump ---\n");
        s.push_str(EPILOGUE);
        let _ = writeln!(
            s,
            "    .data\n    .align 3\n    .globl tohost\ntohost: .word 0, 0\n    .size tohost, 8\n    .globl fromhost\nfromhost: .word 0, 0\n    .size fromhost, 8\ndump: .space {}",
            DUMP_WORDS * 4
        );
        s.push_str("data:\n");
        for chunk in self.data.chunks(8) {
            let words: Vec<String> = chunk.iter().map(|w| format!("{w:#010x}")).collect();
            let _ = writeln!(s, "    .word {}", words.join(", "));
        }
        s
    }
}

/// Store every register, print the dump and the data region, exit through tohost.
const EPILOGUE: &str = "    la x31, dump
    sw x1, 4(x31)
    sw x2, 8(x31)
    sw x3, 12(x31)
    sw x4, 16(x31)
    sw x5, 20(x31)
    sw x6, 24(x31)
    sw x7, 28(x31)
    sw x8, 32(x31)
    sw x9, 36(x31)
    sw x10, 40(x31)
    sw x11, 44(x31)
    sw x12, 48(x31)
    sw x13, 52(x31)
    sw x14, 56(x31)
    sw x15, 60(x31)
    sw x16, 64(x31)
    sw x17, 68(x31)
    sw x18, 72(x31)
    sw x19, 76(x31)
    sw x20, 80(x31)
    sw x21, 84(x31)
    sw x22, 88(x31)
    sw x23, 92(x31)
    sw x24, 96(x31)
    sw x25, 100(x31)
    sw x26, 104(x31)
    sw x27, 108(x31)
    sw x28, 112(x31)
    sw x29, 116(x31)
    sw x30, 120(x31)
    fsw f0, 128(x31)
    fsw f1, 132(x31)
    fsw f2, 136(x31)
    fsw f3, 140(x31)
    fsw f4, 144(x31)
    fsw f5, 148(x31)
    fsw f6, 152(x31)
    fsw f7, 156(x31)
    fsw f8, 160(x31)
    fsw f9, 164(x31)
    fsw f10, 168(x31)
    fsw f11, 172(x31)
    fsw f12, 176(x31)
    fsw f13, 180(x31)
    fsw f14, 184(x31)
    fsw f15, 188(x31)
    fsw f16, 192(x31)
    fsw f17, 196(x31)
    fsw f18, 200(x31)
    fsw f19, 204(x31)
    fsw f20, 208(x31)
    fsw f21, 212(x31)
    fsw f22, 216(x31)
    fsw f23, 220(x31)
    fsw f24, 224(x31)
    fsw f25, 228(x31)
    fsw f26, 232(x31)
    fsw f27, 236(x31)
    fsw f28, 240(x31)
    fsw f29, 244(x31)
    fsw f30, 248(x31)
    fsw f31, 252(x31)
    frcsr x5
    sw x5, 256(x31)
    mv s0, x31
    li s1, 193
.Ldump_loop:
    lw a0, 0(s0)
    jal ra, .Lputhex
    addi s0, s0, 4
    addi s1, s1, -1
    bnez s1, .Ldump_loop
    la t0, tohost
    li t1, 1
    sw t1, 0(t0)
    sw zero, 4(t0)
.Lhang:
    j .Lhang
.Lputhex:
    li t2, 8
    la t0, tohost
    li t1, 0x01010000
.Lnibble:
    srli t3, a0, 28
    li t4, 10
    blt t3, t4, .Ldigit
    addi t3, t3, 39
.Ldigit:
    addi t3, t3, 48
    sw t3, 0(t0)
    sw t1, 4(t0)
    slli a0, a0, 4
    addi t2, t2, -1
    bnez t2, .Lnibble
    li t3, 10
    sw t3, 0(t0)
    sw t1, 4(t0)
    ret
";

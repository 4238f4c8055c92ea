//! Random SIMT kernels for the consistency property: a kernel run with L lanes gives, in every
//! lane, the same registers and memory as the same code run with one lane that has that
//! lane's id.
//!
//! The kernel reads its *logical* id from `idtable[thread_id]` (the L-lane run gets
//! `idtable[i] = i`, the 1-lane run for id `k` gets `idtable[0] = k`; the table always has
//! 32 entries so both ELFs have the same layout). Everything the kernel does derives from
//! that id: registers are initialized from it, branches compare id-derived values (if/else,
//! nested), loops run an id-dependent number of times (with id-dependent early exits), and
//! functions are called from divergent code. There is no cross-lane communication: each
//! lane loads and stores only its own 256-byte `out` slot, and at the end stores x1–x30,
//! f0–f7 and fcsr there, then halts its group (`csrw tmask, zero`).

use crate::rng::Rng;
use std::fmt::Write;

/// Bytes of one lane's `out` slot: x0–x31 (words 0–31), f0–f7 (32–39), fcsr (40), data
/// (words 48–63, offsets 192–255).
pub const SLOT: u32 = 256;
/// First data byte of a slot.
pub const SLOT_DATA: u32 = 192;
/// Number of slots (one per possible lane id).
pub const SLOTS: u32 = 32;

/// A generated kernel.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// The seed.
    pub seed: u64,
    /// Main body lines.
    body: Vec<String>,
    /// Function bodies.
    funcs: Vec<Vec<String>>,
    /// Initial contents of the whole `out` area.
    out_init: Vec<u32>,
    /// Register initialization lines.
    init: Vec<String>,
}

struct Gen<'a> {
    r: &'a mut Rng,
    label: usize,
    funcs: usize,
}

// Writable registers: x0, x2–x26, x28. x1 = ra, x27 = logical id, x29 = scratch for loop
// bounds, x30 = loop counter, x31 = slot base.
fn wreg(r: &mut Rng) -> String {
    let n = r.below(27);
    format!(
        "x{}",
        match n {
            1 => 28,
            n => n,
        }
    )
}

fn sreg(r: &mut Rng) -> String {
    format!("x{}", r.below(32))
}

impl Gen<'_> {
    fn next_label(&mut self) -> usize {
        self.label += 1;
        self.label
    }

    fn simple(&mut self, out: &mut Vec<String>) {
        let r = &mut *self.r;
        let line = match r.below(9) {
            0..=2 => {
                let op = r.pick(&[
                    "add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and", "mul",
                    "mulh", "mulhu", "div", "divu", "rem", "remu",
                ]);
                format!("{op} {}, {}, {}", wreg(r), sreg(r), sreg(r))
            }
            3 => {
                let op = r.pick(&["addi", "xori", "andi", "ori", "slti", "sltiu"]);
                format!("{op} {}, {}, {}", wreg(r), sreg(r), r.range(-2048, 2047))
            }
            4 => {
                let (op, w) = *r.pick(&[("lb", 1), ("lh", 2), ("lw", 4), ("lbu", 1), ("lhu", 2)]);
                let off = SLOT_DATA + r.below(SLOT - SLOT_DATA - w + 1);
                format!("{op} {}, {off}(x31)", wreg(r))
            }
            5 => {
                let (op, w) = *r.pick(&[("sb", 1), ("sh", 2), ("sw", 4)]);
                let off = SLOT_DATA + r.below(SLOT - SLOT_DATA - w + 1);
                format!("{op} {}, {off}(x31)", sreg(r))
            }
            6 => {
                let op = r.pick(&["fadd.s", "fmul.s", "fdiv.s", "fsub.s"]);
                format!("{op} f{}, f{}, f{}", r.below(8), r.below(8), r.below(8))
            }
            7 => match r.below(3) {
                0 => format!("fcvt.s.w f{}, {}", r.below(8), sreg(r)),
                1 => format!("fcvt.w.s {}, f{}, rtz", wreg(r), r.below(8)),
                _ => format!("flt.s {}, f{}, f{}", wreg(r), r.below(8), r.below(8)),
            },
            _ => {
                let op = r.pick(&["amoadd.w", "amoxor.w", "amomaxu.w", "amoswap.w"]);
                let off = SLOT_DATA + 4 * r.below((SLOT - SLOT_DATA) / 4);
                out.push(format!("addi x29, x31, {off}"));
                format!("{op} {}, {}, (x29)", wreg(r), sreg(r))
            }
        };
        out.push(line);
    }

    fn cond(&mut self) -> String {
        let r = &mut *self.r;
        let op = r.pick(&["beq", "bne", "blt", "bge", "bltu", "bgeu"]);
        // Compare against the id often, so lanes disagree.
        let a = if r.chance(1, 2) {
            "x27".into()
        } else {
            sreg(r)
        };
        format!("{op} {a}, {}", sreg(r))
    }

    /// A block; `depth` bounds nesting, `in_loop` forbids nested loops, `in_func` forbids calls.
    fn block(&mut self, out: &mut Vec<String>, depth: u32, in_loop: bool, in_func: bool) {
        let kind = self.r.below(12);
        match kind {
            0 | 1 if depth > 0 => {
                let l = self.next_label();
                let c = self.cond();
                let has_else = self.r.chance(1, 2);
                out.push(format!("{c}, .Lelse{l}"));
                let n = self.r.range(1, 3);
                for _ in 0..n {
                    self.block(out, depth - 1, in_loop, in_func);
                }
                if has_else {
                    out.push(format!("j .Lend{l}"));
                    out.push(format!(".Lelse{l}:"));
                    let n = self.r.range(1, 3);
                    for _ in 0..n {
                        self.block(out, depth - 1, in_loop, in_func);
                    }
                    out.push(format!(".Lend{l}:"));
                } else {
                    out.push(format!(".Lelse{l}:"));
                }
            }
            2 if depth > 0 && !in_loop && !in_func => {
                let l = self.next_label();
                let src = if self.r.chance(2, 3) {
                    "x27".into()
                } else {
                    sreg(self.r)
                };
                out.push(format!("andi x30, {src}, 7"));
                out.push("addi x30, x30, 1".into());
                out.push(format!(".Lloop{l}:"));
                let n = self.r.range(1, 3);
                for _ in 0..n {
                    self.block(out, depth - 1, true, in_func);
                }
                if self.r.chance(1, 3) {
                    let c = self.cond();
                    out.push(format!("{c}, .Lexit{l}"));
                }
                out.push("addi x30, x30, -1".into());
                out.push(format!("bnez x30, .Lloop{l}"));
                out.push(format!(".Lexit{l}:"));
            }
            3 if !in_func && self.funcs > 0 => {
                let f = self.r.below(self.funcs as u32);
                out.push(format!("jal ra, kfunc{f}"));
            }
            _ => self.simple(out),
        }
    }
}

impl Kernel {
    /// Generate a kernel of about `blocks` top-level blocks.
    pub fn generate(seed: u64, blocks: usize) -> Kernel {
        let mut r = Rng::new(seed);
        let nfuncs = r.below(3) as usize;
        let mut g = Gen {
            r: &mut r,
            label: 0,
            funcs: nfuncs,
        };
        let mut funcs = Vec::new();
        for _ in 0..nfuncs {
            let mut f = Vec::new();
            let n = g.r.range(2, 6);
            for _ in 0..n {
                g.block(&mut f, 2, false, true);
            }
            funcs.push(f);
        }
        let mut body = Vec::new();
        for _ in 0..blocks {
            g.block(&mut body, 3, false, false);
        }
        let mut init = Vec::new();
        for x in (2..=26).chain([28]) {
            let c = g.r.u32() as i32 >> g.r.below(24);
            init.push(match g.r.below(3) {
                0 => format!("li x{x}, {c}"),
                1 => format!("li x{x}, {c}\n    mul x{x}, x{x}, x27"),
                _ => format!("li x{x}, {c}\n    xor x{x}, x{x}, x27"),
            });
        }
        for f in 0..8 {
            init.push(format!("fcvt.s.w f{f}, x{}", 2 + f));
        }
        let out_init = (0..SLOTS * SLOT / 4).map(|_| g.r.u32()).collect();
        Kernel {
            seed,
            body,
            funcs,
            out_init,
            init,
        }
    }

    /// The assembly source, with `ids` as the id table (padded to 32 entries with 0).
    pub fn source(&self, ids: &[u32]) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "# weft-difftest SIMT kernel, seed {:#x}", self.seed);
        s.push_str(
            "    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    li t0, 0x6000
    csrs mstatus, t0
    csrr t0, thread_id
    slli t0, t0, 2
    la t1, idtable
    add t1, t1, t0
    lw x27, 0(t1)
    slli t0, x27, 8
    la x31, out
    add x31, x31, t0
",
        );
        for l in self.init.iter().chain(&self.body) {
            push_line(&mut s, l);
        }
        s.push_str("# --- dump ---\n");
        for x in 1..31 {
            let _ = writeln!(s, "    sw x{x}, {}(x31)", 4 * x);
        }
        for f in 0..8 {
            let _ = writeln!(s, "    fsw f{f}, {}(x31)", 128 + 4 * f);
        }
        s.push_str(
            "    frcsr t0\n    sw t0, 160(x31)\n    csrw tmask, zero\n.Lstuck:\n    j .Lstuck\n",
        );
        for (i, f) in self.funcs.iter().enumerate() {
            let _ = writeln!(s, "    .globl kfunc{i}\nkfunc{i}:");
            for l in f {
                push_line(&mut s, &l.replace(".L", &format!(".Lf{i}_")));
            }
            s.push_str("    ret\n");
        }
        s.push_str("    .data\n    .align 2\nidtable:\n");
        for i in 0..32 {
            let _ = writeln!(s, "    .word {}", ids.get(i).copied().unwrap_or(0));
        }
        s.push_str("out:\n");
        for chunk in self.out_init.chunks(8) {
            let w: Vec<String> = chunk.iter().map(|w| format!("{w:#x}")).collect();
            let _ = writeln!(s, "    .word {}", w.join(", "));
        }
        s
    }
}

fn push_line(s: &mut String, l: &str) {
    if l.ends_with(':') {
        let _ = writeln!(s, "{l}");
    } else {
        let _ = writeln!(s, "    {l}");
    }
}

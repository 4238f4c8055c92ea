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
//!
//! The shapes compilers emit, which reconvergence must get right, are generated on purpose:
//! functions with several returns (early `ret`s under id-dependent conditions), tail calls
//! (`tail`, and `jr` through a table of functions), calls between functions (ra saved on a
//! per-lane stack), recursion whose depth is the lane's id (`krec`), loops whose exit branch is
//! backward (the exit block above the loop), loops whose forward exit branch falls through to
//! the exit path, loops with `break`s to different blocks, nested loops with a break out of the
//! inner one, `switch`es through a jump table with a bounds check and fall-through cases, and
//! per-lane indirect calls through a table of function pointers.

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
    /// Function bodies (function `i` may call or tail-call only functions `j > i`).
    funcs: Vec<Vec<String>>,
    /// Data lines (jump tables, function tables), per function (`None`: the main body).
    tables: Vec<(Option<usize>, String)>,
    /// The body of `krec`, the recursive function (after its recursive call).
    krec: Vec<String>,
    /// Initial contents of the whole `out` area.
    out_init: Vec<u32>,
    /// Register initialization lines.
    init: Vec<String>,
}

struct Gen<'a> {
    r: &'a mut Rng,
    label: usize,
    funcs: usize,
    /// The function being generated (`None`: the main body).
    func: Option<usize>,
    tables: Vec<(Option<usize>, String)>,
}

// Writable registers: x0, x3–x23, x26, x28. x1 = ra, x2 = sp (a per-lane stack), x24 =
// scratch for tables, x25 = inner loop counter, x26 = krec's argument (written by others too),
// x27 = logical id, x29 = scratch for loop bounds and addresses, x30 = loop counter, x31 =
// slot base.
fn wreg(r: &mut Rng) -> String {
    let n = r.below(24);
    format!(
        "x{}",
        match n {
            1 => 28,
            2 => 26,
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

    /// A block; `depth` bounds nesting, `in_loop` forbids nested loops (one level of inner
    /// loop is allowed through [`Gen::inner_loop`]), `in_func` marks a function body.
    fn block(&mut self, out: &mut Vec<String>, depth: u32, in_loop: bool, in_func: bool) {
        let kind = self.r.below(20);
        match kind {
            0 | 1 if depth > 0 => self.if_else(out, depth, in_loop, in_func),
            2 if depth > 0 && !in_loop && !in_func => self.counted_loop(out, depth),
            3 if depth > 0 && !in_loop && !in_func => self.backward_exit_loop(out, depth),
            4 if depth > 0 && !in_loop && !in_func => self.fallthrough_exit_loop(out, depth),
            5 if depth > 0 && !in_loop && !in_func => self.breaks_loop(out, depth),
            6 if depth > 0 && in_loop && !in_func => self.inner_loop(out),
            7 if depth > 0 => self.switch(out, depth, in_loop, in_func),
            8 | 9 => self.call(out, in_func),
            10 if !in_func => {
                // Recursion as deep as the lane's id allows (at most 7 frames).
                let src = self.id_or_reg();
                out.push(format!("andi x26, {src}, 7"));
                out.push("jal ra, krec".into());
            }
            11 if !in_func && self.funcs > 0 => self.indirect_call(out),
            12 if in_func => {
                // An early return under an id-dependent condition.
                let l = self.next_label();
                let c = self.cond();
                out.push(format!("{c}, .Lstay{l}"));
                self.simple(out);
                out.push("ret".into());
                out.push(format!(".Lstay{l}:"));
            }
            _ => self.simple(out),
        }
    }

    fn id_or_reg(&mut self) -> String {
        if self.r.chance(2, 3) {
            "x27".into()
        } else {
            sreg(self.r)
        }
    }

    fn body(&mut self, out: &mut Vec<String>, depth: u32, in_loop: bool, in_func: bool) {
        let n = self.r.range(1, 3);
        for _ in 0..n {
            self.block(out, depth, in_loop, in_func);
        }
    }

    fn if_else(&mut self, out: &mut Vec<String>, depth: u32, in_loop: bool, in_func: bool) {
        let l = self.next_label();
        let c = self.cond();
        let has_else = self.r.chance(1, 2);
        out.push(format!("{c}, .Lelse{l}"));
        self.body(out, depth - 1, in_loop, in_func);
        if has_else {
            out.push(format!("j .Lend{l}"));
            out.push(format!(".Lelse{l}:"));
            self.body(out, depth - 1, in_loop, in_func);
            out.push(format!(".Lend{l}:"));
        } else {
            out.push(format!(".Lelse{l}:"));
        }
    }

    /// x30 = 1 + (id-derived & 7).
    fn trip_count(&mut self, out: &mut Vec<String>) {
        let src = self.id_or_reg();
        out.push(format!("andi x30, {src}, 7"));
        out.push("addi x30, x30, 1".into());
    }

    /// A counted loop with an optional early exit (bottom-tested back edge).
    fn counted_loop(&mut self, out: &mut Vec<String>, depth: u32) {
        let l = self.next_label();
        self.trip_count(out);
        out.push(format!(".Lloop{l}:"));
        self.body(out, depth - 1, true, false);
        if self.r.chance(1, 3) {
            let c = self.cond();
            out.push(format!("{c}, .Lexit{l}"));
        }
        out.push("addi x30, x30, -1".into());
        out.push(format!("bnez x30, .Lloop{l}"));
        out.push(format!(".Lexit{l}:"));
    }

    /// The exit block laid out above the loop: every exit branch is backward.
    fn backward_exit_loop(&mut self, out: &mut Vec<String>, depth: u32) {
        let l = self.next_label();
        self.trip_count(out);
        out.push(format!("j .Llatch{l}"));
        out.push(format!(".Ldone{l}:"));
        self.simple(out);
        out.push(format!("j .Lafter{l}"));
        out.push(format!(".Lbody{l}:"));
        self.body(out, depth - 1, true, false);
        out.push("addi x30, x30, -1".into());
        out.push(format!(".Llatch{l}:"));
        out.push(format!("beqz x30, .Ldone{l}"));
        if self.r.chance(1, 2) {
            let c = self.cond();
            out.push(format!("{c}, .Ldone{l}"));
        }
        out.push(format!("j .Lbody{l}"));
        out.push(format!(".Lafter{l}:"));
    }

    /// A forward exit branch whose fall-through is the exit path (clang -O0's `return` in a
    /// loop): the leaving lanes run first.
    fn fallthrough_exit_loop(&mut self, out: &mut Vec<String>, depth: u32) {
        let l = self.next_label();
        self.trip_count(out);
        out.push(format!(".Lloop{l}:"));
        let c = self.cond();
        out.push(format!("{c}, .Lcont{l}"));
        self.simple(out);
        out.push(format!("j .Lexit{l}"));
        out.push(format!(".Lcont{l}:"));
        self.body(out, depth - 1, true, false);
        out.push("addi x30, x30, -1".into());
        out.push(format!("bnez x30, .Lloop{l}"));
        out.push(format!(".Lexit{l}:"));
    }

    /// `break`s to two different blocks before the common exit.
    fn breaks_loop(&mut self, out: &mut Vec<String>, depth: u32) {
        let l = self.next_label();
        self.trip_count(out);
        out.push(format!(".Lloop{l}:"));
        self.body(out, depth - 1, true, false);
        let c = self.cond();
        out.push(format!("{c}, .Lb1_{l}"));
        self.body(out, depth - 1, true, false);
        let c = self.cond();
        out.push(format!("{c}, .Lb2_{l}"));
        out.push("addi x30, x30, -1".into());
        out.push(format!("bnez x30, .Lloop{l}"));
        out.push(format!("j .Lexit{l}"));
        out.push(format!(".Lb1_{l}:"));
        self.simple(out);
        out.push(format!("j .Lexit{l}"));
        out.push(format!(".Lb2_{l}:"));
        self.simple(out);
        out.push(format!(".Lexit{l}:"));
    }

    /// An inner loop (counter x25, at most 4 trips) with a break out of it.
    fn inner_loop(&mut self, out: &mut Vec<String>) {
        let l = self.next_label();
        let src = self.id_or_reg();
        out.push(format!("andi x25, {src}, 3"));
        out.push("addi x25, x25, 1".into());
        out.push(format!(".Linner{l}:"));
        self.simple(out);
        let c = self.cond();
        out.push(format!("{c}, .Linexit{l}"));
        self.simple(out);
        out.push("addi x25, x25, -1".into());
        out.push(format!("bnez x25, .Linner{l}"));
        out.push(format!(".Linexit{l}:"));
    }

    /// A `switch` on an id-derived value through a jump table, as compilers emit it: bounds
    /// check to the default case, table address, scaled index, load, `jr`; cases that break
    /// and cases that fall through.
    fn switch(&mut self, out: &mut Vec<String>, depth: u32, in_loop: bool, in_func: bool) {
        let l = self.next_label();
        let src = self.id_or_reg();
        let cases = self.r.range(3, 5) as usize;
        out.push(format!("andi x29, {src}, 7"));
        out.push(format!("li x24, {}", cases - 1));
        out.push(format!("bltu x24, x29, .Ldef{l}"));
        out.push("slli x29, x29, 2".into());
        out.push(format!("lui x24, %hi(.Ljt{l})"));
        out.push(format!("addi x24, x24, %lo(.Ljt{l})"));
        out.push("add x29, x29, x24".into());
        out.push("lw x29, 0(x29)".into());
        out.push("jr x29".into());
        let names: Vec<String> = (0..cases).map(|k| format!(".Lcase{l}_{k}")).collect();
        for name in &names {
            out.push(format!("{name}:"));
            self.body(out, depth - 1, in_loop, in_func);
            if self.r.chance(2, 3) {
                out.push(format!("j .Lsw{l}"));
            }
        }
        out.push(format!(".Ldef{l}:"));
        self.simple(out);
        out.push(format!(".Lsw{l}:"));
        self.tables.push((
            self.func,
            format!(".Ljt{l}:\n    .word {}", names.join(", ")),
        ));
    }

    /// A call to a function; from a function, only to a later one, with ra on the stack.
    fn call(&mut self, out: &mut Vec<String>, in_func: bool) {
        let first = self.func.map_or(0, |f| f + 1);
        if first >= self.funcs {
            return self.simple(out);
        }
        let f = first + self.r.below((self.funcs - first) as u32) as usize;
        if in_func {
            if self.r.chance(1, 3) {
                // A tail call: no link, the callee's return is this function's.
                out.push(format!("tail kfunc{f}"));
                return;
            }
            out.push("addi sp, sp, -4".into());
            out.push("sw ra, 0(sp)".into());
            out.push(format!("jal ra, kfunc{f}"));
            out.push("lw ra, 0(sp)".into());
            out.push("addi sp, sp, 4".into());
        } else {
            out.push(format!("jal ra, kfunc{f}"));
        }
    }

    /// A per-lane indirect call through a table of four function pointers.
    fn indirect_call(&mut self, out: &mut Vec<String>) {
        let l = self.next_label();
        let src = self.id_or_reg();
        out.push(format!("andi x29, {src}, 3"));
        out.push("slli x29, x29, 2".into());
        out.push(format!("la x24, .Lft{l}"));
        out.push("add x29, x29, x24".into());
        out.push("lw x29, 0(x29)".into());
        out.push("jalr ra, 0(x29)".into());
        let fs: Vec<String> = (0..4)
            .map(|_| format!("kfunc{}", self.r.below(self.funcs as u32)))
            .collect();
        self.tables
            .push((None, format!(".Lft{l}:\n    .word {}", fs.join(", "))));
    }
}

impl Kernel {
    /// Generate a kernel of about `blocks` top-level blocks.
    pub fn generate(seed: u64, blocks: usize) -> Kernel {
        let mut r = Rng::new(seed);
        let nfuncs = r.below(4) as usize;
        let mut g = Gen {
            r: &mut r,
            label: 0,
            funcs: nfuncs,
            func: None,
            tables: Vec::new(),
        };
        let mut funcs = Vec::new();
        for i in 0..nfuncs {
            g.func = Some(i);
            let mut f = Vec::new();
            let n = g.r.range(2, 6);
            for _ in 0..n {
                g.block(&mut f, 2, false, true);
            }
            funcs.push(f);
        }
        g.func = None;
        let mut krec = Vec::new();
        for _ in 0..g.r.range(1, 3) {
            g.simple(&mut krec);
        }
        let mut body = Vec::new();
        for _ in 0..blocks {
            g.block(&mut body, 3, false, false);
        }
        let tables = std::mem::take(&mut g.tables);
        let mut init = Vec::new();
        for x in (3..=26).chain([28]) {
            let c = g.r.u32() as i32 >> g.r.below(24);
            init.push(match g.r.below(3) {
                0 => format!("li x{x}, {c}"),
                1 => format!("li x{x}, {c}\n    mul x{x}, x{x}, x27"),
                _ => format!("li x{x}, {c}\n    xor x{x}, x{x}, x27"),
            });
        }
        for f in 0..8 {
            init.push(format!("fcvt.s.w f{f}, x{}", 3 + f));
        }
        let out_init = (0..SLOTS * SLOT / 4).map(|_| g.r.u32()).collect();
        Kernel {
            seed,
            body,
            funcs,
            tables,
            krec,
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
    slli t0, x27, 9
    la sp, stack
    add sp, sp, t0
    addi sp, sp, 512
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
        // krec: recursion to depth x26 (the lane's id & 7), ra and x26 on the stack.
        s.push_str(
            "    .globl krec\nkrec:\n    beqz x26, .Lkrec_base\n    addi sp, sp, -8\n    sw ra, 0(sp)\n    sw x26, 4(sp)\n    addi x26, x26, -1\n    jal ra, krec\n    lw ra, 0(sp)\n    lw x26, 4(sp)\n    addi sp, sp, 8\n",
        );
        for l in &self.krec {
            push_line(&mut s, l);
        }
        s.push_str(".Lkrec_base:\n    ret\n");
        s.push_str("    .data\n    .align 2\n");
        for (f, t) in &self.tables {
            match f {
                Some(i) => push_line(&mut s, &t.replace(".L", &format!(".Lf{i}_"))),
                None => push_line(&mut s, t),
            }
        }
        s.push_str("idtable:\n");
        for i in 0..32 {
            let _ = writeln!(s, "    .word {}", ids.get(i).copied().unwrap_or(0));
        }
        s.push_str("out:\n");
        for chunk in self.out_init.chunks(8) {
            let w: Vec<String> = chunk.iter().map(|w| format!("{w:#x}")).collect();
            let _ = writeln!(s, "    .word {}", w.join(", "));
        }
        // One 512-byte stack per logical id.
        s.push_str("    .align 4\nstack:\n    .zero 16384\n");
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

#!/usr/bin/env python3
"""Generate weft's per-instruction ISA tests (tests/isa/*.s).

Style of the official riscv-tests "p" environment: every file is a self-checking program;
check N loads N into gp, runs the instruction under test and compares the results with the
values computed here; the first mismatch stores (N << 1) | 1 to `tohost` (exit code N), and
a file that gets to the end stores 1 (pass).

The expected values are computed in this script from the definitions in the RISC-V
unprivileged specification (integer semantics on Python ints; single-precision results by
exact rational arithmetic and an IEEE 754 rounding routine with RISC-V's tininess-after-
rounding rule), independently of weft's own code.  QEMU (`-machine spike`) runs the same
programs as a second oracle (crates/difftest/tests/isa_suite.rs).

    python3 tests/isa/gen.py           # rewrite tests/isa/*.s
    python3 tests/isa/gen.py --check   # exit 1 if a committed file differs from the output

Python 3.11, standard library only.
"""

import os
import sys
from fractions import Fraction as Fr

M = 0xFFFFFFFF
INT_MIN = 0x80000000
INT_MAX = 0x7FFFFFFF
WEFT_MARCHID = 0x77656674
HERE = os.path.dirname(os.path.abspath(__file__))


def u32(x):
    return x & M


def s32(x):
    x &= M
    return x - (1 << 32) if x >> 31 else x


def hx(x):
    return f"0x{u32(x):08x}"


# --------------------------------------------------------------------------------------------
# The program skeleton


PROLOGUE = f"""\
    .text
    .globl _start
    .type _start, @function
_start:
    csrr    t0, marchid
    li      t1, {hx(WEFT_MARCHID)}        # 'weft'
    bne     t0, t1, .Lqemu_setup
    li      t0, -1
    csrw    0x804, t0               # weft tmask: every lane of warp 0 runs the checks
    csrr    s7, 0x804               # s7: the full mask (tmask), checked again at the end
    j       .Lsetup_done
.Lqemu_setup:
    li      s7, 0
    la      t0, trap_handler        # QEMU: a trap reports the current check as failed
    csrw    mtvec, t0
.Lsetup_done:
    li      t0, 0x6000
    csrs    mstatus, t0             # FS = dirty: the FPU is on (QEMU starts with it off)
    fscsr   x0
    csrr    s11, mhartid
    andi    s11, s11, 31
    slli    s11, s11, 8
    la      s10, scratch
    add     s10, s10, s11           # s10: this lane's 256-byte scratch area
    la      s9, tdat                # s9: read-only test data
    li      gp, 0
"""

EPILOGUE = f"""
# ---------------------------------------------------------------------------------------------
pass:
    beqz    s7, .Lpass_exit         # (QEMU)
    csrr    t0, 0x804               # tmask
    beq     t0, s7, .Lpass_exit
    li      gp, 0xfffff             # weft: some lane is missing here (the lanes disagreed)
    j       .Lfail_exit
.Lpass_exit:
    la      t0, tohost
    li      t1, 1
    sw      t1, 0(t0)
    sw      zero, 4(t0)
.Lpass_hang:
    j       .Lpass_hang

    # gp holds the number of the failed check.  QEMU only: print "FAIL <gp in hex>" on the
    # HTIF console first, because QEMU's exit status keeps only the low 8 bits of the code.
fail:
    csrr    t0, marchid
    li      t1, {hx(WEFT_MARCHID)}
    beq     t0, t1, .Lfail_exit
    li      a0, 0x4c494146          # "FAIL"
    jal     ra, put4
    mv      a0, gp
    jal     ra, puthex
.Lfail_exit:
    slli    t1, gp, 1
    ori     t1, t1, 1
    la      t0, tohost
    sw      t1, 0(t0)
    sw      zero, 4(t0)
.Lfail_hang:
    j       .Lfail_hang

    # QEMU only (weft runs with mtvec = 0, so a trap is a fault the harness reports).
    .align 2
trap_handler:
    li      a0, 0x50415254          # "TRAP"
    jal     ra, put4
    csrr    a0, mcause
    jal     ra, puthex
    csrr    a0, mepc
    jal     ra, puthex
    j       fail

    # Print the 4 bytes of a0 (low byte first), then a space.
put4:
    la      t0, tohost
    li      t1, 0x01010000          # HTIF device 1 (console), command 1 (putchar)
    li      t2, 4
.Lput4_loop:
    andi    t3, a0, 0xff
    sw      t3, 0(t0)
    sw      t1, 4(t0)
    srli    a0, a0, 8
    addi    t2, t2, -1
    bnez    t2, .Lput4_loop
    li      t3, 32
    sw      t3, 0(t0)
    sw      t1, 4(t0)
    ret

    # Print a0 as 8 hex digits and a newline.
puthex:
    la      t0, tohost
    li      t1, 0x01010000
    li      t2, 8
.Lhex_loop:
    srli    t3, a0, 28
    li      t4, 10
    blt     t3, t4, .Lhex_digit
    addi    t3, t3, 39
.Lhex_digit:
    addi    t3, t3, 48
    sw      t3, 0(t0)
    sw      t1, 4(t0)
    slli    a0, a0, 4
    addi    t2, t2, -1
    bnez    t2, .Lhex_loop
    li      t3, 10
    sw      t3, 0(t0)
    sw      t1, 4(t0)
    ret
    .size _start, . - _start

    .data
    .align 3
    .globl tohost
tohost: .word 0, 0
    .size tohost, 8
    .globl fromhost
fromhost: .word 0, 0
    .size fromhost, 8
"""


class TestFile:
    def __init__(self, name, title, notes=()):
        self.name = name
        self.title = title
        self.notes = list(notes)
        self.n = 0
        self.lab = 0
        self.lines = []
        self.data = []
        self.groups = {}

    # --- emission helpers ---
    def e(self, *lines):
        for l in lines:
            self.lines.append("    " + l if l and not l.endswith(":") else l)

    def label(self):
        self.lab += 1
        return f".L{self.lab}"

    def section(self, title):
        self.lines += ["", f"# ---- {title} " + "-" * max(4, 88 - len(title))]
        self.cur = title
        self.groups.setdefault(title, 0)

    def test(self, desc):
        self.n += 1
        self.groups[self.cur] += 1
        self.lines += [f"test_{self.n}:  # {desc}", f"    li      gp, {self.n}"]

    def li(self, reg, v):
        self.e(f"li      {reg}, {hx(v)}")

    def expect(self, reg, v):
        """reg must equal v (t6 is the scratch register for the comparison)."""
        ok = self.label()
        self.e(f"li      t6, {hx(v)}", f"beq     {reg}, t6, {ok}", "j       fail")
        self.lines.append(f"{ok}:")

    def expect_reg(self, reg, other):
        ok = self.label()
        self.e(f"beq     {reg}, {other}, {ok}", "j       fail")
        self.lines.append(f"{ok}:")

    def expect_nonzero(self, reg):
        ok = self.label()
        self.e(f"bnez    {reg}, {ok}", "j       fail")
        self.lines.append(f"{ok}:")

    def render(self):
        head = [f"# {self.name}: {self.title}", "#",
                "# GENERATED by tests/isa/gen.py -- do not edit; run `python3 tests/isa/gen.py`.",
                "# Check N sets gp = N; a failure exits through tohost with code N."]
        for n in self.notes:
            head.append(f"# {n}")
        head.append(f"# {self.n} checks.")
        data = ["", "    .section .rodata", "    .align 4", "tdat:"] + TDAT_LINES
        data += ["", "    .data", "    .align 4", "scratch:", "    .space 8192"]
        return "\n".join(head + [PROLOGUE] + self.lines + ["", "    j       pass"]
                         + [EPILOGUE] + data) + "\n"


# 64 bytes of read-only data, addressed through s9.
TDAT = bytes([0x00, 0xFF, 0x7F, 0x80, 0x01, 0xFE, 0x34, 0x12,
              0x78, 0x56, 0x34, 0x12, 0xEF, 0xBE, 0xAD, 0xDE,
              0x80, 0x00, 0x00, 0x80, 0xFF, 0xFF, 0xFF, 0x7F,
              0x01, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF,
              0x00, 0x80, 0xFF, 0x7F, 0x55, 0xAA, 0x5A, 0xA5,
              0x01, 0x00, 0x80, 0x7F, 0x45, 0x23, 0xC1, 0x7F,
              0x00, 0x00, 0x80, 0x3F, 0xAB, 0xCD, 0xEF, 0x01,
              0x11, 0x22, 0x33, 0x44, 0x99, 0x88, 0x77, 0x66])
TDAT_LINES = ["    .byte " + ", ".join(f"0x{b:02x}" for b in TDAT[i:i + 8])
              for i in range(0, len(TDAT), 8)]


def tdat_load(off, size, signed):
    v = int.from_bytes(TDAT[off:off + size], "little")
    if signed and v >> (8 * size - 1):
        v -= 1 << (8 * size)
    return u32(v)


# --------------------------------------------------------------------------------------------
# RV32I


E = [0, 1, M, INT_MIN, INT_MAX, 0x12345678, 0xFEDCBA98]

RR = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "sll": lambda a, b: a << (b & 31),
    "slt": lambda a, b: int(s32(a) < s32(b)),
    "sltu": lambda a, b: int(u32(a) < u32(b)),
    "xor": lambda a, b: a ^ b,
    "srl": lambda a, b: u32(a) >> (b & 31),
    "sra": lambda a, b: s32(a) >> (b & 31),
    "or": lambda a, b: a | b,
    "and": lambda a, b: a & b,
}
IMM_OPS = {"addi": "add", "slti": "slt", "sltiu": "sltu", "xori": "xor", "ori": "or", "andi": "and"}
SHIFT_VALUES = [1, M, INT_MIN, 0x12345678, 0x80000001]
SHIFT_AMOUNTS = [0, 1, 4, 31, 32, 33, 63, M, 0xFFFFFFE0, 0x7FFFFFE5]


def rr(t, op, a, b, rd="a0", r1="a1", r2="a2"):
    exp = u32(RR[op](u32(a), u32(b)))
    t.test(f"{op} {rd}, {r1}, {r2}: {hx(a)} {op} {hx(b)} = {hx(exp)}")
    t.li(r1, a)
    if r2 != r1:
        t.li(r2, b)
    t.e(f"{op:<7} {rd}, {r1}, {r2}")
    t.expect(rd, exp)
    if rd not in (r1, r2):
        t.expect(r1, a)
        if r2 != r1:
            t.expect(r2, b)


def gen_rv32ui_alu():
    t = TestFile("rv32ui-alu.s", "RV32I register-register and register-immediate ALU operations")
    t.section("register-register ops, edge operands")
    for op in ["add", "sub", "slt", "sltu", "xor", "or", "and"]:
        for a in E:
            for b in E:
                rr(t, op, a, b)
    t.section("shifts by register, amounts 0/31 and >= 32 (only the low 5 bits count)")
    for op in ["sll", "srl", "sra"]:
        for a in SHIFT_VALUES:
            for b in SHIFT_AMOUNTS:
                rr(t, op, a, b)
    t.section("register aliasing: rd = rs1, rd = rs2, rs1 = rs2, rd = rs1 = rs2")
    for op in RR:
        rr(t, op, 0x0F0F1234, 3, rd="a1", r1="a1", r2="a2")
        rr(t, op, 0x0F0F1234, 5, rd="a2", r1="a1", r2="a2")
        rr(t, op, 0x80001234, 0x80001234, rd="a0", r1="a1", r2="a1")
        rr(t, op, 13, 13, rd="a1", r1="a1", r2="a1")
    t.section("register-immediate ops, edge operands and immediates -2048..2047")
    for op, base in IMM_OPS.items():
        for a in E:
            for imm in [0, 1, -1, 2047, -2048, 0x555]:
                exp = u32(RR[base](u32(a), u32(imm)))
                t.test(f"{op} a0, a1, {imm}: a1 = {hx(a)} -> {hx(exp)}")
                t.li("a1", a)
                t.e(f"{op:<7} a0, a1, {imm}")
                t.expect("a0", exp)
                t.expect("a1", a)
        exp = u32(RR[base](0x7FF, u32(-7)))
        t.test(f"{op} a1, a1, -7 (rd = rs1)")
        t.li("a1", 0x7FF)
        t.e(f"{op:<7} a1, a1, -7")
        t.expect("a1", exp)
    t.section("shift-immediate ops, shamt 0..31")
    for op in ["slli", "srli", "srai"]:
        for a in SHIFT_VALUES:
            for sh in [0, 1, 7, 31]:
                exp = u32(RR[op[:3]](u32(a), sh))
                t.test(f"{op} a0, a1, {sh}: a1 = {hx(a)} -> {hx(exp)}")
                t.li("a1", a)
                t.e(f"{op:<7} a0, a1, {sh}")
                t.expect("a0", exp)
        t.test(f"{op} a1, a1, 3 (rd = rs1)")
        t.li("a1", 0x80000010)
        t.e(f"{op:<7} a1, a1, 3")
        t.expect("a1", u32(RR[op[:3]](0x80000010, 3)))
    t.section("lui")
    for imm in [0, 1, 0x7FFFF, 0x80000, 0xFFFFF, 0x12345]:
        t.test(f"lui a0, {imm:#x}")
        t.li("a0", 0x5A5A5A5A)
        t.e(f"lui     a0, {imm:#x}")
        t.expect("a0", imm << 12)
    t.test("lui then addi with a negative low part builds 0x12345878")
    t.e("lui     a0, 0x12346", "addi    a0, a0, -0x788")
    t.expect("a0", 0x12345878)
    t.section("x0 as destination stays 0; x0 as source reads 0")
    for ins in ["add     x0, a1, a2", "sub     x0, a1, a2", "addi    x0, a1, 5", "slli    x0, a1, 3",
                "lui     x0, 0x12345", "auipc   x0, 0x1", "xori    x0, a1, -1", "sra     x0, a1, a2"]:
        t.test(f"{ins.split()[0]} with rd = x0")
        t.li("a1", 0x12345678)
        t.li("a2", 3)
        t.e(ins, "mv      a0, x0")
        t.expect("a0", 0)
        t.expect("x0", 0)
    t.test("add a0, x0, a1 / sub a0, x0, a1 read x0 as 0")
    t.li("a1", 0x12345678)
    t.e("add     a0, x0, a1", "sub     a3, x0, a1", "sltu    a4, x0, a1", "or      a5, x0, x0")
    t.expect("a0", 0x12345678)
    t.expect("a3", u32(-0x12345678))
    t.expect("a4", 1)
    t.expect("a5", 0)
    return t


BR = {
    "beq": lambda a, b: a == b,
    "bne": lambda a, b: a != b,
    "blt": lambda a, b: s32(a) < s32(b),
    "bge": lambda a, b: s32(a) >= s32(b),
    "bltu": lambda a, b: u32(a) < u32(b),
    "bgeu": lambda a, b: u32(a) >= u32(b),
}
BR_PAIRS = [(0, 0), (1, 1), (M, M), (0, 1), (1, 0), (M, 1), (1, M), (M, 0), (0, M),
            (INT_MIN, INT_MAX), (INT_MAX, INT_MIN), (INT_MIN, INT_MIN), (INT_MIN, 0),
            (0, INT_MIN), (INT_MAX, M)]


def gen_rv32ui_ctl():
    t = TestFile("rv32ui-ctl.s", "RV32I control transfer: branches, jal, jalr, auipc, fence")
    t.section("conditional branches, forward and backward, taken and not taken")
    for op, f in BR.items():
        for a, b in BR_PAIRS:
            taken = int(f(a, b))
            for back in (False, True):
                d = "backward" if back else "forward"
                t.test(f"{op} {hx(a)}, {hx(b)} {d}: {'taken' if taken else 'not taken'}")
                t.li("a1", a)
                t.li("a2", b)
                t.e("li      a0, 0")
                tgt, end = t.label(), t.label()
                if not back:
                    t.e(f"{op:<7} a1, a2, {tgt}", f"j       {end}")
                    t.lines.append(f"{tgt}:")
                    t.e("li      a0, 1")
                    t.lines.append(f"{end}:")
                else:
                    br = t.label()
                    t.e(f"j       {br}")
                    t.lines.append(f"{tgt}:")
                    t.e("li      a0, 1", f"j       {end}")
                    t.lines.append(f"{br}:")
                    t.e(f"{op:<7} a1, a2, {tgt}")
                    t.lines.append(f"{end}:")
                t.expect("a0", taken)
                t.expect("a1", a)
                t.expect("a2", b)
    t.section("branches comparing a register with itself and with x0")
    for op, f in BR.items():
        t.test(f"{op} a1, a1 (same register)")
        t.li("a1", INT_MIN)
        t.e("li      a0, 0")
        tgt = t.label()
        t.e(f"{op:<7} a1, a1, {tgt}", "li      a0, 1")
        t.lines.append(f"{tgt}:")
        t.expect("a0", 0 if f(1, 1) else 1)
        t.test(f"{op} x0, a1 with a1 = -1")
        t.li("a1", M)
        t.e("li      a0, 0")
        tgt = t.label()
        t.e(f"{op:<7} x0, a1, {tgt}", "li      a0, 1")
        t.lines.append(f"{tgt}:")
        t.expect("a0", 0 if f(0, M) else 1)
    t.section("jal")
    t.test("jal a0 forward: a0 = address of the next instruction")
    ret, tgt = t.label(), t.label()
    t.e(f"la      t0, {ret}", f"jal     a0, {tgt}")
    t.lines.append(f"{ret}:")
    t.e("j       fail")
    t.lines.append(f"{tgt}:")
    t.expect_reg("a0", "t0")
    t.test("jal ra backward")
    fwd, back, ret, done = t.label(), t.label(), t.label(), t.label()
    t.e(f"la      t0, {ret}", f"j       {fwd}")
    t.lines.append(f"{back}:")
    t.expect_reg("ra", "t0")
    t.e(f"j       {done}")
    t.lines.append(f"{fwd}:")
    t.e(f"jal     ra, {back}")
    t.lines.append(f"{ret}:")
    t.e("j       fail")
    t.lines.append(f"{done}:")
    t.test("jal x0 (j) writes nothing and skips")
    tgt = t.label()
    t.e("li      a0, 5", f"jal     x0, {tgt}", "li      a0, 6", "j       fail")
    t.lines.append(f"{tgt}:")
    t.expect("a0", 5)
    t.expect("x0", 0)
    t.section("jalr")
    for off, adj, desc in [(0, 0, "offset 0"), (8, -8, "offset +8"), (-16, 16, "offset -16"),
                           (0, 1, "odd target: bit 0 cleared"), (3, -2, "offset 3, base -2: odd sum cleared"),
                           (-1, 1, "offset -1 with base +1"), (2047, -2047, "offset 2047, odd sum cleared"),
                           (-2048, 2049, "offset -2048, odd sum cleared")]:
        t.test(f"jalr a0, {off}(t0): {desc}")
        ret, tgt = t.label(), t.label()
        t.e(f"la      t1, {ret}", f"la      t0, {tgt}")
        if adj:
            t.li("t2", adj)
            t.e("add     t0, t0, t2")
        t.e("mv      t3, t0", f"jalr    a0, {off}(t0)")
        t.lines.append(f"{ret}:")
        t.e("j       fail")
        t.lines.append(f"{tgt}:")
        t.expect_reg("a0", "t1")
        t.expect_reg("t0", "t3")
    t.test("jalr t0, 0(t0): rd = rs1 uses the old value as the target")
    ret, tgt = t.label(), t.label()
    t.e(f"la      t1, {ret}", f"la      t0, {tgt}", "jalr    t0, 0(t0)")
    t.lines.append(f"{ret}:")
    t.e("j       fail")
    t.lines.append(f"{tgt}:")
    t.expect_reg("t0", "t1")
    t.test("jalr t0, 1(t0): rd = rs1 with an odd target")
    ret, tgt = t.label(), t.label()
    t.e(f"la      t1, {ret}", f"la      t0, {tgt}", "jalr    t0, 1(t0)")
    t.lines.append(f"{ret}:")
    t.e("j       fail")
    t.lines.append(f"{tgt}:")
    t.expect_reg("t0", "t1")
    t.test("jalr x0, 0(t0) (jr) writes nothing")
    tgt = t.label()
    t.e(f"la      t0, {tgt}", "li      a0, 5", "jalr    x0, 0(t0)", "li      a0, 6", "j       fail")
    t.lines.append(f"{tgt}:")
    t.expect("a0", 5)
    t.expect("x0", 0)
    t.test("call/ret through jalr ra")
    fn, done = t.label(), t.label()
    t.e("li      a0, 1", f"jal     ra, {fn}", "addi    a0, a0, 10", f"j       {done}")
    t.lines.append(f"{fn}:")
    t.e("addi    a0, a0, 100", "jalr    x0, 0(ra)")
    t.lines.append(f"{done}:")
    t.expect("a0", 111)
    t.section("auipc")
    for imm in [0, 1, 0x7FFFF, 0x80000, 0xFFFFF, 0x12345]:
        t.test(f"auipc a0, {imm:#x} = pc + {hx(imm << 12)}")
        here = t.label()
        t.lines.append(f"{here}:")
        t.e(f"auipc   a0, {imm:#x}", f"la      a1, {here}")
        t.li("t0", imm << 12)
        t.e("add     a1, a1, t0")
        t.expect_reg("a0", "a1")
    t.section("fence, fence.i: ordering only, no architectural state changes")
    t.test("fence / fence rw,rw / fence.tso / fence.i between a store and a load")
    t.li("a1", 0x13572468)
    t.e("sw      a1, 0(s10)", "fence", "fence   rw, rw", "fence   iorw, iorw", "fence   w, r", "fence.i",
        "lw      a0, 0(s10)", "fence.tso")
    t.expect("a0", 0x13572468)
    t.expect("a1", 0x13572468)
    t.test("fence.i makes a store into the instruction stream visible (self-modifying code)")
    fn, skip = t.label(), t.label()
    t.e(f"j       {skip}")
    t.lines.append(f"{fn}:")
    t.e("addi    a0, zero, 1", "ret")
    t.lines.append(f"{skip}:")
    t.e(f"jal     ra, {fn}")
    t.expect("a0", 1)
    t.e(f"la      t0, {fn}", "li      t1, 0x00200513  # addi a0, zero, 2", "sw      t1, 0(t0)", "fence.i",
        f"jal     ra, {fn}")
    t.expect("a0", 2)
    return t


def gen_rv32ui_mem():
    t = TestFile("rv32ui-mem.s", "RV32I loads and stores of every width, aligned")
    t.section("lb / lbu at every offset -16..47 around tdat+16 (sign and zero extension)")
    t.e("addi    s8, s9, 16")
    for op, signed in [("lb", True), ("lbu", False)]:
        for off in range(-16, 48):
            exp = tdat_load(16 + off, 1, signed)
            t.test(f"{op} a0, {off}(tdat+16) = {hx(exp)}")
            t.e(f"{op:<7} a0, {off}(s8)")
            t.expect("a0", exp)
    t.section("lh / lhu at every even offset")
    for op, signed in [("lh", True), ("lhu", False)]:
        for off in range(-16, 48, 2):
            exp = tdat_load(16 + off, 2, signed)
            t.test(f"{op} a0, {off}(tdat+16) = {hx(exp)}")
            t.e(f"{op:<7} a0, {off}(s8)")
            t.expect("a0", exp)
    t.section("lw at every aligned offset")
    for off in range(-16, 48, 4):
        exp = tdat_load(16 + off, 4, True)
        t.test(f"lw a0, {off}(tdat+16) = {hx(exp)}")
        t.e(f"lw      a0, {off}(s8)")
        t.expect("a0", exp)
    t.section("loads with the largest offsets, and rd = rs1")
    t.test("lw a0, -2048(tdat+2048)")
    t.li("t0", 2048)
    t.e("add     a1, s9, t0", "lw      a0, -2048(a1)")
    t.expect("a0", tdat_load(0, 4, True))
    t.test("lw a0, 2044(tdat-2044+8)")
    t.li("t0", 2044 - 8)
    t.e("sub     a1, s9, t0", "lw      a0, 2044(a1)", "lbu     a2, 2047(a1)")
    t.expect("a0", tdat_load(8, 4, True))
    t.expect("a2", tdat_load(11, 1, False))
    t.test("lb a1, 3(a1): rd = rs1")
    t.e("mv      a1, s9", "lb      a1, 3(a1)")
    t.expect("a1", tdat_load(3, 1, True))
    t.test("lw x0 loads nothing into x0")
    t.e("lw      x0, 8(s9)", "mv      a0, x0")
    t.expect("a0", 0)
    t.section("stores of every width into a pre-filled 8-byte window (neighbours unchanged)")
    fill = 0xA5A5A5A5
    cases = []
    for off in range(8):
        cases.append(("sb", off, [0x00, 0xFF, 0x80, 0x12345678][off % 4]))
    for off in range(0, 8, 2):
        cases.append(("sh", off, [0x0000, 0xFFFF, 0x8001, 0xCAFEBABE][off // 2]))
    for off in range(0, 8, 4):
        cases.append(("sw", off, [0xDEADBEEF, 0x00000001][off // 4]))
    for op, off, v in cases:
        size = {"sb": 1, "sh": 2, "sw": 4}[op]
        for base_adj in (0, 8):
            mem = bytearray(fill.to_bytes(4, "little") * 2)
            mem[off:off + size] = (v & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
            lo, hi = int.from_bytes(mem[0:4], "little"), int.from_bytes(mem[4:8], "little")
            o = off - base_adj
            t.test(f"{op} {hx(v)}, {o}(base) -> window {hx(lo)} {hx(hi)}")
            t.li("t0", fill)
            t.e("sw      t0, 0(s10)", "sw      t0, 4(s10)", f"addi    a3, s10, {base_adj}")
            t.li("a1", v)
            t.e(f"{op:<7} a1, {o}(a3)", "lw      a0, 0(s10)", "lw      a2, 4(s10)")
            t.expect("a0", lo)
            t.expect("a2", hi)
            t.expect("a1", v)
    t.section("store then load back with sign / zero extension")
    for op, ld, v in [("sb", "lb", 0x80), ("sb", "lbu", 0x80), ("sb", "lb", 0x7F), ("sb", "lbu", 0xFF),
                      ("sh", "lh", 0x8000), ("sh", "lhu", 0x8000), ("sh", "lh", 0x7FFF), ("sh", "lhu", 0xFFFF),
                      ("sw", "lw", INT_MIN), ("sw", "lw", M)]:
        size = {"sb": 1, "sh": 2, "sw": 4}[op]
        signed = ld in ("lb", "lh", "lw")
        vv = v & ((1 << (8 * size)) - 1)
        exp = u32(vv - (1 << (8 * size)) if signed and vv >> (8 * size - 1) else vv)
        t.test(f"{op} {hx(v)} then {ld} = {hx(exp)}")
        t.li("a1", v)
        t.e(f"{op:<7} a1, 12(s10)", f"{ld:<7} a0, 12(s10)")
        t.expect("a0", exp)
    t.test("sw with the largest offsets")
    t.li("t0", 2048)
    t.e("add     a3, s10, t0")
    t.li("a1", 0x600DF00D)
    t.e("sw      a1, -2048(a3)", "lw      a0, 0(s10)")
    t.expect("a0", 0x600DF00D)
    t.li("t0", 2047 - 3)
    t.e("sub     a3, s10, t0")
    t.li("a1", 0x0BADCAFE)
    t.e("sb      a1, 2047(a3)", "lbu     a0, 3(s10)")
    t.expect("a0", 0xFE)
    t.test("sw x0 stores zero")
    t.li("a1", M)
    t.e("sw      a1, 16(s10)", "sw      x0, 16(s10)", "lw      a0, 16(s10)")
    t.expect("a0", 0)
    return t


def gen_rv32ui_misaligned():
    t = TestFile("rv32ui-misaligned.s", "RV32I misaligned loads and stores (weft supports them)",
                 ["weft executes misaligned loads and stores (docs/isa.md section 1)."])
    t.section("misaligned loads from tdat")
    for op, size, signed, offs in [("lw", 4, True, [1, 2, 3, 5, 6, 7, 13, 30]),
                                   ("lh", 2, True, [1, 3, 5, 7, 13, 15, 35]),
                                   ("lhu", 2, False, [1, 3, 5, 7, 13, 15, 35])]:
        for off in offs:
            exp = tdat_load(off, size, signed)
            t.test(f"{op} a0, {off}(tdat) = {hx(exp)}")
            t.e(f"{op:<7} a0, {off}(s9)")
            t.expect("a0", exp)
    t.section("misaligned stores into a pre-filled window")
    fill = 0xA5A5A5A5
    for op, off, v in [("sw", 1, 0xDEADBEEF), ("sw", 2, 0x01234567), ("sw", 3, 0x89ABCDEF), ("sw", 7, 0x11223344),
                       ("sh", 1, 0xBEEF), ("sh", 3, 0x1234), ("sh", 7, 0x8001), ("sh", 5, 0xFFFF)]:
        size = {"sh": 2, "sw": 4}[op]
        mem = bytearray(fill.to_bytes(4, "little") * 4)
        mem[off:off + size] = (v & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
        words = [int.from_bytes(mem[i:i + 4], "little") for i in range(0, 16, 4)]
        t.test(f"{op} {hx(v)}, {off}(s10)")
        t.li("t0", fill)
        t.e(*[f"sw      t0, {i}(s10)" for i in range(0, 16, 4)])
        t.li("a1", v)
        t.e(f"{op:<7} a1, {off}(s10)")
        for i, w in enumerate(words):
            t.e(f"lw      a0, {4 * i}(s10)")
            t.expect("a0", w)
        t.e(f"{'lw' if size == 4 else 'lhu'}     a0, {off}(s10)")
        t.expect("a0", v)
    return t


# --------------------------------------------------------------------------------------------
# RV32M


def _divs(a, b):
    a, b = s32(a), s32(b)
    if b == 0:
        return M
    if a == -(1 << 31) and b == -1:
        return INT_MIN
    q = abs(a) // abs(b)
    return u32(-q if (a < 0) != (b < 0) else q)


def _rems(a, b):
    sa, sb = s32(a), s32(b)
    if sb == 0:
        return u32(a)
    if sa == -(1 << 31) and sb == -1:
        return 0
    return u32(sa - sb * s32(_divs(a, b)))


MOPS = {
    "mul": lambda a, b: u32(a) * u32(b),
    "mulh": lambda a, b: (s32(a) * s32(b)) >> 32,
    "mulhsu": lambda a, b: (s32(a) * u32(b)) >> 32,
    "mulhu": lambda a, b: (u32(a) * u32(b)) >> 32,
    "div": _divs,
    "divu": lambda a, b: M if u32(b) == 0 else u32(a) // u32(b),
    "rem": _rems,
    "remu": lambda a, b: u32(a) if u32(b) == 0 else u32(a) % u32(b),
}
EM = [0, 1, M, 2, u32(-7), INT_MIN, INT_MAX, 0x12345678, 0xDEADBEEF]


def gen_rv32um():
    t = TestFile("rv32um.s", "RV32M multiply and divide")
    for op, f in MOPS.items():
        t.section(f"{op}, all pairs of edge operands (incl. division by zero and INT_MIN / -1)")
        for a in EM:
            for b in EM:
                exp = u32(f(a, b))
                t.test(f"{op} {hx(a)}, {hx(b)} = {hx(exp)}")
                t.li("a1", a)
                t.li("a2", b)
                t.e(f"{op:<7} a0, a1, a2")
                t.expect("a0", exp)
                t.expect("a1", a)
                t.expect("a2", b)
    t.section("register aliasing and x0 destination")
    for op, f in MOPS.items():
        t.test(f"{op} a1, a1, a2 (rd = rs1)")
        t.li("a1", 0xFFFF1234)
        t.li("a2", 0x00000123)
        t.e(f"{op:<7} a1, a1, a2")
        t.expect("a1", u32(f(0xFFFF1234, 0x123)))
        t.test(f"{op} a2, a1, a2 (rd = rs2)")
        t.li("a1", 0x80000123)
        t.li("a2", u32(-5))
        t.e(f"{op:<7} a2, a1, a2")
        t.expect("a2", u32(f(0x80000123, u32(-5))))
        t.test(f"{op} a0, a1, a1 (rs1 = rs2)")
        t.li("a1", u32(-3))
        t.e(f"{op:<7} a0, a1, a1")
        t.expect("a0", u32(f(u32(-3), u32(-3))))
        t.test(f"{op} x0, a1, a2")
        t.li("a1", 77)
        t.li("a2", 5)
        t.e(f"{op:<7} x0, a1, a2", "mv      a0, x0")
        t.expect("a0", 0)
    return t


# --------------------------------------------------------------------------------------------
# RV32A


AMOS = {
    "amoswap.w": lambda m, v: v,
    "amoadd.w": lambda m, v: m + v,
    "amoxor.w": lambda m, v: m ^ v,
    "amoand.w": lambda m, v: m & v,
    "amoor.w": lambda m, v: m | v,
    "amomin.w": lambda m, v: m if s32(m) <= s32(v) else v,
    "amomax.w": lambda m, v: m if s32(m) >= s32(v) else v,
    "amominu.w": lambda m, v: min(u32(m), u32(v)),
    "amomaxu.w": lambda m, v: max(u32(m), u32(v)),
}
EA = [0, 1, M, INT_MIN, INT_MAX, 0x12345678]


def gen_rv32ua():
    t = TestFile("rv32ua.s", "RV32A: LR/SC and every AMO",
                 ["Every lane works on its own scratch words (s10), so the 8-lane run agrees."])
    for op, f in AMOS.items():
        t.section(f"{op}: rd = old value, memory = op(old, rs2)")
        for m in EA:
            for v in EA:
                new = u32(f(m, v))
                t.test(f"{op} mem {hx(m)}, rs2 {hx(v)} -> mem {hx(new)}")
                t.li("t0", m)
                t.e("sw      t0, 0(s10)")
                t.li("a2", v)
                t.e(f"{op:<9} a0, a2, (s10)", "lw      a1, 0(s10)")
                t.expect("a0", m)
                t.expect("a1", new)
                t.expect("a2", v)
    t.section("AMO variants: rd = x0, rd = rs2, rd = rs1, .aq/.rl/.aqrl, non-zero word offset")
    for op, f in AMOS.items():
        m, v = 0x80000005, 0x7FFFFFF0
        new = u32(f(m, v))
        t.test(f"{op} x0, a2, (s10): memory still updated")
        t.li("t0", m)
        t.e("sw      t0, 0(s10)")
        t.li("a2", v)
        t.e(f"{op:<9} x0, a2, (s10)", "lw      a1, 0(s10)", "mv      a0, x0")
        t.expect("a1", new)
        t.expect("a0", 0)
        t.test(f"{op} a2, a2, (s10): rd = rs2")
        t.li("t0", m)
        t.e("sw      t0, 0(s10)")
        t.li("a2", v)
        t.e(f"{op:<9} a2, a2, (s10)", "lw      a1, 0(s10)")
        t.expect("a2", m)
        t.expect("a1", new)
        for sfx in [".aq", ".rl", ".aqrl"]:
            t.test(f"{op}{sfx} on word 3 of the scratch area")
            t.li("t0", v)
            t.e("sw      t0, 12(s10)", "addi    a3, s10, 12")
            t.li("a2", m)
            t.e(f"{op + sfx:<9} a0, a2, (a3)", "lw      a1, 12(s10)")
            t.expect("a0", v)
            t.expect("a1", u32(f(v, m)))
    t.test("amoswap.w a3, a2, (a3): rd = rs1")
    t.li("t0", 0x0BADF00D)
    t.e("sw      t0, 20(s10)", "addi    a3, s10, 20")
    t.li("a2", 0x12345678)
    t.e("amoswap.w a3, a2, (a3)", "lw      a1, 20(s10)")
    t.expect("a3", 0x0BADF00D)
    t.expect("a1", 0x12345678)
    t.section("LR/SC")
    t.test("lr.w / sc.w succeed: sc writes 0 to rd and stores")
    t.li("t0", 0x111)
    t.e("sw      t0, 0(s10)", "lr.w    a0, (s10)")
    t.li("a2", 0x222)
    t.e("sc.w    a1, a2, (s10)", "lw      a3, 0(s10)")
    t.expect("a0", 0x111)
    t.expect("a1", 0)
    t.expect("a3", 0x222)
    t.test("a second sc.w without a new lr.w fails (rd != 0) and does not store")
    t.li("a2", 0x333)
    t.e("sc.w    a1, a2, (s10)", "lw      a3, 0(s10)")
    t.expect_nonzero("a1")
    t.expect("a3", 0x222)
    t.test("sc.w to a different word than the lr.w fails and does not store")
    t.li("t0", 0x444)
    t.e("sw      t0, 64(s10)", "lr.w    a0, (s10)", "addi    a4, s10, 64")
    t.li("a2", 0x555)
    t.e("sc.w    a1, a2, (a4)", "lw      a3, 64(s10)")
    t.expect_nonzero("a1")
    t.expect("a3", 0x444)
    t.test("... and the failed sc.w still cleared the reservation")
    t.li("a2", 0x666)
    t.e("sc.w    a1, a2, (s10)", "lw      a3, 0(s10)")
    t.expect_nonzero("a1")
    t.expect("a3", 0x222)
    t.test("a newer lr.w to another word replaces the reservation: sc.w to the first fails")
    t.e("lr.w    a0, (s10)", "lr.w    a5, (a4)")
    t.li("a2", 0x777)
    t.e("sc.w    a1, a2, (s10)", "lw      a3, 0(s10)")
    t.expect_nonzero("a1")
    t.expect("a3", 0x222)
    t.expect("a0", 0x222)
    t.expect("a5", 0x444)
    t.test("lr.w.aq / sc.w.rl succeed")
    t.e("lr.w.aq a0, (a4)")
    t.li("a2", 0x888)
    t.e("sc.w.rl a1, a2, (a4)", "lw      a3, 64(s10)")
    t.expect("a0", 0x444)
    t.expect("a1", 0)
    t.expect("a3", 0x888)
    t.test("lr.w.aqrl / sc.w.aqrl with rd = x0 stores")
    t.e("lr.w.aqrl a0, (a4)")
    t.li("a2", 0x999)
    t.e("sc.w.aqrl x0, a2, (a4)", "lw      a3, 64(s10)", "mv      a1, x0")
    t.expect("a3", 0x999)
    t.expect("a1", 0)
    t.test("lr.w sign: lr.w of 0x80000000 / sc.w a1, a1 (rd = rs2)")
    t.li("t0", INT_MIN)
    t.e("sw      t0, 8(s10)", "addi    a4, s10, 8", "lr.w    a0, (a4)", "li      a1, 0x5a",
        "sc.w    a1, a1, (a4)", "lw      a3, 8(s10)")
    t.expect("a0", INT_MIN)
    t.expect("a1", 0)
    t.expect("a3", 0x5A)
    t.test("lr.w/sc.w retry loop increments a counter 10 times")
    t.e("sw      zero, 4(s10)", "addi    a4, s10, 4", "li      a5, 10", "li      a6, 0")
    top, retry = t.label(), t.label()
    t.lines.append(f"{top}:")
    t.e("li      a7, 4")
    t.lines.append(f"{retry}:")
    ok = t.label()
    t.e("addi    a7, a7, -1", f"bgez    a7, {ok}", "j       fail")
    t.lines.append(f"{ok}:")
    t.e("lr.w    a0, (a4)", "addi    a0, a0, 1",
        "sc.w    a1, a0, (a4)", f"bnez    a1, {retry}", "addi    a6, a6, 1", f"blt     a6, a5, {top}",
        "lw      a0, 4(s10)")
    t.expect("a0", 10)
    return t


# --------------------------------------------------------------------------------------------
# Single precision: an exact model of IEEE 754 binary32 with RISC-V's choices (canonical NaN
# 0x7fc00000, tininess detected after rounding, fmin/fmax of IEEE 754-2019).

RNE, RTZ, RDN, RUP, RMM = range(5)
RM_NAMES = ["rne", "rtz", "rdn", "rup", "rmm"]
NV, DZ, OF, UF, NX = 16, 8, 4, 2, 1
CNAN = 0x7FC00000


def p2(k):
    return Fr(2 ** k) if k >= 0 else Fr(1, 2 ** -k)


class F:
    """A decoded binary32: kind in zero/sub/norm/inf/qnan/snan, sign, exact magnitude."""

    def __init__(self, b):
        self.b = b
        self.s = b >> 31
        e, f = (b >> 23) & 0xFF, b & 0x7FFFFF
        self.mag = None
        if e == 0xFF:
            self.kind = "inf" if f == 0 else ("qnan" if f >> 22 else "snan")
        elif e == 0:
            self.kind = "zero" if f == 0 else "sub"
            self.mag = Fr(f) * p2(-149)
        else:
            self.kind = "norm"
            self.mag = Fr(f | 1 << 23) * p2(e - 150)

    @property
    def nan(self):
        return self.kind in ("qnan", "snan")

    @property
    def val(self):  # signed exact value of a finite number
        return -self.mag if self.s else self.mag


def log2floor(x):
    e = x.numerator.bit_length() - x.denominator.bit_length()
    while p2(e) > x:
        e -= 1
    while p2(e + 1) <= x:
        e += 1
    return e


def round_int(mag, sign, rm):
    """Round a non-negative Fraction to an integer in mode rm (sign picks RDN/RUP)."""
    fl = mag.numerator // mag.denominator
    rem = mag - fl
    if rem == 0:
        return fl, False
    up = {RNE: rem > Fr(1, 2) or (rem == Fr(1, 2) and fl & 1), RTZ: False, RDN: sign == 1,
          RUP: sign == 0, RMM: rem >= Fr(1, 2)}[rm]
    return fl + int(up), True


def pack(v, rm, zero_sign=0):
    """Round the exact value v (Fraction) to binary32: (bits, flags)."""
    if v == 0:
        return zero_sign << 31, 0
    sign = int(v < 0)
    mag = -v if sign else v
    e = log2floor(mag)
    qe = max(e, -126) - 23
    m, inexact = round_int(mag / p2(qe), sign, rm)
    val = m * p2(qe)
    if val >= p2(128):
        to_inf = rm in (RNE, RMM) or (rm == RUP and not sign) or (rm == RDN and sign)
        return (sign << 31) | (0x7F800000 if to_inf else 0x7F7FFFFF), OF | NX
    flags = 0
    if inexact:
        flags |= NX
        mu, _ = round_int(mag / p2(e - 23), sign, rm)  # unbounded exponent range
        if mu * p2(e - 23) < p2(-126):
            flags |= UF
    if m == 0:
        return sign << 31, flags
    if val < p2(-126):
        bits = m
    else:
        ee = log2floor(val)
        bits = ((ee + 127) << 23) | int(val / p2(ee - 23) - (1 << 23))
    return (sign << 31) | bits, flags


def nan_result(*xs, invalid=False):
    nv = invalid or any(x.kind == "snan" for x in xs)
    return CNAN, NV if nv else 0


def inf(sign):
    return (sign << 31) | 0x7F800000


def f_add(a, b, rm):
    a, b = F(a), F(b)
    if a.nan or b.nan:
        return nan_result(a, b)
    if a.kind == "inf" or b.kind == "inf":
        if a.kind == "inf" and b.kind == "inf" and a.s != b.s:
            return nan_result(invalid=True)
        return inf(a.s if a.kind == "inf" else b.s), 0
    v = a.val + b.val
    zs = a.s if a.s == b.s else int(rm == RDN)
    return pack(v, rm, zs)


def f_sub(a, b, rm):
    if F(b).nan:
        return f_add(a, b, rm)
    return f_add(a, b ^ 0x80000000, rm)


def f_mul(a, b, rm):
    a, b = F(a), F(b)
    if a.nan or b.nan:
        return nan_result(a, b)
    s = a.s ^ b.s
    if a.kind == "inf" or b.kind == "inf":
        if a.kind == "zero" or b.kind == "zero":
            return nan_result(invalid=True)
        return inf(s), 0
    return pack(a.val * b.val, rm, s)


def f_div(a, b, rm):
    a, b = F(a), F(b)
    if a.nan or b.nan:
        return nan_result(a, b)
    s = a.s ^ b.s
    if a.kind == "inf":
        return (nan_result(invalid=True) if b.kind == "inf" else (inf(s), 0))
    if b.kind == "inf":
        return s << 31, 0
    if b.kind == "zero":
        return (nan_result(invalid=True) if a.kind == "zero" else (inf(s), DZ))
    return pack(a.val / b.val, rm, s)


def f_sqrt(a, rm):
    a = F(a)
    if a.nan:
        return nan_result(a)
    if a.kind == "zero":
        return a.b, 0
    if a.s:
        return nan_result(invalid=True)
    if a.kind == "inf":
        return a.b, 0
    k = 200
    scaled = a.mag * p2(2 * k)
    assert scaled.denominator == 1
    n = scaled.numerator
    r = isqrt(n)
    if r * r == n:
        return pack(Fr(r) * p2(-k), rm)
    return pack(Fr(2 * r + 1) * p2(-k - 1), rm)


def isqrt(n):
    import math
    return math.isqrt(n)


def f_fma(a, b, c, rm, neg_prod=False, neg_c=False):
    a, b, c = F(a), F(b), F(c)
    inf_times_zero = (a.kind == "inf" and b.kind == "zero") or (a.kind == "zero" and b.kind == "inf")
    if a.nan or b.nan or c.nan:
        return nan_result(a, b, c, invalid=inf_times_zero)
    if inf_times_zero:
        return nan_result(invalid=True)
    ps = a.s ^ b.s ^ int(neg_prod)
    cs = c.s ^ int(neg_c)
    if a.kind == "inf" or b.kind == "inf":
        if c.kind == "inf" and cs != ps:
            return nan_result(invalid=True)
        return inf(ps), 0
    if c.kind == "inf":
        return inf(cs), 0
    prod = a.mag * b.mag * (-1 if ps else 1)
    cv = c.mag * (-1 if cs else 1)
    v = prod + cv
    zs = ps if (ps == cs) else int(rm == RDN)
    if v == 0 and prod != 0 or v == 0 and cv != 0:
        zs = int(rm == RDN)
    return pack(v, rm, zs)


def f_minmax(a, b, is_max):
    fa, fb = F(a), F(b)
    flags = NV if fa.kind == "snan" or fb.kind == "snan" else 0
    if fa.nan and fb.nan:
        return CNAN, flags
    if fa.nan:
        return b, flags
    if fb.nan:
        return a, flags
    key = lambda x: (F(x).val if F(x).kind != "inf" else (Fr(10) ** 50) * (-1 if F(x).s else 1),
                     F(x).s == 0)
    ka, kb = key(a), key(b)
    if is_max:
        return (a if ka >= kb else b), flags
    return (a if ka <= kb else b), flags


def f_cmp(a, b, op):
    fa, fb = F(a), F(b)
    if fa.nan or fb.nan:
        signaling = op != "feq" or fa.kind == "snan" or fb.kind == "snan"
        return 0, NV if signaling else 0
    va = fa.val if fa.kind != "inf" else (Fr(10) ** 50) * (-1 if fa.s else 1)
    vb = fb.val if fb.kind != "inf" else (Fr(10) ** 50) * (-1 if fb.s else 1)
    return int({"feq": va == vb, "flt": va < vb, "fle": va <= vb}[op]), 0


def f_class(a):
    f = F(a)
    bit = {("inf", 1): 0, ("norm", 1): 1, ("sub", 1): 2, ("zero", 1): 3, ("zero", 0): 4,
           ("sub", 0): 5, ("norm", 0): 6, ("inf", 0): 7}.get((f.kind, f.s))
    if bit is None:
        bit = 8 if f.kind == "snan" else 9
    return 1 << bit, 0


def f_cvt_w(a, rm, unsigned):
    f = F(a)
    lo, hi = (0, M) if unsigned else (-(1 << 31), (1 << 31) - 1)
    if f.nan:
        return u32(hi), NV
    if f.kind == "inf":
        return u32(lo if f.s else hi), NV
    if f.kind == "zero":
        return 0, 0
    r, inexact = round_int(f.mag, f.s, rm)
    if f.s:
        r = -r
    if r < lo:
        return u32(lo), NV
    if r > hi:
        return u32(hi), NV
    return u32(r), NX if inexact else 0


def f_cvt_s_w(x, rm, unsigned):
    v = u32(x) if unsigned else s32(x)
    return pack(Fr(v), rm)


def fbits(x):
    import struct
    return struct.unpack("<I", struct.pack("<f", x))[0]


PZ, NZ = 0x00000000, 0x80000000
ONE, MONE, TWO, THREE, HALF = 0x3F800000, 0xBF800000, 0x40000000, 0x40400000, 0x3F000000
TENTH, PI, ONEP = 0x3DCCCCCD, 0x40490FDB, 0x3F800001
MAXF, MINN, MAXSUB, MINSUB = 0x7F7FFFFF, 0x00800000, 0x007FFFFF, 0x00000001
PINF, NINF = 0x7F800000, 0xFF800000
QNAN, SNAN, QNANP, NQNAN, NSNAN = 0x7FC00000, 0x7F800001, 0x7FC12345, 0xFFC00000, 0xFFA00000
ONEM = 0x3F7FFFFF  # 1 - 2^-24
EPS24 = 0x33800000  # 2^-24: half an ulp of 1.0

BIN_PAIRS = [
    (ONE, TWO), (TWO, ONE), (MONE, TWO), (PI, TENTH), (TENTH, PI), (THREE, fbits(-0.25)),
    (ONE, EPS24), (ONE, 0x33800001), (MONE, fbits(-2.0 ** -24)), (ONEP, EPS24),
    (PZ, PZ), (PZ, NZ), (NZ, NZ), (NZ, PZ), (ONE, MONE), (MONE, ONE), (ONE, PZ), (NZ, MONE),
    (MAXF, MAXF), (MAXF, fbits(-(2.0 ** 127))), (MAXF, TWO), (MAXF, HALF),
    (MINN, HALF), (MINSUB, HALF), (MINN, ONEM), (MAXSUB, MINSUB), (MINSUB, fbits(-0.0)),
    (MINN, fbits(-(2.0 ** -149))), (MAXSUB, TWO), (fbits(2.0 ** -70), fbits(2.0 ** -70)),
    (PINF, ONE), (ONE, NINF), (PINF, PINF), (PINF, NINF), (NINF, PINF), (PINF, PZ), (NZ, NINF),
    (QNAN, ONE), (ONE, QNANP), (SNAN, ONE), (ONE, NSNAN), (QNAN, SNAN), (NQNAN, PINF),
    (fbits(1e30), fbits(1e-30)), (fbits(1e-30), fbits(1e30)), (fbits(-1.5e-20), fbits(3e-25)),
]
ROUND_PAIRS = [(ONE, EPS24), (ONE, 0x33C00000), (MONE, fbits(-(2.0 ** -24))), (MONE, 0xB3C00000),
               (ONE, THREE), (fbits(-2.0), THREE), (TENTH, PI), (MAXF, MAXF), (fbits(-3e38), fbits(-3e38)),
               (MINN, ONEM), (fbits(-(2.0 ** -126)), ONEM), (MINSUB, HALF)]
SQRT_VALS = [fbits(4.0), TWO, THREE, TENTH, PZ, NZ, MONE, PINF, NINF, QNAN, SNAN, MINSUB, MAXSUB, MINN,
             MAXF, fbits(0.25), ONEP, ONEM, fbits(-(2.0 ** -149))]
FMA_TRIPLES = [
    (ONE, TWO, THREE), (TWO, THREE, MONE), (ONEP, ONEP, MONE), (ONEP, ONEM, MONE), (TENTH, PI, TENTH),
    (ONE, ONE, MONE), (NZ, ONE, PZ), (NZ, ONE, NZ), (PZ, MONE, NZ), (PZ, ONE, PZ), (ONE, ONE, fbits(-1.0)),
    (PINF, PZ, QNAN), (PINF, PZ, ONE), (PZ, NINF, ONE), (PINF, ONE, NINF), (PINF, ONE, PINF),
    (ONE, ONE, PINF), (QNAN, ONE, ONE), (ONE, SNAN, ONE), (ONE, ONE, SNAN), (MAXF, TWO, fbits(-3e38)),
    (MAXF, MAXF, MAXF), (MINN, HALF, MINSUB), (MINN, fbits(2.0 ** -10), PZ), (THREE, fbits(1.0 / 3), MONE),
    (fbits(2.0 ** 12 + 1), fbits(2.0 ** 12 - 1), fbits(-(2.0 ** 24))),
]
FMA_OPS = {"fmadd.s": (False, False), "fmsub.s": (False, True), "fnmsub.s": (True, False),
           "fnmadd.s": (True, True)}
CVT_VALS = [PZ, NZ, ONE, MONE, fbits(1.5), fbits(-1.5), fbits(2.5), fbits(-2.5), HALF, fbits(-0.5),
            fbits(0.9999), fbits(-0.9999), TENTH, MINSUB, 0x80000001,
            0x4EFFFFFF, 0x4F000000, 0xCF000000, 0xCF000001, 0x4F7FFFFF, 0x4F800000, fbits(1e10),
            fbits(-1e10), PINF, NINF, QNAN, SNAN, NQNAN, fbits(123456.75), fbits(-123456.75)]
ROUND_CVT_VALS = [fbits(1.5), fbits(-1.5), fbits(2.5), fbits(-2.5), HALF, fbits(-0.5), fbits(0.9999),
                  fbits(-0.9999), MINSUB, 0x80000001, fbits(123456.75), fbits(-123456.75)]
INTS = [0, 1, M, INT_MIN, INT_MAX, 0x01000001, 0x01000003, 0x7FFFFFC0, 123456789, u32(-123456789),
        0xFFFFFF80, 16777217]
CMP_PAIRS = [(ONE, ONE), (ONE, TWO), (TWO, ONE), (MONE, ONE), (NZ, PZ), (PZ, NZ), (QNAN, ONE), (ONE, QNAN),
             (SNAN, ONE), (ONE, SNAN), (QNAN, QNAN), (NINF, PINF), (PINF, PINF), (MINSUB, PZ),
             (fbits(-(2.0 ** -149)), NZ), (MAXF, PINF)]
MINMAX_PAIRS = [(ONE, TWO), (TWO, ONE), (MONE, ONE), (NZ, PZ), (PZ, NZ), (NZ, NZ), (QNAN, ONE), (ONE, QNANP),
                (QNAN, QNAN), (SNAN, ONE), (ONE, NSNAN), (SNAN, SNAN), (NINF, PINF), (PINF, NINF),
                (MINSUB, fbits(-(2.0 ** -149))), (NQNAN, MONE)]
CLASS_VALS = [NINF, MONE, fbits(-3e38), 0x80000001, 0x807FFFFF, NZ, PZ, MINSUB, MAXSUB, MINN, ONE, MAXF,
              PINF, SNAN, 0x7FBFFFFF, NSNAN, QNAN, QNANP, NQNAN, 0xFFFFFFFF]


def fcheck(t, desc, setup, ins, res, flags, int_result=False):
    """One float check: run `ins` after setup with fflags cleared; compare result and fflags."""
    t.test(desc)
    t.e(*setup)
    t.e("fsflags x0", ins)
    if not int_result:
        t.e("fmv.x.w a0, f3")
    t.e("frflags a1")
    t.expect("a0", res)
    t.expect("a1", flags)


def ld_f(reg, v, via="t0"):
    return [f"li      {via}, {hx(v)}", f"fmv.w.x {reg}, {via}"]


def gen_rv32uf():
    files = []
    t = TestFile("rv32uf-arith.s", "RV32F arithmetic: fadd/fsub/fmul/fdiv/fsqrt and the fused ops",
                 ["Expected values and fflags come from an exact rational model in gen.py."])
    BIN = {"fadd.s": f_add, "fsub.s": f_sub, "fmul.s": f_mul, "fdiv.s": f_div}
    for op, f in BIN.items():
        t.section(f"{op}: special and edge operands, round to nearest even (static rne)")
        for a, b in BIN_PAIRS:
            r, fl = f(a, b, RNE)
            fcheck(t, f"{op} {hx(a)}, {hx(b)} rne = {hx(r)} flags {fl:#x}", ld_f("f1", a) + ld_f("f2", b),
                   f"{op:<8} f3, f1, f2, rne", r, fl)
        t.section(f"{op}: every static rounding mode")
        for a, b in ROUND_PAIRS:
            for rm in range(5):
                r, fl = f(a, b, rm)
                fcheck(t, f"{op} {hx(a)}, {hx(b)} {RM_NAMES[rm]} = {hx(r)} flags {fl:#x}",
                       ld_f("f1", a) + ld_f("f2", b), f"{op:<8} f3, f1, f2, {RM_NAMES[rm]}", r, fl)
    t.section("fsqrt.s")
    for a in SQRT_VALS:
        for rm in ([RNE] if a not in (TWO, THREE, TENTH, MAXSUB, ONEP, ONEM) else range(5)):
            r, fl = f_sqrt(a, rm)
            fcheck(t, f"fsqrt.s {hx(a)} {RM_NAMES[rm]} = {hx(r)} flags {fl:#x}", ld_f("f1", a),
                   f"fsqrt.s f3, f1, {RM_NAMES[rm]}", r, fl)
    for op, (np_, nc) in FMA_OPS.items():
        t.section(f"{op}: one rounding of a*b{'+-'[nc]}c{' negated' if np_ else ''}")
        for a, b, c in FMA_TRIPLES:
            for rm in ([RNE] if (a, b, c) not in FMA_TRIPLES[2:5] else range(5)):
                r, fl = f_fma(a, b, c, rm, np_, nc)
                fcheck(t, f"{op} {hx(a)}, {hx(b)}, {hx(c)} {RM_NAMES[rm]} = {hx(r)} flags {fl:#x}",
                       ld_f("f1", a) + ld_f("f2", b) + ld_f("f4", c),
                       f"{op:<8} f3, f1, f2, f4, {RM_NAMES[rm]}", r, fl)
    t.section("register aliasing: fd = fs1 = fs2")
    r, fl = f_mul(TENTH, TENTH, RNE)
    fcheck(t, "fmul.s f1, f1, f1", ld_f("f1", TENTH), "fmul.s  f1, f1, f1, rne\n    fmv.s   f3, f1", r, fl)
    r, fl = f_fma(THREE, THREE, THREE, RNE)
    fcheck(t, "fmadd.s f1, f1, f1, f1", ld_f("f1", THREE), "fmadd.s f1, f1, f1, f1, rne\n    fmv.s   f3, f1",
           r, fl)
    files.append(t)

    t = TestFile("rv32uf-misc.s", "RV32F moves, sign injection, min/max, compares, fclass, conversions, "
                 "flw/fsw, fflags/frm/fcsr and dynamic rounding")
    t.section("flw / fsw / fmv.x.w / fmv.w.x move bits unchanged (NaN payloads kept, no flags)")
    for off in [0, 8, 12, 16, 44, 48]:
        v = tdat_load(off, 4, False)
        fcheck(t, f"flw f3, {off}(tdat) = {hx(v)}", [], f"flw     f3, {off}(s9)", v, 0)
    for v in [SNAN, QNANP, NZ, 0xFFFFFFFF, MINSUB, 0x12345678]:
        fcheck(t, f"fsw then lw {hx(v)}", ld_f("f1", v),
               "fsw     f1, 32(s10)\n    lw      a0, 32(s10)\n    flw     f5, 32(s10)\n    fmv.x.w a2, f5", v, 0,
               int_result=True)
        t.expect("a2", v)
        fcheck(t, f"fsw with negative offset {hx(v)}", ld_f("f1", v) + ["addi    a3, s10, 48"],
               "fsw     f1, -4(a3)\n    lw      a0, 44(s10)", v, 0, int_result=True)
    t.section("fsgnj.s / fsgnjn.s / fsgnjx.s (also fmv.s, fneg.s, fabs.s)")
    SG = [(ONE, MONE), (MONE, ONE), (MONE, MONE), (PZ, NZ), (QNANP, NZ), (SNAN, MONE), (NQNAN, ONE),
          (NINF, PINF)]
    for a, b in SG:
        for op, fn in [("fsgnj.s", lambda a, b: (a & INT_MAX) | (b & INT_MIN)),
                       ("fsgnjn.s", lambda a, b: (a & INT_MAX) | (~b & INT_MIN)),
                       ("fsgnjx.s", lambda a, b: a ^ (b & INT_MIN))]:
            r = u32(fn(a, b))
            fcheck(t, f"{op} {hx(a)}, {hx(b)} = {hx(r)}", ld_f("f1", a) + ld_f("f2", b), f"{op:<8} f3, f1, f2", r, 0)
    for a in [ONE, MONE, SNAN, NQNAN]:
        for ins, r in [("fmv.s   f3, f1", a), ("fneg.s  f3, f1", a ^ INT_MIN), ("fabs.s  f3, f1", a & INT_MAX)]:
            fcheck(t, f"{ins.split()[0]} {hx(a)} = {hx(r)}", ld_f("f1", a), ins, r, 0)
    fcheck(t, "fsgnjx.s f3, f1, f1 with f1 negative gives fabs", ld_f("f1", MONE), "fsgnjx.s f3, f1, f1", ONE, 0)
    t.section("fmin.s / fmax.s: -0 < +0, one NaN returns the other operand, sNaN raises NV")
    for a, b in MINMAX_PAIRS:
        for op, mx in [("fmin.s", False), ("fmax.s", True)]:
            r, fl = f_minmax(a, b, mx)
            fcheck(t, f"{op} {hx(a)}, {hx(b)} = {hx(r)} flags {fl:#x}", ld_f("f1", a) + ld_f("f2", b),
                   f"{op:<8} f3, f1, f2", r, fl)
    t.section("feq.s (quiet) / flt.s / fle.s (signaling)")
    for a, b in CMP_PAIRS:
        for op in ["feq", "flt", "fle"]:
            r, fl = f_cmp(a, b, op)
            fcheck(t, f"{op}.s {hx(a)}, {hx(b)} = {r} flags {fl:#x}", ld_f("f1", a) + ld_f("f2", b),
                   f"{op}.s   a0, f1, f2", r, fl, int_result=True)
    fcheck(t, "feq.s x0, f1, f2 still raises nothing and writes nothing", ld_f("f1", ONE) + ld_f("f2", ONE),
           "feq.s   x0, f1, f2\n    mv      a0, x0", 0, 0, int_result=True)
    t.section("fclass.s: every class")
    for a in CLASS_VALS:
        r, _ = f_class(a)
        fcheck(t, f"fclass.s {hx(a)} = {r:#x}", ld_f("f1", a), "fclass.s a0, f1", r, 0, int_result=True)
    for op, uns in [("fcvt.w.s", False), ("fcvt.wu.s", True)]:
        t.section(f"{op}: saturation, NaN, infinities (rtz)")
        for a in CVT_VALS:
            r, fl = f_cvt_w(a, RTZ, uns)
            fcheck(t, f"{op} {hx(a)} rtz = {hx(r)} flags {fl:#x}", ld_f("f1", a), f"{op:<9} a0, f1, rtz", r, fl,
                   int_result=True)
        t.section(f"{op}: every rounding mode")
        for a in ROUND_CVT_VALS:
            for rm in range(5):
                r, fl = f_cvt_w(a, rm, uns)
                fcheck(t, f"{op} {hx(a)} {RM_NAMES[rm]} = {hx(r)} flags {fl:#x}", ld_f("f1", a),
                       f"{op:<9} a0, f1, {RM_NAMES[rm]}", r, fl, int_result=True)
    for op, uns in [("fcvt.s.w", False), ("fcvt.s.wu", True)]:
        t.section(f"{op}")
        for x in INTS:
            rms = range(5) if x in (INT_MAX, 0x01000001, 0x01000003, M, 123456789, u32(-123456789)) else [RNE]
            for rm in rms:
                r, fl = f_cvt_s_w(x, rm, uns)
                fcheck(t, f"{op} {hx(x)} {RM_NAMES[rm]} = {hx(r)} flags {fl:#x}", [f"li      a2, {hx(x)}"],
                       f"{op:<9} f3, a2, {RM_NAMES[rm]}", r, fl)
    t.section("fmv.x.w / fmv.w.x with rd = x0 / rs = x0")
    fcheck(t, "fmv.w.x f3, x0 = +0", ld_f("f3", MONE), "fmv.w.x f3, x0", 0, 0)
    fcheck(t, "fmv.x.w x0, f1", ld_f("f1", MONE), "fmv.x.w x0, f1\n    mv      a0, x0", 0, 0, int_result=True)
    t.section("fflags accrue across instructions; non-raising instructions leave them alone")
    t.test("NX then DZ then an exact op: fflags = NX|DZ, fcsr = frm<<5 | fflags")
    t.e("fscsr   x0", *ld_f("f1", ONE), *ld_f("f2", THREE), *ld_f("f4", PZ),
        "fdiv.s  f3, f1, f2, dyn", "fdiv.s  f3, f1, f4, dyn", "fadd.s  f3, f1, f1, dyn", "fmv.x.w a0, f1",
        "fsgnj.s f3, f1, f2", "frflags a1", "frcsr   a2")
    t.expect("a1", NX | DZ)
    t.expect("a2", NX | DZ)
    t.test("an op that raises NV adds to the accrued flags; fsflags returns the old value")
    t.e(*ld_f("f5", SNAN), "fadd.s  f3, f5, f1, dyn", "fsflags a3, x0", "frflags a1")
    t.expect("a3", NX | DZ | NV)
    t.expect("a1", 0)
    t.test("overflow accrues OF|NX, underflow UF|NX")
    t.e(*ld_f("f1", MAXF), *ld_f("f2", MINSUB), *ld_f("f4", HALF), "fmul.s  f3, f1, f1, dyn", "frflags a1",
        "fsflags x0", "fmul.s  f3, f2, f4, dyn", "frflags a2")
    t.expect("a1", OF | NX)
    t.expect("a2", UF | NX)
    t.section("dynamic rounding: frm selects the mode of rm = dyn; a static rm overrides frm")
    for rm in range(5):
        for op, f, a, b in [("fadd.s", f_add, ONE, 0x33C00000), ("fdiv.s", f_div, fbits(-1.0), THREE),
                            ("fmul.s", f_mul, fbits(-3e38), fbits(3e38))]:
            r, fl = f(a, b, rm)
            fcheck(t, f"frm = {RM_NAMES[rm]}: {op} {hx(a)}, {hx(b)} dyn = {hx(r)}",
                   [f"fsrmi   {rm}"] + ld_f("f1", a) + ld_f("f2", b), f"{op:<8} f3, f1, f2, dyn", r, fl)
        r, fl = f_cvt_w(fbits(-2.5), rm, False)
        fcheck(t, f"frm = {RM_NAMES[rm]}: fcvt.w.s -2.5 dyn = {hx(r)}", [f"fsrmi   {rm}"] + ld_f("f1", fbits(-2.5)),
               "fcvt.w.s a0, f1, dyn", r, fl, int_result=True)
        r, fl = f_cvt_s_w(0x01000003, rm, False)
        fcheck(t, f"frm = {RM_NAMES[rm]}: fcvt.s.w 0x01000003 dyn = {hx(r)}", [f"fsrmi   {rm}", "li      a2, 0x01000003"],
               "fcvt.s.w f3, a2, dyn", r, fl)
        r, fl = f_fma(ONEP, ONEM, MONE, rm)
        fcheck(t, f"frm = {RM_NAMES[rm]}: fmadd.s dyn = {hx(r)}",
               [f"fsrmi   {rm}"] + ld_f("f1", ONEP) + ld_f("f2", ONEM) + ld_f("f4", MONE),
               "fmadd.s f3, f1, f2, f4, dyn", r, fl)
        r, fl = f_sqrt(TWO, rm)
        fcheck(t, f"frm = {RM_NAMES[rm]}: fsqrt.s 2 dyn = {hx(r)}", [f"fsrmi   {rm}"] + ld_f("f1", TWO),
               "fsqrt.s f3, f1, dyn", r, fl)
        other = (rm + 1) % 5
        r, fl = f_add(ONE, 0x33C00000, other)
        fcheck(t, f"frm = {RM_NAMES[rm]}, static {RM_NAMES[other]} wins: fadd.s = {hx(r)}",
               [f"fsrmi   {rm}"] + ld_f("f1", ONE) + ld_f("f2", 0x33C00000), f"fadd.s  f3, f1, f2, {RM_NAMES[other]}",
               r, fl)
        t.test(f"frm still reads {rm}; fcsr = {rm} << 5 | fflags")
        t.e("frrm    a0", "frcsr   a1")
        t.expect("a0", rm)
        t.expect("a1", (rm << 5) | fl)
    t.e("fsrmi   0")
    files.append(t)
    return files


# --------------------------------------------------------------------------------------------
# Zicsr


def gen_rv32zicsr():
    t = TestFile("rv32zicsr.s", "Zicsr: csrrw/csrrs/csrrc and the immediate forms on mscratch, fflags, frm, fcsr")
    for csr, mask in [("mscratch", M), ("fflags", 0x1F), ("frm", 0x7), ("fcsr", 0xFF)]:
        t.section(f"{csr} (writable bits {hx(mask)})")
        init = 0x12345678 & mask if csr == "mscratch" else 0x15 & mask
        regs = [(0xF0F0A5A5, "csrrw", lambda o, v: v), (0x0000FF0F, "csrrs", lambda o, v: o | v),
                (0x00FF00F3, "csrrc", lambda o, v: o & ~v)]
        for v, op, f in regs:
            new = u32(f(init, v)) & mask
            t.test(f"{op} a0, {csr}, a1: old {hx(init)}, rs1 {hx(v)} -> {hx(new)}")
            t.li("t0", init)
            t.e(f"csrw    {csr}, t0")
            t.li("a1", v)
            t.e(f"{op:<7} a0, {csr}, a1", f"csrr    a2, {csr}")
            t.expect("a0", init)
            t.expect("a2", new)
            t.expect("a1", v)
        for imm, op, f in [(0x1B, "csrrwi", lambda o, v: v), (0x0A, "csrrsi", lambda o, v: o | v),
                           (0x13, "csrrci", lambda o, v: o & ~v), (0, "csrrsi", lambda o, v: o),
                           (0, "csrrci", lambda o, v: o), (0, "csrrwi", lambda o, v: v), (31, "csrrsi", lambda o, v: o | v)]:
            new = u32(f(init, imm)) & mask
            t.test(f"{op} a0, {csr}, {imm}: old {hx(init)} -> {hx(new)}")
            t.li("t0", init)
            t.e(f"csrw    {csr}, t0", f"{op:<7} a0, {csr}, {imm}", f"csrr    a2, {csr}")
            t.expect("a0", init)
            t.expect("a2", new)
        t.test(f"csrrw x0, {csr}, a1 (rd = x0) writes")
        t.li("a1", 0x5A5A5A5A)
        t.e(f"csrrw   x0, {csr}, a1", f"csrr    a2, {csr}", "mv      a0, x0")
        t.expect("a2", 0x5A5A5A5A & mask)
        t.expect("a0", 0)
        for op in ["csrrs", "csrrc"]:
            t.test(f"{op} a0, {csr}, x0 (rs1 = x0) reads without writing")
            t.li("t0", init)
            t.e(f"csrw    {csr}, t0", f"{op:<7} a0, {csr}, x0", f"csrr    a2, {csr}")
            t.expect("a0", init)
            t.expect("a2", init)
        t.test(f"csrrs x0, {csr}, a1 / csrrci x0, {csr}, 1 (rd = x0)")
        t.li("t0", init)
        t.e(f"csrw    {csr}, t0", "li      a1, 0x2", f"csrrs   x0, {csr}, a1", f"csrrci  x0, {csr}, 1",
            f"csrr    a2, {csr}", "mv      a0, x0")
        t.expect("a2", ((init | 2) & ~1) & mask)
        t.expect("a0", 0)
        t.test(f"csrrw a1, {csr}, a1 (rd = rs1) swaps")
        t.li("t0", init)
        t.e(f"csrw    {csr}, t0")
        t.li("a1", 0x0C0C0C0C & mask if csr != "mscratch" else 0x0C0C0C0C)
        t.e(f"csrrw   a1, {csr}, a1", f"csrr    a2, {csr}")
        t.expect("a1", init)
        t.expect("a2", 0x0C0C0C0C & mask)
        t.test(f"csrrs a1, {csr}, a1 (rd = rs1)")
        t.li("t0", init)
        t.e(f"csrw    {csr}, t0", "li      a1, 0x3", f"csrrs   a1, {csr}, a1", f"csrr    a2, {csr}")
        t.expect("a1", init)
        t.expect("a2", (init | 3) & mask)
    t.section("fcsr is frm << 5 | fflags")
    t.test("write frm and fflags, read fcsr")
    t.e("fscsr   x0", "csrwi   frm, 3", "csrwi   fflags, 0x11", "csrr    a0, fcsr")
    t.expect("a0", (3 << 5) | 0x11)
    t.test("write fcsr, read frm and fflags")
    t.li("a1", 0xB3)
    t.e("csrw    fcsr, a1", "csrr    a0, frm", "csrr    a2, fflags")
    t.expect("a0", 5)
    t.expect("a2", 0x13)
    t.test("fscsr / fsrm / fsflags return the old values")
    t.li("a1", 0x2A)
    t.e("fscsr   a0, a1", "li      a1, 4", "fsrm    a2, a1", "li      a1, 0x1f", "fsflags a3, a1", "frcsr   a4")
    t.expect("a0", 0xB3)
    t.expect("a2", 1)
    t.expect("a3", 0x0A)
    t.expect("a4", (4 << 5) | 0x1F)
    t.test("fsrmi / fsflagsi immediate forms")
    t.e("fsrmi   a0, 2", "fsflagsi a1, 5", "frcsr   a2")
    t.expect("a0", 4)
    t.expect("a1", 0x1F)
    t.expect("a2", (2 << 5) | 5)
    t.e("fscsr   x0")
    t.section("reading read-only CSRs with csrrs/csrrc rs1 = x0 and csrrsi/csrrci imm 0 is legal")
    for csr in ["mvendorid", "marchid", "mimpid", "mhartid"]:
        t.test(f"csrrs/csrrc/csrrsi/csrrci on {csr} read the same value and do not trap")
        t.e(f"csrrs   a0, {csr}, x0", f"csrrc   a1, {csr}, x0", f"csrrsi  a2, {csr}, 0", f"csrrci  a3, {csr}, 0")
        t.expect_reg("a0", "a1")
        t.expect_reg("a0", "a2")
        t.expect_reg("a0", "a3")
    t.test("mvendorid reads 0")
    t.e("csrr    a0, mvendorid")
    t.expect("a0", 0)
    return t


# --------------------------------------------------------------------------------------------


def all_files():
    return [gen_rv32ui_alu(), gen_rv32ui_ctl(), gen_rv32ui_mem(), gen_rv32ui_misaligned(), gen_rv32um(),
            gen_rv32ua(), *gen_rv32uf(), gen_rv32zicsr()]


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    for t in all_files():
        text = t.render()
        path = os.path.join(HERE, t.name)
        if check:
            try:
                with open(path) as f:
                    if f.read() != text:
                        stale.append(t.name)
            except FileNotFoundError:
                stale.append(t.name)
        else:
            with open(path, "w") as f:
                f.write(text)
            print(f"{t.name}: {t.n} checks")
    if check:
        if stale:
            print("stale (run python3 tests/isa/gen.py): " + ", ".join(stale))
            sys.exit(1)
        print("tests/isa: generated files are up to date")


if __name__ == "__main__":
    main()

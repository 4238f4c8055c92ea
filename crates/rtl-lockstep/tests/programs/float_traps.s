# float_traps.s: float instructions that trap, with mtvec set: a dynamic rounding mode that
# is invalid in some lanes (frm = 5 from lane 2 on: lanes 0 and 1 compute, accrue their
# flags and write rd, the instruction traps with ILLEGAL_INSTRUCTION), a static rounding mode
# of 5 (the word does not decode: a trap before issue), a float instruction, a float load and
# the float CSRs while mstatus.FS is Off. The handler skips the instruction.
    .text
    .globl _start
_start:
    li      t0, -1
    csrw    tmask, t0
    la      t0, handler
    csrw    mtvec, t0
    csrr    s0, thread_id
    li      t0, 0x3f800000
    fmv.w.x f1, t0
    li      t0, 0x40400000
    fmv.w.x f2, t0
    fdiv.s  f3, f1, f2          # 1/3: inexact in every lane
    sltiu   t1, s0, 2
    xori    t1, t1, 1
    slli    t1, t1, 2
    addi    t1, t1, 1           # frm = 1 (rtz) in lanes 0, 1; 5 from lane 2
    fsrm    t1
    fsflags zero
    fdiv.s  f4, f1, f2          # traps at lane 2
    fcvt.w.s t2, f4             # traps at lane 2 too (rd = t2 keeps its value above)
    frflags a0
    li      t1, 0
    fsrm    t1
    .word   0x0020d1d3          # fadd.s f3, f1, f2, rm = 5: reserved
    li      t0, 0x6000
    csrc    mstatus, t0         # FS = Off
    fadd.s  f5, f1, f2
    la      t0, data
    flw     f6, 0(t0)
    frflags a1
    li      t0, 0x6000
    csrs    mstatus, t0         # FS = Dirty
    fadd.s  f5, f1, f2
    fmv.x.w a2, f5
    add     a0, a0, a1
    add     a0, a0, a2
    andi    a0, a0, 0x7f
    li      t0, 0xffffff04
    sw      a0, 0(t0)
1:  j       1b
handler:
    csrr    t3, mepc
    addi    t3, t3, 4
    csrw    mepc, t3
    mret
    .data
data: .word 0x41200000

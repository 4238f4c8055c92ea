# vx_bar_fault.s: Vortex's bar with a count larger than the warps: BARRIER_FAULT (15), after a
# global barrier of one core and a local barrier of one warp.
    .text
    .globl _start
_start:
    li      t0, 0x80000003
    li      t1, 1
    bar     t0, t1
    li      t0, 5
    bar     t0, t1
    csrr    t1, num_warps
    addi    t1, t1, 1
    bar     t0, t1

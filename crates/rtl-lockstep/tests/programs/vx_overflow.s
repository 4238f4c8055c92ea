# vx_overflow.s: Vortex's IPDOM stack holds lanes - 1 entries: a divergent split on a full
# stack is IPDOM_OVERFLOW (12). Each round widens the warp again (tmc) and splits it.
    .text
    .globl _start
_start:
    li      t0, -1
    tmc     t0
    csrr    s0, thread_id
    andi    s1, s0, 1
    li      s2, 40
1:  li      t0, -1
    tmc     t0
    split   t1, s1, zero
    addi    s2, s2, -1
    bnez    s2, 1b
    tmc     zero

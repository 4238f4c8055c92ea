# Three nested divergent ifs (tid bit 0, then bit 1, then bit 2), each region with its own
# point: three entries at once, in table mode as in converge mode (where each if closes with
# `converge`). With a stack of two entries the third split faults with DIVERGE_OVERFLOW.
    .text
    .globl _start
_start:
    li   t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    li   a0, 0
    andi t1, s0, 1
b1: beqz t1, 1f
    addi a0, a0, 1
    andi t1, s0, 2
b2: beqz t1, 2f
    addi a0, a0, 2
    andi t1, s0, 4
b3: beqz t1, 3f
    addi a0, a0, 4
3:  converge b3
    addi a0, a0, 8
2:  converge b2
    addi a0, a0, 16
1:  converge b1
    addi a0, a0, 32
    csrw tmask, zero

# A barrier write whose count is larger than the warps that exist: BARRIER_FAULT (15).
    .text
    .globl _start
_start:
    csrr t0, num_warps
    addi t0, t0, 1
    slli t0, t0, 16          # count = warps + 1, id 0
    csrw barrier, t0
    csrw tmask, zero

# bnt_1w.s: one warp, 16 not-taken branches per pass: a branch stalls fetch even when not taken.
    .data
bench_warps: .word 1
    .text
    .globl bench
bench:
    li      s0, 100
1:
    bnez    zero, 2f
    bnez    zero, 2f
    bnez    zero, 2f
    bnez    zero, 2f
    bnez    zero, 2f
    bnez    zero, 2f
    bnez    zero, 2f
    bnez    zero, 2f
    bnez    zero, 2f
    bnez    zero, 2f
    bnez    zero, 2f
    bnez    zero, 2f
    bnez    zero, 2f
    bnez    zero, 2f
    bnez    zero, 2f
    bnez    zero, 2f
    addi    s0, s0, -1
    bnez    s0, 1b
2:
    ret

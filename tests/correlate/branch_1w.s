# branch_1w.s: one warp, a loop of one add and a taken branch: the cost of a taken branch (fetch waits until it resolves).
    .data
bench_warps: .word 1
    .text
    .globl bench
bench:
    li      s0, 2000
1:
    addi    t1, t1, 1
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

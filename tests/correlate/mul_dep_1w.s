# mul_dep_1w.s: one warp, 32 dependent multiplies per pass.
    .data
bench_warps: .word 1
    .text
    .globl bench
bench:
    li      t1, 3
    li      t2, 5
    li      s0, 100
1:
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    mul     t1, t1, t2
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

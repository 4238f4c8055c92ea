# call_1w.s: one warp, a call and a return per pass (jal, jalr).
    .data
bench_warps: .word 1
    .text
    .globl bench
bench:
    mv      s1, ra
    li      s0, 1000
1:
    jal     leaf
    addi    s0, s0, -1
    bnez    s0, 1b
    mv      ra, s1
    ret
leaf:
    addi    t1, t1, 1
    ret

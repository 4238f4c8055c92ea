# alu_ind.s: every warp, 32 independent adds per pass: the core's issue rate.
    .data
bench_warps: .word 0
    .text
    .globl bench
bench:
    li      s0, 200
1:
    addi    t3, t3, 1
    addi    t4, t4, 1
    addi    t5, t5, 1
    addi    t6, t6, 1
    addi    t3, t3, 1
    addi    t4, t4, 1
    addi    t5, t5, 1
    addi    t6, t6, 1
    addi    t3, t3, 1
    addi    t4, t4, 1
    addi    t5, t5, 1
    addi    t6, t6, 1
    addi    t3, t3, 1
    addi    t4, t4, 1
    addi    t5, t5, 1
    addi    t6, t6, 1
    addi    t3, t3, 1
    addi    t4, t4, 1
    addi    t5, t5, 1
    addi    t6, t6, 1
    addi    t3, t3, 1
    addi    t4, t4, 1
    addi    t5, t5, 1
    addi    t6, t6, 1
    addi    t3, t3, 1
    addi    t4, t4, 1
    addi    t5, t5, 1
    addi    t6, t6, 1
    addi    t3, t3, 1
    addi    t4, t4, 1
    addi    t5, t5, 1
    addi    t6, t6, 1
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

# branch.s: every warp, the same loop: warps hide each other's branch waits.
    .data
bench_warps: .word 0
    .text
    .globl bench
bench:
    li      s0, 2000
1:
    addi    t1, t1, 1
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

# barrier.s: every warp meets the others at a barrier 200 times, with a few adds between.
    .data
bench_warps: .word 0
    .text
    .globl bench
bench:
    li      s0, 200
1:
    addi    t3, t3, 1
    addi    t4, t4, 1
    li      t5, 0
    bar     t5, a1
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

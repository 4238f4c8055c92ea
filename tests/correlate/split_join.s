# split_join.s: every warp, a divergent if/else per pass with split/join (even lanes one side, odd the other).
    .data
bench_warps: .word 0
    .text
    .globl bench
bench:
    csrr    s1, thread_id
    andi    s1, s1, 1
    li      s0, 300
1:
    split   s2, s1, zero
    beqz    s1, 3f
    addi    t3, t3, 1
    addi    t3, t3, 1
    j       4f
3:
    addi    t4, t4, 2
4:
    join    s2
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

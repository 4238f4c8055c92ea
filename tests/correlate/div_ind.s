# div_ind.s: every warp, 16 independent divides per pass (8 registers in turn): the divider's occupancy.
    .data
bench_warps: .word 0
    .text
    .globl bench
bench:
    li      t1, 1000
    li      t2, 7
    li      s0, 40
1:
    divu    t3, t1, t2
    divu    t4, t1, t2
    divu    t5, t1, t2
    divu    t6, t1, t2
    divu    a2, t1, t2
    divu    a3, t1, t2
    divu    a4, t1, t2
    divu    a5, t1, t2
    divu    t3, t1, t2
    divu    t4, t1, t2
    divu    t5, t1, t2
    divu    t6, t1, t2
    divu    a2, t1, t2
    divu    a3, t1, t2
    divu    a4, t1, t2
    divu    a5, t1, t2
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

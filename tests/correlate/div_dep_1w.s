# div_dep_1w.s: one warp, 16 dependent divides per pass: the divider's latency.
    .data
bench_warps: .word 1
    .text
    .globl bench
bench:
    li      t1, -1
    li      t2, 1
    li      s0, 40
1:
    divu    t1, t1, t2
    divu    t1, t1, t2
    divu    t1, t1, t2
    divu    t1, t1, t2
    divu    t1, t1, t2
    divu    t1, t1, t2
    divu    t1, t1, t2
    divu    t1, t1, t2
    divu    t1, t1, t2
    divu    t1, t1, t2
    divu    t1, t1, t2
    divu    t1, t1, t2
    divu    t1, t1, t2
    divu    t1, t1, t2
    divu    t1, t1, t2
    divu    t1, t1, t2
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

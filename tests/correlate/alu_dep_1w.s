# alu_dep_1w.s: one warp, a chain of 32 dependent adds per loop pass: the ALU's result latency through the scoreboard.
    .data
bench_warps: .word 1
    .text
    .globl bench
bench:
    li      t1, 0
    li      t2, 1
    li      s0, 200
1:
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    add     t1, t1, t2
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

# load_hit_dep_1w.s: one warp, a chain of 16 dependent loads per pass, every lane reading the same cached word: the L1 hit latency.
    .data
bench_warps: .word 1
cell: .word 0
    .text
    .globl bench
bench:
    la      t1, cell
    sw      t1, 0(t1)
    fence
    li      s0, 100
1:
    lw      t1, 0(t1)
    lw      t1, 0(t1)
    lw      t1, 0(t1)
    lw      t1, 0(t1)
    lw      t1, 0(t1)
    lw      t1, 0(t1)
    lw      t1, 0(t1)
    lw      t1, 0(t1)
    lw      t1, 0(t1)
    lw      t1, 0(t1)
    lw      t1, 0(t1)
    lw      t1, 0(t1)
    lw      t1, 0(t1)
    lw      t1, 0(t1)
    lw      t1, 0(t1)
    lw      t1, 0(t1)
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

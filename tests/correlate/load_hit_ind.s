# load_hit_ind.s: every warp, 16 independent loads per pass, each lane its own word of one cached line: the load/store unit's loads in flight.
    .data
bench_warps: .word 0
    .align 6
lines: .zero 256
    .text
    .globl bench
bench:
    csrr    t1, thread_id
    slli    t1, t1, 2
    la      t2, lines
    add     t1, t1, t2
    li      s0, 100
1:
    lw      t3, 0(t1)
    lw      t4, 0(t1)
    lw      t5, 0(t1)
    lw      t6, 0(t1)
    lw      t3, 0(t1)
    lw      t4, 0(t1)
    lw      t5, 0(t1)
    lw      t6, 0(t1)
    lw      t3, 0(t1)
    lw      t4, 0(t1)
    lw      t5, 0(t1)
    lw      t6, 0(t1)
    lw      t3, 0(t1)
    lw      t4, 0(t1)
    lw      t5, 0(t1)
    lw      t6, 0(t1)
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

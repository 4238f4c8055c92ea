# smem.s: every warp, 16 shared-memory loads per pass, lanes reading consecutive words (no bank conflict).
    .data
bench_warps: .word 0
    .text
    .globl bench
bench:
    csrr    t1, thread_id
    slli    t1, t1, 2
    csrr    t2, local_mem_base
    add     t1, t1, t2
    slli    t3, a0, 6
    add     t1, t1, t3
    sw      zero, 0(t1)
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

# load_stream.s: every warp streams through its own 128 KiB (32 lines of 64 bytes per pass), lanes reading consecutive words: DRAM latency and bandwidth behind the L1.
    .data
bench_warps: .word 0
    .text
    .globl bench
bench:
    csrr    t1, thread_id
    slli    t1, t1, 2
    li      t2, 0x80100000
    add     t1, t1, t2
    slli    t3, a0, 18
    add     t1, t1, t3
    li      s0, 128
1:
    lw      t4, 0(t1)
    lw      t5, 64(t1)
    lw      t4, 128(t1)
    lw      t5, 192(t1)
    lw      t4, 256(t1)
    lw      t5, 320(t1)
    lw      t4, 384(t1)
    lw      t5, 448(t1)
    lw      t4, 512(t1)
    lw      t5, 576(t1)
    lw      t4, 640(t1)
    lw      t5, 704(t1)
    lw      t4, 768(t1)
    lw      t5, 832(t1)
    lw      t4, 896(t1)
    lw      t5, 960(t1)
    addi    t1, t1, 1024
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

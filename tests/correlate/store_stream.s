# store_stream.s: every warp stores to its own 64 KiB, lanes writing consecutive words (write-through, no allocate).
    .data
bench_warps: .word 0
    .text
    .globl bench
bench:
    csrr    t1, thread_id
    slli    t1, t1, 2
    li      t2, 0x80100000
    add     t1, t1, t2
    slli    t3, a0, 16
    add     t1, t1, t3
    li      s0, 64
1:
    sw      s0, 0(t1)
    sw      s0, 64(t1)
    sw      s0, 128(t1)
    sw      s0, 192(t1)
    sw      s0, 256(t1)
    sw      s0, 320(t1)
    sw      s0, 384(t1)
    sw      s0, 448(t1)
    sw      s0, 512(t1)
    sw      s0, 576(t1)
    sw      s0, 640(t1)
    sw      s0, 704(t1)
    sw      s0, 768(t1)
    sw      s0, 832(t1)
    sw      s0, 896(t1)
    sw      s0, 960(t1)
    addi    t1, t1, 1024
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

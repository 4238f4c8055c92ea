# csr_1w.s: one warp, 16 CSR reads per pass: the special-function unit's latency.
    .data
bench_warps: .word 1
    .text
    .globl bench
bench:
    li      s0, 100
1:
    csrr    t3, warp_id
    csrr    t4, thread_id
    csrr    t5, warp_id
    csrr    t6, thread_id
    csrr    t3, warp_id
    csrr    t4, thread_id
    csrr    t5, warp_id
    csrr    t6, thread_id
    csrr    t3, warp_id
    csrr    t4, thread_id
    csrr    t5, warp_id
    csrr    t6, thread_id
    csrr    t3, warp_id
    csrr    t4, thread_id
    csrr    t5, warp_id
    csrr    t6, thread_id
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

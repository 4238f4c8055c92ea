# load_miss_dep_1w.s: one warp builds a chain of 256 pointers 4 KiB apart in cold memory,
# then follows it: each load misses the L1 (and a write-through L1 did not allocate the
# stores), and each address comes from the previous load: the latency of a miss to DRAM.
    .data
bench_warps: .word 1
    .text
    .globl bench
bench:
    li      t1, 0x80400000
    li      t2, 4096
    li      s0, 256
1:
    add     t3, t1, t2
    sw      t3, 0(t1)
    mv      t1, t3
    addi    s0, s0, -1
    bnez    s0, 1b
    fence
    li      t1, 0x80400000
    li      s0, 16
2:
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
    bnez    s0, 2b
    ret

# load_stride.s: every warp, loads whose lanes each touch a different 64-byte line (a 256-byte stride), each warp over its own 256 KiB: one request per lane.
    .data
bench_warps: .word 0
    .text
    .globl bench
bench:
    csrr    t1, thread_id
    slli    t1, t1, 8
    li      t2, 0x80100000
    add     t1, t1, t2
    slli    t3, a0, 18
    add     t1, t1, t3
    li      s0, 64
1:
    lw      t4, 0(t1)
    lw      t5, 4(t1)
    lw      t4, 8(t1)
    lw      t5, 12(t1)
    lw      t4, 16(t1)
    lw      t5, 20(t1)
    lw      t4, 24(t1)
    lw      t5, 28(t1)
    li      t3, 4096
    add     t1, t1, t3
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

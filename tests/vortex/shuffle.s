# shuffle.s: lane shuffles of v = 100 + thread id. The control word of each lane comes from
# ctl[case][lane] (rs2 is read per lane); results go to out[case][lane]. The last case runs
# with lanes {0, 1, 2} only (tmc 7), so lane 2's source lane 3 is inactive.
    .text
    .globl main
main:
    li      t0, -1
    tmc     t0
    csrr    s1, thread_id
    addi    s2, s1, 100         # v
    slli    s3, s1, 2           # lane offset
    la      s4, ctl
    add     s4, s4, s3
    la      s5, out
    add     s5, s5, s3
    lw      t1, 0(s4)
    shfl.up   t2, s2, t1
    sw      t2, 0(s5)
    lw      t1, 16(s4)
    shfl.down t2, s2, t1
    sw      t2, 16(s5)
    lw      t1, 32(s4)
    shfl.bfly t2, s2, t1
    sw      t2, 32(s5)
    lw      t1, 48(s4)
    shfl.idx  t2, s2, t1
    sw      t2, 48(s5)
    lw      t1, 64(s4)
    shfl.idx  t2, s2, t1
    sw      t2, 64(s5)
    lw      t1, 80(s4)
    shfl.up   t2, s2, t1
    sw      t2, 80(s5)
    li      t0, 7
    tmc     t0
    lw      t1, 96(s4)
    shfl.down t2, s2, t1
    sw      t2, 96(s5)
    li      t0, 1
    tmc     t0
    li      a0, 0
    ret
    .data
out: .zero 112
# ctl: (segmask << 12) | (c << 6) | b, one word per lane and case; the test appends it.

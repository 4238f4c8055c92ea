# wgather_packld.s: run with 8 lanes. Every lane l sets a = 10l + 1, b = 10l + 2,
# c = 10l + 3, r = 100 + l and does `wgather r, a, b, c, 1`: gathered[l] = r. Then the
# packed loads into a float register: packlb.f from bytes + 4l with stride 1 (lb[l]) and from
# bytes + l with stride 5 (lb5[l]); packlh.f from bytes + 2l with stride 2 (lh[l]).
    .text
    .globl main
main:
    li      t0, -1
    tmc     t0
    csrr    s0, thread_id
    slli    s1, s0, 2
    li      t0, 10
    mul     t0, t0, s0
    addi    a1, t0, 1
    addi    a2, t0, 2
    addi    a3, t0, 3
    addi    a4, s0, 100
    wgather a4, a1, a2, a3, 1
    la      t1, gathered
    add     t1, t1, s1
    sw      a4, 0(t1)
    la      t2, bytes
    add     t3, t2, s1
    li      t4, 1
    packlb.f ft0, t3, t4
    fmv.x.w t5, ft0
    la      t1, lb
    add     t1, t1, s1
    sw      t5, 0(t1)
    add     t3, t2, s0
    li      t4, 5
    packlb.f ft1, t3, t4
    fmv.x.w t5, ft1
    la      t1, lb5
    add     t1, t1, s1
    sw      t5, 0(t1)
    slli    t6, s0, 1
    add     t3, t2, t6
    li      t4, 2
    packlh.f ft2, t3, t4
    fmv.x.w t5, ft2
    la      t1, lh
    add     t1, t1, s1
    sw      t5, 0(t1)
    li      t0, 1
    tmc     t0
    li      a0, 0
    ret
    .data
bytes:
    .byte 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xf0, 0x01
    .byte 0x12, 0x23, 0x34, 0x45, 0x56, 0x67, 0x78, 0x89, 0x9a, 0xab, 0xbc, 0xcd, 0xde, 0xef, 0xf1, 0x02
    .byte 0x13, 0x24, 0x35, 0x46, 0x57, 0x68, 0x79, 0x8a, 0x9b, 0xac, 0xbd, 0xce, 0xdf, 0xe0, 0xf2, 0x03
    .byte 0x14, 0x25, 0x36, 0x47, 0x58, 0x69, 0x7a, 0x8b, 0x9c, 0xad, 0xbe, 0xcf, 0xd0, 0xe1, 0xf3, 0x04
    .align 2
gathered: .zero 32
lb:       .zero 32
lb5:      .zero 32
lh:       .zero 32

# fcmp_ind.s: every warp, 32 independent float compares (results in integer registers) per pass.
    .data
bench_warps: .word 0
    .text
    .globl bench
bench:
    li      t1, 0x3f800000
    fmv.w.x ft0, t1
    li      t1, 0x3f000000
    fmv.w.x ft1, t1
    fmv.w.x ft2, t1
    fmv.w.x ft3, t1
    fmv.w.x ft4, t1
    fmv.w.x ft5, t1
    li      s0, 60
1:
    flt.s   t3, ft1, ft0
    flt.s   t4, ft1, ft0
    flt.s   t5, ft1, ft0
    flt.s   t6, ft1, ft0
    flt.s   a2, ft1, ft0
    flt.s   a3, ft1, ft0
    flt.s   a4, ft1, ft0
    flt.s   a5, ft1, ft0
    flt.s   t3, ft1, ft0
    flt.s   t4, ft1, ft0
    flt.s   t5, ft1, ft0
    flt.s   t6, ft1, ft0
    flt.s   a2, ft1, ft0
    flt.s   a3, ft1, ft0
    flt.s   a4, ft1, ft0
    flt.s   a5, ft1, ft0
    flt.s   t3, ft1, ft0
    flt.s   t4, ft1, ft0
    flt.s   t5, ft1, ft0
    flt.s   t6, ft1, ft0
    flt.s   a2, ft1, ft0
    flt.s   a3, ft1, ft0
    flt.s   a4, ft1, ft0
    flt.s   a5, ft1, ft0
    flt.s   t3, ft1, ft0
    flt.s   t4, ft1, ft0
    flt.s   t5, ft1, ft0
    flt.s   t6, ft1, ft0
    flt.s   a2, ft1, ft0
    flt.s   a3, ft1, ft0
    flt.s   a4, ft1, ft0
    flt.s   a5, ft1, ft0
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

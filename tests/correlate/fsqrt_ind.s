# fsqrt_ind.s: every warp, 16 independent square roots per pass: the divide/square-root unit's occupancy.
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
    fmv.w.x ft6, t1
    fmv.w.x ft7, t1
    fmv.w.x ft8, t1
    fmv.w.x ft9, t1
    li      s0, 30
1:
    fsqrt.s ft2, ft1
    fsqrt.s ft3, ft1
    fsqrt.s ft4, ft1
    fsqrt.s ft5, ft1
    fsqrt.s ft6, ft1
    fsqrt.s ft7, ft1
    fsqrt.s ft8, ft1
    fsqrt.s ft9, ft1
    fsqrt.s ft2, ft1
    fsqrt.s ft3, ft1
    fsqrt.s ft4, ft1
    fsqrt.s ft5, ft1
    fsqrt.s ft6, ft1
    fsqrt.s ft7, ft1
    fsqrt.s ft8, ft1
    fsqrt.s ft9, ft1
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

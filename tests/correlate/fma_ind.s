# fma_ind.s: every warp, 32 independent fused multiply-adds per pass (8 registers in turn): the FPU's results in flight (madmax-like).
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
    li      s0, 60
1:
    fmadd.s ft2, ft2, ft1, ft0
    fmadd.s ft3, ft3, ft1, ft0
    fmadd.s ft4, ft4, ft1, ft0
    fmadd.s ft5, ft5, ft1, ft0
    fmadd.s ft6, ft6, ft1, ft0
    fmadd.s ft7, ft7, ft1, ft0
    fmadd.s ft8, ft8, ft1, ft0
    fmadd.s ft9, ft9, ft1, ft0
    fmadd.s ft2, ft2, ft1, ft0
    fmadd.s ft3, ft3, ft1, ft0
    fmadd.s ft4, ft4, ft1, ft0
    fmadd.s ft5, ft5, ft1, ft0
    fmadd.s ft6, ft6, ft1, ft0
    fmadd.s ft7, ft7, ft1, ft0
    fmadd.s ft8, ft8, ft1, ft0
    fmadd.s ft9, ft9, ft1, ft0
    fmadd.s ft2, ft2, ft1, ft0
    fmadd.s ft3, ft3, ft1, ft0
    fmadd.s ft4, ft4, ft1, ft0
    fmadd.s ft5, ft5, ft1, ft0
    fmadd.s ft6, ft6, ft1, ft0
    fmadd.s ft7, ft7, ft1, ft0
    fmadd.s ft8, ft8, ft1, ft0
    fmadd.s ft9, ft9, ft1, ft0
    fmadd.s ft2, ft2, ft1, ft0
    fmadd.s ft3, ft3, ft1, ft0
    fmadd.s ft4, ft4, ft1, ft0
    fmadd.s ft5, ft5, ft1, ft0
    fmadd.s ft6, ft6, ft1, ft0
    fmadd.s ft7, ft7, ft1, ft0
    fmadd.s ft8, ft8, ft1, ft0
    fmadd.s ft9, ft9, ft1, ft0
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

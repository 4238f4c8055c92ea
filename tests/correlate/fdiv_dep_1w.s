# fdiv_dep_1w.s: one warp, 16 dependent float divides per pass.
    .data
bench_warps: .word 1
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
    li      s0, 30
1:
    fdiv.s  ft2, ft2, ft1
    fdiv.s  ft2, ft2, ft1
    fdiv.s  ft2, ft2, ft1
    fdiv.s  ft2, ft2, ft1
    fdiv.s  ft2, ft2, ft1
    fdiv.s  ft2, ft2, ft1
    fdiv.s  ft2, ft2, ft1
    fdiv.s  ft2, ft2, ft1
    fdiv.s  ft2, ft2, ft1
    fdiv.s  ft2, ft2, ft1
    fdiv.s  ft2, ft2, ft1
    fdiv.s  ft2, ft2, ft1
    fdiv.s  ft2, ft2, ft1
    fdiv.s  ft2, ft2, ft1
    fdiv.s  ft2, ft2, ft1
    fdiv.s  ft2, ft2, ft1
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

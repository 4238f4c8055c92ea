# fcvt_dep_1w.s: one warp, 32 dependent conversions per pass, int to float and back in turn.
    .data
bench_warps: .word 1
    .text
    .globl bench
bench:
    li      t1, 7
    li      s0, 60
1:
    fcvt.s.w ft2, t1
    fcvt.w.s t1, ft2
    fcvt.s.w ft2, t1
    fcvt.w.s t1, ft2
    fcvt.s.w ft2, t1
    fcvt.w.s t1, ft2
    fcvt.s.w ft2, t1
    fcvt.w.s t1, ft2
    fcvt.s.w ft2, t1
    fcvt.w.s t1, ft2
    fcvt.s.w ft2, t1
    fcvt.w.s t1, ft2
    fcvt.s.w ft2, t1
    fcvt.w.s t1, ft2
    fcvt.s.w ft2, t1
    fcvt.w.s t1, ft2
    fcvt.s.w ft2, t1
    fcvt.w.s t1, ft2
    fcvt.s.w ft2, t1
    fcvt.w.s t1, ft2
    fcvt.s.w ft2, t1
    fcvt.w.s t1, ft2
    fcvt.s.w ft2, t1
    fcvt.w.s t1, ft2
    fcvt.s.w ft2, t1
    fcvt.w.s t1, ft2
    fcvt.s.w ft2, t1
    fcvt.w.s t1, ft2
    fcvt.s.w ft2, t1
    fcvt.w.s t1, ft2
    fcvt.s.w ft2, t1
    fcvt.w.s t1, ft2
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

# weft_simt.s: weft divergence and Vortex SIMT instructions, CSRs, float and atomics.
    .text
    .globl _start
_start:
    csrr    t0, thread_id
    csrr    t1, num_threads
    csrr    t2, warp_id
    csrr    t3, 0xFC2
    csrwi   tmask, 0xf
    andi    t4, t0, 1
branch:
    beqz    t4, else
    addi    a0, a0, 1
    j       join
else:
    addi    a0, a0, 2
join:
    converge branch
    diverge t4, skip
    nop
skip:
    tmc     t1
    wspawn  t1, t2
    split   a0, t4, zero
    join    a0
    bar     zero, t1
    pred    zero, t4, t1
    wsync
    vote.all a1, t4, zero
    shfl.idx a2, a0, a1
    fadd.s  fa0, fa1, fa2
    fadd.s  fa0, fa1, fa2, rtz
    fmadd.s fa0, fa1, fa2, fa3, rne
    fcvt.w.s a0, fa0, rtz
    fcvt.s.w fa0, a0
    fmv.x.w a0, fa0
    fsqrt.s fa0, fa1
    fmv.s   fa1, fa0
    fneg.s  fa1, fa0
    fabs.s  fa1, fa0
    fsflags zero
    frrm    a0
    amoadd.w.aqrl a0, a1, (a2)
    amoswap.w a0, a1, 0(a2)
    lr.w.aq a0, (a2)
    sc.w.rl a1, a0, (a2)
    fence
    fence rw, w
    fence.i
    rdcycle a0
    rdcycleh a1
    ecall
    ebreak
    mret
    wfi
    tail    _start

# async_barrier.s: Vortex's asynchronous barrier (bar.arrive / bar.wait) on one core.
# Warps 0..3 (lane 0 each) dawdle 40·w iterations, set flag[w] and arrive at barrier 1 for 4
# warps without blocking (token0[w] = the phase bit, 0), dawdle again, then wait for the
# phase; after it each counts the flags into seen[w] (4 if the wait waited). A second round
# returns phase bit 1 (token1[w]). `bar.arrive` with rd = x0 is bar.wait.
    .text
    .globl main
main:
    addi    sp, sp, -16
    sw      ra, 12(sp)
    li      t0, 4
    la      t1, worker_entry
    wspawn  t0, t1
    call    work
    lw      ra, 12(sp)
    addi    sp, sp, 16
    li      a0, 0
    ret
worker_entry:
    call    work
    tmc     zero
work:
    csrr    s0, warp_id
    slli    s1, s0, 2
    li      t0, 40
    mul     t0, t0, s0
dawdle:
    beqz    t0, arrive
    addi    t0, t0, -1
    j       dawdle
arrive:
    la      t2, flag
    add     t2, t2, s1
    li      t3, 1
    sw      t3, 0(t2)
    li      s2, 1                       # barrier 1
    li      s3, 4                       # of 4 warps
    bar.arrive s4, s2, s3
    la      t2, token0
    add     t2, t2, s1
    sw      s4, 0(t2)
    li      t0, 25
busy:
    addi    t0, t0, -1
    bnez    t0, busy
    bar.arrive zero, s2, s4             # bar.wait: until the phase moves on
    la      t2, flag
    lw      t3, 0(t2)
    lw      t4, 4(t2)
    add     t3, t3, t4
    lw      t4, 8(t2)
    add     t3, t3, t4
    lw      t4, 12(t2)
    add     t3, t3, t4
    la      t2, seen
    add     t2, t2, s1
    sw      t3, 0(t2)
    bar.arrive s5, s2, s3               # round two
    bar.arrive zero, s2, s5
    la      t2, token1
    add     t2, t2, s1
    sw      s5, 0(t2)
    ret
    .data
flag:   .zero 16
seen:   .zero 16
token0: .zero 16
token1: .zero 16

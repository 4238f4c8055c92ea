# wspawn.s: main spawns warps 1..3 at worker. Each worker records its thread mask, its
# lane-0 stack pointer (set by the start-up) and its warp id, then meets warp 0 at barrier 0.
    .text
    .globl main
main:
    addi    sp, sp, -16
    sw      ra, 12(sp)
    li      t0, 4
    la      t1, worker
    wspawn  t0, t1
    li      t0, 0
    li      t1, 4
    bar     t0, t1
    csrr    t2, thread_mask
    la      t3, main_mask
    sw      t2, 0(t3)
    lw      ra, 12(sp)
    addi    sp, sp, 16
    li      a0, 0
    ret
worker:
    csrr    t0, warp_id
    slli    t1, t0, 2
    csrr    t2, thread_mask
    la      t3, masks
    add     t3, t3, t1
    sw      t2, 0(t3)
    la      t3, sps
    add     t3, t3, t1
    sw      sp, 0(t3)
    la      t3, active
    add     t3, t3, t1
    csrr    t2, active_warps
    sw      t2, 0(t3)
    li      t0, 0
    li      t1, 4
    bar     t0, t1
    tmc     zero
    .data
masks:     .zero 16
sps:       .zero 16
active:    .zero 16
main_mask: .word 0

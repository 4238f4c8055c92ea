# barrier_local.s: warps 0..3 (lane 0 each) set flag[warp], meet at barrier 1, then count
# the flags: every warp must see all four. Warp 1..3 run worker; warp 0 runs it from main.
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
    csrr    t0, warp_id
    slli    t1, t0, 2
    la      t2, flag
    add     t2, t2, t1
    li      t3, 1
    sw      t3, 0(t2)
    li      t4, 1
    li      t5, 4
    bar     t4, t5
    la      t2, flag
    lw      t3, 0(t2)
    lw      t4, 4(t2)
    add     t3, t3, t4
    lw      t4, 8(t2)
    add     t3, t3, t4
    lw      t4, 12(t2)
    add     t3, t3, t4
    la      t2, seen
    add     t2, t2, t1
    sw      t3, 0(t2)
    ret
    .data
flag: .zero 16
seen: .zero 16

# spawn_deadlock.s: warp 0 spawns warp 1, which waits at a local barrier for two warps,
# then warp 0 issues `wspawn 1, zero` (wait until alone on the core) instead of arriving.
# Neither can go on: weft must report a deadlock naming both waits, not spin to the bound.
    .text
    .globl main
main:
    li      t0, 2
    la      t1, waiter
    wspawn  t0, t1
    li      t0, 1
    wspawn  t0, zero
    li      a0, 0
    ret
waiter:
    li      t0, 0
    li      t1, 2
    bar     t0, t1
    tmc     zero

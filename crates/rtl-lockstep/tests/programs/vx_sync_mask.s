# vx_sync_mask.s: votes with a member mask in rs2 (a CUDA `_sync` mask, docs/isa.md's vote):
# each lane's own mask, here the pair of lanes it belongs to (3 << (lane & ~1)), so every lane
# votes over its pair only and the lanes of a warp get different results; then, with lanes
# 0-2 active, a mask naming lane 3, which is not active: SYNC_MASK (18), rd left unwritten.
    .text
    .globl _start
_start:
    li      t0, -1
    tmc     t0
    csrr    s0, thread_id
    andi    t1, s0, -2          # lane & ~1
    li      t2, 3
    sll     t2, t2, t1          # this lane's pair
    andi    t3, s0, 1           # odd lanes
    vote.ballot a0, t3, t2
    vote.all    a1, t3, t2
    vote.any    a2, t3, t2
    sltiu   t4, s0, 3           # lanes 0-2: pair {2, 3} disagrees
    vote.uni    a3, t4, t2
    vote.all    a4, t4, t2
    li      t5, 7
    tmc     t5                  # lanes 0-2
    li      t6, 0x0f
    li      a5, 55
    vote.any    a5, t3, t6      # names lane 3: SYNC_MASK
    li      a5, 66
    tmc     zero

# vx_sync_self.s: a vote whose member mask (rs2) leaves the voting lane out — every lane
# names lane 0 only, so lane 1's mask does not name lane 1: SYNC_MASK (18).
    .text
    .globl _start
_start:
    li      t0, -1
    tmc     t0
    csrr    s0, thread_id
    andi    t1, s0, 1
    li      t2, 1
    vote.ballot a0, t1, t2
    tmc     zero

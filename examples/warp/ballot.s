# ballot.s: votes at 8 lanes (docs/warp.md). A ballot of the odd lanes over the whole warp,
# the same with the member mask 0xff (CUDA's __ballot_sync(0xff, lane & 1)), then, inside a
# branch that only lanes 0-3 take, a ballot over the active lanes — and one whose mask still
# names all eight lanes: SYNC_MASK, naming the lanes that are not active.
    .globl _start
_start:
    li      t0, 0xff
    csrw    tmask, t0           # lanes 0-7 run
    li      t0, 0xff            # (registers are per lane: now in all eight)
    csrr    s0, thread_id
    andi    a0, s0, 1           # pred: the lane is odd
    vote.ballot a1, a0, zero    # members: the active lanes
    vote.ballot a2, a0, t0      # members: the mask 0xff, checked against the active lanes
    li      t1, 0xaa
    bne     a1, t1, bad
    bne     a2, t1, bad
    li      t2, 4
low:
    bge     s0, t2, high        # lanes 0-3 fall through and run first; 4-7 wait at `high`
    vote.ballot a3, a0, zero    # over lanes 0-3: 0x0a
    li      t1, 0x0a
    bne     a3, t1, bad
    vote.ballot a4, a0, t0      # the mask 0xff names lanes 4-7: they are not active
high:
    csrw    tmask, zero
bad:
    li      t0, 0xFFFFFF04
    li      t1, 1
    sw      t1, 0(t0)

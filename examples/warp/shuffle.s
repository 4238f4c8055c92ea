# shuffle.s: three shuffles at 8 lanes, as CUDA's __shfl_down_sync(m, v, 1),
# __shfl_sync(m, v, 3) and __shfl_xor_sync(m, v, 2, 4) give them (docs/warp.md). Each result
# is checked in every lane at once with vote.all; the run exits 0 when all are right.
    .globl _start
_start:
    li      t0, 0xff
    csrw    tmask, t0           # lanes 0-7 run
    csrr    s0, thread_id       # s0 = lane
    slli    a0, s0, 4           # v = 16 * lane
    li      t1, 0x7c1           # segmask 0, c = 31, b = 1
    shfl.down a1, a0, t1        # v of lane + 1; lane 7 has none and keeps its own
    li      t1, 0x7c3           # segmask 0, c = 31, b = 3
    shfl.idx a2, a0, t1         # v of lane 3, in every lane
    li      t1, 0x1c7c2         # segmask 28 (width 4), c = 31, b = 2
    shfl.bfly a3, a0, t1        # v of lane ^ 2, within each group of four
    slti    t2, s0, 7           # want a1 = v + 16, but v in lane 7
    slli    t2, t2, 4
    add     t2, a0, t2
    xor     t2, a1, t2
    seqz    t2, t2
    vote.all t2, t2, zero       # 1 if every lane's a1 is right
    beqz    t2, bad
    addi    t2, a2, -48         # want a2 = 48
    seqz    t2, t2
    vote.all t2, t2, zero
    beqz    t2, bad
    xori    t2, s0, 2           # want a3 = 16 * (lane ^ 2)
    slli    t2, t2, 4
    xor     t2, a3, t2
    seqz    t2, t2
    vote.all t2, t2, zero
    beqz    t2, bad
    csrw    tmask, zero         # all right: halt (exit 0)
bad:
    li      t0, 0xFFFFFF04
    li      t1, 1
    sw      t1, 0(t0)           # exit 1

# vortex.s: Vortex's SIMT instructions under weft's profile, for the RTL lockstep: vote.* over
# the active lanes and over a member mask, shfl.* with lane-dependent control words (inside
# and across segments, to inactive lanes), pred (passing lanes, the fallback mask), tmc,
# nested split/join with both groups and a uniform split, wspawn (warps start at the target
# with lane 0, then widen), bar (a local barrier of the spawned warps and warp 0, a global
# barrier of this one core), wsync. Warp 0 exits with a checksum of what every warp stored.
    .text
    .globl _start
_start:
    li      t0, -1
    tmc     t0                  # every lane of warp 0
    csrr    s0, thread_id
    la      s11, out
    slli    t0, s0, 2
    add     s11, s11, t0        # this lane's column of `out`
    # ---- vote: odd lanes, then lanes below 3, over all lanes and over members 0x0f ----
    andi    t1, s0, 1
    vote.all    a0, t1, zero
    vote.any    a1, t1, zero
    vote.uni    a2, t1, zero
    vote.ballot a3, t1, zero
    li      t2, 0x0f            # members 0x0f: lanes 0-3 run alone (a member mask must
    tmc     t2                  # name exactly active lanes, or the vote faults SYNC_MASK)
    vote.ballot a4, t1, t2
    vote.uni    a5, t1, t2
    li      t2, -1
    tmc     t2
    sltiu   t3, s0, 3
    vote.all    a6, t3, zero
    vote.any    a7, t3, zero
    add     a0, a0, a1
    add     a0, a0, a2
    add     a0, a0, a3
    add     a0, a0, a4
    add     a0, a0, a5
    add     a0, a0, a6
    add     a0, a0, a7
    sw      a0, 0(s11)
    # ---- shfl: v = 100 + lane; control words (seg << 12) | (c << 6) | b ----
    addi    s2, s0, 100
    li      t1, 1                               # up 1
    shfl.up     a0, s2, t1
    li      t1, (3 << 12) | (3 << 6) | 1        # down 1 in segments of 4
    shfl.down   a1, s2, t1
    li      t1, (7 << 6) | 2                    # bfly 2
    shfl.bfly   a2, s2, t1
    andi    t1, s0, 3                           # idx: lane & 3 in segments of 4, per lane
    li      t2, (3 << 12) | (3 << 6)
    or      t1, t1, t2
    shfl.idx    a3, s2, t1
    slli    t1, s0, 1                           # up by 2 * lane: mostly out of range
    shfl.up     a4, s2, t1
    li      t1, (1 << 6) | 5                    # down 5, max = lane | 1: out of range
    shfl.down   a5, s2, t1
    li      t1, 0x3f                            # bfly 63: beyond the lanes
    shfl.bfly   a6, s2, t1
    slli    a1, a1, 8
    slli    a2, a2, 16
    slli    a3, a3, 24
    add     a0, a0, a1
    add     a0, a0, a2
    add     a0, a0, a3
    add     a0, a0, a4
    add     a0, a0, a5
    add     a0, a0, a6
    sw      a0, 32(s11)
    # an inactive source lane: lanes {0, 1, 2} only, down 1 (lane 2's source is lane 3)
    li      t0, 7
    tmc     t0
    li      t1, (7 << 6) | 1
    shfl.down   a0, s2, t1
    sw      a0, 64(s11)
    li      t0, -1
    tmc     t0
    # ---- pred: lanes below 5 pass; then none pass and the fallback (0x3) runs ----
    sltiu   t1, s0, 5
    li      t2, 0x3
    pred    zero, t1, t2
    csrr    a0, tmask
    sw      a0, 96(s11)
    li      t1, 0
    pred    zero, t1, t2
    csrr    a0, tmask
    sw      a0, 128(s11)
    li      t1, 1
    pred    t0, t1, t2          # rd != x0 negates: no lane passes, the fallback 0x3 runs
    li      t0, -1
    tmc     t0
    # ---- nested split/join (Vortex's shape), then a uniform one ----
    slti    s2, s0, 5           # outer predicate
    andi    s3, s0, 1           # inner predicate
    split   s4, s2, zero
    beqz    s2, 1f
    split   s5, s3, zero
    beqz    s3, 2f
    li      s6, 10
    j       3f
2:  li      s6, 20
3:  join    s5
    j       4f
1:  split   s5, s3, t0          # (rs2 != x0: the predicate is negated)
    beqz    s3, 5f
    li      s6, 30
    j       6f
5:  li      s6, 40
6:  join    s5
4:  join    s4
    csrr    t1, tmask
    slli    t1, t1, 8
    add     s6, s6, t1
    slli    s5, s5, 4
    add     s6, s6, s5
    sw      s6, 160(s11)
    li      t3, 1
    split   t4, t3, zero        # uniform: token = depth 0, nothing pushed
    join    t4
    sw      t4, 192(s11)
    wsync
    # ---- wspawn: warps 1 .. W-1 start at `worker` with lane 0; a local barrier of all ----
    csrr    s8, num_warps
    la      t2, worker
    wspawn  s8, t2
    li      t0, 1
    tmc     t0                  # warp 0: lane 0 from here
    li      t1, 1
    bar     t1, s8              # local barrier 1 of every warp
    li      t1, 0x80000002
    li      t2, 1
    bar     t1, t2              # a global barrier of one core: completes at once
    # the checksum of `out` (8 lanes x 7 rows) and `wout` (4 warps x 8 lanes)
    la      t0, out
    li      t1, 88
    li      a0, 0
7:  lw      t2, 0(t0)
    slli    a1, a0, 5
    srli    a0, a0, 27
    or      a0, a0, a1
    xor     a0, a0, t2
    addi    t0, t0, 4
    addi    t1, t1, -1
    bnez    t1, 7b
    andi    a0, a0, 0xff
    li      t0, 0xffffff04
    sw      a0, 0(t0)
8:  j       8b

# a spawned warp: lane 0 widens the warp, every lane stores its id, the warp meets warp 0
worker:
    li      t0, -1
    tmc     t0
    csrr    s0, thread_id
    csrr    s1, warp_id
    slli    t0, s1, 3
    add     t0, t0, s0
    slli    t0, t0, 2
    la      t1, wout
    add     t1, t1, t0
    slli    t2, s1, 8
    add     t2, t2, s0
    sw      t2, 0(t1)
    li      t0, 1
    tmc     t0
    li      t1, 1
    csrr    t2, num_warps
    bar     t1, t2
    tmc     zero                # the warp halts

    .data
out:  .zero 224
wout: .zero 128

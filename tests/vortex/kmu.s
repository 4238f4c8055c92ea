# Hardware CTA launch (KMU) test program, written in the shape of Vortex v3.0's KMU start-up
# code (sw/kernel/src/vx_start.S): `_start` runs once per warp slot per launch (it sets the
# stack and counts itself in `inits`), then the per-CTA dispatch window — five 4-byte
# instructions a re-used warp re-enters 20 bytes before where it halted — calls the kernel
# the KMU names (cta_entry CSR) with the argument pointer (mscratch) in a0.
#
# Argument block (a0): [0] out, [1] hits, [2] info, [3] inits: word arrays the kernels fill.
    .text
    .globl _start
_start:
    li    sp, 0xFFFF0000
    csrr  t0, mhartid
    slli  t1, t0, 13
    sub   sp, sp, t1
    csrr  a0, mscratch
    csrr  t4, 0xCC0                     # thread id: lane 0 counts for its warp
    bnez  t4, window
    lw    t2, 12(a0)
    li    t3, 1
    amoadd.w x0, t3, (t2)               # inits += 1
window:
    csrr  s11, 0xCE1                    # cta_entry
    csrr  a0, mscratch                  # kernel arguments
    jalr  ra, 0(s11)
    .insn r 0x0b, 7, 0, x0, x0, x0      # wsync
    .insn r 0x0b, 0, 0, x0, x0, x0      # tmc x0

# ids: every thread of the grid records who it is.
#   gid = (by * gdx + bx) * (bdx * bdy) + ty * bdx + tx
#   out[gid] = tx | ty << 8 | bx << 16 | by << 24; hits[gid] += 1
#   info[gid] = core << 16 | warp << 8 | cta_id << 4 | rank
    .globl ids
ids:
    csrr  t0, 0xCD3                     # thread x
    csrr  t1, 0xCD4                     # thread y
    csrr  t2, 0xCD6                     # block x
    csrr  t3, 0xCD7                     # block y
    csrr  t4, 0xCD9                     # block dim x
    csrr  t5, 0xCDA                     # block dim y
    csrr  t6, 0xCDC                     # grid dim x
    mul   a1, t3, t6
    add   a1, a1, t2
    mul   a2, t4, t5
    mul   a1, a1, a2
    mul   a3, t1, t4
    add   a3, a3, t0
    add   a1, a1, a3                    # gid
    slli  a1, a1, 2
    slli  a4, t1, 8
    or    a4, a4, t0
    slli  a5, t2, 16
    or    a4, a4, a5
    slli  a5, t3, 24
    or    a4, a4, a5
    lw    a5, 0(a0)
    add   a5, a5, a1
    sw    a4, 0(a5)                     # out[gid]
    lw    a5, 4(a0)
    add   a5, a5, a1
    li    a6, 1
    amoadd.w x0, a6, (a5)               # hits[gid] += 1
    csrr  a4, 0xCC2                     # core
    slli  a4, a4, 16
    csrr  a6, 0xCC1                     # warp
    slli  a6, a6, 8
    or    a4, a4, a6
    csrr  a6, 0xCD0                     # cta id
    slli  a6, a6, 4
    or    a4, a4, a6
    csrr  a6, 0xCD1                     # rank
    or    a4, a4, a6
    lw    a5, 8(a0)
    add   a5, a5, a1
    sw    a4, 0(a5)                     # info[gid]
    ret

# share (1-D blocks): thread tx stores bx * 1000 + tx in the CTA's local memory, the CTA
# meets at its barrier (id = cta_id, count = warps in the CTA), and each thread reads the
# value of thread (tx + 4) mod bdx — another warp's. Warps of rank > 0 dawdle before they
# store, so a missing barrier shows. out[bx * bdx + tx] = what it read; info[bx] = the CTA's
# local-memory address.
    .globl share
share:
    csrr  s0, 0xCD1                     # rank
    csrr  s1, 0xCD2                     # size (warps)
    csrr  s2, 0xCDF                     # local memory
    csrr  s3, 0xCD0                     # cta id
    csrr  s4, 0xCD6                     # block x
    csrr  s5, 0xCD3                     # thread x
    csrr  s6, 0xCD9                     # block dim x
    beqz  s0, store
    li    t0, 40
dawdle:
    addi  t0, t0, -1
    bnez  t0, dawdle
store:
    li    t0, 1000
    mul   t0, s4, t0
    add   t0, t0, s5
    slli  t1, s5, 2
    add   t1, s2, t1
    sw    t0, 0(t1)
    .insn r 0x0b, 4, 0, x0, s3, s1      # bar cta_id, size
    addi  t2, s5, 4
    remu  t2, t2, s6
    slli  t2, t2, 2
    add   t2, s2, t2
    lw    t3, 0(t2)
    mul   t4, s4, s6
    add   t4, t4, s5
    slli  t4, t4, 2
    lw    t5, 0(a0)
    add   t5, t5, t4
    sw    t3, 0(t5)
    slli  t4, s4, 2
    lw    t5, 8(a0)
    add   t5, t5, t4
    sw    s2, 0(t5)                     # info[bx] = local memory address
    .insn r 0x0b, 4, 0, x0, s3, s1      # bar: nobody leaves (freeing the memory) early
    ret

# order (one-warp cores, so CTAs run one after another): lane 0 takes a ticket from hits[0]
# and stores it in out[by * gdx + bx]; info[...] = the cluster size.
    .globl order
order:
    csrr  t0, 0xCC0
    bnez  t0, order_done
    lw    t1, 4(a0)
    li    t2, 1
    amoadd.w t3, t2, (t1)               # t3 = ticket
    csrr  t4, 0xCD6
    csrr  t5, 0xCD7
    csrr  t6, 0xCDC
    mul   t5, t5, t6
    add   t4, t4, t5
    slli  t4, t4, 2
    lw    t1, 0(a0)
    add   t1, t1, t4
    sw    t3, 0(t1)
    csrr  t5, 0xCE0
    lw    t1, 8(a0)
    add   t1, t1, t4
    sw    t5, 0(t1)
order_done:
    ret

# forever: never returns (for wait time limits).
    .globl forever
forever:
    j     forever

# DXA copy-engine test program (crates/simt/tests/vortex_dxa.rs), in the shape of Vortex
# v3.0's KMU start-up code (see kmu.s) and of vx_dxa.h's issue sequence: a CTA of one warp
# announces one transaction on its barrier (expect_tx), issues one tile copy into its local
# memory (operands spread over lanes 0-3 with wgather), waits at the barrier, then copies its
# local memory out. In a cluster (K > 1) the K CTAs meet at a group barrier first and only
# rank 0 (cta_id mod K) issues, multicast to all K (mask = 2^K - 1).
#
# Argument block (a0): [0] out, [1] tile0, [2] tile1, [3] words to copy out per CTA,
# [4] K (cluster size), [5] descriptor slot, [6] grid x.
# CTA (bx, by) copies the tile at element (bx / K * tile0, by * tile1) and writes its local
# memory to out + ((by * grid_x + bx) * words) * 4.
    .text
    .globl _start
_start:
    li    sp, 0xFFFF0000
    csrr  t0, mhartid
    slli  t1, t0, 13
    sub   sp, sp, t1
window:
    csrr  s11, 0xCE1                    # cta_entry
    csrr  a0, mscratch                  # kernel arguments
    jalr  ra, 0(s11)
    wsync
    tmc   x0

    .globl tile
tile:
    csrr  s0, 0xCD0                     # cta_id: the CTA's barrier slot (raw id, number 0)
    csrr  s1, 0xCDF                     # lmem_addr
    csrr  s2, 0xCD6                     # block x
    csrr  s3, 0xCD7                     # block y
    lw    t0, 4(a0)                     # tile0
    lw    t1, 8(a0)                     # tile1
    lw    s4, 16(a0)                    # K
    lw    t2, 20(a0)                    # descriptor slot
    divu  t3, s2, s4
    mul   t3, t3, t0                    # coord0
    mul   t4, s3, t1                    # coord1
    li    t5, 0x80000001
    bar.arrive t6, s0, t5               # expect_tx(1) on the CTA's own barrier
    li    s5, 0                         # CTA mask: none (a plain copy)
    li    t5, 1
    beq   s4, t5, issue
    li    t6, 0x100                     # group barrier: number 1 of slot 0
    bar   t6, s4                        # the K members meet
    remu  t5, s0, s4                    # cluster rank
    bnez  t5, wait
    li    t5, 1
    sll   t5, t5, s4
    addi  s5, t5, -1                    # multicast to all K
issue:
    slli  t5, s0, 4
    or    t5, t5, t2                    # meta = raw barrier id << 4 | slot
    mv    a1, s1                        # lane 0: smem
    wgather a1, t5, t3, t4, 0           # lanes 1-3: meta, coord0, coord1
    li    a2, 0                         # lane 0: coord2
    wgather a2, zero, zero, s5, 0       # lanes 1-3: coord3, coord4, CTA mask
    dxa.issue a1, a2
wait:
    li    t5, 1
    bar   s0, t5                        # wait for the copy (and the CTA's one warp)
    lw    t1, 12(a0)                    # words
    lw    t2, 24(a0)                    # grid x
    mul   t3, s3, t2
    add   t3, t3, s2
    mul   t3, t3, t1
    slli  t3, t3, 2
    lw    t4, 0(a0)
    add   t4, t4, t3                    # this CTA's output
    csrr  t0, 0xCC0                     # lane
copy:
    bge   t0, t1, done
    slli  t5, t0, 2
    add   t6, s1, t5
    lw    t6, 0(t6)
    add   a3, t4, t5
    sw    t6, 0(a3)
    addi  t0, t0, 4
    j     copy
done:
    ret

# A cross-warp read of warp_done must not clear it; a local read does.
    .text
    .globl _start
_start:
    la t0, worker
    csrw spawn_pc, t0
    li t0, 2
    csrw warp_active, t0    # start warp 1, which halts at once
    li t0, 1
    csrw xwarp, t0          # observe warp 1's view through the window
    li s3, 0                # number of remote polls
spin:
    addi s3, s3, 1
    csrr t1, xw_warp_done   # no side effect
    andi t1, t1, 2
    beqz t1, spin
    csrr t1, xw_warp_done   # again: still set
    csrr t2, warp_done      # local read: sees bit 1, then clears
    csrr t3, warp_done      # now 0
    la t0, res
    sw t1, 0(t0)
    sw t2, 4(t0)
    sw t3, 8(t0)
    sw s3, 12(t0)
    li t0, 0xffffff04
    sw zero, 0(t0)
worker:
    csrw tmask, zero
    .data
res: .zero 16

# A warp writing its own bit of warp_active restarts at spawn_pc with every lane active and
# spawn_args in a0; nothing after the write executes.
    .text
    .globl _start
_start:
    la t0, restart
    csrw spawn_pc, t0
    li t0, 7
    csrw spawn_args, t0
    li a1, 1
    csrw warp_active, a1    # own bit: restart
    la t0, marker
    li t1, 99
    sw t1, 0(t0)            # must never run
    csrw tmask, zero
restart:
    csrr s0, thread_id
    la s1, out
    slli t3, s0, 2
    add s1, s1, t3
    sw a0, 0(s1)
    csrr t5, thread_mask
    la t6, mask_out
    sw t5, 0(t6)
    li t0, 0xffffff04
    sw zero, 0(t0)
    .data
out:      .zero 128
mask_out: .word 0
marker:   .word 0

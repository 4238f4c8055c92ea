# Hand-written divergence: lanes with an odd id run first, the others wait at `evens`.
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    andi a1, s0, 1
D:  diverge a1, evens
    li a0, 1000             # odd lanes
    j join
evens:
    li a0, 2000             # even lanes
join:
    converge D
    add a0, a0, s0
    la s1, out
    slli t3, s0, 2
    add s1, s1, t3
    sw a0, 0(s1)
    csrr t5, thread_mask
    la t6, mask_out
    sw t5, 0(t6)
    csrw tmask, zero
    .data
out:      .zero 128
mask_out: .word 0

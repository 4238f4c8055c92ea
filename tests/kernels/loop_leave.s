# A loop that lanes leave one per iteration: lane t runs t+1 iterations summing i*i.
# The back-edge branch diverges every iteration; the stack must stay at depth 1.
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    li a0, 0                # sum
    li t1, 0                # i
loop:
    mul t2, t1, t1
    add a0, a0, t2
    addi t1, t1, 1
back:
    ble t1, s0, loop        # backward: staying lanes go first
    converge back
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

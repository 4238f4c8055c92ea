# The same nested if/else as nested_if.s with no converge instructions: correct results
# need reconvergence from the post-dominator table.
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    la s1, out
    slli t1, s0, 2
    add s1, s1, t1
    andi t2, s0, 1
    beqz t2, else_a
    andi t3, s0, 2
    beqz t3, else_b
    li a0, 10
    j end_b
else_b:
    li a0, 20
end_b:
    j end_a
else_a:
    li a0, 30
    li t4, 4
    blt s0, t4, end_a
    addi a0, a0, 5
end_a:
    add a0, a0, s0
    sw a0, 0(s1)
    csrr t5, thread_mask
    la t6, mask_out
    sw t5, 0(t6)
    csrw tmask, zero
    .data
out:      .zero 128
mask_out: .word 0

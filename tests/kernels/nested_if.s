# Nested if/else with explicit converge instructions.
# Per lane: r = odd ? (tid&2 ? 10 : 20) : (30 + (tid >= 4 ? 5 : 0)); out[tid] = r + tid.
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0          # all lanes
    csrr s0, thread_id
    la s1, out
    slli t1, s0, 2
    add s1, s1, t1
    andi t2, s0, 1
A:  beqz t2, else_a
    andi t3, s0, 2
B:  beqz t3, else_b
    li a0, 10
    j end_b
else_b:
    li a0, 20
end_b:
    converge B
    j end_a
else_a:
    li a0, 30
    li t4, 4
C:  blt s0, t4, end_c
    addi a0, a0, 5
end_c:
    converge C
end_a:
    converge A
    add a0, a0, s0
    sw a0, 0(s1)
    csrr t5, thread_mask
    la t6, mask_out
    sw t5, 0(t6)
    csrw tmask, zero
    .data
out:      .zero 128
mask_out: .word 0

# Early exits from a called function: f(x) returns early for x < 3, otherwise loops.
# f(x) = x < 3 ? x * 7 : sum_{k=0}^{x} k. No converge instructions (table mode, AtExit).
    .text
    .globl _start
    .type _start, @function
_start:
    li t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    li sp, 0x80100000
    slli t0, s0, 8
    sub sp, sp, t0
    mv a0, s0
    call f
    la s1, out
    slli t3, s0, 2
    add s1, s1, t3
    sw a0, 0(s1)
    csrr t5, thread_mask
    la t6, mask_out
    sw t5, 0(t6)
    csrw tmask, zero
    .size _start, .-_start

    .globl f
    .type f, @function
f:
    li t1, 3
    bge a0, t1, 1f
    li t2, 7
    mul a0, a0, t2
    ret
1:  li t2, 0
    li t3, 0
2:  add t2, t2, t3
    addi t3, t3, 1
    ble t3, a0, 2b
    mv a0, t2
    ret
    .size f, .-f
    .data
out:      .zero 128
mask_out: .word 0

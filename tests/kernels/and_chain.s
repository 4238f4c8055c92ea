# An && chain: if (tid > 1 && tid < 6 && (tid & 1) == 0) r = 100 + tid else r = tid.
# Three branches share one post-dominator; no converge instructions (table mode).
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    mv a0, s0
    li t1, 1
    ble s0, t1, done
    li t1, 6
    bge s0, t1, done
    andi t2, s0, 1
    bnez t2, done
    addi a0, s0, 100
done:
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

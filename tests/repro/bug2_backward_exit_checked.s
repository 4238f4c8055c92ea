# bug2_backward_exit with a check: a loop whose exit branch is backward (the
# exit block is laid out above the loop). Lane l runs l + 1 iterations and leaves with a0 = l.
# Each lane prints '.' if its a0 is right, 'X' if not. Under table reconvergence the loop uses
# one divergence stack entry at every lane count (max divergence depth 1).
    .text
    .globl _start
_start:
    li   t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    li   a0, 0
    j    loop
done:                       # the loop exit, above the loop
    xor  t4, a0, s0         # 0 when right
    snez t4, t4
    li   t5, 0x58 - 0x2e
    mul  t4, t4, t5
    addi t4, t4, 0x2e       # '.' or 'X'
    li   t6, 0xffffff00
    sw   t4, 0(t6)
    csrw tmask, zero
latch:
    beq  a0, s0, done       # backward exit branch: its post-dominator is done
    addi a0, a0, 1
loop:
    j    latch

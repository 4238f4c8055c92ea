# bug2b_exit_fallthrough with a check: a forward loop-exit branch whose
# fall-through is the exit path. Lane l leaves in iteration l with a0 = 100 + l.
# Each lane prints '.' if its a0 is right, 'X' if not; one stack entry under the table.
    .text
    .globl _start
_start:
    li   t0, -1
    csrw tmask, t0
    csrr s0, thread_id      # lane l leaves in iteration l
    li   t1, 0
    li   t5, 64
loop:
    beq  t1, t5, done       # a second way out of the loop (never taken here)
    bne  t1, s0, cont       # post-dominator = done; the fall-through (exit path) runs first
    li   a0, 100
    j    done
cont:
    addi t1, t1, 1
    j    loop
done:
    add  a0, a0, t1
    addi t3, s0, 100
    xor  t4, a0, t3
    snez t4, t4
    li   t5, 0x58 - 0x2e
    mul  t4, t4, t5
    addi t4, t4, 0x2e
    li   t6, 0xffffff00
    sw   t4, 0(t6)
    csrw tmask, zero

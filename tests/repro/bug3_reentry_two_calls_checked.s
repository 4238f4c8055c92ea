# bug3_reentry_two_calls with a check: one loop function called twice from
# the same caller at the same depth. The loop branch in the second call must not join the
# entry of the first call. f(n) returns with t1 = n + 1; after the two calls lane l has
# s1 = (l & 2) + 1 and t1 = l + 1. Each lane prints '.' if both are right, 'X' if not.
    .text
    .globl _start
_start:
    li   t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    andi a0, s0, 2
    call f                  # 1st activation: lanes 2,3 loop longer, lanes 0,1 wait
    mv   s1, t1
    mv   a0, s0
    call f                  # 2nd activation
    andi t2, s0, 2
    addi t2, t2, 1
    xor  t2, t2, s1
    addi t3, s0, 1
    xor  t3, t3, t1
    or   t4, t2, t3
    snez t4, t4
    li   t5, 0x58 - 0x2e
    mul  t4, t4, t5
    addi t4, t4, 0x2e
    li   t6, 0xffffff00
    sw   t4, 0(t6)
    csrw tmask, zero
    .globl f
    .type f, @function
f:
    li   t1, 0
1:  addi t1, t1, 1
    ble  t1, a0, 1b         # backward: looping lanes first, leavers wait at pc+4
    ret
    .size f, . - f

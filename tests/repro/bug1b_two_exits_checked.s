# Reconvergence at a function's exit with no tail call: a leaf with three returns, whose two
# divergent branches both reconverge at the exit. When the inner entry pops at a return, the
# outer one must not stay behind for a later, unrelated return at the same call depth (k's)
# to close: that would resume the lanes parked in k at f's return address, and they would run
# `call k` again. Lanes 0-2 run; lane l computes f(l) * 10 + (calls of k), with f(0) = 4,
# f(1) = 6, f(2) = 5, and prints '.' if that is right, 'X' if not.
    .text
    .globl _start
_start:
    li   t0, 7
    csrw tmask, t0          # lanes 0, 1, 2
    csrr s3, thread_id
    li   s4, 0              # calls of k
    mv   a0, s3
    call f
    li   t1, 10
    mul  s5, a0, t1
    call k
    add  s5, s5, s4
    la   t2, want
    slli t3, s3, 2
    add  t2, t2, t3
    lw   t4, 0(t2)
    sub  t4, t4, s5
    snez t4, t4             # 1 if wrong
    li   t5, 'X' - '.'
    mul  t4, t4, t5
    addi t4, t4, '.'
    li   t6, 0xffffff00
    sw   t4, 0(t6)          # one character per lane, in lane order
    csrw tmask, zero
    .globl f
    .type f, @function
f:
    beqz a0, 2f
    addi a0, a0, -1
    beqz a0, 1f
    li   a0, 5
    ret
1:  li   a0, 6
    ret
2:  li   a0, 4
    ret
    .size f, . - f
    .globl k
    .type k, @function
k:
    addi s4, s4, 1
    ret
    .size k, . - k
    .data
want: .word 41, 61, 51

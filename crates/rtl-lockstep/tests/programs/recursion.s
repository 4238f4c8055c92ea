# Recursion that diverges: fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2), lane l computing
# fib(l) on its own stack (256 bytes per lane). The `n < 2` branch splits every activation's
# lanes; the early return sits in divergent code, so each activation's region closes at its
# `ret` (table mode: the point is the return itself) and the groups go back into their own
# activations: a group resumes in the activation (and call chain) of its entry. Calls nest
# up to 7 deep at 8 lanes. Each lane stores fib(l).
    .text
    .globl _start
_start:
    li   t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    la   sp, stacks_end
    slli t1, s0, 8
    sub  sp, sp, t1
    mv   a0, s0
    call fib
    la   t2, out
    slli t3, s0, 2
    add  t2, t2, t3
    sw   a0, 0(t2)
    csrw tmask, zero

    .globl fib
    .type fib, @function
fib:
    li   t0, 2
    blt  a0, t0, 1f         # n < 2: return n
    addi sp, sp, -12
    sw   ra, 0(sp)
    sw   a0, 4(sp)
    addi a0, a0, -1
    call fib
    sw   a0, 8(sp)
    lw   a0, 4(sp)
    addi a0, a0, -2
    call fib
    lw   t1, 8(sp)
    add  a0, a0, t1
    lw   ra, 0(sp)
    addi sp, sp, 12
1:  ret
    .size fib, . - fib

    .data
out: .zero 128
stacks: .zero 2048
stacks_end:

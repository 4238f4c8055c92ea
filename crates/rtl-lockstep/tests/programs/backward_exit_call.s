# A loop whose exit branch is backward (docs/isa.md §6.7), inside a function called by every
# lane: `steps(n)` counts Collatz steps down to n < 2, with its exit block laid out above the
# loop, and an if/else in the loop body (n odd: 3n + 1, else n / 2). Table mode: the exit
# branch's point is the exit block, so the leaving lanes run first and park there at once,
# one entry for every iteration. Lane l computes steps(l + 2) (1 to 16 iterations) and
# stores it.
    .text
    .globl _start
_start:
    li   t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    addi a0, s0, 2
    call steps
    la   t2, out
    slli t3, s0, 2
    add  t2, t2, t3
    sw   a0, 0(t2)
    csrw tmask, zero

    .globl steps
    .type steps, @function
steps:
    li   t0, 0
    j    2f
1:  mv   a0, t0             # the exit block, above the loop
    ret
2:  li   t1, 2
    blt  a0, t1, 1b         # the backward exit branch
    andi t2, a0, 1
    beqz t2, 3f
    slli t3, a0, 1          # odd: 3n + 1
    add  a0, a0, t3
    addi a0, a0, 1
    j    4f
3:  srli a0, a0, 1          # even: n / 2
4:  addi t0, t0, 1
    j    2b
    .size steps, . - steps

    .data
out: .zero 128

# diverge with a predicate that is zero in every active lane: fault DIVERGE_EMPTY (9).
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    li a0, 0
    diverge a0, later
    nop
later:
    csrw tmask, zero

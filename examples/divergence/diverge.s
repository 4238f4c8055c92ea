# Hand-written divergence with `diverge`, then a `diverge` whose predicate is zero in every
# active lane: the warp faults with DIVERGE_EMPTY (code 9), exit status 137.
# docs/isa.md traces this program with --lanes 4 (the default reconvergence mode: diverge
# entries are closed only by converge in every mode).
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    andi a1, s0, 1
D:  diverge a1, evens       # lanes with a1 != 0 continue; the others wait at evens
    li a0, 1                # odd lanes
    j join
evens:
    li a0, 2                # even lanes
join:
    converge D
    li a2, 0
    diverge a2, never       # no active lane has a2 != 0: fault
never:
    csrw tmask, zero

# A warp stopped at its breakpoint with nobody left to release it: the run ends as a deadlock.
    .text
    .globl _start
_start:
    la t0, stop
    csrw break_pc, t0
    nop
stop:
    nop
    csrw tmask, zero

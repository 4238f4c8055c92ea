# Writable counters (docs/isa.md §8.5): a write of mcycle or minstret (or a high half) is seen
# by the next instruction, the writing one not counted; cycle and instret read the same
# counters, cycle_lo and the watchdog keep counting the plain cycle.
    .text
    .globl _start
_start:
    li   t0, 1000
    csrw mcycle, t0
    csrr a0, mcycle          # 1001
    csrr a1, cycle
    csrr a2, cycle_lo        # the plain cycle
    li   t0, 7
    csrw mcycleh, t0
    csrr a3, cycleh
    csrr a4, mcycle
    li   t0, 50
    csrw minstret, t0
    csrr a5, minstret        # 50
    csrr a6, instret         # 51
    li   t0, 3
    csrrw a7, minstreth, t0
    csrr s1, instreth
    csrr s2, minstret
    csrsi mcycle, 1
    csrr s3, mcycle
    csrw tmask, zero

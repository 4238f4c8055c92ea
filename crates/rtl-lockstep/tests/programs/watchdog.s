# The watchdog (docs/isa.md §4.5) and the cycle counters (§4.7). SOFT mode with a limit of 20
# cycles: a loop that outlives it sets the sticky expired bit; a write clears it (a kick).
# cycle_lo latches cycle_hi, xw_cycle_lo does not, cycle/cycleh read the same counter. Then
# HARD mode with a limit of 12: the loop faults with WATCHDOG (7).
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    li t0, 20
    csrw watchdog_limit, t0
    li t0, 2
    csrw watchdog, t0        # SOFT, kick
    li t1, 30
1:  addi t1, t1, -1
    csrr a0, watchdog        # 2 until the limit passes, then 0x80000002
    bnez t1, 1b
    csrr a1, xw_watchdog     # xwarp = 0: this warp's
    li t0, 2
    csrw watchdog, t0        # kick: clears the expired bit
    csrr a2, watchdog
    csrr a3, cycle_lo
    csrr a4, cycle_hi
    csrr a5, cycle
    csrr a6, cycleh
    csrr a7, xw_cycle_lo
    csrr s1, xw_cycle_hi
    csrr s2, instret
    csrr s3, watchdog_limit
    li t0, 3
    csrw watchdog, t0        # mode 3 acts as disabled
    li t1, 40
2:  addi t1, t1, -1
    bnez t1, 2b
    csrr a0, watchdog
    li t0, 12
    csrw watchdog_limit, t0
    li t0, 1
    csrw watchdog, t0        # HARD
3:  j 3b                     # WATCHDOG after 12 cycles

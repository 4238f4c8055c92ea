# The WATCHDOG fault message states the real interval since the last kick. The kick (the
# write to watchdog) is at cycle 3 with a limit of 4: the first cycle more than 4 cycles after
# it is cycle 8. Expected: exit 128 + 7 and "no watchdog write for 5 cycles (limit 4)".
    .text
    .globl _start
_start:
    li a0, 4
    csrw watchdog_limit, a0
    li a0, 1
    csrw watchdog, a0         # cycle 3: kick, mode HARD
    nop
    nop
    nop
    nop
    nop                       # cycle 8: WATCHDOG
    nop
    nop
    li a1, 0xffffff04
    sw zero, 0(a1)

# vx_lost.s: a group halts (tmc x0) while the other lanes of its split wait for their turn:
# LANES_LOST (16). Before that, a group halting after its split has fallen through is fine.
    .text
    .globl _start
_start:
    li      t0, -1
    tmc     t0
    csrr    s0, thread_id
    andi    s1, s0, 1
    split   t1, s1, zero
    join    t1                  # the other group runs from the split
    join    t1                  # both ran: the entry pops
    sltiu   s1, s0, 2
    split   t1, s1, zero        # lanes 0, 1 run; the rest wait
    tmc     zero

# SOFT watchdog with mtvec set and mie bit 16: the expiry traps to mtvec (mcause 0x80000010,
# mepc = the pc about to issue); the handler kicks the watchdog, counts, and returns with mret.
# Other warps run meanwhile: the expiry is measured in the core's cycles (issue slots).
    .text
    .globl _start
_start:
    la t0, worker
    csrw spawn_pc, t0
    li t0, 3
    csrw warp_active, t0     # warps 0 and 1, every lane
worker:
    csrr s0, warp_id
    la t0, handler
    csrw mtvec, t0
    li t0, 0x10000
    csrw mie, t0
    li t0, 25
    csrw watchdog_limit, t0
    li t0, 2
    csrw watchdog, t0
    li s1, 0                 # traps taken
    li t1, 60
1:  addi t1, t1, -1
    bnez t1, 1b
    csrr a0, mie
    csrr a1, mip
    csrw tmask, zero
handler:
    csrr a2, mcause
    csrr a3, mepc
    csrr a4, watchdog
    addi s1, s1, 1
    li t0, 2
    csrw watchdog, t0        # kick, clear expired
    mret

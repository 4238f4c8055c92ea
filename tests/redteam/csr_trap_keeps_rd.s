# A CSR instruction that traps must not write rd (traps are precise). Selecting warp 12 through
# xwarp on a 4-warp machine is ILLEGAL_INSTRUCTION; with mtvec set it becomes a trap whose
# handler skips the instruction. Expected exit status: 0x2a (a2 kept its value).
    .text
    .globl _start
_start:
    la a0, on_trap
    csrw mtvec, a0
    li a2, 0x2a
    li a1, 12
    csrrw a2, xwarp, a1       # traps: a2 must still be 0x2a afterwards
    li a3, 0xffffff04
    sw a2, 0(a3)
on_trap:
    csrr a4, mepc
    addi a4, a4, 4
    csrw mepc, a4
    mret

# On an illegal-instruction trap, mtval holds 0 or the instruction's bits, never its pc.
# Expected exit status: 0 (1 would mean mtval held the pc of the bad word).
    .text
    .globl _start
_start:
    la a0, on_trap
    csrw mtvec, a0
    li s1, 0
bad_word:
    .word 0xffffffff          # does not decode: trap with mcause 2
    li a1, 0xffffff04
    sw s1, 0(a1)
on_trap:
    csrr a2, mtval
    la a3, bad_word
    xor a2, a2, a3
    seqz s1, a2               # s1 = 1 if mtval was the pc
    csrr a2, mepc
    addi a2, a2, 4
    csrw mepc, a2
    mret

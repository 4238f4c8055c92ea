# FENCE and FENCE.I ignore their reserved fields (rd, rs1, unknown fm, the FENCE.I immediate),
# as the RISC-V specification requires of base implementations. Expected exit status: 0.
    .text
    .globl _start
_start:
    .word 0x0000030f          # fence with rd = x6
    .word 0x0003800f          # fence with rs1 = x7
    .word 0x3000000f          # fence with fm = 0011 (reserved: acts as a normal fence)
    .word 0x0070100f          # fence.i with imm = 7
    .word 0xfff0100f          # fence.i with imm = 0xfff
    li a0, 0xffffff04
    sw zero, 0(a0)

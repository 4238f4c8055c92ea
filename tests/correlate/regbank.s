# regbank.s: every warp, 32 adds per pass whose two sources sit in the same register bank (x7 and x31: index mod 4 equal): the operand collector's bank conflicts (compare alu_ind).
    .data
bench_warps: .word 0
    .text
    .globl bench
bench:
    li      s0, 200
1:
    add     t3, t2, t6
    add     t4, t2, t6
    add     t5, t2, t6
    add     t6, t2, t6
    add     a2, t2, t6
    add     a3, t2, t6
    add     a4, t2, t6
    add     a5, t2, t6
    add     t3, t2, t6
    add     t4, t2, t6
    add     t5, t2, t6
    add     t6, t2, t6
    add     a2, t2, t6
    add     a3, t2, t6
    add     a4, t2, t6
    add     a5, t2, t6
    add     t3, t2, t6
    add     t4, t2, t6
    add     t5, t2, t6
    add     t6, t2, t6
    add     a2, t2, t6
    add     a3, t2, t6
    add     a4, t2, t6
    add     a5, t2, t6
    add     t3, t2, t6
    add     t4, t2, t6
    add     t5, t2, t6
    add     t6, t2, t6
    add     a2, t2, t6
    add     a3, t2, t6
    add     a4, t2, t6
    add     a5, t2, t6
    addi    s0, s0, -1
    bnez    s0, 1b
    ret

# functions.s: calls, recursion, stack frames, jump tables, numeric labels.
    .text
    .globl _start
    .type _start, @function
_start:
    li      sp, 0x80100000
    li      a0, 10
    call    fib
    mv      s0, a0
    la      t0, table
    lw      t1, 4(t0)
    jalr    t1
    li      t0, 0xFFFFFF04
    sw      s0, 0(t0)
1:  j       1b

    .type fib, @function
fib:
    addi    sp, sp, -16
    sw      ra, 12(sp)
    sw      s0, 8(sp)
    sw      s1, 4(sp)
    mv      s0, a0
    li      t0, 2
    blt     s0, t0, 2f
    addi    a0, s0, -1
    call    fib
    mv      s1, a0
    addi    a0, s0, -2
    call    fib
    add     a0, a0, s1
    j       3f
2:  mv      a0, s0
3:  lw      ra, 12(sp)
    lw      s0, 8(sp)
    lw      s1, 4(sp)
    addi    sp, sp, 16
    ret
    .size fib, . - fib

case0:  li a0, 0
        ret
case1:  li a0, 1
        jr ra
    .section .rodata
    .align 2
table:  .word case0, case1
    .section .sdata, "aw"
1:  .word 1b, 1f
1:  .word 2

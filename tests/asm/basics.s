# basics.s: loops, data, strings, %hi/%lo, local labels, pseudo-instructions.
    .text
    .globl _start
    .type _start, @function
_start:
    la      sp, stack_top
    li      a0, 0
    li      a1, 10
1:  addi    a0, a0, 1          // count up
    blt     a0, a1, 1b
    lui     t0, %hi(message)
    addi    t0, t0, %lo(message)
    call    print
    li      t1, 0x12345678
    li      t2, -1
    li      t3, 0x80000000
    lw      a2, counter
    sw      a2, counter, t4
    csrr    a3, thread_id
    csrw    mscratch, a3
    beqz    a0, 2f
    bnez    a0, 2f
2:  j       done
    .size _start, . - _start

    .type print, @function
print:
    lbu     a1, 0(t0)
    beqz    a1, 3f
    li      a2, 0xFFFFFF00
    sb      a1, 0(a2)
    addi    t0, t0, 1
    j       print
3:  ret

done:
    li      a0, 0xFFFFFF04
    sw      zero, 0(a0)
    tail    _start

    .section .rodata
message: .asciz "hello, weft\n"
    .align 2
table:  .word 1, 2, 3, table, message - table
        .half 0x1234, -2
        .byte 'a', '\n', 0x7f

    .data
counter: .word 41
    .bss
    .align 4
stack: .zero 1024
stack_top:

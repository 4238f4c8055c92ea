# directives.s: every directive the assembler knows.
    .file "directives.s"
    .ident "weft test"
    .option push
    .option norvc
    .option relax
    .option pop
    .equ  COUNT, 4
    .set  STRIDE, COUNT * 4
    WIDTH = (STRIDE << 2) | 1
    .globl main
    .global helper
    .local  quiet
    .text
    .type main, @function
main:
    li      a0, COUNT
    li      a1, STRIDE + WIDTH
    la      a2, words
    lla     a3, bytes
    flw     fa0, pi, t0
    fsw     fa0, pi, t0
    .insn r 0x33, 0, 0, a0, a1, a2
    .insn i 0x13, 0, a0, a1, -5
    .insn i 0x03, 2, a0, 8(a1)
    .insn s 0x23, 2, a0, 12(a1)
    .insn b 0x63, 0, a0, a1, main
    .insn u 0x37, a0, 0x12345
    .insn j 0x6f, ra, helper
    .insn 0x00000013
    .p2align 4
helper:
quiet:
    auipc   t0, %pcrel_hi(words)
    lw      t1, %pcrel_lo(helper)(t0)
1:  addi    t1, t1, -1
    bnez    t1, 1b
    .balign 8
    ret
    .size main, helper - main
    .section .rodata
pi:     .float 3.14159, -0.5
        .double 2.5
words:  .word 0xdeadbeef, COUNT, . - words
        .4byte 7
        .2byte 0xffff
        .short -1
        .long 1
        .dword 0x0123456789abcdef
        .8byte -1
bytes:  .byte 1, 2, 3
        .ascii "ab", "c"
        .asciz "nul\tterminated\\"
        .string "also\x41\101"
        .zero 3
        .space 2, 0xaa
        .skip 1
        .fill 3, 2, 0x1234
        .align 3
        .org . + 4
    .section .mydata, "aw", @progbits
    .type tbl, @object
    .size tbl, 8
tbl:    .word 1, 2
    .section .weft.meta
    .byte 9
    .data
d:  .word COUNT
    .bss
b:  .skip 64

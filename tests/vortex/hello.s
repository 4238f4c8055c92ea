# hello.s: console ring output. Lane 0 prints a line; then all four lanes print one letter
# and a newline each, so every hart's ring gets its own line. Returns 0.
    .text
    .globl main
main:
    addi    sp, sp, -16
    sw      ra, 12(sp)
    la      a0, greeting
    call    puts
    li      t0, -1
    tmc     t0
    csrr    s1, thread_id
    addi    a0, s1, 65          # 'A' + thread id
    call    putchar
    li      a0, 10
    call    putchar
    li      t0, 1
    tmc     t0
    lw      ra, 12(sp)
    addi    sp, sp, 16
    li      a0, 0
    ret
    .section .rodata
greeting: .asciz "Hello from weft!\n"

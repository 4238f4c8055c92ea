# Hostile assembly: every line is wrong in some way.
    .text
_start: addi x32, x0, 1
    li a0, 0x1ffffffff
    lw a0, 4096(sp)
    .word 1 +
    beq a0, a1, nowhere
    .align 99
    fadd.s f0, f1, f2, bogus
    csrw no_such_csr, a0
    .org -4
"unterminated

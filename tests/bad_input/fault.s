# Lane 0 loads from an unmapped address: a memory fault with the address.
    .text
    .globl _start
_start:
    li t0, 0x10
    lw t1, 0(t0)

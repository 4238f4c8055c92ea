# Never ends: the cycle bound stops it.
    .text
    .globl _start
_start:
    j _start

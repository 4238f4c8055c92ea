# A shift by 64 or more is out of range: GNU as warns and gives 0, weft's assembler refuses it
# (it used to wrap the count modulo 64, so `1 << 64` silently became 1).
# Expected: `weft asm` exits 2 with "shift count out of range (64 is not between 0 and 63)".
    .text
    .globl _start
_start:
    li a0, 1 << 64
    li a1, 0xffffff04
    sw a0, 0(a1)

# Warp 0 waits at barrier 0 for two warps; no other warp ever comes.
    .text
    .globl _start
_start:
    li t0, 0x20000          # count 2 << 16 | barrier 0
    csrw barrier, t0
    li t0, 0xffffff04
    sw zero, 0(t0)

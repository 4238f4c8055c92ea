# vx_underflow.s: join with a token that is not the depth on an empty IPDOM stack:
# IPDOM_UNDERFLOW (13).
    .text
    .globl _start
_start:
    li      t0, 1
    join    t0

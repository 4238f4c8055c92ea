# With dram_tail.toml, DRAM ends at 0x80001000 inclusive: an aligned word access there runs
# three bytes off the end and must fault (STORE_FAULT, exit 128 + 4) naming the address.
    .text
    .globl _start
_start:
    li a0, 0x80001000
    li a1, 0x0badcafe
    sw a1, 0(a0)              # STORE_FAULT here
    lw a2, 0(a0)
    li a3, 0xffffff04
    sw a2, 0(a3)

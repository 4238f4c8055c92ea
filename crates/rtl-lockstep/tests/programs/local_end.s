# Shared memory ends at local_mem_base + 16 KiB: the last word is stored, the word after it
# is a STORE_FAULT (4) with the address.
    .text
    .globl _start
_start:
    csrr t0, local_mem_base
    li t1, 16384
    add t0, t0, t1
    li t2, 5
    sw t2, -4(t0)
    lw t3, -4(t0)
    sw t2, 0(t0)
    csrw tmask, zero

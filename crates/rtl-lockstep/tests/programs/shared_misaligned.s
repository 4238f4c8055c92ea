# Misaligned accesses to the banked shared memory: words and halfwords that cross into the
# next word (so into the next bank) are stored and loaded in two bank accesses; aligned reads
# show the bytes each part wrote. A word load across the window's last word runs off its end:
# LOAD_FAULT (3).
    .text
    .globl _start
_start:
    li   t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    csrr s1, local_mem_base
    li   t0, 12
    mul  t0, t0, s0
    add  s2, s1, t0          # s2: this lane's 12 bytes
    li   t1, 0x11223344
    add  t1, t1, s0
    sw   t1, 1(s2)           # bytes 1-4: across two words
    li   t2, 0xa5b6
    sh   t2, 7(s2)           # bytes 7-8: across two words
    sw   t1, 10(s2)          # bytes 10-13: into the next lane's area (lane order decides)
    lw   a0, 0(s2)
    lw   a1, 4(s2)
    lw   a2, 8(s2)
    lw   a3, 1(s2)
    lh   a4, 7(s2)
    lhu  a5, 7(s2)
    lw   a6, 3(s2)
    li   t0, 16382
    add  t0, s1, t0
    lw   a7, 0(t0)           # the window's last two bytes and two past it: LOAD_FAULT
    csrw tmask, zero

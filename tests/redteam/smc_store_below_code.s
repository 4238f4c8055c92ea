# Self-modifying code: a misaligned word store that starts below the code (in data placed just
# before .text) and overwrites bytes of the first code word must be seen by the next fetch of
# that word after fence.i. Expected exit status: 5 (g's first word becomes `li a0, 5`).
    .entry 0x80000018
    .section .data, "aw", @progbits
    .base 0x80000000
    .zero 16                  # 0x80000000..0x8000000f
    .section .text, "ax", @progbits
    .base 0x80000010
g:  li a0, 3                  # 0x80000010: 0x00300513
    ret
    .globl _start
_start:
    call g                    # a0 = 3: g's first word is decoded now
    li t0, 0x8000000e         # word store covering 0x8000000e..0x80000011
    li t1, 0x0513cccc         # bytes 0x80000010, 0x80000011 := 0x13, 0x05 (unchanged)
    sw t1, 0(t0)
    li t0, 0x8000000f         # word store covering 0x8000000f..0x80000012
    li t1, 0x500513cc         # byte 0x80000012 := 0x50: g's first word = 0x00500513 (li a0, 5)
    sw t1, 0(t0)
    fence.i
    call g                    # must return 5
    li t0, 0xffffff04
    sw a0, 0(t0)

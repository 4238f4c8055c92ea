# The display counters (docs/isa.md §4.6) follow the cycle counter: scanline is the line
# being scanned (800 cycles a line, 525 lines a frame), display_frames counts the vblanks
# (line 480 of each frame) while a warp is started. One warp, one lane, counts down for
# about 390 000 cycles, past the first vblank at cycle 384 000.
    .text
    .globl _start
_start:
    csrr a0, scanline
    csrr a1, display_frames
    li   t0, 195000
1:  addi t0, t0, -1
    bnez t0, 1b
    csrr a2, scanline
    csrr a3, display_frames
    csrr a4, cycle
    csrw tmask, zero

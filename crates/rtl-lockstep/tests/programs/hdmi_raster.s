# hdmi_raster.s -- racing the beam, for the board's HDMI tests (crates/rtl-lockstep/tests/hdmi.rs)
# on a 64 x 32 display (the tests' small video mode): one lane of warp 0 draws a 32 x 16
# RGBA8888 picture (each row shown on two lines) and, during each of FRAMES frames f, rewrites
# DISP_BASE before every row r is fetched so that it shows picture row (r + f) mod 16 (the
# picture scrolls up one row a frame, though memory never moves), and pokes a white pixel at
# column f of that picture row just before its fetch and puts the old one back right after it:
# the white diagonal exists only on the screen. Every write is made while the beam is on the
# line before the row's fetch (row r is fetched at the start of line 2r), so the picture does
# not depend on how fast the core is. Then two frames of a 37 x 22 RGB565 picture (rows that
# start at halfwords, pixels and rows spread unevenly over the display), and exit 0.
    .equ VIS_H, 32          # visible lines
    .equ W, 32              # RGBA8888 picture
    .equ H, 16
    .equ PITCH, 128
    .equ W2, 37             # RGB565 picture
    .equ H2, 22
    .equ FRAMES, 6
    .equ DISP, 0xffffff40   # base, width, height, format

    .text
    .globl _start
_start:
    la   s0, fb
    # the RGBA8888 picture: R = 8x, G = 16y, B = 0x40 (word 0xAABBGGRR)
    li   t0, 0
1:  li   t1, 0
2:  slli t2, t1, 3
    slli t3, t0, 12
    or   t2, t2, t3
    li   t3, 0x400000
    or   t2, t2, t3
    slli t4, t0, 5
    add  t4, t4, t1
    slli t4, t4, 2
    add  t4, t4, s0
    sw   t2, 0(t4)
    addi t1, t1, 1
    li   t5, W
    blt  t1, t5, 2b
    addi t0, t0, 1
    li   t5, H
    blt  t0, t5, 1b
    # the RGB565 picture: R = 7x mod 32, G = 5y mod 64, B = x + y mod 32
    la   s3, fb565
    li   t0, 0
3:  li   t1, 0
4:  li   t5, 7
    mul  t2, t1, t5
    andi t2, t2, 31
    slli t2, t2, 11
    li   t5, 5
    mul  t3, t0, t5
    andi t3, t3, 63
    slli t3, t3, 5
    or   t2, t2, t3
    add  t3, t0, t1
    andi t3, t3, 31
    or   t2, t2, t3
    li   t5, W2
    mul  t4, t0, t5
    add  t4, t4, t1
    slli t4, t4, 1
    add  t4, t4, s3
    sh   t2, 0(t4)
    addi t1, t1, 1
    blt  t1, t5, 4b
    addi t0, t0, 1
    li   t5, H2
    blt  t0, t5, 3b

    li   s1, DISP
    li   t0, W
    sw   t0, 4(s1)
    li   t0, H
    sw   t0, 8(s1)
    sw   s0, 0(s1)
    call wait_vblank
    li   t0, 1
    sw   t0, 12(s1)             # RGBA8888 from the next frame on
    li   s2, 0                  # the frame
frame:
    li   a0, 0
    call setup_row              # row 0, in vblank
    call wait_active            # line 0: row 0 is fetched
    li   s6, 1
5:  slli a0, s6, 1
    addi a0, a0, -1
    call wait_line              # the beam is on line 2r - 1: row r - 1 was fetched
    sw   s5, 0(s4)              # put its pixel back
    mv   a0, s6
    call setup_row
    addi s6, s6, 1
    li   t0, H
    blt  s6, t0, 5b
    li   a0, VIS_H - 1
    call wait_line
    sw   s5, 0(s4)
    call wait_vblank
    addi s2, s2, 1
    li   t0, FRAMES
    blt  s2, t0, frame

    # two frames of the RGB565 picture
    li   t0, W2
    sw   t0, 4(s1)
    li   t0, H2
    sw   t0, 8(s1)
    sw   s3, 0(s1)
    li   t0, 2
    sw   t0, 12(s1)
    li   s6, 2
6:  call wait_active
    call wait_vblank
    addi s6, s6, -1
    bnez s6, 6b
    # the last frame's last line has gone out too, then exit 0
    li   a0, VIS_H + 2
    call wait_line
    li   t0, 0xffffff04
    sw   zero, 0(t0)

# row a0 of frame s2 shows picture row (a0 + s2) mod H with a white pixel at column s2:
# DISP_BASE = fb + (source - row) * PITCH; the poked word's address and old value in s4, s5
setup_row:
    add  t0, a0, s2
    andi t0, t0, H - 1
    sub  t1, t0, a0
    slli t1, t1, 7
    add  t1, t1, s0
    sw   t1, 0(s1)
    slli t2, t0, 7
    andi t3, s2, W - 1
    slli t3, t3, 2
    add  t2, t2, t3
    add  s4, t2, s0
    lw   s5, 0(s4)
    li   t3, -1
    sw   t3, 0(s4)
    ret

wait_vblank:                    # until the beam is in vblank
    csrr t0, scanline
    li   t1, VIS_H
    blt  t0, t1, wait_vblank
    ret

wait_active:                    # until the beam is on a visible line
    csrr t0, scanline
    li   t1, VIS_H
    bge  t0, t1, wait_active
    ret

wait_line:                      # until the beam is on line a0 or later
    csrr t0, scanline
    blt  t0, a0, wait_line
    ret

    .bss
    .align 6
fb:     .zero W * H * 4
fb565:  .zero W2 * H2 * 2 + 2

# hdmi_chaos.s -- a picture that depends on the exact cycle of everything, for the board's
# HDMI test in model time (crates/rtl-lockstep/tests/hdmi.rs): all 32 lanes of 4 warps store,
# as fast as they can, words made of the beam's x position they just read (DISP_BEAM_X), the
# line (DISP_STATUS) and a counter into a 16 x 8 RGBA8888 framebuffer (lane l into row l, warp
# w into columns 4w..4w+3), and warp 0 flips DISP_BASE between that framebuffer and another
# every eighth round. Each row is fetched at one exact cycle, so any difference from the model
# in when a row is fetched, when a store lands, or what a device register reads shows up in
# the picture. Warp 0 ends the run (exit 0) once display_frames reaches 4 (three frames shown).
    .equ DISP, 0xffffff40

    .text
    .globl _start
_start:
    la   t0, worker
    csrw spawn_pc, t0
    li   t0, 0xe
    csrw warp_active, t0          # warps 1-3 start at worker
    li   s1, DISP
    li   t0, 16
    sw   t0, 4(s1)
    li   t0, 8
    sw   t0, 8(s1)
    la   t0, fba
    sw   t0, 0(s1)
    li   t0, 1
    sw   t0, 12(s1)               # on from the next frame
worker:
    li   t0, -1
    csrw tmask, t0                # every lane
    li   s1, DISP
    csrr s2, warp_id
    csrr s3, thread_id
    la   s4, fba
    la   s5, fbb
    slli t0, s3, 6                # row l: 16 words of 4 bytes
    slli t1, s2, 4                # columns 4w..
    add  t0, t0, t1
    add  s6, s4, t0               # this lane's first word
    li   s7, 0                    # the round
1:  lw   t0, 20(s1)               # DISP_BEAM_X
    lw   t1, 16(s1)               # DISP_STATUS: the line in 31:16
    srli t1, t1, 16
    slli t0, t0, 16
    slli t1, t1, 8
    or   t0, t0, t1
    or   t0, t0, s7
    andi t2, s7, 3
    slli t2, t2, 2
    add  t2, t2, s6
    sw   t0, 0(t2)
    addi s7, s7, 1
    bnez s2, 1b                   # warps 1-3: on and on
    andi t2, s7, 7
    bnez t2, 1b
    # warp 0, every eighth round: flip the base, and stop after 4 frames
    andi t2, s7, 8
    mv   t3, s4
    beqz t2, 2f
    mv   t3, s5
2:  sw   t3, 0(s1)
    csrr t0, display_frames
    li   t1, 4
    blt  t0, t1, 1b
3:  csrr t0, scanline             # the last frame's last line has gone out
    li   t1, 34
    blt  t0, t1, 3b
    li   t0, 0xffffff04
    sw   zero, 0(t0)

    .data
    .align 6
fba:    .zero 16 * 8 * 4
fbb:    .fill 16 * 8, 4, 0x00336699

# dma_race.s -- the DMA engine, for the board's DMA tests (crates/rtl-lockstep/tests/dma.rs).
# One lane of warp 0:
#  1. fills shared-memory words 0..63 and a DRAM buffer `src` with patterns;
#  2. makes five triggers the engine must refuse (a count of 5, a shared range past the 4096
#     words, a misaligned DRAM address, a DRAM range below DRAM, one past its end): each is a
#     STORE_FAULT, which the trap handler counts and steps over;
#  3. starts four slots: 16 words shared 0.. -> dst, 12 words src -> shared 32.., a slot of 0
#     words (its address need not be in DRAM), 5 words shared 32.. -> dst + 128 (what the
#     second slot brought in), and at once triggers again (refused: busy);
#  4. while the engine works, reads DMA_STATUS and words of dst into a log, and stores into
#     shared word 12, which the first slot may or may not have copied yet (a race: the result
#     depends on the exact cycle);
#  5. waits for the engine, then prints dst (48 words), shared 32..47, the refused triggers'
#     count and causes, a line "races:", and the log; exits 0.
    .equ DMA, 0xffffff80
    .equ SHARED, 0xff000000
    .equ CONSOLE, 0xffffff00

    .text
    .globl _start
_start:
    la   t0, trap
    csrw mtvec, t0
    li   s11, 0                 # refused triggers
    li   s10, 0                 # their causes, 4 bits each
    li   s0, SHARED
    la   s2, src
    la   s3, dst
    li   s1, DMA
    li   t0, 0
1:  li   t1, 0xa0000000
    add  t1, t1, t0
    slli t2, t0, 2
    add  t3, t2, s0
    sw   t1, 0(t3)
    li   t1, 0xb0000000
    add  t1, t1, t0
    add  t3, t2, s2
    sw   t1, 0(t3)
    addi t0, t0, 1
    li   t1, 64
    blt  t0, t1, 1b

    # refused triggers
    li   t0, 5
    sw   t0, 32(s1)             # a count of 5
    li   t0, (8 << 16) | 4090
    sw   t0, 0(s1)
    sw   s3, 4(s1)
    li   t0, 1
    sw   t0, 32(s1)             # shared words 4090..4097
    li   t0, 4 << 16
    sw   t0, 0(s1)
    addi t0, s3, 2
    sw   t0, 4(s1)
    li   t0, 1
    sw   t0, 32(s1)             # DRAM address not word-aligned
    li   t0, 0x7ffffff8
    sw   t0, 4(s1)
    li   t0, 1
    sw   t0, 32(s1)             # below DRAM
    li   t0, 0x81fffff8
    sw   t0, 4(s1)
    li   t0, 1
    sw   t0, 32(s1)             # past the 32 MB of DRAM

    # four slots
    li   t0, 16 << 16           # shared 0..15 -> dst
    sw   t0, 0(s1)
    sw   s3, 4(s1)
    li   t0, (1 << 31) | (12 << 16) | 32   # src -> shared 32..43
    sw   t0, 8(s1)
    sw   s2, 12(s1)
    li   t0, 0                  # nothing, from nowhere
    sw   t0, 16(s1)
    li   t0, 0x10
    sw   t0, 20(s1)
    li   t0, (5 << 16) | 32     # shared 32..36 -> dst + 128
    sw   t0, 24(s1)
    addi t0, s3, 128
    sw   t0, 28(s1)
    li   t0, 4
    sw   t0, 32(s1)
    sw   t0, 32(s1)             # busy: refused

    # races while it works
    la   s4, log
    li   s5, 0
2:  lw   t0, 32(s1)             # DMA_STATUS
    andi t1, s5, 15
    slli t1, t1, 2
    add  t1, t1, s3
    lw   t1, 0(t1)              # dst[i mod 16]
    sw   t0, 0(s4)
    sw   t1, 4(s4)
    addi s4, s4, 8
    li   t2, 6
    bne  s5, t2, 3f
    li   t2, 0x12345678
    sw   t2, 48(s0)             # shared word 12, the first slot's source
3:  addi s5, s5, 1
    li   t2, 24
    blt  s5, t2, 2b
4:  lw   t0, 32(s1)
    bnez t0, 4b

    # results
    mv   s4, s3
    li   s5, 48
5:  lw   a0, 0(s4)
    call hex
    addi s4, s4, 4
    addi s5, s5, -1
    bnez s5, 5b
    addi s4, s0, 128
    li   s5, 16
6:  lw   a0, 0(s4)
    call hex
    addi s4, s4, 4
    addi s5, s5, -1
    bnez s5, 6b
    mv   a0, s11
    call hex
    mv   a0, s10
    call hex
    la   a1, races
    call puts
    la   s4, log
    li   s5, 48
7:  lw   a0, 0(s4)
    call hex
    addi s4, s4, 4
    addi s5, s5, -1
    bnez s5, 7b
    li   t0, 0xffffff04
    sw   zero, 0(t0)

# the word a0 in hex and a newline, on the console
hex:
    li   t2, CONSOLE
    li   t3, 8
1:  srli t4, a0, 28
    li   t5, 10
    blt  t4, t5, 2f
    addi t4, t4, 'a' - 10 - '0'
2:  addi t4, t4, '0'
    sw   t4, 0(t2)
    slli a0, a0, 4
    addi t3, t3, -1
    bnez t3, 1b
    li   t4, '\n'
    sw   t4, 0(t2)
    ret

# the string at a1
puts:
    li   t2, CONSOLE
1:  lbu  t4, 0(a1)
    beqz t4, 2f
    sw   t4, 0(t2)
    addi a1, a1, 1
    j    1b
2:  ret

# a refused trigger: count it, keep its cause, go on after it
trap:
    addi s11, s11, 1
    csrr t6, mcause
    slli s10, s10, 4
    or   s10, s10, t6
    csrr t6, mepc
    addi t6, t6, 4
    csrw mepc, t6
    mret

    .data
races:  .asciz "races:\n"
    .align 4
src:    .zero 64 * 4
dst:    .zero 48 * 4
log:    .zero 48 * 4

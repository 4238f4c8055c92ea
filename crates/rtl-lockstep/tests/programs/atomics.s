# Lanes that share words: what rv32ua.s (one scratch area per lane) does not exercise.
# Every lane of warp 0 takes a reservation on the same word; sc.w runs lane by lane, so lane 0
# succeeds and its store breaks the other lanes' reservations (they fail, rd = 1). Then every
# lane adds its id to one counter (the lanes' amoadd.w serialize in lane order), a plain store
# by lane 3 breaks the reservations the others took again, sc.w with rd = x0 stores only where
# a reservation survived, a halfword store into the next word leaves a reservation alone, and
# a misaligned amoswap.w faults with AMO_MISALIGNED.
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    la s1, word
    lr.w a0, (s1)
    addi a1, s0, 100
    sc.w a2, a1, (s1)        # lane 0 stores 100, lanes 1.. fail
    lw a3, 0(s1)
    la s2, counter
    amoadd.w a4, s0, (s2)    # old values 0, 0+0, 0+1, ... in lane order
    amomax.w a5, a1, (s2)
    amominu.w a6, s0, (s2)
    lr.w a0, (s1)
    li t1, 3
    bne s0, t1, 1f
    sw s0, 0(s1)             # lane 3 only: breaks every lane's reservation on `word`
1:  sc.w a2, a1, (s1)        # every lane fails
    lr.w a0, (s2)
    sh s0, 4(s2)             # the next word: no reservation broken
    sc.w x0, a1, (s2)        # lane 0 succeeds (nothing printed: rd = x0), the rest fail
    lw a3, 0(s2)
    amoor.w a7, s0, (s2)
    addi s3, s2, 2
    amoswap.w a0, s0, (s3)   # AMO_MISALIGNED (fault 11)
    csrw tmask, zero
    .data
    .align 2
word:    .word 7
counter: .word 0
         .word 0

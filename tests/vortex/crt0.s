# crt0.s: a minimal start-up in Vortex v3.0's standalone conventions, written for weft's
# tests (prepended to every program in this directory). Warp 0 lane 0 starts here; it
# spawns the other warps (lane 0 only) into reg_init_all, widens itself to all lanes to set
# every lane's stack pointer (8 KiB per hart below 0xFFFF0000), narrows back to lane 0,
# calls main and stores main's return value to the exit word at 0x8348 before halting.
    .equ EXIT_WORD, 0x8348
    .equ COUT_BASE, 0x40
    .text
    .globl _start
_start:
    csrr    t0, num_warps
    la      t1, reg_init_all
    wspawn  t0, t1
    li      t0, -1
    tmc     t0
    jal     reg_init
    li      t0, 1
    tmc     t0
    call    main
    .globl _exit
_exit:
    li      t0, EXIT_WORD
    sw      a0, 0(t0)
    fence
    tmc     zero

# sp = 0xFFFF0000 - (mhartid << 13)
reg_init:
    li      sp, 0xFFFF0000
    csrr    t0, mhartid
    slli    t1, t0, 13
    sub     sp, sp, t1
    ret

# Spawned warps: every lane sets its stack, then the warp halts.
reg_init_all:
    li      t0, -1
    tmc     t0
    jal     reg_init
    tmc     zero

# putchar(a0): append a byte to this hart's console ring (slot = mhartid mod 64): the byte
# goes to data[slot][wr mod 512], then wr[slot] is bumped.
    .globl putchar
putchar:
    csrr    t0, mhartid
    andi    t0, t0, 63
    slli    t2, t0, 2
    li      t1, COUT_BASE
    add     t3, t1, t2          # &wr[slot]
    lw      t5, 0(t3)
    slli    a2, t0, 9
    add     a1, t1, a2
    addi    a1, a1, 512         # data area: after wr[64] and rd[64]
    andi    a2, t5, 511
    add     a1, a1, a2
    sb      a0, 0(a1)
    fence
    addi    t5, t5, 1
    sw      t5, 0(t3)
    ret

# puts(a0): print a NUL-terminated string (no newline added).
    .globl puts
puts:
    addi    sp, sp, -8
    sw      ra, 4(sp)
    sw      s0, 0(sp)
    mv      s0, a0
1:  lbu     a0, 0(s0)
    beqz    a0, 2f
    call    putchar
    addi    s0, s0, 1
    j       1b
2:  lw      ra, 4(sp)
    lw      s0, 0(sp)
    addi    sp, sp, 8
    ret

# A kernel in Vortex v3.0's standalone conventions, for `weft run --profile vortex`:
#
#   weft run --profile vortex examples/vortex/hello.s
#
# Warp 0 lane 0 starts at _start, spawns the core's other warps with `wspawn` (lane 0 each),
# and every warp widens itself to all its threads with `tmc`. Each thread sets its stack
# (8 KiB per hart below 0xFFFF0000) and prints one line through its console ring ("hart H:
# warp W thread T"), the form `#slot: text` Vortex's simulator prints. Warp 0 then waits at a
# barrier for the other warps, narrows to lane 0, prints a last line and stores main's result
# (0) to the exit word at 0x8348.
    .equ EXIT_WORD, 0x8348
    .equ COUT_BASE, 0x40
    .text
    .globl _start
_start:
    csrr    t0, num_warps
    la      t1, worker
    wspawn  t0, t1              # warps 1 .. num_warps-1 start at worker, lane 0 only
worker:
    li      t0, -1
    tmc     t0                  # every thread of the warp
    li      sp, 0xFFFF0000
    csrr    t0, mhartid
    slli    t0, t0, 13
    sub     sp, sp, t0
    call    greet
    csrr    t0, num_warps
    li      t1, 0
    bar     t1, t0              # barrier 0: every warp of the core
    csrr    t0, warp_id
    beqz    t0, finish
    tmc     zero                # warps other than 0 are done
finish:
    li      t0, 1
    tmc     t0                  # warp 0, lane 0 only
    la      a0, done
    call    puts
    li      t0, EXIT_WORD
    sw      zero, 0(t0)
    fence
    tmc     zero

# greet(): "hart H: warp W thread T\n" on this hart's ring.
greet:
    addi    sp, sp, -8
    sw      ra, 4(sp)
    la      a0, hart
    call    puts
    csrr    a0, mhartid
    call    putdec
    la      a0, warp
    call    puts
    csrr    a0, warp_id
    call    putdec
    la      a0, thread
    call    puts
    csrr    a0, thread_id
    call    putdec
    li      a0, 10
    call    putchar
    lw      ra, 4(sp)
    addi    sp, sp, 8
    ret

# putdec(a0): a number below 100 in decimal.
putdec:
    addi    sp, sp, -8
    sw      ra, 4(sp)
    sw      s0, 0(sp)
    li      t0, 10
    rem     s0, a0, t0
    div     a0, a0, t0
    beqz    a0, 1f
    addi    a0, a0, '0'
    call    putchar
1:  addi    a0, s0, '0'
    call    putchar
    lw      ra, 4(sp)
    lw      s0, 0(sp)
    addi    sp, sp, 8
    ret

# putchar(a0): append a byte to this hart's console ring (slot = mhartid mod 64): the byte
# goes to data[slot][wr[slot] mod 512], then wr[slot] is bumped (after a fence).
putchar:
    csrr    t0, mhartid
    andi    t0, t0, 63
    li      t1, COUT_BASE
    slli    t2, t0, 2
    add     t2, t1, t2          # &wr[slot]
    lw      t3, 0(t2)
    slli    t4, t0, 9
    add     t4, t4, t1
    addi    t4, t4, 512         # data[slot]: after wr[64] and rd[64]
    andi    t5, t3, 511
    add     t4, t4, t5
    sb      a0, 0(t4)
    fence
    addi    t3, t3, 1
    sw      t3, 0(t2)
    ret

# puts(a0): a NUL-terminated string.
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

    .section .rodata
hart:   .asciz "hart "
warp:   .asciz ": warp "
thread: .asciz " thread "
done:   .asciz "all warps said hello\n"

# spawn_wait.s: the software-spawn pattern of Vortex's vx_spawn_threads. Warp 0 writes the
# address of an argument block to mscratch (one per core in Vortex), spawns warps 1..3 at
# worker and then issues `wspawn 1, zero`, which waits until it is the only active warp.
# Each worker reads mscratch, spins for a while (longer for higher warp ids), then stores
# the value it read and a done flag. After the wait, main copies the flags to `seen`.
    .text
    .globl main
main:
    addi    sp, sp, -16
    sw      ra, 12(sp)
    la      t0, argblk
    csrw    mscratch, t0
    li      t0, 4
    la      t1, worker
    wspawn  t0, t1
    li      t0, 1
    wspawn  t0, zero
    la      t2, done
    la      t3, seen
    li      t4, 0
copy:
    slli    t5, t4, 2
    add     t6, t2, t5
    lw      t6, 0(t6)
    add     t5, t3, t5
    sw      t6, 0(t5)
    addi    t4, t4, 1
    li      t5, 4
    blt     t4, t5, copy
    lw      ra, 12(sp)
    addi    sp, sp, 16
    li      a0, 0
    ret
worker:
    csrr    t0, mscratch
    csrr    t1, warp_id
    slli    t2, t1, 8
spin:
    addi    t2, t2, -1
    bgez    t2, spin
    slli    t2, t1, 2
    la      t3, args
    add     t3, t3, t2
    sw      t0, 0(t3)
    lw      t4, 0(t0)
    la      t3, done
    add     t3, t3, t2
    sw      t4, 0(t3)
    tmc     zero
    .data
argblk:    .word 0x600d
args:      .zero 16
done:      .zero 16
seen:      .zero 16

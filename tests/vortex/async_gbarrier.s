# async_gbarrier.s: run with 2 cores of 2 warps. Every warp (lane 0) of each core arrives at
# global barrier 1 (id bit 31) for 2 cores without blocking, after warp 1 of core 1 has
# dawdled and set its flag; then each waits for the phase and reads the flags of all four
# warps into seen[core·2 + warp]. A core arrives once both its warps have.
    .text
    .globl main
main:
    addi    sp, sp, -16
    sw      ra, 12(sp)
    li      t0, 2
    la      t1, worker_entry
    wspawn  t0, t1
    call    work
    lw      ra, 12(sp)
    addi    sp, sp, 16
    li      a0, 0
    ret
worker_entry:
    call    work
    tmc     zero
work:
    csrr    s0, core_id
    csrr    t0, warp_id
    slli    s1, s0, 1
    add     s1, s1, t0                  # core·2 + warp
    slli    s1, s1, 2
    li      t1, 1
    bne     s0, t1, flag_it
    bne     t0, t1, flag_it
    li      t0, 200
dawdle:
    addi    t0, t0, -1
    bnez    t0, dawdle
flag_it:
    la      t2, flag
    add     t2, t2, s1
    li      t3, 1
    sw      t3, 0(t2)
    li      s2, 0x80000100              # global barrier 1
    csrr    s3, num_cores
    bar.arrive s4, s2, s3
    bar.arrive zero, s2, s4
    la      t2, flag
    lw      t3, 0(t2)
    lw      t4, 4(t2)
    add     t3, t3, t4
    lw      t4, 8(t2)
    add     t3, t3, t4
    lw      t4, 12(t2)
    add     t3, t3, t4
    la      t2, seen
    add     t2, t2, s1
    sw      t3, 0(t2)
    ret
    .data
flag:   .zero 16
seen:   .zero 16

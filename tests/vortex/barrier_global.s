# barrier_global.s: run with 2 cores. Warp 0 of each core writes its core id into its own
# shared memory (local_mem_base) and sets gflag[core]; a global barrier (id bit 31) for 2
# cores; then each core counts the flags and reads its shared word back.
    .text
    .globl main
main:
    csrr    t0, core_id
    csrr    t1, local_mem_base
    addi    t2, t0, 100
    sw      t2, 0(t1)
    slli    t3, t0, 2
    la      t4, gflag
    add     t4, t4, t3
    li      t5, 1
    sw      t5, 0(t4)
    li      t5, 0x80000000
    csrr    t6, num_cores
    bar     t5, t6
    la      t4, gflag
    lw      t5, 0(t4)
    lw      t6, 4(t4)
    add     t5, t5, t6
    la      t4, seen
    add     t4, t4, t3
    sw      t5, 0(t4)
    lw      t5, 0(t1)
    la      t4, shared
    add     t4, t4, t3
    sw      t5, 0(t4)
    li      a0, 0
    ret
    .data
gflag:  .zero 8
seen:   .zero 8
shared: .zero 8

# vx_spawn_fault.s: wspawn of more warps than the core has: SPAWN_FAULT (14), after a wspawn
# that fits.
    .text
    .globl _start
_start:
    csrr    t0, num_warps
    la      t1, idle
    wspawn  t0, t1
    addi    t0, t0, 1
    wspawn  t0, t1
idle:
    tmc     zero

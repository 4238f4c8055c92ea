# Shared memory (the core's banked local memory at local_mem_base) and barriers across warps.
# Every lane of every warp writes words, bytes and halfwords of its own, adds to a shared
# counter with amoadd.w, meets the other warps at barrier 1, reads what another warp's lane
# wrote, takes a reservation on a shared word (lane order decides whose sc.w wins), meets them
# again at barrier 3 (whose count is given as the number of warps), and halts.
    .text
    .globl _start
_start:
    la t0, worker
    csrw spawn_pc, t0
    li t0, -1
    csrw warp_active, t0     # start every warp with every lane; warp 0 restarts too
worker:
    csrr s0, warp_id
    csrr s1, thread_id
    csrr s2, num_threads
    csrr s3, local_mem_base
    csrr s4, num_warps
    mul s5, s0, s2
    add s5, s5, s1           # s5 = g, this lane's global index
    mul s6, s4, s2           # s6 = threads in the core
    slli t1, s5, 2
    add t1, s3, t1
    addi t2, s5, 1000
    sw t2, 0(t1)             # word[g] = g + 1000
    add t3, s3, s5
    addi t4, s5, -7
    sb t4, 1024(t3)          # byte[g] = g - 7
    slli t5, s5, 1
    add t5, s3, t5
    li t6, 0x8000
    or t6, t6, s5
    sh t6, 1536(t5)          # half[g] = 0x8000 | g
    li a0, 4000
    add a0, s3, a0           # the shared counter
    amoadd.w a1, s5, (a0)
    slli t0, s4, 16
    ori t0, t0, 1
    csrw barrier, t0         # barrier 1: every warp
    add t0, s5, s2
    remu t0, t0, s6          # the same lane of the next warp
    slli t1, t0, 2
    add t1, s3, t1
    lw a2, 0(t1)
    add t3, s3, t0
    lb a3, 1024(t3)
    lbu a4, 1024(t3)
    slli t5, t0, 1
    add t5, s3, t5
    lh a5, 1536(t5)
    lhu a6, 1536(t5)
    lw a7, 0(a0)             # the counter: every lane has added
    li t0, 4004
    add t0, s3, t0
    lr.w t1, (t0)
    sc.w t2, s5, (t0)        # in each warp, lane 0 wins unless another warp stored between
    lw t3, 0(t0)
    amomaxu.w t4, s5, (t0)
    slli t0, s4, 16
    ori t0, t0, 3
    csrw barrier, t0         # barrier 3
    li t0, 4004
    add t0, s3, t0
    lw t5, 0(t0)             # the largest g
    csrw tmask, zero

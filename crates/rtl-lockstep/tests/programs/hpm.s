# The performance counters (docs/isa.md §4): mhpmcounter3 counts the thread-instructions
# retired before this one, over every warp (each instruction counts its active lanes); read
# as hpmcounter3 too, and the high halves. Here every warp runs with every lane, the odd
# lanes take a longer path and each lane loops a number of times of its own, the warps meet
# at a barrier, and warp 0 reads the counter again. The counters of the timing model's events
# (4 to 20) read 0, as in the functional model. A write of a counter (read-only) is an
# illegal instruction: warp 0 ends the run with it.
    .text
    .globl _start
_start:
    csrr a0, mhpmcounter3        # 0: nothing retired before
    csrr a1, hpmcounter3         # 1: one lane
    la   t0, worker
    csrw spawn_pc, t0
    li   t0, -1
    csrw warp_active, t0         # every warp with every lane; warp 0 restarts too
worker:
    csrr s0, thread_id
    csrr s1, warp_id
    andi t0, s0, 1
br: beqz t0, even                # the odd lanes run two instructions more
    addi s2, s0, 5
    addi s2, s2, 5
even:
    converge br
    csrr a2, mhpmcounter3
    add  t1, s0, s1              # lane + warp more trips round the loop
loop:
    addi t1, t1, -1
back:
    bgez t1, loop                # backward: the staying lanes go round first
    converge back
    csrr a3, hpmcounter3
    csrr a4, mhpmcounter3h
    csrr a5, hpmcounter3h
    csrr a6, mhpmcounter4
    csrr a7, hpmcounter20
    csrr s3, mhpmcounter20h
    csrr t0, num_warps
    slli t0, t0, 16              # barrier 0, every warp
    csrw barrier, t0
    csrr s4, mhpmcounter3        # every warp's work counted
    bnez s1, done
    csrw mhpmcounter3, s4        # read-only: ILLEGAL_INSTRUCTION
done:
    csrw tmask, zero

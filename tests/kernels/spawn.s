# Warp 0 spawns warps 1-3 through the CSRs and waits for them through warp_done.
# Worker: out[warp * lanes + lane] = args * 100 + warp * 10 + lane.
    .text
    .globl _start
_start:
    la t0, worker
    csrw spawn_pc, t0
    li t0, 5
    csrw spawn_args, t0
    li t0, 0xe
    csrw warp_active, t0    # activate warps 1, 2, 3 (activate-only: bit 0 clear is ignored)
    li s2, 0
poll:
    csrr t1, warp_done      # read-clear
    or s2, s2, t1
    li t2, 0xe
    bne s2, t2, poll
    la t0, done_mask
    sw s2, 0(t0)
    li t0, 0xffffff04
    sw zero, 0(t0)          # exit 0
worker:
    csrr t0, warp_id
    csrr t1, thread_id
    csrr t2, num_threads
    mul t3, t0, t2
    add t3, t3, t1
    li t4, 100
    mul t5, a0, t4
    li t4, 10
    mul t6, t0, t4
    add t5, t5, t6
    add t5, t5, t1
    la s1, out
    slli t3, t3, 2
    add s1, s1, t3
    sw t5, 0(s1)
    csrw tmask, zero        # halt: sets this warp's warp_done bit
    .data
out:       .zero 512
done_mask: .word 0

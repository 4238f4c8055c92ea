# Four warps each write a value to shared memory after a delay proportional to their id,
# meet at barrier 0, then read their neighbour's value: out[w] = value written by (w+1)%4.
    .text
    .globl _start
_start:
    la t0, worker
    csrw spawn_pc, t0
    li t0, 0xf
    csrw warp_active, t0    # bits 1-3 start warps; bit 0 restarts warp 0 at worker too
worker:
    csrr s0, warp_id
    csrr s4, thread_id
    bnez s4, park           # lane 0 of each warp does the work
    li t0, 200
    mul t0, t0, s0
1:  beqz t0, 2f
    addi t0, t0, -1
    j 1b
2:  csrr s1, local_mem_base
    slli t1, s0, 2
    add t2, s1, t1
    addi t3, s0, 40
    sw t3, 0(t2)            # shared[w] = w + 40
park:
    li t0, 0x40000          # count 4 << 16 | barrier id 0
    csrw barrier, t0
    bnez s4, halt
    addi t1, s0, 1
    andi t1, t1, 3
    slli t1, t1, 2
    add t2, s1, t1
    lw t3, 0(t2)
    la t4, out
    slli t5, s0, 2
    add t4, t4, t5
    sw t3, 0(t4)
halt:
    csrw tmask, zero
    .data
out: .zero 16

# 32×32 integer matrix multiply spread over every thread of the machine (the Vortex paper's
# experiment): thread g of T computes elements g, g+T, g+2T, ... of C = A·B, where
# A[i][k] = i + k and B[k][j] = k - j. Every core starts its warps through warp_active,
# initialises its share of A and B, meets the others at a barrier (core-local, then global),
# multiplies, meets again, and core 0's warp 0, lane 0 prints a checksum of C.
#
#   weft run examples/matmul.s --stats
#   weft run examples/matmul.s --cores 2 --warps 8 --lanes 16

    .equ N, 32
    .text
    .globl _start
_start:
    la t0, worker
    csrw spawn_pc, t0
    li t0, -1
    csrw warp_active, t0        # every warp of this core (own bit: restart) at worker
worker:
    csrr s0, mhartid            # g
    csrr t0, num_cores
    csrr t1, num_warps
    csrr t2, num_threads
    mul s1, t0, t1
    mul s1, s1, t2              # T = total threads
    la s2, A
    la s3, B
    la s4, C
    # initialise A and B elements g, g+T, ...
    mv s5, s0
init:
    li t0, N*N
init_exit:
    bgeu s5, t0, init_done      # lanes leave the loop at different iterations
    srli t1, s5, 5              # row
    andi t2, s5, 31             # column
    add t3, t1, t2              # A[r][c] = r + c
    sub t4, t1, t2              # B[r][c] = r - c
    slli t5, s5, 2
    add t6, s2, t5
    sw t3, 0(t6)
    add t6, s3, t5
    sw t4, 0(t6)
    add s5, s5, s1
    j init
init_done:
    converge init_exit          # reconverge them (a no-op when the table already did)
    call sync
    # C[i][j] = sum_k A[i][k] * B[k][j]
    mv s5, s0
elem:
    li t0, N*N
elem_exit:
    bgeu s5, t0, elem_done
    srli t1, s5, 5              # i
    andi t2, s5, 31             # j
    slli t3, t1, 7
    add t3, t3, s2              # &A[i][0]
    slli t4, t2, 2
    add t4, t4, s3              # &B[0][j]
    li a0, 0
    li t5, N
kloop:
    lw a1, 0(t3)
    lw a2, 0(t4)
    mul a1, a1, a2
    add a0, a0, a1
    addi t3, t3, 4
    addi t4, t4, 4*N
    addi t5, t5, -1
    bnez t5, kloop
    slli t6, s5, 2
    add t6, t6, s4
    sw a0, 0(t6)
    add s5, s5, s1
    j elem
elem_done:
    converge elem_exit
    call sync
    csrr t0, mhartid
    bnez t0, halt               # only thread 0 of the machine reports
    li a0, 0                    # checksum: sum of (index + 1) * C[index]
    li t1, 0
    li t2, N*N
sum:
    slli t3, t1, 2
    add t3, t3, s4
    lw t4, 0(t3)
    addi t5, t1, 1
    mul t4, t4, t5
    add a0, a0, t4
    addi t1, t1, 1
    blt t1, t2, sum
    la t0, checksum
    sw a0, 0(t0)
    la a1, msg
    call puts
    call puthex
    li a0, '\n'
    call putc
    li t0, 0xffffff04
    sw zero, 0(t0)              # exit 0
halt:
    csrw tmask, zero

# sync: every warp of every core meets: barrier 0 across the core's warps, then warp 0 of
# each core meets the other cores at global barrier 1, then barrier 2 releases the core.
sync:
    csrr t0, num_warps
    slli t0, t0, 16
    csrw barrier, t0            # count = warps, id 0
    csrr t1, warp_id
    bnez t1, 1f
    li t2, 0x80000001
    csrr t3, num_cores
    bar t2, t3                  # global barrier 1 (one arrival per core)
1:  csrr t0, num_warps
    slli t0, t0, 16
    ori t0, t0, 2
    csrw barrier, t0            # id 2
    ret

# putc(a0): one byte to the console.
putc:
    li t0, 0xffffff00
    sb a0, 0(t0)
    ret

# puts(a1): a NUL-terminated string.
puts:
    li t0, 0xffffff00
1:  lbu t1, 0(a1)
    beqz t1, 2f
    sb t1, 0(t0)
    addi a1, a1, 1
    j 1b
2:  ret

# puthex(a0): eight hex digits.
puthex:
    li t0, 0xffffff00
    li t1, 28
1:  srl t2, a0, t1
    andi t2, t2, 15
    li t3, 10
    blt t2, t3, 2f
    addi t2, t2, 'a' - 10
    j 3f
2:  addi t2, t2, '0'
3:  sb t2, 0(t0)
    addi t1, t1, -4
    bgez t1, 1b
    ret

    .data
msg:      .asciz "matmul 32x32 checksum 0x"
    .align 2
checksum: .word 0
A:        .zero 4*N*N
B:        .zero 4*N*N
C:        .zero 4*N*N

# A tensor-core multiply in Vortex v3.0's standalone conventions, for
#
#   weft run --profile vortex examples/vortex/wmma.s
#
# One warp of 4 lanes (Vortex's default) widens to all its lanes and fills the fragments of a
# `wmma i32, i8` (docs/isa.md §9): A (f10-f17) and B (f28-f31) with i8 ones — four to a
# register — and C (f0-f7) with 5. At 4 lanes a fragment is 8 x 16 (A) times 16 x 4 (B), so
# every element of D = A x B + C is 5 + 16 = 21, whatever the register permutation. Each
# lane checks its eight D registers, the warp votes, and lane 0 prints the verdict and exits
# with 0 (all 21) or 1.
    .equ EXIT_WORD, 0x8348
    .equ COUT_BASE, 0x40
    .text
    .globl _start
_start:
    li      t0, -1
    tmc     t0                  # every lane
    li      t0, 0x01010101      # four i8 ones
    li      t1, 5
    fmv.w.x f10, t0
    fmv.w.x f11, t0
    fmv.w.x f12, t0
    fmv.w.x f13, t0
    fmv.w.x f14, t0
    fmv.w.x f15, t0
    fmv.w.x f16, t0
    fmv.w.x f17, t0
    fmv.w.x f28, t0
    fmv.w.x f29, t0
    fmv.w.x f30, t0
    fmv.w.x f31, t0
    fmv.w.x f0, t1
    fmv.w.x f1, t1
    fmv.w.x f2, t1
    fmv.w.x f3, t1
    fmv.w.x f4, t1
    fmv.w.x f5, t1
    fmv.w.x f6, t1
    fmv.w.x f7, t1
    wmma    i32, i8             # D (f0-f7) = A (f10-f17) x B (f28-f31) + C
    li      t2, 21
    li      t3, 1               # this lane's verdict
    fmv.x.w t4, f0
    beq     t4, t2, 1f
    li      t3, 0
1:
    fmv.x.w t4, f1
    beq     t4, t2, 1f
    li      t3, 0
1:
    fmv.x.w t4, f2
    beq     t4, t2, 1f
    li      t3, 0
1:
    fmv.x.w t4, f3
    beq     t4, t2, 1f
    li      t3, 0
1:
    fmv.x.w t4, f4
    beq     t4, t2, 1f
    li      t3, 0
1:
    fmv.x.w t4, f5
    beq     t4, t2, 1f
    li      t3, 0
1:
    fmv.x.w t4, f6
    beq     t4, t2, 1f
    li      t3, 0
1:
    fmv.x.w t4, f7
    beq     t4, t2, 1f
    li      t3, 0
1:
    vote.all t5, t3, zero       # 1 if every lane saw 21 everywhere
    li      t0, 1
    tmc     t0                  # lane 0 only
    la      a0, good
    bnez    t5, 2f
    la      a0, bad
2:  call    puts
    xori    t5, t5, 1           # exit code 0 when all were 21
    li      t0, EXIT_WORD
    sw      t5, 0(t0)
    fence
    tmc     zero

# puts(a0): a NUL-terminated string on hart 0's console ring (data[0] after wr[64], rd[64]).
puts:
    li      t1, COUT_BASE
1:  lbu     t2, 0(a0)
    beqz    t2, 2f
    lw      t3, 0(t1)           # wr[0]
    andi    t4, t3, 511
    add     t4, t4, t1
    sb      t2, 512(t4)
    fence
    addi    t3, t3, 1
    sw      t3, 0(t1)
    addi    a0, a0, 1
    j       1b
2:  ret

    .section .rodata
good:   .asciz "wmma i32, i8: D = 21 in all 8 registers of every lane\n"
bad:    .asciz "wmma i32, i8: wrong result\n"

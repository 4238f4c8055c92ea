# Per-lane function pointers: every lane calls through a table of functions
#   int (*ops[])(int) = { twice, square, negate }; r = ops[tid % 3](tid + 1);
# The `jalr ra` targets disagree: the lanes calling the lowest lane's function run it, the
# others wait at the `jalr` and call theirs afterwards; all meet again where the call
# returns (pc + 4).
# docs/isa.md §6.8 traces this program with --lanes 4.
    .text
    .globl _start
_start:
    li   t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    li   t1, 3
    remu t1, s0, t1
    slli t1, t1, 2
    la   t2, ops
    add  t1, t1, t2
    lw   t1, 0(t1)
    addi a0, s0, 1
    jalr ra, 0(t1)          # the indirect call: a0 = 2, 4, -3, 8 for lanes 0..3
    csrw tmask, zero
twice:
    add  a0, a0, a0
    ret
square:
    mul  a0, a0, a0
    ret
negate:
    neg  a0, a0
    ret
    .data
ops:
    .word twice, square, negate

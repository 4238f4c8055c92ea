# if without else:  if ((tid & 1) == 0) a0 += 100.
# docs/isa.md traces this program with --lanes 4 --reconv converge.
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0          # every lane
    csrr s0, thread_id
    mv a0, s0
    andi t1, s0, 1
br: bnez t1, skip           # odd lanes jump over the body; even lanes fall through first
    addi a0, a0, 100        # body: even lanes
skip:
    converge br             # target_pc = this pc: pop at once
    csrw tmask, zero

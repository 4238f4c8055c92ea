# A loop that lanes leave one per iteration: lane t runs t + 1 iterations,
# a0 = 0 + 1 + ... + t.  The back edge diverges every iteration but the stack holds
# one entry throughout (in-place update on loop re-entry).
# docs/isa.md traces this program with --lanes 4 --reconv converge.
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    li a0, 0                # sum
    li t1, 0                # i
loop:
    add a0, a0, t1
    addi t1, t1, 1
back:
    ble t1, s0, loop        # backward branch: the staying (taken) lanes go first
    converge back           # the loop exit: target_pc of the entry, so it pops
    csrw tmask, zero

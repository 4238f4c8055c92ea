# A loop whose exit branch is backward: the exit block is laid out above the loop, as clang
# -O2 lays out many loops. Lane t leaves after t + 1 trips with a0 = t. The leaving lanes are
# the taken lanes of a backward branch, so they run first: they reach the exit (the branch's
# post-dominator) at once and park there; the staying lanes go round again, and every later
# exit of the same branch parks in the same entry. One entry for the whole loop.
# docs/isa.md §6.7 traces this program with --lanes 4.
    .text
    .globl _start
_start:
    li   t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    li   a0, 0
    j    latch
done:                       # the loop exit, above the loop
    csrw tmask, zero
latch:
    beq  a0, s0, done       # backward exit branch
    addi a0, a0, 1
    j    latch

# A divergent call inside a divergent branch: the odd lanes call through per-lane function
# pointers (one group per function, meeting where the call returns), and the instruction at
# that point is the `converge` closing the branch, so the groups' arrival before issue and
# the branch's reconvergence follow each other; then the even lanes run the else-part.
    .text
    .globl _start
_start:
    li   t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    andi t1, s0, 1
    srli t2, s0, 1
    andi t2, t2, 1
    slli t2, t2, 2
    la   t3, ops
    add  t2, t2, t3
    lw   t2, 0(t2)
br: beqz t1, else
    jalr ra, 0(t2)           # odd lanes: lanes 1, 5 call inc, lanes 3, 7 call dbl
    converge br
    j    done
else:
    li   a0, 100
    converge br
done:
    add  a1, a0, s0
    csrw tmask, zero
inc:
    addi a0, s0, 1
    ret
dbl:
    add  a0, s0, s0
    ret
    .data
ops: .word inc, dbl

# A break out of nested divergent regions: an outer loop (i = 0..3), in it an if that only
# some lanes take ((tid + i) odd), in it an inner loop (j = 0..i-1); a lane whose
# i + j == tid jumps straight out of all three to `found`. Table mode: the break's group
# arrives at the outer loop's point (`found`, the post-dominator of every branch here),
# leaving the entries above; the others go on. The lanes store i, j and a count.
    .text
    .globl _start
_start:
    li   t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    li   s1, 0              # i
    li   s2, 0              # count of inner iterations
    li   s3, 0              # j
outer:
    add  t1, s0, s1
    andi t1, t1, 1
    beqz t1, skip           # if ((tid + i) odd)
    li   s3, 0
inner:
    bge  s3, s1, skip       # j < i
    add  t2, s3, s1
    beq  t2, s0, found      # break out of the inner loop, the if and the outer loop
    addi s2, s2, 1
    addi s3, s3, 1
    j    inner
skip:
    addi s1, s1, 1
    li   t3, 4
    blt  s1, t3, outer
    li   s2, -1             # never found
found:
    la   t4, out
    slli t5, s0, 4
    add  t4, t4, t5
    sw   s1, 0(t4)
    sw   s3, 4(t4)
    sw   s2, 8(t4)
    csrw tmask, zero

    .data
out: .zero 512

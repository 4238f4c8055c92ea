# split_join.s: nested split/join in the shape Vortex's compiler emits (split, a branch that
# is uniform for the running group, join). out[t] = t < 2 ? (t odd ? 10 : 20)
# : (t odd ? 30 : 40); tokens[t] = the inner split's token; masks = the thread mask after
# the inner and after the outer join; uni = token of a uniform split, then depth check.
    .text
    .globl main
main:
    li      t0, -1
    tmc     t0
    csrr    s1, thread_id
    slti    s2, s1, 2           # outer predicate
    andi    s3, s1, 1           # inner predicate
    split   s4, s2, zero        # outer token
    beqz    s2, outer_else
    split   s5, s3, zero
    beqz    s3, a_else
    li      s6, 10
    j       a_join
a_else:
    li      s6, 20
a_join:
    join    s5
    j       outer_join
outer_else:
    split   s5, s3, zero
    beqz    s3, b_else
    li      s6, 30
    j       b_join
b_else:
    li      s6, 40
b_join:
    join    s5
    csrr    t1, thread_mask
    la      t2, inner_mask
    sw      t1, 0(t2)
outer_join:
    join    s4
    slli    t1, s1, 2
    la      t2, out
    add     t2, t2, t1
    sw      s6, 0(t2)
    la      t2, tokens
    add     t2, t2, t1
    sw      s5, 0(t2)
    csrr    t1, thread_mask
    la      t2, outer_mask
    sw      t1, 0(t2)
    li      t3, 1
    split   t4, t3, zero        # uniform: token = depth (0), nothing pushed
    join    t4
    la      t2, uni
    sw      t4, 0(t2)
    li      t0, 1
    tmc     t0
    li      a0, 0
    ret
    .data
out:        .zero 16
tokens:     .zero 16
inner_mask: .word 0
outer_mask: .word 0
uni:        .word 99

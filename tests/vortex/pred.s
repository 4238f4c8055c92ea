# pred.s: loops whose exit is taken with pred, as Vortex's compiler emits them. Lane t
# iterates t + 1 times; pred keeps the lanes still looping, and when none is left the mask
# goes back to the saved one. The second loop uses the negated form (rd != x0): the
# condition is "count reached zero" and pred keeps the lanes where it is false.
    .text
    .globl main
main:
    li      t0, -1
    tmc     t0
    csrr    s1, thread_id
    csrr    s0, thread_mask     # saved mask
    addi    s2, s1, 1           # count
    li      s3, 0               # iterations
loop1:
    addi    s3, s3, 1
    addi    s2, s2, -1
    snez    t1, s2
    pred    zero, t1, s0
    bnez    t1, loop1
    csrr    t2, thread_mask
    la      t3, mask1
    sw      t2, 0(t3)
    addi    s2, s1, 1
    li      s4, 0
loop2:
    addi    s4, s4, 2
    addi    s2, s2, -1
    seqz    t1, s2
    pred    ra, t1, s0          # negated: keep lanes where t1 == 0
    beqz    t1, loop2
    slli    t2, s1, 2
    la      t3, it1
    add     t3, t3, t2
    sw      s3, 0(t3)
    la      t3, it2
    add     t3, t3, t2
    sw      s4, 0(t3)
    li      t0, 1
    tmc     t0
    li      a0, 0
    ret
    .data
it1:   .zero 16
it2:   .zero 16
mask1: .word 0

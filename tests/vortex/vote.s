# vote.s: votes over predicates; results go to res[case][all, any, uni, ballot].
# case 0: all 4 lanes, predicate = thread id & 1; case 1: all lanes, predicate 1;
# case 2: lanes {0, 2} only (tmc 5), predicate = thread id & 1 (all 0 there).
    .text
    .globl main
main:
    addi    sp, sp, -16
    sw      ra, 12(sp)
    li      t0, -1
    tmc     t0
    csrr    s1, thread_id
    andi    a1, s1, 1
    la      a0, res
    call    votes
    li      a1, 1
    la      a0, res + 16
    call    votes
    li      t0, 5
    tmc     t0
    andi    a1, s1, 1
    la      a0, res + 32
    call    votes
    li      t0, 1
    tmc     t0
    lw      ra, 12(sp)
    addi    sp, sp, 16
    li      a0, 0
    ret
# votes(a0 = out, a1 = predicate): the last active lane stores the four results.
votes:
    vote.all    t1, a1, zero
    vote.any    t2, a1, zero
    vote.uni    t3, a1, zero
    vote.ballot t4, a1, zero
    sw      t1, 0(a0)
    sw      t2, 4(a0)
    sw      t3, 8(a0)
    sw      t4, 12(a0)
    ret
    .data
res: .zero 48

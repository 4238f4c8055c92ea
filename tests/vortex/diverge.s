# diverge.s: a plain divergent if/else with no split/join (what a stock compiler emits).
# out[t] = (t odd) ? 1 : 2. Under table reconvergence every lane gets its own answer; under
# follow-last every lane follows the last active lane's direction.
    .text
    .globl main
main:
    li      t0, -1
    tmc     t0
    csrr    s1, thread_id
    andi    t1, s1, 1
    beqz    t1, even
    li      s2, 1
    j       done
even:
    li      s2, 2
done:
    slli    t2, s1, 2
    la      t3, out
    add     t3, t3, t2
    sw      s2, 0(t3)
    csrr    t4, thread_mask
    la      t3, mask
    sw      t4, 0(t3)
    li      t0, 1
    tmc     t0
    li      a0, 0
    ret
    .data
out:  .zero 16
mask: .word 0

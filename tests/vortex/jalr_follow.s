# jalr_follow.s: lanes compute different jump targets (lane 0 → one, the others → two).
# Under follow-last every lane follows the last active lane's target (Vortex's behaviour),
# so all lanes store 2; under weft's rule the lanes split by target (lane 0 stores 1).
    .text
    .globl main
main:
    li      t0, -1
    tmc     t0
    csrr    t1, thread_id
    la      t2, one
    la      t3, two
    beqz    t1, 1f
    mv      t2, t3
1:  jalr    zero, 0(t2)
one:
    li      t4, 1
    j       store
two:
    li      t4, 2
store:
    la      t5, out
    slli    t6, t1, 2
    add     t5, t5, t6
    sw      t4, 0(t5)
    li      t0, 1
    tmc     t0
    li      a0, 0
    ret
    .data
out: .zero 16

# A per-lane `switch` through a jump table in converge mode (docs/isa.md §6.2): the lanes of
# the `jr` disagree, the lanes going where the lowest lane goes run, the others wait at the
# `jr` and execute it again in their turn (one group per target), and all meet at the
# `converge` naming the jump. The switch runs twice in a loop (the second time its groups
# join the same kind of entry again), then once more with no `converge` at all: the groups
# then run one after another until each halts.
    .text
    .globl _start
_start:
    li   t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    li   s1, 2                # loop trips
    la   s2, out
    slli t0, s0, 2
    add  s2, s2, t0
loop:
    add  a0, s0, s1
    andi a0, a0, 7
    li   t0, 3
    bltu t0, a0, deflt        # x > 3: default
    slli t1, a0, 2
    la   t2, table
    add  t1, t1, t2
    lw   t1, 0(t1)
sw: jr   t1                   # the divergent indirect jump
case0:
    li   a1, 10
    j    end
case1:
    li   a1, 11
    j    end
case23:
    li   a1, 23
    j    end
deflt:
    li   a1, 99
end:
    converge sw
    add  a1, a1, a0
    sw   a1, 0(s2)
    addi s1, s1, -1
    bnez s1, loop
    andi a0, s0, 3
    slli t1, a0, 2
    la   t2, table2
    add  t1, t1, t2
    lw   t1, 0(t1)
    jr   t1                   # no converge: each group halts on its own
d0: li a2, 1
    csrw tmask, zero
d1: li a2, 2
    csrw tmask, zero
d2: li a2, 3
    csrw tmask, zero
    .section .rodata
table:  .word case0, case1, case23, case23
table2: .word d0, d1, d2, d2
    .data
out: .zero 128

# Nested divergence:
#   if (tid & 1) { if (tid & 2) a0 = 1; else a0 = 2; } else a0 = 3;
# docs/isa.md traces this program with --lanes 4 --reconv converge.
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    andi t1, s0, 1
    andi t2, s0, 2
A:  beqz t1, elseA          # outer: odd lanes (fall-through) first
B:  beqz t2, elseB          # inner, among the odd lanes: lane 3 first
    li a0, 1
    j endB
elseB:
    li a0, 2
endB:
    converge B              # closes the inner entry
    j endA
elseA:
    li a0, 3
endA:
    converge A              # closes the outer entry
    csrw tmask, zero

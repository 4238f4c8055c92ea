# A function with several returns inside divergent code (docs/isa.md §6.5): `classify(x)`
# walks i = 0, 1, ... and returns from inside its loop when i reaches x (x << 4), from a
# nested if when i = 3 and x is even (i + 300), or after the loop (600). Table mode: the
# branches whose post-dominator is the function's exit share one AtExit entry, which each
# return reaches; converge mode has no entry to close and the returns leave their entries
# open. It is called twice per lane: first from a divergent branch (even lanes only), then by
# every lane (a second activation at the same depth), and the lanes store their sums.
    .text
    .globl _start
_start:
    li   t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    andi t1, s0, 1
    li   s1, 0
    bnez t1, odd            # divergent: the odd lanes skip the first call
    mv   a0, s0
    call classify
    add  s1, s1, a0
odd:
    addi a0, s0, 3
    call classify           # every lane: another activation at the same depth
    add  s1, s1, a0
    la   t2, out
    slli t3, s0, 2
    add  t2, t2, t3
    sw   s1, 0(t2)
    csrw tmask, zero

    .globl classify
    .type classify, @function
classify:
    li   t4, 0              # i
1:  beq  t4, a0, 2f         # i == x: return from inside the loop
    andi t5, t4, 3
    li   t6, 3
    beq  t5, t6, 3f         # i % 4 == 3
4:  addi t4, t4, 1
    li   t6, 6
    blt  t4, t6, 1b
    li   a0, 600            # fell out of the loop
    ret
2:  slli a0, a0, 4
    ret
3:  andi t5, a0, 1
    bnez t5, 4b             # x odd: go on with the loop
    addi a0, t4, 300        # x even: return i + 300
    ret
    .size classify, . - classify

    .data
out: .zero 128

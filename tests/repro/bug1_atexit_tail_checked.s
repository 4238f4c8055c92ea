# Reconvergence at a function's exit through a tail call. f's arm tail-calls g (`tail`: a jump
# that links nothing, so the call depth stays the same) and g diverges again; both branches
# reconverge at the exit at the same depth. The return that pops g's entry must not leave f's
# entry to be closed by a later, unrelated return (k's) — that would resume lanes at f's return
# address a second time and run `call k` twice. Lanes 0-2 run; lane l computes
# f(l) * 10 + (calls of k), with f(0) = 7, f(1) = g(0) = 9, f(2) = g(1) = 8, and prints '.' if
# that is right, 'X' if not.
    .text
    .globl _start
_start:
    li   t0, 7
    csrw tmask, t0          # lanes 0, 1, 2
    csrr s3, thread_id
    li   s4, 0              # calls of k
    mv   a0, s3
    call f
    li   t1, 10
    mul  s5, a0, t1
    call k
    add  s5, s5, s4
    la   t2, want
    slli t3, s3, 2
    add  t2, t2, t3
    lw   t4, 0(t2)
    sub  t4, t4, s5
    snez t4, t4             # 1 if wrong
    li   t5, 'X' - '.'
    mul  t4, t4, t5
    addi t4, t4, '.'
    li   t6, 0xffffff00
    sw   t4, 0(t6)          # one character per lane, in lane order
    csrw tmask, zero
    .globl f
    .type f, @function
f:
    beqz a0, 1f
    addi a0, a0, -1
    tail g
1:  li   a0, 7
    ret
    .size f, . - f
    .globl g
    .type g, @function
g:
    bnez a0, 1f
    li   a0, 9
    ret
1:  li   a0, 8
    ret
    .size g, . - g
    .globl k
    .type k, @function
k:
    addi s4, s4, 1
    ret
    .size k, . - k
    .data
want: .word 71, 91, 81

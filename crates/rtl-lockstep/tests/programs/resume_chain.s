# A waiting group resumes in its own activation after the other lanes left it: in `f` the
# even lanes return at once while the odd lanes wait (converge mode: the entry stays open;
# table mode: both paths end at a return, so the entry is AtExit and the even lanes park at
# their `ret`). The even lanes then call `g` (another activation at the same depth, whose own
# divergent branch must not match f's entry) and halt; the odd lanes resume inside f's
# activation, call `h` one level deeper, return to f and from f to _start (whose activation
# they must find again: the chain restored from the entry), and call `g` in turn.
    .text
    .globl _start
_start:
    li   t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    li   s1, 0
    la   sp, stack_end
    slli t1, s0, 4
    sub  sp, sp, t1
    call f
    add  s1, s1, a0
    call g
    add  s1, s1, a0
    la   t2, out
    slli t3, s0, 2
    add  t2, t2, t3
    sw   s1, 0(t2)
    csrw tmask, zero

    .globl f
    .type f, @function
f:
    andi t0, s0, 1
    bnez t0, 1f             # odd lanes wait (forward branch: fall-through first)
    li   a0, 10
    ret                     # even lanes leave f's activation
1:  addi sp, sp, -4
    sw   ra, 0(sp)
    call h
    lw   ra, 0(sp)
    addi sp, sp, 4
    addi a0, a0, 20
    ret
    .size f, . - f

    .globl g
    .type g, @function
g:
    andi t0, s0, 2
br: beqz t0, 1f
    li   a0, 300
    converge br
    ret
1:  li   a0, 400
    converge br
    ret
    .size g, . - g

    .globl h
    .type h, @function
h:
    andi t0, s0, 4
    beqz t0, 1f
    li   a0, 5000
    ret
1:  li   a0, 6000
    ret
    .size h, . - h

    .data
out: .zero 128
stack: .zero 512
stack_end:

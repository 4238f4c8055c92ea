# A divergent branch 20 calls deep: the RTL keeps activation ids for CDEPTH (16) call depths,
# so a split deeper than that is reported as unsupported, never run differently (the model
# has no such limit). Shallower, the same program runs: see recursion.s.
    .text
    .globl _start
_start:
    li   t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    la   sp, stacks_end
    slli t1, s0, 7
    sub  sp, sp, t1
    li   a0, 20
    call down
    csrw tmask, zero

    .globl down
    .type down, @function
down:
    beqz a0, 2f
    addi sp, sp, -4
    sw   ra, 0(sp)
    addi a0, a0, -1
    call down
    lw   ra, 0(sp)
    addi sp, sp, 4
    ret
2:  andi t0, s0, 1
    beqz t0, 1f             # divergent, 20 calls deep
    addi a0, a0, 1
1:  ret
    .size down, . - down

    .data
stacks: .zero 1024
stacks_end:

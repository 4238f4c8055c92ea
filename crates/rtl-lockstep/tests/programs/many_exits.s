# A loop with six exits that all reconverge at `done`: lane l leaves through exit l % 6 (in
# the iteration i = l / 6), so in table mode one stack entry collects up to six waiting
# groups, one per exit block. The RTL keeps WAITS (4) waiting groups per entry: this program
# checks that a fifth is reported as unsupported, never run differently (the model has no
# such limit). Converge mode pushes one entry per exit instead (and faults with
# DIVERGE_OVERFLOW when they exceed the stack, as the model does).
    .text
    .globl _start
_start:
    li   t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    li   s1, 0              # i * 6
loop:
    beq  s1, s0, x0
    addi t1, s1, 1
    beq  t1, s0, x1
    addi t1, s1, 2
    beq  t1, s0, x2
    addi t1, s1, 3
    beq  t1, s0, x3
    addi t1, s1, 4
    beq  t1, s0, x4
    addi t1, s1, 5
    beq  t1, s0, x5
    addi s1, s1, 6
    j    loop
x0: li   a0, 10
    j    done
x1: li   a0, 11
    j    done
x2: li   a0, 12
    j    done
x3: li   a0, 13
    j    done
x4: li   a0, 14
    j    done
x5: li   a0, 15
done:
    add  a0, a0, s1
    csrw tmask, zero

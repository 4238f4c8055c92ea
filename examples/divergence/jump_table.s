# A per-lane `switch` lowered to a jump table, the shape clang and gcc emit for dense cases:
#   int classify(int x) { int r; switch (x) { case 0: r = 10; break; case 1: r = 11; break;
#                         case 2: case 3: r = 23; break; default: r = 99; } return r + x; }
# The lanes disagree on the `jr` target: the lanes going where the lowest lane goes run, the
# others wait at the `jr` and execute it again; all meet at the jump's post-dominator (`end`).
# docs/isa.md §6.8 traces this program with --lanes 4.
    .text
    .globl _start
_start:
    li   t0, -1
    csrw tmask, t0
    csrr a0, thread_id
    call classify           # a0 = 10, 12, 25, 26 for lanes 0..3
    csrw tmask, zero
    .globl classify
    .type classify, @function
classify:
    li   t0, 3
    bltu t0, a0, deflt      # x > 3: default
    slli t1, a0, 2
    lui  t2, %hi(table)
    addi t2, t2, %lo(table)
    add  t1, t1, t2
    lw   t1, 0(t1)
    jr   t1                 # the indirect jump
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
    add  a0, a1, a0
    ret
    .size classify, . - classify
    .section .rodata
table:
    .word case0, case1, case23, case23

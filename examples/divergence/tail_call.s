# A tail call into a function that diverges again (clang -O2 shape of
#   int g(int y) { return y ? 200 : 300; }
#   int f(int x) { if (x == 0) return 100; return g(x - 1); }   // `tail g`: no new activation
# f's branch and g's branch are in one activation (a tail call does not link), both
# reconverge at its exit, and g's return closes the one entry for every lane.
# docs/isa.md §6.6 traces this program with --lanes 4.
    .text
    .globl _start
_start:
    li   t0, 7
    csrw tmask, t0          # lanes 0, 1, 2
    csrr a0, thread_id
    call f                  # a0 = 100, 300, 200
    csrw tmask, zero
    .globl f
    .type f, @function
f:
    beqz a0, 1f
    addi a0, a0, -1
    tail g                  # auipc t1 + jalr x0, t1: not a call, not a return
1:  li   a0, 100
    ret
    .size f, . - f
    .globl g
    .type g, @function
g:
    beqz a0, 1f
    li   a0, 200
    ret
1:  li   a0, 300
    ret
    .size g, . - g

# A function with three returns, called before another function (clang -O2 shape of
#   int pick(int x) { if (x == 0) return 100; if (x == 1) return 300; return 200; }
#   r = pick(tid) * 10 + count();   // count() returns how often it was called
# Both divergent branches of `pick` reconverge at its exit: they share one stack entry, and
# the return that closes it closes it for every lane, so `count` runs once, with every lane.
# docs/isa.md §6.5 traces this program with --lanes 4.
    .text
    .globl _start
_start:
    li   t0, 7
    csrw tmask, t0          # lanes 0, 1, 2
    csrr s0, thread_id
    li   s2, 0              # count's counter
    mv   a0, s0
    call pick
    mv   s1, a0
    call count
    li   t1, 10
    mul  s1, s1, t1
    add  s1, s1, a0         # 1001, 3001, 2001
    csrw tmask, zero
    .globl pick
    .type pick, @function
pick:
    beqz a0, 1f             # x == 0: return 100
    addi a0, a0, -1
    beqz a0, 2f             # x == 1: return 300
    li   a0, 200
    ret
2:  li   a0, 300
    ret
1:  li   a0, 100
    ret
    .size pick, . - pick
    .globl count
    .type count, @function
count:
    addi s2, s2, 1
    mv   a0, s2
    ret
    .size count, . - count

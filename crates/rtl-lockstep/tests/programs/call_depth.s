# The call_depth CSR (docs/isa.md §6.1), as the device runtime's fibers use it to switch
# contexts: reads count the open calls; a write of d keeps the activations up to the smaller
# depth, closes deeper ones and opens fresh ones past the old depth; only its low 16 bits
# count. In `f`, the odd lanes go 6 deep with fresh activations, split there (an entry of
# that activation, closing at its point), and come back to depth 1 with a write: they are in
# f's activation again and arrive at f's point with the even lanes. In `g`, a region whose
# paths both return (table mode: AtExit): one group returns from g's activation and parks;
# the other leaves g's depth and comes back to it with two writes, so its activation at
# that depth is a new one: its return is not g's, it goes on alone to the end and halts, and
# the parked group then resumes at g's return.
    .text
    .globl _start
_start:
    li   t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    la   sp, stack_end
    slli t1, s0, 5
    sub  sp, sp, t1
    csrr s1, call_depth     # 0
    call f
    add  s1, s1, a0
    csrr t0, call_depth     # 0 again
    add  s1, s1, t0
    li   t0, 0x10003        # the low 16 bits: 3
    csrw call_depth, t0
    csrr t1, call_depth
    slli t1, t1, 12
    add  s1, s1, t1
    csrrci t2, call_depth, 1   # 3 & ~1 = 2
    csrrsi t3, call_depth, 8   # 2 | 8 = 10
    csrr t4, call_depth
    add  s1, s1, t2
    add  s1, s1, t3
    add  s1, s1, t4
    csrwi call_depth, 0
    la   t2, out
    slli t3, s0, 2
    add  t2, t2, t3
    sw   s1, 0(t2)
    csrw tmask, zero

    .globl f
    .type f, @function
f:
    addi sp, sp, -8
    sw   ra, 4(sp)
    csrr a3, call_depth     # 1
    andi t0, s0, 1
br1: beqz t0, 1f
    csrwi call_depth, 6     # odd lanes: five fresh activations past f's
    csrr a4, call_depth
    andi t1, s0, 2
br2: beqz t1, 2f            # a split 6 deep, in the fresh activation
    addi a4, a4, 100
2:  converge br2
    li   t2, 40             # past the RTL's CDEPTH (no split there: just the count)
    csrw call_depth, t2
    csrr t3, call_depth
    add  a4, a4, t3
    csrwi call_depth, 1     # back to f's activation
    j    3f
1:  li   a4, 7
3:  converge br1            # (table mode: br1's point in f's activation)
    add  a3, a3, a4
    call g
    add  a0, a0, a3
    lw   ra, 4(sp)
    addi sp, sp, 8
    ret
    .size f, . - f

    .globl g
    .type g, @function
g:
    csrr a0, call_depth     # 2
    andi t0, s0, 4
br3: beqz t0, 1f
    addi a0, a0, 50
    ret                     # lanes with bit 2: a return from g's activation
1:  csrwi call_depth, 1
    csrwi call_depth, 2     # depth 2 again, a fresh activation
    addi a0, a0, 60
    ret
    .size g, . - g

    .data
out: .zero 128
stack: .zero 1024
stack_end:

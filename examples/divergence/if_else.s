# if/else closed by `converge`:  a0 = (tid & 1) ? 10 : 20;  a0 += tid.
# docs/isa.md traces this program with --lanes 4 --reconv converge.
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0          # reset runs lane 0 only: widen to every lane
    csrr s0, thread_id
    andi t1, s0, 1
br: beqz t1, else           # forward branch: the fall-through (odd) lanes go first
    li a0, 10               # then-part: odd lanes
    j join
else:
    li a0, 20               # else-part: even lanes
join:
    converge br             # closes the entry pushed by `br`
    add a0, a0, s0          # every lane again
    csrw tmask, zero        # halt the warp

# An && chain:  if (tid != 0 && tid != 3 && (tid & 1) == 0) a0 = 100.
# Three forward branches to the same join point; each one that diverges pushes an entry,
# and the converges at `done` close them innermost first.
# docs/isa.md traces this program with --lanes 4 --reconv converge.
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    li a0, 0
    li t1, 3
    andi t2, s0, 1
b1: beqz s0, done           # lane 0 leaves
b2: beq s0, t1, done        # lane 3 leaves
b3: bnez t2, done           # odd lanes leave
    li a0, 100              # only lane 2 gets here
done:
    converge b3             # innermost first
    converge b2
    converge b1
    csrw tmask, zero

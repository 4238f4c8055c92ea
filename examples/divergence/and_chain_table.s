# The && chain of and_chain.s with no converge instruction: reconvergence comes from the
# post-dominator table that the loader computes (weft reconv prints it).
#   if (tid != 0 && tid != 3 && (tid & 1) == 0) a0 = 100.
# docs/isa.md traces this program with --lanes 4 (default mode: table).
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    li a0, 0
    li t1, 3
    andi t2, s0, 1
    beqz s0, done           # lane 0 leaves
    beq s0, t1, done        # lane 3 leaves: joins the first entry (merge rule)
    bnez t2, done           # lane 1 leaves: joins it too
    li a0, 100              # only lane 2 gets here
done:
    add a0, a0, s0          # the post-dominator of all three branches
    csrw tmask, zero

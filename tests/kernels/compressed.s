# Compressed code in a warp (crates/simt/tests/compressed.rs runs it at 1, 4, 8 and 32
# lanes): an if/else on c.beqz and a loop on c.bnez whose lanes disagree, then calls
# through c.jal and c.jalr. out[tid] = if/else result, out[32 + tid] = the mask at the join,
# out[64 + tid] = the loop's sum, out[96 + tid] = the mask after the loop,
# out[128 + tid] = 4 * tid.
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr a0, thread_id
    la s1, out
    slli t2, a0, 2
    add s1, s1, t2          # s1 = &out[tid]
    andi a5, a0, 1
br: c.beqz a5, else         # odd lanes: then; even lanes: else
    c.li a4, 10
    c.add a4, a0            # 10 + tid
    c.j join
else:
    c.li a4, 20
    c.slli a4, 1
    c.sub a4, a0            # 40 - tid
join:
    # converge br          (converge mode: this line is uncommented)
    csrr t1, tmask
    sw a4, 0(s1)
    sw t1, 128(s1)          # the mask at the join
    andi a3, a0, 3
    c.addi a3, 1            # trips: (tid & 3) + 1
    c.li a2, 0
loop:
    c.addi a2, 3
    c.addi a3, -1
lbr: c.bnez a3, loop
after:
    # converge lbr         (converge mode: this line is uncommented)
    csrr t1, tmask
    sw a2, 256(s1)
    sw t1, 384(s1)          # the mask after the loop
    c.mv a1, a0
    c.jal twice             # a1 = 2 * tid; ra = the next instruction
    la t3, twice
    c.jalr t3               # a1 = 4 * tid
    sw a1, 512(s1)
    csrw tmask, zero
twice:
    c.add a1, a1
    c.jr ra
    .data
    .align 2
out: .zero 640

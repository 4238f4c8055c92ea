# crt.s: the start-up of the correlation kernels (crates/weft/src/correlate.rs prepends it to
# each kernel of this directory). It follows Vortex v3.0's standalone conventions, so the same
# image runs on weft (`--profile vortex`) and on Vortex's SimX: core 0's warp 0 starts here
# with one lane; it starts `bench_warps` warps of its core (0 = all of them) at warp_start,
# where each warp turns on all its lanes and calls `bench` (a0 = warp id, a1 = warps
# started); warp 0 then stores 0 to the exit word. Other cores halt at once (SimX's
# standalone runner starts only core 0).
    .equ EXIT_WORD, 0x8348
    .text
    .globl _start
_start:
    csrr    t0, core_id
    bnez    t0, halt
    la      t2, bench_warps
    lw      t0, 0(t2)
    csrr    t1, num_warps
    beqz    t0, 1f
    bgeu    t1, t0, 2f
1:  mv      t0, t1
2:  la      t2, started
    sw      t0, 0(t2)
    la      t1, warp_start
    wspawn  t0, t1
warp_start:
    li      t0, -1
    tmc     t0
    csrr    a0, warp_id
    la      t2, started
    lw      a1, 0(t2)
    call    bench
    csrr    t0, warp_id
    bnez    t0, halt
    li      t0, EXIT_WORD
    sw      zero, 0(t0)
halt:
    tmc     zero
    .data
started: .word 0
    .text

# Vortex fidelity repro (iii): Vortex's barrier id is (barrier number << 8) | CTA slot.
#
# Run:    weft run --profile vortex barrier_ids.s ; echo $?
# SimX:   riscv64-unknown-elf-as -march=rv32imaf -mabi=ilp32f barrier_ids.s -o b.o &&
#         riscv64-unknown-elf-ld --no-relax -m elf32lriscv -Ttext=0x80000000 b.o -o b.elf && simx b.elf ; echo $?
#         (--no-relax: the program sets no gp, so `la` must stay pc-relative)
#
# SimX decodes a `bar` id as bits 7:0 = the CTA slot (local group), bits 30:8 = the barrier
# number within it, bit 31 = global: index = slot * NUM_BARRIERS + number, with
# NUM_WARPS * NUM_BARRIERS = 4 * 8 = 32 barriers per core (sim/simx/types.h bar_decode_id,
# barrier_unit.cpp). vx_barrier.h builds ids this way: (id << 8) + get_local_group_id().
# Here four warps form two groups of two (slots 0 and 1) and each group passes barriers
# number 0..7 in turn: 16 barriers in use (slot 0: ids 0x000..0x700, slot 1: 0x001..0x701).
# Before barrier k each warp publishes k+1; after it, it checks that its partner published
# at least k+1 (so the barriers really synchronise). Warp 0 waits for the others (wspawn 1)
# and exits with (4 - warps that finished) + ordering errors.
#
# SimX (v3.0, e6fcb7d2, default 1x4x4): exit 0.
# weft before the fix (9c309fb): exit 143, "weft: fault BARRIER_FAULT (code 15) at core 0 warp 1
#   lanes 0x1 pc 0x800000b4" at the first id >= 8 (0x100, barrier 1 of slot 0): it takes the
#   raw id as the barrier index and has 8 barriers per core. (With ids = slot only, i.e. every
#   `bar` on id 0 or 1, weft runs it and exits 0.)
    .equ EXIT_WORD, 0x8348
    .text
    .globl _start
_start:
    li    t0, 4
    la    t1, worker
    .insn r 0x0b, 1, 0, x0, t0, t1      # wspawn 4, worker: warps 1-3 (lane 0)
    jal   ra, work                      # warp 0 is a worker too
    li    t0, 1
    .insn r 0x0b, 1, 0, x0, t0, x0      # wspawn 1, 0: wait until warps 1-3 have halted
    la    t1, flags
    lw    t2, 0(t1)
    lw    t3, 4(t1)
    add   t2, t2, t3
    lw    t3, 8(t1)
    add   t2, t2, t3
    lw    t3, 12(t1)
    add   t2, t2, t3
    li    a0, 4
    sub   a0, a0, t2
    la    t1, errors
    lw    t3, 0(t1)
    add   a0, a0, t3
    li    t0, EXIT_WORD
    sw    a0, 0(t0)
    .insn r 0x0b, 0, 0, x0, x0, x0      # tmc 0: halt
worker:
    jal   ra, work
    .insn r 0x0b, 0, 0, x0, x0, x0      # tmc 0: halt

work:
    csrr  s0, 0xCC1                     # warp_id
    srli  s1, s0, 1                     # group = CTA slot (bits 7:0 of the id)
    xori  s2, s0, 1                     # partner warp
    la    s3, progress
    slli  t0, s0, 2
    add   s4, s3, t0                    # &progress[warp]
    slli  t0, s2, 2
    add   s5, s3, t0                    # &progress[partner]
    li    s6, 0                         # k: barrier number (bits 30:8 of the id)
    li    s7, 8
loop:
    addi  t0, s6, 1
    sw    t0, 0(s4)
    fence
    slli  t1, s6, 8
    or    t1, t1, s1                    # id = (k << 8) | slot
    li    t2, 2
    .insn r 0x0b, 4, 0, x0, t1, t2      # bar id, 2 warps
    lw    t3, 0(s5)
    addi  t0, s6, 1
    bge   t3, t0, next
    la    t4, errors                    # the partner had not arrived: count an error
    lw    t5, 0(t4)
    addi  t5, t5, 1
    sw    t5, 0(t4)
next:
    addi  s6, s6, 1
    blt   s6, s7, loop
    la    t0, flags
    slli  t1, s0, 2
    add   t0, t0, t1
    li    t1, 1
    sw    t1, 0(t0)
    fence
    ret

    .data
flags:    .word 0, 0, 0, 0
progress: .word 0, 0, 0, 0
errors:   .word 0

# Vortex fidelity repro (i): a `wspawn` that has to wait is counted (and traced) twice.
#
# Run:    weft run --profile vortex --stats-json s.json wspawn_wait_count.s ; echo $?
# SimX:   riscv64-unknown-elf-as -march=rv32imaf -mabi=ilp32f wspawn_wait_count.s -o w.o &&
#         riscv64-unknown-elf-ld --no-relax -m elf32lriscv -Ttext=0x80000000 w.o -o w.elf && simx w.elf ; echo $?
#         (--no-relax: the program sets no gp, so `la` must stay pc-relative)
#
# Warp 0 reads minstret, spawns warps 1-3 (it is alone, so they start at once), then issues
# `wspawn 1, 0`, which Vortex holds until warps 1-3 have halted, and reads minstret again. The
# difference counts warp 0's instructions between the reads (csrr, li, auipc, addi, wspawn, li,
# wspawn, wsync = 8) plus the workers' 3 x 42 = 126: 134. Both reads are preceded by wsync, so
# SimX's pipeline has committed everything before them, and whether a read counts itself
# cancels out in the difference (that is repro ii). The exit code is difference - 134.
#
# SimX (v3.0, e6fcb7d2, default 1x4x4): exit 0; the waiting wspawn commits once.
# weft before the fix (9c309fb): exit 1; the waiting wspawn is counted again when it re-issues:
#   --stats-json shows "wspawn": 3 for the 2 wspawn instructions and 143 warp-instructions
#   instead of 142 (16 for warp 0 + 126), and --trace prints `wspawn t0, zero` at 0x8000001c
#   twice (cycles 13 and 134).
    .equ EXIT_WORD, 0x8348
    .text
    .globl _start
_start:
    .insn r 0x0b, 7, 0, x0, x0, x0      # wsync
    csrr  s0, 0xB02                     # minstret (before)
    li    t0, 4
    la    t1, worker
    .insn r 0x0b, 1, 0, x0, t0, t1      # wspawn 4, worker: warps 1-3 start at once
    li    t0, 1
    .insn r 0x0b, 1, 0, x0, t0, x0      # wspawn 1, 0: waits until warps 1-3 have halted
    .insn r 0x0b, 7, 0, x0, x0, x0      # wsync
    csrr  s1, 0xB02                     # minstret (after)
    sub   a0, s1, s0
    addi  a0, a0, -134
    li    t0, EXIT_WORD
    sw    a0, 0(t0)
    .insn r 0x0b, 0, 0, x0, x0, x0      # tmc 0: halt
worker:
    li    t2, 20
spin:
    addi  t2, t2, -1
    bnez  t2, spin
    .insn r 0x0b, 0, 0, x0, x0, x0      # tmc 0: halt

# Vortex fidelity repro (ii): reading minstret includes the reading instruction itself.
#
# Run:    weft run --profile vortex minstret_self.s ; echo $?
# SimX:   riscv64-unknown-elf-as -march=rv32imaf -mabi=ilp32f minstret_self.s -o m.o &&
#         riscv64-unknown-elf-ld --no-relax -m elf32lriscv -Ttext=0x80000000 m.o -o m.elf && simx m.elf ; echo $?
#         (--no-relax: the program sets no gp, so `la` must stay pc-relative)
#
# One warp, one lane. RISC-V (and SimX) return the count of instructions retired before the
# csrr: the first instruction reads 0; after it, five addi and a wsync (which drains SimX's
# pipeline so that its count is exact) the second read returns 7. The exit code is the number
# of reads that differ from that.
#
# SimX (v3.0, e6fcb7d2, default 1x4x4): exit 0 (reads 0 and 7).
# weft before the fix (9c309fb): exit 2 (reads 1 and 8: each read counts itself).
    .equ EXIT_WORD, 0x8348
    .text
    .globl _start
_start:
    csrr  s0, 0xB02                     # minstret: first instruction, expect 0
    addi  t1, zero, 1
    addi  t1, t1, 1
    addi  t1, t1, 1
    addi  t1, t1, 1
    addi  t1, t1, 1
    .insn r 0x0b, 7, 0, x0, x0, x0      # wsync
    csrr  s1, 0xB02                     # minstret: expect 7 (csrr, 5 addi, wsync)
    snez  a0, s0
    addi  s1, s1, -7
    snez  s1, s1
    add   a0, a0, s1
    li    t0, EXIT_WORD
    sw    a0, 0(t0)
    .insn r 0x0b, 0, 0, x0, x0, x0      # tmc 0: halt

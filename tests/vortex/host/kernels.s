# Kernels for the vortex2.h host test (tests/vortex/host/host.cpp), in the shape of Vortex
# v3.0's KMU start-up code: `_start` sets each warp's stack once per launch, then the per-CTA
# dispatch window (five 4-byte instructions a re-used warp re-enters 20 bytes before where it
# halted) calls the kernel the KMU names (cta_entry) with the argument pointer (mscratch).
# The .vxbin footer names saxpy, ballot, reverse and fault.
    .text
    .globl _start
_start:
    li    sp, 0xFFFF0000
    csrr  t0, mhartid
    slli  t1, t0, 13
    sub   sp, sp, t1
window:
    csrr  s11, 0xCE1                    # cta_entry
    csrr  a0, mscratch                  # kernel arguments
    jalr  ra, 0(s11)
    .insn r 0x0b, 7, 0, x0, x0, x0      # wsync
    .insn r 0x0b, 0, 0, x0, x0, x0      # tmc x0

# saxpy: args {u32 n; f32 a; u32 x; u32 y}: y[i] = a * x[i] + y[i] (rounded twice) for the
# global index i < n; the last block is partial, so its warps diverge at the bound.
    .globl saxpy
saxpy:
    csrr  t0, 0xCD3                     # thread x
    csrr  t1, 0xCD6                     # block x
    csrr  t2, 0xCD9                     # block dim x
    mul   t1, t1, t2
    add   t0, t0, t1
    lw    t3, 0(a0)
    bgeu  t0, t3, saxpy_done
    flw   ft0, 4(a0)
    lw    t4, 8(a0)
    lw    t5, 12(a0)
    slli  t0, t0, 2
    add   t4, t4, t0
    add   t5, t5, t0
    flw   ft1, 0(t4)
    flw   ft2, 0(t5)
    fmul.s ft1, ft0, ft1
    fadd.s ft2, ft1, ft2
    fsw   ft2, 0(t5)
saxpy_done:
    ret

# ballot: args {u32 in; u32 v; u32 b}, one warp per block: v = in[g] odd ? 3 * in[g] : in[g] + 7
# (a divergent if/else), then, with the warp whole again, b[g] = ballot(v > 20) over the
# warp's lanes and v[g] = v. A warp that did not reconverge after the if/else votes with
# some lanes missing.
    .globl ballot
ballot:
    csrr  t0, 0xCD3
    csrr  t1, 0xCD6
    csrr  t2, 0xCD9
    mul   t1, t1, t2
    add   t0, t0, t1
    slli  t0, t0, 2                     # 4 * g
    lw    t3, 0(a0)
    add   t3, t3, t0
    lw    t4, 0(t3)                     # in[g]
    andi  t5, t4, 1
    beqz  t5, ballot_even
    slli  t6, t4, 1
    add   t4, t4, t6                    # 3 * x
    j     ballot_join
ballot_even:
    addi  t4, t4, 7
ballot_join:
    li    t6, 20
    sltu  t6, t6, t4                    # v > 20
    vote.ballot t5, t6, x0
    lw    t3, 4(a0)
    add   t3, t3, t0
    sw    t4, 0(t3)
    lw    t3, 8(a0)
    add   t3, t3, t0
    sw    t5, 0(t3)
    ret

# reverse: args {u32 in; u32 out}, blocks of several warps with bdx * 4 bytes of local memory:
# each thread stores in[g] at lmem[tx], the CTA meets at its barrier, and out[g] =
# lmem[bdx - 1 - tx] (another warp's value for most threads).
    .globl reverse
reverse:
    csrr  t0, 0xCD3                     # tx
    csrr  t1, 0xCD6                     # bx
    csrr  t2, 0xCD9                     # bdx
    csrr  t3, 0xCDF                     # local memory
    mul   t4, t1, t2
    add   t4, t4, t0
    slli  t4, t4, 2                     # 4 * g
    lw    t5, 0(a0)
    add   t5, t5, t4
    lw    t5, 0(t5)
    slli  t6, t0, 2
    add   t6, t3, t6
    sw    t5, 0(t6)
    csrr  a1, 0xCD0                     # cta id
    csrr  a2, 0xCD2                     # warps in the CTA
    .insn r 0x0b, 4, 0, x0, a1, a2      # bar cta_id, cta_size
    addi  t6, t2, -1
    sub   t6, t6, t0
    slli  t6, t6, 2
    add   t6, t3, t6
    lw    t5, 0(t6)
    lw    a3, 4(a0)
    add   a3, a3, t4
    sw    t5, 0(a3)
    .insn r 0x0b, 4, 0, x0, a1, a2      # nobody frees the memory early
    ret

# fault: a load from address 0, which is unmapped.
    .globl fault
fault:
    lw    t0, 0(x0)
    ret

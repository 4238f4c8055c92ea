# Start-up code for weft kernels. At reset each core's warp 0 runs here with lane 0 only.
# Core 0 clears .bss; every core then widens warp 0 to all lanes so each lane gets its stack
# (sp), its thread record (tp), gp and its stack canary, and narrows back to lane 0. Core 0
# calls main() and exits with its result; the other cores wait for launches (__weft_idle).
# Warps started for a launch enter at __weft_spawn_entry with every lane active.

#define CSR_TMASK 0x804
#define CSR_CORE_ID 0xcc2

    .section .text.start, "ax"
    .globl _start
_start:
    .option push
    .option norelax
    la    gp, __global_pointer$
    .option pop
    csrr  t0, CSR_CORE_ID
    bnez  t0, 2f
    la    t0, __bss_start
    la    t1, __bss_end
1:  bgeu  t0, t1, 2f
    sw    zero, 0(t0)
    addi  t0, t0, 4
    j     1b
2:  li    t0, -1
    csrw  CSR_TMASK, t0
    call  __weft_lane_setup
    li    t0, 1
    csrw  CSR_TMASK, t0
    csrr  t0, CSR_CORE_ID
    bnez  t0, 3f
    li    a0, 0
    li    a1, 0
    call  main
    call  exit
3:  call  __weft_idle
4:  j     4b

# Every lane: gp, sp at the top of its own stack, tp = its thread record just below the top,
# and the canary words at the bottom of the stack. Clobbers t0-t3 only.
    .text
    .globl __weft_lane_setup
__weft_lane_setup:
    .option push
    .option norelax
    la    gp, __global_pointer$
    .option pop
    csrr  t0, 0xf14             # mhartid = (core * warps + warp) * lanes + lane
    lui   t1, %hi(__weft_stack_size)
    addi  t1, t1, %lo(__weft_stack_size)
    mul   t2, t0, t1            # bottom of this lane's stack
    la    t3, __weft_stacks
    add   t2, t2, t3
    add   sp, t2, t1            # top
    addi  tp, sp, -128          # the thread record (weft_thread, at most 128 bytes)
    addi  sp, tp, 0
    li    t3, 0x57454654        # canary: 'WEFT' ^ hart id, 16 words
    xor   t3, t3, t0
    addi  t1, t2, 64
    sw    t1, 72(tp)            # weft_thread.stack_lo: the lowest sp allowed
5:  sw    t3, 0(t2)
    addi  t2, t2, 4
    bltu  t2, t1, 5b
    sw    zero, 68(tp)          # weft_thread.in_kernel = 0 (the other fields are set per block)
    ret

# A warp started for a launch: a0 = the launch, every lane active.
    .globl __weft_spawn_entry
__weft_spawn_entry:
    mv    s1, a0
    call  __weft_lane_setup
    mv    a0, s1
    call  __weft_worker
    csrw  CSR_TMASK, zero       # the warp halts
6:  j     6b

# Warp 0 of a core joins a launch: called with lane 0 only (a0 = the launch); runs the
# launch with every lane (lane 0 on its current stack, the others on their own), then
# narrows back to lane 0 and returns.
    .globl __weft_warp0_run
__weft_warp0_run:
    addi  sp, sp, -16
    sw    ra, 12(sp)
    sw    s0, 8(sp)
    sw    s1, 4(sp)
    la    t0, __weft_join       # the launch (the same for every core)
    sw    a0, 0(t0)
    li    t0, -1
    csrw  CSR_TMASK, t0
    la    t0, __weft_join
    lw    a0, 0(t0)
    csrr  t2, 0xcc0             # lane 0 keeps its sp, the others take their own (branch-free)
    seqz  t2, t2
    neg   t2, t2
    and   t1, sp, t2
    not   t2, t2
    and   t3, tp, t2
    or    sp, t1, t3
    mv    s0, sp
    call  __weft_worker
    li    t0, 1
    csrw  CSR_TMASK, t0
    mv    sp, s0
    lw    ra, 12(sp)
    lw    s0, 8(sp)
    lw    s1, 4(sp)
    addi  sp, sp, 16
    ret

    .bss
    .align 2
__weft_join:
    .space 4

# A warp started by weft_spawn_warps: every lane gets its stack, runs the function, and the
# warp halts when it returns.
    .text
    .globl __weft_user_spawn_entry
__weft_user_spawn_entry:
    call  __weft_lane_setup
    call  __weft_spawned
    csrw  CSR_TMASK, zero
7:  j     7b

# Breakpoints (docs/isa.md §4.4): warp 1 sets its own break_pc and stops there without
# executing the instruction; warp 0 watches it through the cross-warp window (xw_warp_pc,
# xw_fault_code, xw_break_pc), releases it by writing xw_break_pc, and both halt. Stopped
# warps still count in warp_active.
    .text
    .globl _start
_start:
    la t0, worker
    csrw spawn_pc, t0
    li t0, 2
    csrw warp_active, t0     # start warp 1
    li t0, 1
    csrw xwarp, t0
    la s1, stop
1:  csrr t1, xw_warp_pc
    bne t1, s1, 1b           # wait until warp 1 stands at `stop`
    csrr t2, warp_active     # 3: the stopped warp is still started
    csrr t3, xw_fault_code   # 8 = BREAKPOINT
    csrr t4, xw_fault_pc
    csrr t5, xw_break_pc
    li t0, 4
2:  addi t0, t0, -1          # warp 1 stays stopped meanwhile
    bnez t0, 2b
    csrw xw_break_pc, s1     # the same pc: still stopped
    csrr t5, xw_warp_pc
    csrw xw_break_pc, zero   # released
3:  csrr t6, xw_warp_active
    andi t6, t6, 2
    bnez t6, 3b              # until warp 1 halts
    csrw tmask, zero
worker:
    la t0, stop
    csrw break_pc, t0
    li a0, 7
stop:
    addi a0, a0, 1           # runs once warp 0 releases the breakpoint
    csrr a1, break_pc
    csrw tmask, zero

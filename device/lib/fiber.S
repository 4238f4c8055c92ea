# Context switches for the fibers of blocks larger than a core (fiber.c). Every active lane of
# a warp runs these together, each on its own registers and save areas.
#
# A saved context (struct weft_ctx in fiber.c), byte offsets: ra 0, sp 4, gp 8, tp 12,
# s0-s11 16-60, fs0-fs11 64-108, the call depth 112. Only what a call preserves is saved: a
# switch is a call. The divergence unit counts the warp's open calls (docs/isa.md §6.1): the
# call into a switch is one of them, and the `ret` out of it returns into another context, as
# deep in its calls as it was when it switched away, so a switch saves the depth with the
# registers and restores the other context's (the call_depth CSR): the depth goes on from
# there, and the activations below the smaller depth (the scheduler's) stay the same.

#define CSR_TMASK 0x804
#define CSR_CALL_DEPTH 0x814

    .text
# void *__weft_fiber_switch(struct weft_ctx *from, struct weft_ctx *to): save this lane's
# context in *from, load *to and return into it; there the call that saved *to returns, with
# `from` as its value (so a fiber learns which scheduler resumed it).
    .globl __weft_fiber_switch
__weft_fiber_switch:
    sw    ra, 0(a0)
    sw    sp, 4(a0)
    sw    gp, 8(a0)
    sw    tp, 12(a0)
    sw    s0, 16(a0)
    sw    s1, 20(a0)
    sw    s2, 24(a0)
    sw    s3, 28(a0)
    sw    s4, 32(a0)
    sw    s5, 36(a0)
    sw    s6, 40(a0)
    sw    s7, 44(a0)
    sw    s8, 48(a0)
    sw    s9, 52(a0)
    sw    s10, 56(a0)
    sw    s11, 60(a0)
    csrr  t0, CSR_CALL_DEPTH
    sw    t0, 112(a0)
#ifdef __riscv_flen  /* soft-float builds (the RTL board demo) have no f registers */
    fsw   fs0, 64(a0)
    fsw   fs1, 68(a0)
    fsw   fs2, 72(a0)
    fsw   fs3, 76(a0)
    fsw   fs4, 80(a0)
    fsw   fs5, 84(a0)
    fsw   fs6, 88(a0)
    fsw   fs7, 92(a0)
    fsw   fs8, 96(a0)
    fsw   fs9, 100(a0)
    fsw   fs10, 104(a0)
    fsw   fs11, 108(a0)
#endif
    fence
    lw    ra, 0(a1)
    lw    sp, 4(a1)
    lw    gp, 8(a1)
    lw    tp, 12(a1)
    lw    s0, 16(a1)
    lw    s1, 20(a1)
    lw    s2, 24(a1)
    lw    s3, 28(a1)
    lw    s4, 32(a1)
    lw    s5, 36(a1)
    lw    s6, 40(a1)
    lw    s7, 44(a1)
    lw    s8, 48(a1)
    lw    s9, 52(a1)
    lw    s10, 56(a1)
    lw    s11, 60(a1)
    lw    t0, 112(a1)
    beqz  t0, 1f            # a new fiber goes on at its scheduler's depth
    csrw  CSR_CALL_DEPTH, t0
1:
#ifdef __riscv_flen  /* soft-float builds (the RTL board demo) have no f registers */
    flw   fs0, 64(a1)
    flw   fs1, 68(a1)
    flw   fs2, 72(a1)
    flw   fs3, 76(a1)
    flw   fs4, 80(a1)
    flw   fs5, 84(a1)
    flw   fs6, 88(a1)
    flw   fs7, 92(a1)
    flw   fs8, 96(a1)
    flw   fs9, 100(a1)
    flw   fs10, 104(a1)
    flw   fs11, 108(a1)
#endif
    ret

# void __weft_fiber_enter(struct weft_ctx *sched, struct weft_ctx *fiber, uint32_t mask):
# the scheduler (converged, every lane of the warp) runs a software warp: only the lanes in
# `mask` stay on and switch to their fibers; when the fibers switch back, the warp's whole mask
# comes back. The lanes switched off hold their registers as they were at the mask write, so
# nothing between the two writes may change a register they need afterwards: s0 and ra are
# the same in every lane before and after, and sp is their own.
    .globl __weft_fiber_enter
__weft_fiber_enter:
    addi  sp, sp, -16
    sw    ra, 12(sp)
    sw    s0, 8(sp)
    csrr  s0, CSR_TMASK
    csrw  CSR_TMASK, a2
    call  __weft_fiber_switch
    csrw  CSR_TMASK, s0
    lw    s0, 8(sp)
    lw    ra, 12(sp)
    addi  sp, sp, 16
    ret

# A new fiber starts here (the ra of its first context): a0 = the scheduler's context.
    .globl __weft_fiber_boot
__weft_fiber_boot:
    call  __weft_fiber_main
1:  j     1b

/* The context switch of weft's sequential runtime on RISC-V Linux user mode (see ucontext.h):
 * swapcontext saves ra, sp, s0-s11 and fs0-fs11 into *a0 and loads them from *a1; a context
 * made by makecontext starts in __weft_uc_start, which calls the function held in s0 and then
 * switches to the context's uc_link (held in s1). */
    .text
    .globl swapcontext
    .type swapcontext, @function
swapcontext:
    sw ra, 0(a0)
    sw sp, 4(a0)
    sw s0, 8(a0)
    sw s1, 12(a0)
    sw s2, 16(a0)
    sw s3, 20(a0)
    sw s4, 24(a0)
    sw s5, 28(a0)
    sw s6, 32(a0)
    sw s7, 36(a0)
    sw s8, 40(a0)
    sw s9, 44(a0)
    sw s10, 48(a0)
    sw s11, 52(a0)
    fsw fs0, 56(a0)
    fsw fs1, 60(a0)
    fsw fs2, 64(a0)
    fsw fs3, 68(a0)
    fsw fs4, 72(a0)
    fsw fs5, 76(a0)
    fsw fs6, 80(a0)
    fsw fs7, 84(a0)
    fsw fs8, 88(a0)
    fsw fs9, 92(a0)
    fsw fs10, 96(a0)
    fsw fs11, 100(a0)
    lw ra, 0(a1)
    lw sp, 4(a1)
    lw s0, 8(a1)
    lw s1, 12(a1)
    lw s2, 16(a1)
    lw s3, 20(a1)
    lw s4, 24(a1)
    lw s5, 28(a1)
    lw s6, 32(a1)
    lw s7, 36(a1)
    lw s8, 40(a1)
    lw s9, 44(a1)
    lw s10, 48(a1)
    lw s11, 52(a1)
    flw fs0, 56(a1)
    flw fs1, 60(a1)
    flw fs2, 64(a1)
    flw fs3, 68(a1)
    flw fs4, 72(a1)
    flw fs5, 76(a1)
    flw fs6, 80(a1)
    flw fs7, 84(a1)
    flw fs8, 88(a1)
    flw fs9, 92(a1)
    flw fs10, 96(a1)
    flw fs11, 100(a1)
    li a0, 0
    ret

    .globl __weft_uc_start
    .type __weft_uc_start, @function
__weft_uc_start:
    jalr s0
    addi sp, sp, -112
    mv a0, sp
    mv a1, s1
    call swapcontext
1:  j 1b

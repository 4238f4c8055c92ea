/* ucontext.h for weft's sequential runtime (device/host/host.c) on one RISC-V thread under
 * Linux user mode (qemu-riscv32), where the C library (picolibc) has no ucontext: only what
 * host.c uses — a context is the callee-saved registers, a stack and a link. getcontext only
 * clears; makecontext starts `fn` (no arguments) on the stack; when `fn` returns, the thread
 * switches to uc_link. */
#ifndef WEFT_SCALAR_UCONTEXT_H
#define WEFT_SCALAR_UCONTEXT_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
    void *ss_sp;
    size_t ss_size;
} stack_t;

typedef struct ucontext_t {
    uint32_t regs[14];  /* ra, sp, s0-s11 (offsets 0..52) */
    uint32_t fregs[12]; /* fs0-fs11 (offsets 56..100) */
    struct ucontext_t *uc_link;
    stack_t uc_stack;
} ucontext_t;

int getcontext(ucontext_t *ucp);
void makecontext(ucontext_t *ucp, void (*fn)(void), int argc, ...);
int swapcontext(ucontext_t *save, const ucontext_t *to);
#endif

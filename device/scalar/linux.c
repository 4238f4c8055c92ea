/* The Linux user-mode ground under weft's sequential runtime (device/host/host.c) built for
 * RISC-V with picolibc, so that `weft bench --vs-qemu` can run a C kernel on qemu-riscv32 as
 * one scalar thread: exit, a buffered stdout through write(2), the heap for malloc, and
 * makecontext (ucontext.h). System calls by number (Linux's generic table).
 *
 * Built with -DWEFT_COUNT, the same program runs on weft with one lane instead — its two system
 * calls become stores to weft's console and exit registers — so that weft can count the
 * instructions the scalar program executes (QEMU has no counter); the rest is identical. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ucontext.h"

#ifdef WEFT_COUNT
static long sys3(long n, long a, long b, long c) {
    volatile uint32_t *io = (volatile uint32_t *)0xFFFFFF00u;
    if (n == 64) {
        for (long i = 0; i < c; i++) io[0] = ((const unsigned char *)b)[i];
        return c;
    }
    io[1] = (uint32_t)a; /* 93: exit */
    return 0;
}
#else
static long sys3(long n, long a, long b, long c) {
    register long a0 __asm__("a0") = a;
    register long a1 __asm__("a1") = b;
    register long a2 __asm__("a2") = c;
    register long a7 __asm__("a7") = n;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
    return a0;
}
#endif

static char outbuf[4096];
static size_t outlen;

static int out_flush(FILE *f) {
    (void)f;
    size_t off = 0;
    while (off < outlen) {
        long n = sys3(64, 1, (long)(outbuf + off), (long)(outlen - off));
        if (n <= 0) break;
        off += (size_t)n;
    }
    outlen = 0;
    return 0;
}

static int out_put(char c, FILE *f) {
    if (outlen == sizeof outbuf) out_flush(f);
    outbuf[outlen++] = c;
    if (c == '\n') out_flush(f);
    return (unsigned char)c;
}

static FILE stdio_out = FDEV_SETUP_STREAM(out_put, NULL, out_flush, _FDEV_SETUP_WRITE);
FILE *const stdout = &stdio_out;
FILE *const stderr = &stdio_out;
FILE *const stdin = &stdio_out;

void _exit(int code) {
    out_flush(NULL);
    for (;;) sys3(93, code, 0, 0);
}

/* abort() raises SIGABRT through these: the program ends with 128 + the signal. */
int getpid(void) { return 1; }
int kill(int pid, int sig) {
    (void)pid;
    _exit(128 + sig);
}

/* The heap malloc grows into (picolibc calls sbrk). */
static char heap[64u << 20] __attribute__((aligned(16)));

void *sbrk(ptrdiff_t incr) {
    static char *brk = heap;
    if (incr < 0 ? brk + incr < heap : (size_t)incr > (size_t)(heap + sizeof heap - brk))
        return (void *)-1;
    char *old = brk;
    brk += incr;
    return old;
}

int getcontext(ucontext_t *ucp) {
    memset(ucp, 0, sizeof *ucp);
    return 0;
}

void __weft_uc_start(void);

void makecontext(ucontext_t *ucp, void (*fn)(void), int argc, ...) {
    (void)argc;
    uintptr_t top = ((uintptr_t)ucp->uc_stack.ss_sp + ucp->uc_stack.ss_size) & ~(uintptr_t)15;
    ucp->regs[0] = (uint32_t)(uintptr_t)__weft_uc_start; /* ra */
    ucp->regs[1] = (uint32_t)top;                        /* sp */
    ucp->regs[2] = (uint32_t)(uintptr_t)fn;              /* s0 */
    ucp->regs[3] = (uint32_t)(uintptr_t)ucp->uc_link;    /* s1 */
}

int main(void);

void __weft_scalar_main(void) { exit(main()); }

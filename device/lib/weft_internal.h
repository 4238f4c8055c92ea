/* Internal interfaces of weft's device runtime (not for kernels). */
#ifndef WEFT_INTERNAL_H
#define WEFT_INTERNAL_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "weft.h"

/* One launch, as every worker reads it. */
struct weft_launch_rec {
    weft_kernel_fn kernel;
    void *args;
    dim3 grid, block;
    uint32_t blocks, block_threads;
    uint32_t max_slots;   /* blocks a core runs at once, at most */
    uint32_t end_barrier; /* the core barrier id all warps meet at when the grid is done */
    char *fibers;         /* blocks larger than a core: every core's fiber stacks (fiber.c) */
    struct weft_sw *sw;   /* and every core's software-warp table */
};

/* Split a linear index into a dim3 of extent `d`. */
static inline dim3 __weft_unflatten(uint32_t i, dim3 d) {
    dim3 r;
    r.x = i % d.x;
    r.y = i / d.x % d.y;
    r.z = i / d.x / d.y;
    return r;
}

/* A thread record for thread `t` of block `b` of launch `l`, in the block's shared-memory
 * window [shared, shared + window) of slot `slot` (slot_warps 0: a block larger than the core,
 * whose weft_syncthreads() switches fibers). */
static inline void __weft_record_init(weft_thread *r, const struct weft_launch_rec *l,
                                      uint32_t t, uint32_t b, uint32_t shared, uint32_t window,
                                      uint32_t slot, uint32_t slot_warps) {
    r->thread_idx = __weft_unflatten(t, l->block);
    r->block_idx = __weft_unflatten(b, l->grid);
    r->block_dim = l->block;
    r->grid_dim = l->grid;
    r->shared_base = shared;
    r->shared_top = shared;
    r->shared_end = shared + window;
    r->slot = slot;
    r->slot_warps = slot_warps;
}

/* Blocks larger than a core (fiber.c): each thread of such a block is a fiber with its own
 * stack; a software warp that reaches weft_syncthreads() saves its context and the hardware
 * warp runs its next software warp; when all have arrived the hardware warps meet and resume
 * them. */
/* Memory for the launch's fibers, from the heap (0, or a WEFT_ERR_* after printing why). */
int __weft_fibers_prepare(struct weft_launch_rec *l);
/* Every lane of a hardware warp runs block `b`'s software warps first, first + step, … */
void __weft_fibers_run_block(const struct weft_launch_rec *l, uint32_t b, uint32_t shared,
                             uint32_t window, uint32_t first, uint32_t step);
/* weft_syncthreads() in a fiber. */
void __weft_fiber_sync(void);
/* weft_syncthreads() is defined in sync.c, which weft cc links only into a program that calls
 * it (as an archive member is linked): a weak reference to it is 0 in a program where no
 * thread can wait at a block barrier, whose blocks larger than the core need no fibers. */
#ifndef WEFT_SYNC_C /* (sync.c's own definition must stay strong) */
extern void weft_syncthreads(void) __attribute__((weak));
static inline int __weft_has_barriers(void) { return &weft_syncthreads != 0; }
#endif
/* End the run with `code` after printing `why` (the first lane to end it prints). */
void __weft_fail(int code, const char *why) __attribute__((noreturn));
/* Print a stack overflow of thread `t` of block `b` (fibers) and end the run. */
void __weft_fiber_overflow(uint32_t b, uint32_t t, uint32_t size) __attribute__((noreturn));

void __weft_core_run(const struct weft_launch_rec *l);
void __weft_exit_now(int code) __attribute__((noreturn));
char *__weft_heap_start(void);

/* printf formatting through a sink: out(ctx, bytes, n). Returns the number of bytes. */
typedef void (*weft_sink)(void *ctx, const char *s, size_t n);
int __weft_format(weft_sink out, void *ctx, const char *fmt, va_list ap);

/* Kernel output buffer (fifo.c): records kept per thread, printed in thread order. */
void __weft_fifo_begin(void);
int __weft_fifo_active(void);
/* Append one printf's text for thread `key`; returns its length (as printf does). */
int __weft_fifo_append(uint32_t key, const char *fmt, va_list ap);
void __weft_fifo_flush(void);
uint32_t __weft_fifo_bytes(void);
/* Raw console output of n bytes by the calling lane (serialized across lanes and warps). */
void __weft_console_write(const char *s, size_t n);
void __weft_console_flush(void);
#endif

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
};

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

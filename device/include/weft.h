/* weft.h — the device runtime of weft, the soft SIMT GPU.
 *
 * One header for kernels written in C: thread ids, the CUDA-like grid/block launch, barriers,
 * shared memory, atomics, the thread mask, warp spawn, performance counters, printf and exit;
 * and, through weft_warp.h, CUDA's warp-level names (__shfl_sync, __ballot_sync, atomicAdd…).
 * `weft cc` builds against it for the device; `weft cc --host` builds the same source for the
 * host computer, where the launch runs each thread in turn (coroutines for the barriers), so a
 * kernel's output can be compared with the device's. See docs/toolchain.md.
 */
#ifndef WEFT_H
#define WEFT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Barriers are `convergent`: the compiler must not make a call to them depend on more
 * values than the source does (by duplicating it into both arms of a branch, say), or a warp
 * would arrive once per divergent group. */
#if defined(__clang__)
#define WEFT_CONVERGENT __attribute__((convergent))
#else
#define WEFT_CONVERGENT
#endif

/* ---- launch ------------------------------------------------------------------------------ */

/* Grid and block extents, and block/thread indices, as in CUDA. */
typedef struct {
    uint32_t x, y, z;
} dim3;

/* dim3 literals: weft_dim3(64, 1, 1). */
static inline dim3 weft_dim3(uint32_t x, uint32_t y, uint32_t z) {
    dim3 d = {x, y, z};
    return d;
}

/* A kernel: runs once per thread of the grid; `args` is the pointer given to the launch. */
typedef void (*weft_kernel_fn)(void *args);

/* Run `kernel` over `grid` blocks of `block` threads and return when every thread is done.
 * The grid may be far larger than the machine: each core runs blocks in turn, the threads of a
 * block are cut into software warps of `num_threads` lanes, and the software warps of a block
 * go round-robin onto the core's hardware warps. Blocks of any size may use
 * weft_syncthreads(): in a block larger than the core (threads > warps x lanes) a software
 * warp waits at a barrier by saving its context and giving its hardware warp to the next one
 * (each thread then has a stack of its own, from the heap; a program that never calls
 * weft_syncthreads() runs such blocks without fibers). Returns 0, or a WEFT_ERR_* code
 * (after printing why) for an impossible launch. Call it from main() (one thread), not from
 * inside a kernel. */
int weft_launch(dim3 grid, dim3 block, weft_kernel_fn kernel, void *args);

/* The same with `shared_bytes` of shared memory reserved per block (fewer blocks then share a
 * core at once). weft_shared_alloc() hands it out inside the kernel. */
int weft_launch_shared(dim3 grid, dim3 block, uint32_t shared_bytes, weft_kernel_fn kernel,
                       void *args);

/* Mark a kernel that the host runtime (weft-runtime, the Python package, the C ABI)
 * launches by name: it keeps the function and its symbol even if nothing in the program
 * calls it. Such a program needs no main(). */
#define WEFT_KERNEL __attribute__((used, noinline))

/* Inside a kernel: this thread's position, as CUDA's threadIdx, blockIdx, blockDim, gridDim. */
typedef struct weft_thread {
    dim3 thread_idx, block_idx, block_dim, grid_dim;
    uint32_t shared_base, shared_top, shared_end; /* this block's shared-memory window */
    uint32_t slot, slot_warps;                    /* block slot on the core, its warp count */
    uint32_t in_kernel;                           /* 1 while a launched kernel runs */
    uint32_t stack_lo;                            /* lowest sp allowed (above the canary) */
} weft_thread;

weft_thread *weft_self(void);
#if !defined(WEFT_HOST)
/* On the device the record's address is in tp (set by crt0 and by the fiber switch, and the
 * same for a thread as long as it runs), so reading an id is a load, not a call; the function
 * weft_self() is still there for code that calls it by name (Rust kernels). */
static inline __attribute__((always_inline)) weft_thread *__weft_self_tp(void) {
    weft_thread *t;
    __asm__("mv %0, tp" : "=r"(t));
    return t;
}
#define weft_self() __weft_self_tp()
#endif
#define threadIdx (weft_self()->thread_idx)
#define blockIdx (weft_self()->block_idx)
#define blockDim (weft_self()->block_dim)
#define gridDim (weft_self()->grid_dim)

/* Linear ids: the thread within its block, the block within the grid, the thread in the grid. */
uint32_t weft_block_thread(void);
uint32_t weft_block_linear(void);
uint32_t weft_global_thread(void);

/* Wait until every thread of the block arrives (CUDA's __syncthreads). In a block larger than
 * a core, all the threads of a warp must reach it together (none returned early, no
 * divergent branch open), or the run stops with WEFT_ERR_SYNC. */
WEFT_CONVERGENT void weft_syncthreads(void);
#define __syncthreads() weft_syncthreads()

/* Shared memory of the current block: every thread of the block must make the same calls in
 * the same order, and gets the same pointers. Free in reverse order (a stack); everything is
 * released when the block ends. Running out prints why and ends the run (WEFT_ERR_SHARED). */
void *weft_shared_alloc(uint32_t bytes);
void weft_shared_free(void *p);

/* ---- hardware ids and control ------------------------------------------------------------ */

uint32_t weft_lane_id(void);     /* lane within the warp (thread_id CSR) */
uint32_t weft_warp_id(void);     /* warp within the core */
uint32_t weft_core_id(void);     /* core */
uint32_t weft_num_lanes(void);   /* lanes per warp */
uint32_t weft_num_warps(void);   /* warps per core */
uint32_t weft_num_cores(void);   /* cores */
uint32_t weft_hart_id(void);     /* (core * warps + warp) * lanes + lane */
uint32_t weft_tmask(void);       /* the warp's thread mask */

/* Write the thread mask (0 halts the warp). Only from converged code: lanes switched off
 * here come back only through another write. */
void weft_set_tmask(uint32_t mask);

/* Barrier among warps of this core: wait at barrier `id` until `count` warps arrive. */
WEFT_CONVERGENT void weft_barrier(uint32_t id, uint32_t count);

/* Start the warps in `mask` (of this core) at fn(arg), every lane active, each lane with its
 * own stack. They halt when fn returns. Ids from weft_warp_id()/weft_lane_id(). */
void weft_spawn_warps(uint32_t mask, void (*fn)(void *), void *arg);

/* Wait until every warp of this core but the caller's has halted. */
void weft_wait_warps(void);

/* ---- atomics (on DRAM or shared memory; every lane's operation is performed) ------------- */

static inline uint32_t weft_atomic_add(volatile uint32_t *p, uint32_t v) {
    return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
}
static inline uint32_t weft_atomic_sub(volatile uint32_t *p, uint32_t v) {
    return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST);
}
static inline uint32_t weft_atomic_and(volatile uint32_t *p, uint32_t v) {
    return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);
}
static inline uint32_t weft_atomic_or(volatile uint32_t *p, uint32_t v) {
    return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);
}
static inline uint32_t weft_atomic_xor(volatile uint32_t *p, uint32_t v) {
    return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);
}
static inline uint32_t weft_atomic_exch(volatile uint32_t *p, uint32_t v) {
    return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
}
/* Compare and swap: returns the old value (the swap happened if it equals `expected`). */
static inline uint32_t weft_atomic_cas(volatile uint32_t *p, uint32_t expected, uint32_t v) {
    __atomic_compare_exchange_n(p, &expected, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return expected;
}
int32_t weft_atomic_min(volatile int32_t *p, int32_t v);
int32_t weft_atomic_max(volatile int32_t *p, int32_t v);
uint32_t weft_atomic_minu(volatile uint32_t *p, uint32_t v);
uint32_t weft_atomic_maxu(volatile uint32_t *p, uint32_t v);

/* ---- counters ---------------------------------------------------------------------------- */

uint64_t weft_cycles(void);  /* the core's cycle counter */
uint64_t weft_instret(void); /* warp-instructions the core retired */

/* ---- output and exit --------------------------------------------------------------------- */

/* printf with %d %i %u %x %X %o %c %s %p %f %F %e %E %g %G %%, flags -+ #0, width, precision,
 * `*`, and the h hh l ll z j t length modifiers; floats print exactly as a C library does.
 * Inside a launched kernel, output is kept per thread and printed when the launch ends, in
 * thread order (block by block, thread by thread), as CUDA buffers device printf. */
int weft_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int weft_vprintf(const char *fmt, va_list ap);

/* End the run with `code` as the exit status (pending kernel output is printed first). */
void weft_exit(int code) __attribute__((noreturn));

/* Error codes the runtime exits with when it stops a run. */
#define WEFT_ERR_STACK 250  /* a lane overran its stack (weft cc --stack-size) */
#define WEFT_ERR_LAUNCH 251 /* an impossible launch (a zero extent, a launch inside a kernel) */
#define WEFT_ERR_SHARED 252 /* shared memory exhausted or freed out of order */
#define WEFT_ERR_SYNC 253   /* a barrier only part of a warp reached (a block larger than a core) */

#ifdef __cplusplus
}
#endif

#include "weft_warp.h"

/* On the host (weft cc --host), printf inside a kernel goes through the runtime too, so its
 * output comes out in the same thread order as on the device. */
#if defined(WEFT_HOST) && !defined(WEFT_HOST_IMPL)
#include <stdio.h>
#define printf weft_printf
#define vprintf weft_vprintf
#endif
#endif /* WEFT_H */

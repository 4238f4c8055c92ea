/* weft's device runtime on the host computer (weft cc --host): the same weft.h API, so one
 * kernel source builds for both and their output can be compared.
 *
 * A launch runs block after block; the threads of a block are coroutines (ucontext) run in
 * thread order, each until it ends or reaches weft_syncthreads(). Kernel printf output is kept
 * per thread and printed at the end of the launch in thread order, as the device does. The
 * machine-shape calls answer as one core with one warp of 32 lanes per 32 threads. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#define WEFT_HOST_IMPL
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include "weft.h"

/* Stack per thread: 256 KiB on the host; the RISC-V scalar build (weft cc --qemu) passes the
 * device's 8 KiB, since its C library zeroes what malloc hands out. */
#ifndef STACK_BYTES
#define STACK_BYTES (256u << 10)
#endif
#define SHARED_BYTES (16u << 10)

struct hthread {
    ucontext_t ctx;
    weft_thread rec;
    int done;
    char *stack;
};

static weft_thread main_rec;
static weft_thread *current = &main_rec;
static struct hthread *running;
static ucontext_t sched;
static weft_kernel_fn cur_kernel;
static void *cur_args;
static char *host_shared;  /* the block's shared memory, allocated once */
static uint32_t shared_high; /* bytes of host_shared handed out since it was last zeroed */
static struct hthread *pool; /* the threads' stacks, kept from launch to launch */
static uint32_t pool_size;

weft_thread *weft_self(void) { return current; }

/* ---- buffered kernel output --------------------------------------------------------------- */

struct rec {
    uint32_t key;
    size_t seq;
    char *text;
};
static struct rec *recs;
static size_t nrecs, caprecs;

static int rec_cmp(const void *a, const void *b) {
    const struct rec *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void flush(void) {
    qsort(recs, nrecs, sizeof *recs, rec_cmp);
    for (size_t i = 0; i < nrecs; i++) {
        fputs(recs[i].text, stdout);
        free(recs[i].text);
    }
    nrecs = 0;
    fflush(stdout);
}

int weft_vprintf(const char *fmt, va_list ap) {
    if (!current->in_kernel) return vprintf(fmt, ap);
    char *text = NULL;
    int n = vasprintf(&text, fmt, ap);
    if (n < 0) return n;
    if (nrecs == caprecs) {
        caprecs = caprecs ? caprecs * 2 : 256;
        recs = realloc(recs, caprecs * sizeof *recs);
        if (!recs) abort();
    }
    recs[nrecs].key = weft_global_thread();
    recs[nrecs].seq = nrecs;
    recs[nrecs].text = text;
    nrecs++;
    return n;
}

int weft_printf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int r = weft_vprintf(fmt, ap);
    va_end(ap);
    return r;
}

void weft_exit(int code) {
    flush();
    exit(code);
}

static void fail(int code, const char *why) {
    flush();
    fprintf(stdout, "weft: %s\n", why);
    exit(code);
}

/* ---- the launch --------------------------------------------------------------------------- */

static dim3 unflatten(uint32_t i, dim3 d) {
    dim3 r = {i % d.x, i / d.x % d.y, i / d.x / d.y};
    return r;
}

static void trampoline(void) {
    cur_kernel(cur_args);
    running->done = 1;
}

static int launch(dim3 grid, dim3 block, uint32_t shared_bytes, weft_kernel_fn kernel,
                  void *args) {
    if (current->in_kernel) fail(WEFT_ERR_LAUNCH, "weft_launch called inside a kernel");
    if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
        fail(WEFT_ERR_LAUNCH, "weft_launch: a grid or block extent is 0");
    if (shared_bytes > SHARED_BYTES)
        fail(WEFT_ERR_SHARED, "weft_launch_shared: more shared memory per block than a core has");
    uint64_t blocks = (uint64_t)grid.x * grid.y * grid.z;
    uint64_t bt = (uint64_t)block.x * block.y * block.z;
    if (blocks > 0xFFFFFFFFu || bt > 0xFFFFu || blocks * bt > 0xFFFFFFFFu)
        fail(WEFT_ERR_LAUNCH, "weft_launch: more than 2^32 threads, or a block of more than "
                              "65535 threads");
    cur_kernel = kernel;
    cur_args = args;
    if (bt > pool_size) {
        pool = realloc(pool, bt * sizeof *pool);
        if (!pool) abort();
        for (uint32_t i = pool_size; i < bt; i++) {
            pool[i].stack = malloc(STACK_BYTES);
            if (!pool[i].stack) abort();
        }
        pool_size = (uint32_t)bt;
    }
    struct hthread *t = pool;
    if (!host_shared) {
        host_shared = aligned_alloc(16, SHARED_BYTES);
        if (!host_shared) abort();
        memset(host_shared, 0, SHARED_BYTES);
    }
    for (uint32_t b = 0; b < blocks; b++) {
        /* Every block finds its shared memory zeroed: clear what the last one was given. */
        memset(host_shared, 0, shared_high);
        shared_high = 0;
        for (uint32_t i = 0; i < bt; i++) {
            weft_thread *r = &t[i].rec;
            r->thread_idx = unflatten(i, block);
            r->block_idx = unflatten(b, grid);
            r->block_dim = block;
            r->grid_dim = grid;
            r->shared_base = r->shared_top = 0;
            r->shared_end = SHARED_BYTES;
            r->slot = 0;
            r->slot_warps = 1;
            r->in_kernel = 1;
            t[i].done = 0;
            getcontext(&t[i].ctx);
            t[i].ctx.uc_stack.ss_sp = t[i].stack;
            t[i].ctx.uc_stack.ss_size = STACK_BYTES;
            t[i].ctx.uc_link = &sched;
            makecontext(&t[i].ctx, trampoline, 0);
        }
        for (;;) {
            int live = 0;
            for (uint32_t i = 0; i < bt; i++) {
                if (t[i].done) continue;
                running = &t[i];
                current = &t[i].rec;
                swapcontext(&sched, &t[i].ctx);
                current = &main_rec;
                live |= !t[i].done;
            }
            if (!live) break;
        }
    }
    flush();
    return 0;
}

int weft_launch(dim3 grid, dim3 block, weft_kernel_fn kernel, void *args) {
    return launch(grid, block, 0, kernel, args);
}

int weft_launch_shared(dim3 grid, dim3 block, uint32_t shared_bytes, weft_kernel_fn kernel,
                       void *args) {
    return launch(grid, block, shared_bytes, kernel, args);
}

void weft_syncthreads(void) {
    if (!current->in_kernel) return;
    struct hthread *me = running;
    current = &main_rec;
    swapcontext(&me->ctx, &sched);
    current = &me->rec;
}

void *weft_shared_alloc(uint32_t bytes) {
    weft_thread *t = current;
    uint32_t n = (bytes + 15) & ~15u;
    if (!t->in_kernel) fail(WEFT_ERR_SHARED, "weft_shared_alloc outside a kernel");
    if (n < bytes || n > t->shared_end - t->shared_top)
        fail(WEFT_ERR_SHARED, "weft_shared_alloc: out of shared memory for this block");
    void *p = host_shared + t->shared_top;
    t->shared_top += n;
    if (t->shared_top > shared_high) shared_high = t->shared_top;
    return p;
}

void weft_shared_free(void *p) {
    weft_thread *t = current;
    if ((char *)p < host_shared || (char *)p > host_shared + t->shared_top)
        fail(WEFT_ERR_SHARED, "weft_shared_free: not this block's shared memory");
    t->shared_top = (uint32_t)((char *)p - host_shared);
}

uint32_t weft_block_thread(void) {
    weft_thread *t = current;
    return (t->thread_idx.z * t->block_dim.y + t->thread_idx.y) * t->block_dim.x +
           t->thread_idx.x;
}

uint32_t weft_block_linear(void) {
    weft_thread *t = current;
    return (t->block_idx.z * t->grid_dim.y + t->block_idx.y) * t->grid_dim.x + t->block_idx.x;
}

uint32_t weft_global_thread(void) {
    weft_thread *t = current;
    return weft_block_linear() * (t->block_dim.x * t->block_dim.y * t->block_dim.z) +
           weft_block_thread();
}

/* ---- the machine's shape, as the host pretends it ----------------------------------------- */

uint32_t weft_lane_id(void) { return current->in_kernel ? weft_block_thread() % 32 : 0; }
uint32_t weft_warp_id(void) { return current->in_kernel ? weft_block_thread() / 32 : 0; }
uint32_t weft_core_id(void) { return 0; }
uint32_t weft_num_lanes(void) { return 32; }
uint32_t weft_num_warps(void) { return 2048; }
uint32_t weft_num_cores(void) { return 1; }
uint32_t weft_hart_id(void) { return current->in_kernel ? weft_block_thread() : 0; }
uint32_t weft_tmask(void) { return 1; }

static void unsupported(const char *what) {
    flush();
    fprintf(stdout, "weft: %s is not available on the host\n", what);
    exit(WEFT_ERR_LAUNCH);
}

void weft_set_tmask(uint32_t mask) {
    (void)mask;
    unsupported("weft_set_tmask");
}
void weft_barrier(uint32_t id, uint32_t count) {
    (void)id;
    (void)count;
    unsupported("weft_barrier");
}
void weft_spawn_warps(uint32_t mask, void (*fn)(void *), void *arg) {
    (void)mask;
    (void)fn;
    (void)arg;
    unsupported("weft_spawn_warps");
}
void weft_wait_warps(void) {}

int32_t weft_atomic_min(volatile int32_t *p, int32_t v) {
    int32_t o = *p;
    if (v < o) *p = v;
    return o;
}
int32_t weft_atomic_max(volatile int32_t *p, int32_t v) {
    int32_t o = *p;
    if (v > o) *p = v;
    return o;
}
uint32_t weft_atomic_minu(volatile uint32_t *p, uint32_t v) {
    uint32_t o = *p;
    if (v < o) *p = v;
    return o;
}
uint32_t weft_atomic_maxu(volatile uint32_t *p, uint32_t v) {
    uint32_t o = *p;
    if (v > o) *p = v;
    return o;
}

static uint64_t counter;
uint64_t weft_cycles(void) { return ++counter; }
uint64_t weft_instret(void) { return ++counter; }

/* weft's device runtime on the host computer (weft cc --host): the same weft.h API, so one
 * kernel source builds for both and their output can be compared.
 *
 * A launch runs block after block; the threads of a block are coroutines (ucontext) run in
 * thread order, each until it ends or reaches weft_syncthreads(). Kernel printf output is kept
 * per thread and printed at the end of the launch in thread order, as the device does. The
 * machine-shape calls answer as one core with one warp of WEFT_HOST_LANES lanes (32 unless
 * -DWEFT_HOST_LANES=N) per that many threads. A warp-level call (weft_warp.h) waits until the
 * lanes its mask names have all reached it, as a warp in lockstep would, and computes CUDA's
 * result; a mask that names a lane that never comes is the device's SYNC_MASK fault. */
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
#ifndef WEFT_HOST_LANES
#define WEFT_HOST_LANES 32
#endif
#define LANES ((uint32_t)WEFT_HOST_LANES)
_Static_assert(WEFT_HOST_LANES >= 1 && WEFT_HOST_LANES <= 32, "WEFT_HOST_LANES: 1 to 32");

/* Where a thread waits: nowhere, a warp-level call, __activemask(), weft_syncthreads(). */
enum { W_NONE, W_COLL, W_MASK, W_BAR };

struct hthread {
    ucontext_t ctx;
    weft_thread rec;
    int done;
    char *stack;
    int wait, ready;          /* what it waits at; its warp-level call has its result */
    const char *site;         /* the call (file:line) */
    uint32_t kind, mask, b, width, gen;
    uint64_t v, result;
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
static uint32_t block_threads, live_threads; /* of the running block */
static uint32_t bar_arrived, bar_gen;        /* weft_syncthreads() of the running block */
static int progress;                         /* something moved in this pass */

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

static void release_barrier(void) {
    if (bar_arrived > 0 && bar_arrived == live_threads) {
        bar_gen++;
        bar_arrived = 0;
        progress = 1;
    }
}

static void trampoline(void) {
    cur_kernel(cur_args);
    running->done = 1;
    running->wait = W_NONE;
    live_threads--;
    progress = 1;
    release_barrier();
}

static void deadlock(void) __attribute__((noreturn));

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
            t[i].wait = W_NONE;
            getcontext(&t[i].ctx);
            t[i].ctx.uc_stack.ss_sp = t[i].stack;
            t[i].ctx.uc_stack.ss_size = STACK_BYTES;
            t[i].ctx.uc_link = &sched;
            makecontext(&t[i].ctx, trampoline, 0);
        }
        block_threads = live_threads = (uint32_t)bt;
        bar_arrived = 0;
        for (;;) {
            int live = 0;
            progress = 0;
            for (uint32_t i = 0; i < bt; i++) {
                if (t[i].done) continue;
                running = &t[i];
                current = &t[i].rec;
                swapcontext(&sched, &t[i].ctx);
                current = &main_rec;
                live |= !t[i].done;
            }
            if (!live) break;
            if (!progress) deadlock();
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

/* Back to the scheduler; the thread resumes in the next pass. */
static void yield(void) {
    struct hthread *me = running;
    current = &main_rec;
    swapcontext(&me->ctx, &sched);
    current = &me->rec;
}

void weft_syncthreads(void) {
    if (!current->in_kernel) return;
    struct hthread *me = running;
    me->wait = W_BAR;
    me->gen = bar_gen;
    bar_arrived++;
    progress = 1;
    release_barrier();
    while (me->gen == bar_gen) yield();
    me->wait = W_NONE;
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

uint32_t weft_lane_id(void) { return current->in_kernel ? weft_block_thread() % LANES : 0; }
uint32_t weft_warp_id(void) { return current->in_kernel ? weft_block_thread() / LANES : 0; }
uint32_t weft_core_id(void) { return 0; }
uint32_t weft_num_lanes(void) { return LANES; }
uint32_t weft_num_warps(void) { return 65536 / LANES; }
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

/* ---- warp-level calls (weft_warp.h) ------------------------------------------------------- */

uint32_t weft_warp_size(void) { return LANES; }

static uint32_t lane_bits(uint32_t n) { return n >= 32 ? 0xffffffffu : (1u << n) - 1; }

/* A thread's warp: its first thread in `pool`, and how many lanes it has (the block's last
 * warp may have fewer). */
static uint32_t base_of(const struct hthread *t) { return (uint32_t)(t - pool) / LANES * LANES; }
static uint32_t warp_lanes(uint32_t base) {
    return block_threads - base < LANES ? block_threads - base : LANES;
}

static const char *kind_name(uint32_t k) {
    static const char *const names[] = {
        "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync",
        "__all_sync",  "__any_sync",     "__uni_sync",       "__ballot_sync",
        "__syncwarp",  "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync",
        "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync",
        "__reduce_xor_sync"};
    return k < sizeof names / sizeof names[0] ? names[k] : "a warp-level call";
}

static uint32_t block_linear_of(const weft_thread *r) {
    return (r->block_idx.z * r->grid_dim.y + r->block_idx.y) * r->grid_dim.x + r->block_idx.x;
}

/* The device's SYNC_MASK fault as `weft run` reports it, and its exit status (128 + 18). */
static void sync_fault(const struct hthread *t, uint32_t here, const char *fmt, uint32_t x)
    __attribute__((noreturn));
static void sync_fault(const struct hthread *t, uint32_t here, const char *fmt, uint32_t x) {
    char why[160];
    snprintf(why, sizeof why, fmt, x);
    flush();
    uint32_t i = (uint32_t)(t - pool);
    fprintf(stderr,
            "weft: fault SYNC_MASK (code 18) at block %u warp %u lanes %#x: %s at %s: lane %u's "
            "member mask %#x %s\n",
            block_linear_of(&t->rec), i / LANES, here, kind_name(t->kind), t->site, i % LANES,
            t->mask, why);
    exit(128 + 18);
}

/* CUDA's result for lane `l` of a call of `kind` met by the lanes `g`, whose values are
 * `v[]`. Shuffles follow PTX's shfl.sync (a source lane outside the segment, or not in the
 * call, gives the lane's own value, as weft's shfl does; a width that is not a power of two
 * means the whole warp); votes and reductions run over g. */
static uint64_t result_of(uint32_t kind, uint32_t b, uint32_t width, uint32_t g,
                          const uint64_t *v, uint32_t l) {
    uint32_t pred = 0, acc = 0, first = 1;
    for (uint32_t j = 0; j < 32; j++) {
        if (!(g >> j & 1)) continue;
        uint32_t x = (uint32_t)v[j];
        pred |= (x & 1) << j;
        if (first) acc = x;
        else if (kind == WEFT_COLL_ADD) acc += x;
        else if (kind == WEFT_COLL_MIN) acc = (int32_t)x < (int32_t)acc ? x : acc;
        else if (kind == WEFT_COLL_MAX) acc = (int32_t)x > (int32_t)acc ? x : acc;
        else if (kind == WEFT_COLL_MINU) acc = x < acc ? x : acc;
        else if (kind == WEFT_COLL_MAXU) acc = x > acc ? x : acc;
        else if (kind == WEFT_COLL_AND) acc &= x;
        else if (kind == WEFT_COLL_OR) acc |= x;
        else if (kind == WEFT_COLL_XOR) acc ^= x;
        first = 0;
    }
    int32_t seg = (width & (width - 1)) ? 0 : (int32_t)((32u - width) & 31u);
    int32_t bv = (int32_t)(b & 31u), lane = (int32_t)l;
    int32_t c = kind == WEFT_COLL_SHFL_UP ? 0 : 31;
    int32_t lo = lane & seg, hi = lo | (c & ~seg), j = lane;
    int ok = 0;
    switch (kind) {
    case WEFT_COLL_SHFL_IDX:
        j = lo | (bv & ~seg);
        ok = j <= hi;
        break;
    case WEFT_COLL_SHFL_UP:
        j = lane - bv;
        ok = j >= hi;
        break;
    case WEFT_COLL_SHFL_DOWN:
        j = lane + bv;
        ok = j <= hi;
        break;
    case WEFT_COLL_SHFL_XOR:
        j = lane ^ bv;
        ok = j <= hi;
        break;
    case WEFT_COLL_ALL: return pred == g;
    case WEFT_COLL_ANY: return pred != 0;
    case WEFT_COLL_UNI: return pred == 0 || pred == g;
    case WEFT_COLL_BALLOT: return pred;
    case WEFT_COLL_SYNC: return 0;
    default: return acc;
    }
    if (!ok || j < 0 || j >= 32 || !(g >> j & 1)) j = lane;
    return v[j];
}

/* Is `t` waiting at `me`'s call (with any mask), its result not yet given? */
static int at_call(const struct hthread *t, const struct hthread *me) {
    return !t->done && t->wait == W_COLL && !t->ready && t->kind == me->kind &&
           strcmp(t->site, me->site) == 0;
}

/* The lanes of `me`'s warp at its call. */
static uint32_t lanes_at_call(const struct hthread *me) {
    uint32_t base = base_of(me), n = warp_lanes(base), here = 0;
    for (uint32_t j = 0; j < n; j++) here |= (uint32_t)at_call(&pool[base + j], me) << j;
    return here;
}

/* If `me`'s mask names `me` and every lane it names is at the call with the same mask, give
 * each its result. (Otherwise `me` waits; if nothing else can move, deadlock() reports.) */
static void try_meet(struct hthread *me) {
    uint32_t base = base_of(me), n = warp_lanes(base);
    struct hthread *w = pool + base;
    uint32_t m = me->mask & lane_bits(LANES);
    if (!(m >> (me - w) & 1) || (m & ~lane_bits(n))) return;
    uint64_t v[32] = {0};
    for (uint32_t j = 0; j < n; j++) {
        if (!(m >> j & 1)) continue;
        if (!at_call(&w[j], me) || (w[j].mask & lane_bits(LANES)) != m) return;
        v[j] = w[j].v;
    }
    for (uint32_t j = 0; j < n; j++) {
        if (!(m >> j & 1)) continue;
        w[j].result = result_of(me->kind, w[j].b, w[j].width, m, v, j);
        w[j].ready = 1;
    }
    progress = 1;
}

uint64_t weft_host_collective(const char *site, uint32_t kind, uint32_t mask, uint64_t v,
                              uint32_t b, uint32_t width) {
    if (current == &main_rec || !current->in_kernel) {
        /* main() runs as lane 0 of a warp with no other lane active. */
        if ((mask & lane_bits(LANES)) != 1) {
            flush();
            fprintf(stderr,
                    "weft: fault SYNC_MASK (code 18) at block 0 warp 0 lanes 0x1: %s at %s "
                    "(outside a kernel): lane 0's member mask %#x must be 0x1\n",
                    kind_name(kind), site, mask & lane_bits(LANES));
            exit(128 + 18);
        }
        uint64_t one[32] = {v};
        return result_of(kind, b, width, 1, one, 0);
    }
    struct hthread *me = running;
    me->wait = W_COLL;
    me->ready = 0;
    me->site = site;
    me->kind = kind;
    me->mask = mask;
    me->v = v;
    me->b = b;
    me->width = width;
    progress = 1;
    for (;;) {
        if (!me->ready) try_meet(me);
        if (me->ready) break;
        yield();
    }
    me->wait = W_NONE;
    return me->result;
}

/* Can thread `t` not move until another does? */
static int blocked(const struct hthread *t) {
    return t->done || ((t->wait == W_COLL || t->wait == W_MASK) && !t->ready) ||
           (t->wait == W_BAR && t->gen == bar_gen);
}

/* __activemask(): once no lane of the warp can move, the lanes at this call are the active
 * ones (the others are on another path, as in a diverged warp). */
uint32_t weft_host_activemask(const char *site) {
    if (current == &main_rec || !current->in_kernel) return 1;
    struct hthread *me = running;
    uint32_t base = base_of(me), n = warp_lanes(base);
    struct hthread *w = pool + base;
    me->wait = W_MASK;
    me->ready = 0;
    me->site = site;
    progress = 1;
    while (!me->ready) {
        uint32_t all = 1, g = 0;
        for (uint32_t j = 0; j < n; j++) {
            all &= (uint32_t)blocked(&w[j]);
            if (!w[j].done && w[j].wait == W_MASK && !w[j].ready && strcmp(w[j].site, site) == 0)
                g |= 1u << j;
        }
        if (all) {
            for (uint32_t j = 0; j < n; j++) {
                if (!(g >> j & 1)) continue;
                w[j].result = g;
                w[j].ready = 1;
            }
            progress = 1;
        }
        if (!me->ready) yield();
    }
    me->wait = W_NONE;
    return (uint32_t)me->result;
}

/* No thread of the block can move: the first lane waiting at a warp-level call is left out
 * of its own mask, or its mask names lanes that are not at the call (they took another path,
 * returned, or do not exist: not active, as the device would find them). */
static void deadlock(void) {
    for (uint32_t i = 0; i < block_threads; i++) {
        struct hthread *t = &pool[i];
        if (t->done || t->wait != W_COLL || t->ready) continue;
        uint32_t here = lanes_at_call(t), m = t->mask & lane_bits(LANES);
        if (!(m >> (i % LANES) & 1)) sync_fault(t, here, "leaves out the lane itself", 0);
        sync_fault(t, here, "names lanes %#x that are not active", m & ~here);
    }
    flush();
    fprintf(stderr, "weft: the threads of a block wait for each other forever\n");
    exit(WEFT_ERR_SYNC);
}

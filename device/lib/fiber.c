/* Blocks larger than a core: barriers by switching software warps.
 *
 * A block of T threads needs k = ⌈T / L⌉ software warps of L lanes. When k is more than the
 * core's W hardware warps, the core runs one such block at a time and hardware warp w takes
 * software warps w, w + W, w + 2W, … Every thread of the block is then a fiber: a stack of its
 * own (from the heap, __weft_stack_size bytes, as a lane's), its thread record at the top and
 * a saved context below it (fiber.S). A hardware warp runs one software warp at a time, with
 * the thread mask of that warp's threads; when they call weft_syncthreads() they save their
 * contexts and switch back to the hardware warp's scheduler, which runs its next software
 * warp. When every one of them waits at the barrier (or has ended), the hardware warps of the
 * core meet at a hardware barrier and each resumes its software warps where they waited: so
 * no thread passes a barrier before every thread of the block has reached it.
 *
 * A software warp can be put aside only where its threads are converged — all of them at
 * the barrier together, no divergent branch open — which is what OpenCL and CUDA ask of a
 * barrier: every thread of the block reaches it. A barrier that only part of a warp reaches
 * (threads that returned early, or a barrier under a divergent branch) stops the run with
 * WEFT_ERR_SYNC instead of going wrong.
 */
#include <stdio.h>
#include "weft.h"
#include "weft_internal.h"

extern char __weft_stack_size[];
void *malloc(size_t n);

/* A saved context: what a call preserves, and the divergence unit's call depth (0: a new
 * fiber, which starts at its scheduler's) (fiber.S reads and writes this layout). */
struct weft_ctx {
    uint32_t ra, sp, gp, tp, s[12];
    float fs[12];
    uint32_t call_depth;
};
_Static_assert(sizeof(struct weft_ctx) == 116, "fiber.S uses this layout");

void *__weft_fiber_switch(struct weft_ctx *from, struct weft_ctx *to);
void __weft_fiber_enter(struct weft_ctx *sched, struct weft_ctx *fiber, uint32_t mask);
void __weft_fiber_boot(void);

enum { SW_NEW, SW_WAITING, SW_DONE };

/* A software warp: the same for all its lanes, so one copy per core (in DRAM). */
struct weft_sw {
    uint32_t mask;  /* its threads' lanes */
    uint32_t state; /* SW_NEW, SW_WAITING at a barrier, SW_DONE */
};

/* One thread's fiber, just below its thread record at the top of its stack. */
struct fiber {
    struct weft_ctx ctx;    /* its registers while it is not running */
    struct weft_ctx *sched; /* the scheduler's context it switches back to */
    const struct weft_launch_rec *l;
    struct weft_sw *sw; /* its software warp */
};
_Static_assert(sizeof(struct fiber) % 16 == 0, "the stack below stays 16-byte aligned");

#define CANARY 0x46494252u /* 'FIBR' ^ the thread's index in its block */

static uint32_t stack_size(void) { return (uint32_t)(uintptr_t)__weft_stack_size; }

/* The fiber of thread `t` of the core's block: its stack is pool + t * size. */
static char *stack_of(char *pool, uint32_t t) { return pool + (size_t)t * stack_size(); }
static weft_thread *record_of(char *stack) {
    return (weft_thread *)(stack + stack_size() - 128);
}
static struct fiber *fiber_of(char *stack) {
    return (struct fiber *)((char *)record_of(stack) - sizeof(struct fiber));
}
static struct fiber *fiber_self(void) {
    return (struct fiber *)((char *)weft_self() - sizeof(struct fiber));
}

/* Fiber memory is kept from launch to launch (the heap never gives memory back). */
static char *pool_mem;
static uint32_t pool_bytes;

int __weft_fibers_prepare(struct weft_launch_rec *l) {
    uint32_t lanes = weft_num_lanes(), cores = weft_num_cores();
    uint32_t wpb = (l->block_threads + lanes - 1) / lanes;
    l->fibers = 0;
    l->sw = 0;
    if (wpb <= weft_num_warps() || !__weft_has_barriers()) return 0;
    uint64_t stacks = (uint64_t)cores * l->block_threads * stack_size();
    uint64_t need = stacks + (uint64_t)cores * wpb * sizeof(struct weft_sw);
    if (need > pool_bytes) {
        char *p = need < 0x80000000u ? malloc((size_t)need) : 0;
        if (!p) {
            static char why[200];
            snprintf(why, sizeof why,
                     "weft_launch: a block of %u threads is larger than a core and needs a "
                     "%u-byte stack per thread: %llu bytes that the heap does not have",
                     (unsigned)l->block_threads, (unsigned)stack_size(),
                     (unsigned long long)need);
            __weft_fail(WEFT_ERR_LAUNCH, why);
        }
        pool_mem = p;
        pool_bytes = (uint32_t)need;
    }
    l->fibers = pool_mem;
    l->sw = (struct weft_sw *)(pool_mem + stacks);
    return 0;
}

/* A new fiber: its record for thread `t` of block `b`, canary, and first context. */
static void fiber_init(const struct weft_launch_rec *l, char *stack, struct weft_sw *sw,
                       uint32_t t, uint32_t b, uint32_t shared, uint32_t window) {
    weft_thread *r = record_of(stack);
    struct fiber *f = fiber_of(stack);
    __weft_record_init(r, l, t, b, shared, window, 0, 0); /* slot_warps 0: switch fibers */
    r->in_kernel = 0;
    r->stack_lo = (uint32_t)(uintptr_t)stack + 64;
    uint32_t *w = (uint32_t *)stack;
    for (int i = 0; i < 16; i++) w[i] = CANARY ^ t;
    f->l = l;
    f->sw = sw;
    f->sched = 0;
    uint32_t gp;
    __asm__("mv %0, gp" : "=r"(gp));
    f->ctx.ra = (uint32_t)(uintptr_t)__weft_fiber_boot;
    f->ctx.sp = (uint32_t)(uintptr_t)f;
    f->ctx.gp = gp;
    f->ctx.tp = (uint32_t)(uintptr_t)r;
    f->ctx.call_depth = 0;
}

/* A fiber's life: the kernel for its thread, then back to the scheduler for good. */
__attribute__((noreturn)) void __weft_fiber_main(struct weft_ctx *sched) {
    struct fiber *f = fiber_self();
    weft_thread *self = weft_self();
    f->sched = sched;
    self->in_kernel = 1;
    f->l->kernel(f->l->args);
    self->in_kernel = 0;
    f->sw->state = SW_DONE;
    __weft_fiber_switch(&f->ctx, f->sched);
    for (;;) {
    }
}

void __weft_fiber_sync(void) {
    struct fiber *f = fiber_self();
    if (weft_tmask() != f->sw->mask)
        __weft_fail(WEFT_ERR_SYNC,
                    "weft_syncthreads: in a block larger than a core, all the threads of a "
                    "warp must reach a barrier together; here some did not (they returned "
                    "early or the barrier is under a branch they did not take)");
    __asm__ volatile("fence" ::: "memory");
    f->sw->state = SW_WAITING;
    f->sched = __weft_fiber_switch(&f->ctx, f->sched);
}

void __weft_fibers_run_block(const struct weft_launch_rec *l, uint32_t b, uint32_t shared,
                             uint32_t window, uint32_t first, uint32_t step) {
    uint32_t lanes = weft_num_lanes(), lane = weft_lane_id(), warps = weft_num_warps();
    uint32_t threads = l->block_threads, wpb = (threads + lanes - 1) / lanes;
    uint32_t full = lanes >= 32 ? 0xFFFFFFFFu : (1u << lanes) - 1;
    char *pool = l->fibers + (size_t)weft_core_id() * threads * stack_size();
    struct weft_sw *sws = l->sw + weft_core_id() * wpb;
    for (uint32_t sw = first; sw < wpb; sw += step) {
        uint32_t live = threads - sw * lanes, t = sw * lanes + lane;
        sws[sw].mask = live >= lanes ? full : (1u << live) - 1;
        sws[sw].state = SW_NEW;
        if (t < threads) fiber_init(l, stack_of(pool, t), &sws[sw], t, b, shared, window);
    }
    struct weft_ctx sched;
    for (;;) {
        uint32_t waiting = 0;
        for (uint32_t sw = first; sw < wpb; sw += step) {
            struct weft_sw *s = &sws[sw];
            if (s->state == SW_DONE) continue;
            /* Lanes past the block's threads are switched off: their fiber does not exist. */
            __weft_fiber_enter(&sched, &fiber_of(stack_of(pool, sw * lanes + lane))->ctx,
                               s->mask);
            if (s->state == SW_WAITING) waiting++;
        }
        if (!waiting) break;
        /* Every software warp of this hardware warp waits: meet the other hardware warps. */
        weft_barrier(0, warps);
    }
    for (uint32_t sw = first; sw < wpb; sw += step) {
        uint32_t t = sw * lanes + lane;
        if (t >= threads) continue;
        const uint32_t *w = (const uint32_t *)stack_of(pool, t);
        for (int i = 0; i < 16; i++)
            if (w[i] != (CANARY ^ t)) __weft_fiber_overflow(b, t, stack_size());
    }
}

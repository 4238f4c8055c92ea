/* The device side of weft's runtime: ids, the grid/block launch and its software-warp
 * scheduler, barriers, shared memory, warp spawn, counters, the stack canaries, exit.
 *
 * A launch: core 0's main() fills one launch record and arrives at global barrier 0, where the
 * other cores' warp 0 wait (__weft_idle). On every core warp 0 then starts the other warps at
 * __weft_spawn_entry and joins with all its lanes; each warp runs __weft_worker: the core takes
 * blocks core, core + cores·slots, …; a block's threads are cut into software warps of `lanes`
 * threads, which go round-robin onto the warps of the block's slot. All warps of a core meet at
 * the last barrier id when the grid is done; warp 0 then narrows to lane 0, and the cores meet
 * at global barrier 1, after which core 0 prints the buffered kernel output and returns. */
#include "weft.h"
#include "weft_internal.h"

#define CSR_WARP_ACTIVE 0x800
#define CSR_SPAWN_PC 0x802
#define CSR_SPAWN_ARGS 0x803
#define CSR_TMASK 0x804
#define CSR_BARRIER 0x805

#define csr_read(n)                                                                           \
    ({                                                                                        \
        uint32_t v_;                                                                          \
        __asm__ volatile("csrr %0, " #n : "=r"(v_));                                          \
        v_;                                                                                   \
    })
#define csr_write(n, v) __asm__ volatile("csrw " #n ", %0" ::"r"((uint32_t)(v)) : "memory")

#ifndef WEFT_LOCAL_MEM_SIZE
#define WEFT_LOCAL_MEM_SIZE (16u << 10)
#endif

/* crt0.S reserves 128 bytes for the record and clears in_kernel at offset 68. */
_Static_assert(sizeof(weft_thread) <= 128, "weft_thread outgrew crt0's 128 bytes");
_Static_assert(__builtin_offsetof(weft_thread, in_kernel) == 68, "crt0.S clears offset 68");
_Static_assert(__builtin_offsetof(weft_thread, stack_lo) == 72, "crt0.S sets offset 72");

extern char __weft_stacks[];
extern char __weft_stack_size[];
void __weft_spawn_entry(void);
void __weft_warp0_run(const struct weft_launch_rec *l);

weft_thread *(weft_self)(void) { return __weft_self_tp(); }

uint32_t weft_lane_id(void) { return csr_read(0xcc0); }
uint32_t weft_warp_id(void) { return csr_read(0xcc1); }
uint32_t weft_core_id(void) { return csr_read(0xcc2); }
uint32_t weft_num_lanes(void) { return csr_read(0xfc0); }
uint32_t weft_num_warps(void) { return csr_read(0xfc1); }
uint32_t weft_num_cores(void) { return csr_read(0xfc2); }
uint32_t weft_hart_id(void) { return csr_read(0xf14); }
uint32_t weft_tmask(void) { return csr_read(0x804); }
void weft_set_tmask(uint32_t mask) { csr_write(0x804, mask); }

void weft_barrier(uint32_t id, uint32_t count) { csr_write(0x805, (count << 16) | id); }

/* Vortex's `bar` with bit 31 of the id set: `count` cores meet (one warp each). */
static void global_barrier(uint32_t id, uint32_t count) {
    uint32_t gid = id | 0x80000000u;
    __asm__ volatile(".insn r 0x0B, 4, 0, x0, %0, %1" ::"r"(gid), "r"(count) : "memory");
}

uint64_t weft_cycles(void) {
    uint32_t hi, lo, hi2;
    do {
        hi = csr_read(0xc80);
        lo = csr_read(0xc00);
        hi2 = csr_read(0xc80);
    } while (hi != hi2);
    return ((uint64_t)hi << 32) | lo;
}

uint64_t weft_instret(void) {
    uint32_t hi, lo, hi2;
    do {
        hi = csr_read(0xc82);
        lo = csr_read(0xc02);
        hi2 = csr_read(0xc82);
    } while (hi != hi2);
    return ((uint64_t)hi << 32) | lo;
}

/* ---- stacks, heap, exit ------------------------------------------------------------------- */

static uint32_t stack_size(void) { return (uint32_t)(uintptr_t)__weft_stack_size; }
static void stack_overflow(uint32_t h, uint32_t size) __attribute__((noreturn));

static uint32_t hart_count(void) {
    return weft_num_cores() * weft_num_warps() * weft_num_lanes();
}

char *__weft_heap_start(void) { return __weft_stacks + hart_count() * stack_size(); }

/* Check every lane's canary; on damage print which lane overran and end the run. */
void __weft_check_stacks(void) {
    uint32_t n = hart_count(), size = stack_size();
    for (uint32_t h = 0; h < n; h++) {
        const volatile uint32_t *w = (const volatile uint32_t *)(__weft_stacks + h * size);
        uint32_t any = 0;
        for (int i = 0; i < 16; i++) any |= w[i];
        if (any == 0) continue; /* this lane never ran */
        for (int i = 0; i < 16; i++) {
            if (w[i] != (0x57454654u ^ h)) stack_overflow(h, size);
        }
    }
}

/* The first lane to end the run prints and stores the exit word; a lane that gets here
 * after it halts its group instead (it must not spin: its warp may hold the first lane). */
static uint32_t finishing;
static void claim_exit(void) {
    if (__atomic_exchange_n(&finishing, 1, __ATOMIC_SEQ_CST) != 0) {
        csr_write(0x804, 0);
        for (;;) {
        }
    }
}

static void stack_overflow(uint32_t h, uint32_t size) {
    uint32_t lanes = weft_num_lanes(), warps = weft_num_warps();
    __weft_fifo_flush(); /* kernel output so far, then this message directly */
    weft_printf("weft: stack overflow: core %u warp %u lane %u ran past the bottom of its "
                "%u-byte stack (raise it with weft cc --stack-size BYTES)\n",
                (unsigned)(h / lanes / warps), (unsigned)(h / lanes % warps),
                (unsigned)(h % lanes), (unsigned)size);
    __weft_exit_now(WEFT_ERR_STACK);
}

/* Called on entry to every function of a kernel built with weft cc's stack check
 * (-finstrument-functions-after-inlining): the frame just allocated must lie above the
 * lane's canary. */
__attribute__((no_instrument_function)) void __cyg_profile_func_enter(void *fn, void *site) {
    (void)fn;
    (void)site;
    uint32_t sp;
    __asm__("mv %0, sp" : "=r"(sp));
    if (sp < weft_self()->stack_lo) {
        claim_exit();
        stack_overflow(weft_hart_id(), stack_size());
    }
}

__attribute__((no_instrument_function)) void __cyg_profile_func_exit(void *fn, void *site) {
    (void)fn;
    (void)site;
}

void __weft_exit_now(int code) {
    *(volatile uint32_t *)0xFFFFFF04u = (uint32_t)code;
    for (;;) {
    }
}

void weft_exit(int code) {
    claim_exit();
    __weft_fifo_flush();
    __weft_check_stacks();
    __weft_exit_now(code);
}

void exit(int code) { weft_exit(code); }
void abort(void) { weft_exit(134); }

void __weft_assert_fail(const char *expr, const char *file, int line) {
    claim_exit();
    __weft_fifo_flush();
    weft_printf("%s:%d: assertion failed: %s\n", file, line, expr);
    __weft_exit_now(134);
}

/* ---- the launch --------------------------------------------------------------------------- */

static struct weft_launch_rec launch_rec;
static uint32_t launching;

void __weft_fail(int code, const char *why) {
    claim_exit();
    __weft_fifo_flush();
    weft_printf("weft: %s\n", why);
    __weft_exit_now(code);
}
#define fail __weft_fail

void __weft_fiber_overflow(uint32_t b, uint32_t t, uint32_t size) {
    claim_exit();
    __weft_fifo_flush();
    weft_printf("weft: stack overflow: thread %u of block %u ran past the bottom of its "
                "%u-byte stack (raise it with weft cc --stack-size BYTES)\n",
                (unsigned)t, (unsigned)b, (unsigned)size);
    __weft_exit_now(WEFT_ERR_STACK);
}

/* A block that fits in the core: this hardware warp runs its software warps first, first +
 * step, … one after another; the block's warps meet at hardware barrier `slot`. */
static void run_block(const struct weft_launch_rec *l, uint32_t b, uint32_t shared,
                      uint32_t window, uint32_t slot, uint32_t first, uint32_t step) {
    weft_thread *self = weft_self();
    uint32_t lanes = weft_num_lanes(), lane = weft_lane_id();
    uint32_t wpb = (l->block_threads + lanes - 1) / lanes;
    for (uint32_t sw = first; sw < wpb; sw += step) {
        uint32_t t = sw * lanes + lane;
        if (t < l->block_threads) {
            __weft_record_init(self, l, t, b, shared, window, slot, wpb);
            self->in_kernel = 1;
            l->kernel(l->args);
            self->in_kernel = 0;
        }
    }
}

/* Every lane of every warp of a core runs this for a launch. */
void __weft_worker(const struct weft_launch_rec *l) {
    uint32_t lanes = weft_num_lanes(), warps = weft_num_warps(), cores = weft_num_cores();
    uint32_t warp = weft_warp_id(), core = weft_core_id();
    uint32_t wpb = (l->block_threads + lanes - 1) / lanes;
    uint32_t slots, slot, first, step, slot_warps;
    if (wpb <= warps) {
        slots = warps / wpb;
        if (slots > l->max_slots) slots = l->max_slots;
        slot = warp / wpb;
        first = warp % wpb;
        step = wpb;
        slot_warps = wpb;
    } else {
        slots = 1;
        slot = 0;
        first = warp;
        step = warps;
        slot_warps = warps;
    }
    uint32_t window = WEFT_LOCAL_MEM_SIZE / slots & ~15u;
    uint32_t shared = csr_read(0xfc3) + slot * window;
    if (slot < slots) {
        for (uint32_t b = core * slots + slot; b < l->blocks; b += cores * slots) {
            if (wpb <= warps || !__weft_has_barriers())
                /* (a block larger than the core in a program without barriers: its software
                 * warps in turn on this hardware warp's own stacks, as fibers that never
                 * switch would run) */
                run_block(l, b, shared, window, slot, first, step);
            else /* the block is larger than the core: fibers (fiber.c) */
                __weft_fibers_run_block(l, b, shared, window, first, step);
            /* The slot's shared memory is reused by the next block. */
            weft_barrier(slot, slot_warps);
        }
    }
    weft_barrier(l->end_barrier, warps);
}

static int launch(dim3 grid, dim3 block, uint32_t shared_bytes, weft_kernel_fn kernel,
                  void *args) {
    if (weft_self()->in_kernel || launching) fail(WEFT_ERR_LAUNCH, "weft_launch called inside a kernel");
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 ||
        block.z == 0)
        fail(WEFT_ERR_LAUNCH, "weft_launch: a grid or block extent is 0");
    uint64_t blocks = (uint64_t)grid.x * grid.y * grid.z;
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (blocks > 0xFFFFFFFFu || threads > 0xFFFFu || blocks * threads > 0xFFFFFFFFu)
        fail(WEFT_ERR_LAUNCH, "weft_launch: more than 2^32 threads, or a block of more than "
                              "65535 threads");
    uint32_t barriers = csr_read(0xfc4);
    uint32_t warps = weft_num_warps();
    if (barriers < 2) fail(WEFT_ERR_LAUNCH, "weft_launch needs at least 2 barriers per core");
    struct weft_launch_rec *l = &launch_rec;
    l->kernel = kernel;
    l->args = args;
    l->grid = grid;
    l->block = block;
    l->blocks = (uint32_t)blocks;
    l->block_threads = (uint32_t)threads;
    l->end_barrier = barriers - 1;
    l->max_slots = barriers - 1 < warps ? barriers - 1 : warps;
    if (shared_bytes > WEFT_LOCAL_MEM_SIZE)
        fail(WEFT_ERR_SHARED, "weft_launch_shared: more shared memory per block than a core has");
    if (shared_bytes > 0 && WEFT_LOCAL_MEM_SIZE / shared_bytes < l->max_slots)
        l->max_slots = WEFT_LOCAL_MEM_SIZE / shared_bytes;
    __weft_fibers_prepare(l);
    launching = 1;
    __weft_fifo_begin();
    __asm__ volatile("fence" ::: "memory");
    /* The machine keeps each launch's counters apart (the `launch` CSR 0x813, docs/isa.md). */
    csr_write(0x813, (uint32_t)(uintptr_t)kernel);
    global_barrier(0, weft_num_cores());
    __weft_core_run(l);
    global_barrier(1, weft_num_cores());
    csr_write(0x813, 0);
    launching = 0;
    __weft_fifo_flush();
    __weft_check_stacks();
    return 0;
}

/* Warp 0 of a core (lane 0): start the other warps and run the launch with every lane. */
void __weft_core_run(const struct weft_launch_rec *l) {
    uint32_t warps = weft_num_warps();
    if (warps > 1) {
        /* The warps of the previous launch halt one instruction after its end barrier frees
         * them; a warp_active write starts only halted warps, so wait until they have (no
         * wait under round-robin issue, but a larger scheduling quantum lets warp 0 get here
         * first). */
        while (csr_read(0x800) & ~1u) {
        }
        csr_write(0x802, (uint32_t)(uintptr_t)__weft_spawn_entry);
        csr_write(0x803, (uint32_t)(uintptr_t)l);
        csr_write(0x800, (warps >= 32 ? 0xFFFFFFFFu : (1u << warps) - 1) & ~1u);
    }
    __weft_warp0_run(l);
}

/* Cores other than 0: wait for each launch, run it, meet core 0 at its end. */
void __weft_idle(void) {
    for (;;) {
        global_barrier(0, weft_num_cores());
        __weft_core_run(&launch_rec);
        global_barrier(1, weft_num_cores());
    }
}

/* A launch from the host runtime (weft-runtime): the host writes this record (found by its
 * symbol), restarts the machine at _start and runs it; a program without a main() of its own
 * gets the weak main() below, which performs the launch. It lives in .data so that crt0's
 * clearing of .bss does not wipe what the host wrote. */
#define WEFT_MAILBOX_MAGIC 0x4c415545u /* 'EUAL' */
struct weft_mailbox {
    uint32_t magic;
    weft_kernel_fn kernel;
    void *args;
    dim3 grid, block;
    uint32_t shared_bytes;
    uint32_t heap_end; /* where the host's memory begins: malloc stays below (0: no limit) */
};
__attribute__((used, section(".data"))) volatile struct weft_mailbox __weft_mailbox = {0};
static uint32_t heap_end;

__attribute__((weak)) int main(void) {
    volatile struct weft_mailbox *m = &__weft_mailbox;
    if (m->magic != WEFT_MAILBOX_MAGIC)
        fail(WEFT_ERR_LAUNCH, "this program has no main() and the host launched nothing");
    m->magic = 0;
    heap_end = m->heap_end;
    dim3 grid = {m->grid.x, m->grid.y, m->grid.z}, block = {m->block.x, m->block.y, m->block.z};
    return launch(grid, block, m->shared_bytes, m->kernel, m->args);
}

int weft_launch(dim3 grid, dim3 block, weft_kernel_fn kernel, void *args) {
    return launch(grid, block, 0, kernel, args);
}

int weft_launch_shared(dim3 grid, dim3 block, uint32_t shared_bytes, weft_kernel_fn kernel,
                       void *args) {
    return launch(grid, block, shared_bytes, kernel, args);
}

/* ---- inside a kernel --------------------------------------------------------------------- */

uint32_t weft_block_thread(void) {
    weft_thread *t = weft_self();
    return (t->thread_idx.z * t->block_dim.y + t->thread_idx.y) * t->block_dim.x +
           t->thread_idx.x;
}

uint32_t weft_block_linear(void) {
    weft_thread *t = weft_self();
    return (t->block_idx.z * t->grid_dim.y + t->block_idx.y) * t->grid_dim.x + t->block_idx.x;
}

uint32_t weft_global_thread(void) {
    weft_thread *t = weft_self();
    return weft_block_linear() * (t->block_dim.x * t->block_dim.y * t->block_dim.z) +
           weft_block_thread();
}

void *weft_shared_alloc(uint32_t bytes) {
    weft_thread *t = weft_self();
    uint32_t n = (bytes + 15) & ~15u;
    if (!t->in_kernel) fail(WEFT_ERR_SHARED, "weft_shared_alloc outside a kernel");
    if (n < bytes || n > t->shared_end - t->shared_top)
        fail(WEFT_ERR_SHARED, "weft_shared_alloc: out of shared memory for this block");
    void *p = (void *)(uintptr_t)t->shared_top;
    t->shared_top += n;
    return p;
}

void weft_shared_free(void *p) {
    weft_thread *t = weft_self();
    uint32_t a = (uint32_t)(uintptr_t)p;
    if (a < t->shared_base || a > t->shared_top)
        fail(WEFT_ERR_SHARED, "weft_shared_free: not this block's shared memory");
    t->shared_top = a;
}

/* ---- warps ------------------------------------------------------------------------------- */

static struct {
    void (*fn)(void *);
    void *arg;
} spawn_rec;

void __weft_spawned(void) {
    spawn_rec.fn(spawn_rec.arg);
}

void weft_spawn_warps(uint32_t mask, void (*fn)(void *), void *arg) {
    extern void __weft_user_spawn_entry(void);
    spawn_rec.fn = fn;
    spawn_rec.arg = arg;
    __asm__ volatile("fence" ::: "memory");
    csr_write(0x802, (uint32_t)(uintptr_t)__weft_user_spawn_entry);
    csr_write(0x800, mask & ~(1u << weft_warp_id()));
}

void weft_wait_warps(void) {
    uint32_t me = 1u << weft_warp_id();
    while (csr_read(0x800) & ~me) {
    }
}

/* ---- atomics without an AMO of their own width --------------------------------------------- */

int32_t weft_atomic_min(volatile int32_t *p, int32_t v) {
    int32_t old;
    __asm__ volatile("amomin.w %0, %2, (%1)" : "=r"(old) : "r"(p), "r"(v) : "memory");
    return old;
}
int32_t weft_atomic_max(volatile int32_t *p, int32_t v) {
    int32_t old;
    __asm__ volatile("amomax.w %0, %2, (%1)" : "=r"(old) : "r"(p), "r"(v) : "memory");
    return old;
}
uint32_t weft_atomic_minu(volatile uint32_t *p, uint32_t v) {
    uint32_t old;
    __asm__ volatile("amominu.w %0, %2, (%1)" : "=r"(old) : "r"(p), "r"(v) : "memory");
    return old;
}
uint32_t weft_atomic_maxu(volatile uint32_t *p, uint32_t v) {
    uint32_t old;
    __asm__ volatile("amomaxu.w %0, %2, (%1)" : "=r"(old) : "r"(p), "r"(v) : "memory");
    return old;
}

/* ---- heap --------------------------------------------------------------------------------- */

static char *heap_next;

/* NULL when the host runtime's memory (its buffers, above heap_end) would be reached. */
void *malloc(size_t n) {
    if (!heap_next) heap_next = __weft_heap_start() + __weft_fifo_bytes();
    char *p = (char *)(((uintptr_t)heap_next + 15) & ~(uintptr_t)15);
    if (heap_end && (n > heap_end || (uintptr_t)p > heap_end - n)) return 0;
    heap_next = p + n;
    return p;
}

void *calloc(size_t n, size_t size) {
    char *p = malloc(n * size);
    for (size_t i = 0; i < n * size; i++) p[i] = 0;
    return p;
}

void free(void *p) { (void)p; }

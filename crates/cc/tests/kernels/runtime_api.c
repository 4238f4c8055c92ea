/* The runtime calls that the launch does not use: warp spawn and wait, the thread mask, raw
 * core barriers, the counters, the atomics without an AMO of their own, malloc. The test
 * computes every expected line itself from the machine's shape. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <weft.h>

static volatile uint32_t ids[32 * 32];
static volatile uint32_t arrived;

static void worker(void *arg) {
    uint32_t base = (uint32_t)(uintptr_t)arg;
    ids[weft_warp_id() * weft_num_lanes() + weft_lane_id()] = base + weft_hart_id();
    weft_atomic_add(&arrived, 1);
}

int main(void) {
    uint32_t warps = weft_num_warps(), lanes = weft_num_lanes();
    uint32_t mask = (warps >= 32 ? 0xFFFFFFFFu : (1u << warps) - 1) & ~1u;
    weft_spawn_warps(mask, worker, (void *)(uintptr_t)1000);
    weft_wait_warps();
    printf("arrived %u\n", arrived);
    for (uint32_t w = 1; w < warps; w++)
        for (uint32_t l = 0; l < lanes; l++) printf("w%u l%u %u\n", w, l, ids[w * lanes + l]);
    printf("tmask %x\n", weft_tmask());
    uint64_t c0 = weft_cycles(), i0 = weft_instret();
    volatile uint32_t spin = 0;
    for (int i = 0; i < 100; i++) spin += i;
    uint64_t c1 = weft_cycles(), i1 = weft_instret();
    printf("counters grow %d %d\n", c1 > c0 + 100, i1 > i0 + 100);
    volatile int32_t m = 5;
    volatile uint32_t u = 5;
    int32_t o1 = weft_atomic_min(&m, -3), o2 = weft_atomic_max(&m, 9);
    uint32_t o3 = weft_atomic_minu(&u, 2), o4 = weft_atomic_maxu(&u, 7);
    uint32_t o5 = weft_atomic_cas(&u, 7, 11), o6 = weft_atomic_cas(&u, 7, 12), o7 = weft_atomic_exch(&u, 1);
    printf("atomics %d %d %d %u %u %u %u %u %u\n", o1, o2, m, o3, o4, o5, o6, o7, u);
    uint32_t *p = malloc(64), *q = calloc(4, 4);
    printf("malloc %d %d %u\n", p != 0 && ((uintptr_t)p & 15) == 0, q > p, q[0] + q[3]);
    weft_barrier(0, 1); /* a barrier of one warp passes at once */
    printf("done\n");
    return 0;
}

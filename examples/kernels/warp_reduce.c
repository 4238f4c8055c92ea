/* warp_reduce: sum of an array with warp shuffles — each warp adds its values with
 * __shfl_down_sync (log2(warpSize) steps, no shared memory, no barrier), then lane 0 adds the
 * warp's sum to the total with one atomic. The shared-memory reduction of reduce.c (halving,
 * a barrier between steps) runs on the same data for comparison; build with -DWEFT_TIME to
 * print the cycles of each launch (docs/warp.md compares them under --timing). The halving
 * steps of both need a power of two: warpSize 1, 2, 4, 8, 16 or 32. */
#include "common.h"

#define N 4096
#define FULL 0xffffffffu
static uint32_t data[N];
static volatile uint32_t warp_total, shared_total;

struct args { const uint32_t *in; uint32_t n; volatile uint32_t *out; uint32_t block; };

static void reduce_warp(void *p) {
    struct args *g = p;
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t v = 0;
    for (; i < g->n; i += gridDim.x * blockDim.x) v += g->in[i];
    for (int off = warpSize / 2; off > 0; off /= 2) v += __shfl_down_sync(FULL, v, off);
    if (threadIdx.x % warpSize == 0) atomicAdd(g->out, v);
}

#ifdef WEFT_TIME
/* Nothing: the launch's own cost. */
static void empty(void *p) { (void)p; }
#endif

static void reduce_shared(void *p) {
    struct args *g = p;
    uint32_t BLOCK = g->block;
    uint32_t *part = weft_shared_alloc(BLOCK * sizeof(uint32_t));
    uint32_t t = threadIdx.x, i = blockIdx.x * BLOCK + t;
    uint32_t v = 0;
    for (; i < g->n; i += gridDim.x * BLOCK) v += g->in[i];
    part[t] = v;
    __syncthreads();
    for (uint32_t s = BLOCK / 2; s > 0; s /= 2) {
        if (t < s) part[t] += part[t + s];
        __syncthreads();
    }
    if (t == 0) atomicAdd(g->out, part[0]);
}

int main(void) {
    uint32_t want = 0;
    for (int i = 0; i < N; i++) { data[i] = lcg() % 100000; want += data[i]; }
    /* the same grid for both: blocks that fit a core (for the barriers), a multiple of warpSize */
    uint32_t BLOCK = block_for_barriers(256), GRID = 8;
    struct args w = {data, N, &warp_total, BLOCK}, s = {data, N, &shared_total, BLOCK};
    uint64_t c0 = weft_cycles();
    weft_launch(weft_dim3(GRID, 1, 1), weft_dim3(BLOCK, 1, 1), reduce_warp, &w);
    uint64_t c1 = weft_cycles();
    weft_launch_shared(weft_dim3(GRID, 1, 1), weft_dim3(BLOCK, 1, 1), BLOCK * sizeof(uint32_t),
                       reduce_shared, &s);
    uint64_t c2 = weft_cycles();
#ifdef WEFT_TIME
    weft_launch(weft_dim3(GRID, 1, 1), weft_dim3(BLOCK, 1, 1), empty, 0);
    uint64_t c3 = weft_cycles();
    printf("cycles: warp shuffles %llu, shared memory %llu, an empty launch %llu "
           "(block %u, grid %u)\n",
           (unsigned long long)(c1 - c0), (unsigned long long)(c2 - c1),
           (unsigned long long)(c3 - c2), BLOCK, GRID);
#else
    (void)c0, (void)c1, (void)c2;
#endif
    printf("sum %u (expected %u), shared-memory sum %u\n", warp_total, want, shared_total);
    return report("warp_reduce", (warp_total != want) + (shared_total != want), 0);
}

/* reduce: sum of an array, each block reducing its part in shared memory by halving
 * (weft_syncthreads between steps), then one atomic add per block. */
#include "common.h"

#define N (3000 * SCALE)
static uint32_t data[N];
static volatile uint32_t total;

struct args { const uint32_t *in; uint32_t n; volatile uint32_t *out; uint32_t block; };

static void reduce(void *p) {
    struct args *g = p;
    uint32_t BLOCK = g->block;
    uint32_t *part = weft_shared_alloc(BLOCK * sizeof(uint32_t));
    uint32_t t = threadIdx.x, i = blockIdx.x * BLOCK + t;
    part[t] = i < g->n ? g->in[i] : 0;
    __syncthreads();
    for (uint32_t s = BLOCK / 2; s > 0; s /= 2) {
        if (t < s) part[t] += part[t + s];
        __syncthreads();
    }
    if (t == 0) weft_atomic_add(g->out, part[0]);
}

int main(void) {
    uint32_t want = 0;
    for (int i = 0; i < N; i++) { data[i] = lcg() % 100000; want += data[i]; }
    uint32_t BLOCK = block_for_barriers(64);
    struct args g = {data, N, &total, BLOCK};
    weft_launch_shared(weft_dim3((N + BLOCK - 1) / BLOCK, 1, 1), weft_dim3(BLOCK, 1, 1),
                       BLOCK * sizeof(uint32_t), reduce, &g);
    printf("sum %u (expected %u)\n", total, want);
    return report("reduce", total != want, 0);
}

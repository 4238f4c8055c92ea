/* histogram: 64 bins of byte values, each thread adding its elements with atomics, first into
 * a per-block histogram in shared memory, then into the global one. */
#include "common.h"

#define N (4096 * SCALE)
#define BINS 64
static uint8_t data[N];
static uint32_t hist[BINS];

struct args { const uint8_t *in; uint32_t n; uint32_t *out; uint32_t block; };

static void histogram(void *p) {
    struct args *g = p;
    uint32_t BLOCK = g->block;
    uint32_t *local = weft_shared_alloc(BINS * sizeof(uint32_t));
    uint32_t t = threadIdx.x;
    for (uint32_t b = t; b < BINS; b += BLOCK) local[b] = 0;
    __syncthreads();
    for (uint32_t i = blockIdx.x * BLOCK + t; i < g->n; i += gridDim.x * BLOCK)
        weft_atomic_add(&local[g->in[i] % BINS], 1);
    __syncthreads();
    for (uint32_t b = t; b < BINS; b += BLOCK) weft_atomic_add(&g->out[b], local[b]);
}

int main(void) {
    uint32_t want[BINS] = {0};
    for (int i = 0; i < N; i++) {
        data[i] = (uint8_t)(lcg() ^ (lcg() >> 3));
        want[data[i] % BINS]++;
    }
    uint32_t BLOCK = block_for_barriers(128);
    struct args g = {data, N, hist, BLOCK};
    weft_launch_shared(weft_dim3(8, 1, 1), weft_dim3(BLOCK, 1, 1), BINS * sizeof(uint32_t),
                       histogram, &g);
    uint32_t bad = 0, first = 0;
    for (uint32_t b = 0; b < BINS; b++)
        if (hist[b] != want[b] && bad++ == 0) first = b;
    printf("bins[0..4] %u %u %u %u checksum %08x\n", hist[0], hist[1], hist[2], hist[3],
           checksum_u32(hist, BINS));
    return report("histogram", bad, first);
}

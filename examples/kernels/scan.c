/* scan: inclusive prefix sum. Each block scans its 64 elements in shared memory
 * (Hillis-Steele, weft_syncthreads between steps) and writes its total; a second launch adds
 * the preceding blocks' totals. */
#include "common.h"

#define N (1000 * SCALE)
#define MAX_NB N
static uint32_t in[N], out[N], sums[MAX_NB];

struct args { const uint32_t *in; uint32_t *out, *sums; uint32_t n, block; };

static void scan_block(void *p) {
    struct args *g = p;
    uint32_t BLOCK = g->block;
    uint32_t *buf = weft_shared_alloc(2 * BLOCK * sizeof(uint32_t));
    uint32_t t = threadIdx.x, i = blockIdx.x * BLOCK + t;
    uint32_t src = 0;
    buf[t] = i < g->n ? g->in[i] : 0;
    __syncthreads();
    for (uint32_t off = 1; off < BLOCK; off *= 2) {
        uint32_t v = buf[src * BLOCK + t];
        if (t >= off) v += buf[src * BLOCK + t - off];
        buf[(1 - src) * BLOCK + t] = v;
        src = 1 - src;
        __syncthreads();
    }
    if (i < g->n) g->out[i] = buf[src * BLOCK + t];
    if (t == BLOCK - 1) g->sums[blockIdx.x] = buf[src * BLOCK + t];
}

static void add_offsets(void *p) {
    struct args *g = p;
    uint32_t i = blockIdx.x * g->block + threadIdx.x;
    if (i >= g->n) return;
    uint32_t add = 0;
    for (uint32_t b = 0; b < blockIdx.x; b++) add += g->sums[b];
    g->out[i] += add;
}

int main(void) {
    for (int i = 0; i < N; i++) in[i] = lcg() % 1000;
    uint32_t BLOCK = block_for_barriers(64), NB = (N + BLOCK - 1) / BLOCK;
    struct args g = {in, out, sums, N, BLOCK};
    weft_launch_shared(weft_dim3(NB, 1, 1), weft_dim3(BLOCK, 1, 1), 2 * BLOCK * sizeof(uint32_t),
                       scan_block, &g);
    weft_launch(weft_dim3(NB, 1, 1), weft_dim3(BLOCK, 1, 1), add_offsets, &g);
    uint32_t bad = 0, first = 0, run = 0;
    for (uint32_t i = 0; i < N; i++) {
        run += in[i];
        if (out[i] != run && bad++ == 0) first = i;
    }
    printf("last %u checksum %08x\n", out[N - 1], checksum_u32(out, N));
    return report("scan", bad, first);
}

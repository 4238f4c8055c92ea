/* warp_scan: inclusive prefix sum with warp shuffles, in three launches: each warp scans its
 * values (__shfl_up_sync, log2(warpSize) steps) and writes its total; one warp scans those
 * totals a warp-sized chunk at a time, carrying the running sum; every thread then adds the
 * total of the warps before its own. */
#include "common.h"

#define N 3000
static uint32_t in[N], out[N], totals[N + 64]; /* a total per warp of the padded grid */

struct args { const uint32_t *in; uint32_t *out, *totals; uint32_t n, warps; };

static void scan_warps(void *p) {
    struct args *g = p;
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t v = warp_inclusive_scan(i < g->n ? g->in[i] : 0);
    if (i < g->n) g->out[i] = v;
    if (threadIdx.x % warpSize == (uint32_t)warpSize - 1) g->totals[i / warpSize] = v;
}

/* One warp: totals[] becomes the exclusive scan of the warps' totals. */
static void scan_totals(void *p) {
    struct args *g = p;
    warp_exclusive_scan_in_place(g->totals, g->warps);
}

static void add_totals(void *p) {
    struct args *g = p;
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < g->n) g->out[i] += g->totals[i / warpSize];
}

int main(void) {
    for (int i = 0; i < N; i++) in[i] = lcg() % 1000;
    uint32_t W = (uint32_t)warpSize, BLOCK = (64 + W - 1) / W * W; /* whole warps */
    uint32_t NB = (N + BLOCK - 1) / BLOCK;
    struct args g = {in, out, totals, N, NB * BLOCK / W};
    weft_launch(weft_dim3(NB, 1, 1), weft_dim3(BLOCK, 1, 1), scan_warps, &g);
    weft_launch(weft_dim3(1, 1, 1), weft_dim3(W, 1, 1), scan_totals, &g);
    weft_launch(weft_dim3(NB, 1, 1), weft_dim3(BLOCK, 1, 1), add_totals, &g);
    uint32_t bad = 0, first = 0, run = 0;
    for (uint32_t i = 0; i < N; i++) {
        run += in[i];
        if (out[i] != run && bad++ == 0) first = i;
    }
    printf("last %u checksum %08x\n", out[N - 1], checksum_u32(out, N));
    return report("warp_scan", bad, first);
}

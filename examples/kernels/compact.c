/* compact: stream compaction — keep the elements that pass a test, in order. Each warp takes
 * __ballot_sync of the test; a lane's place among the warp's kept elements is the popcount of
 * the ballot's bits below it, and the warp's count is the popcount of the whole ballot. One
 * launch counts per warp, one warp turns the counts into offsets, a third writes. */
#include "common.h"

#define N 3000
#define FULL 0xffffffffu
static uint32_t in[N], out[N], counts[N + 64]; /* a count per warp of the padded grid */

struct args { const uint32_t *in; uint32_t *out, *counts; uint32_t n, warps; };

static int keep(uint32_t x) { return x % 7 < 3; }

static void count_warps(void *p) {
    struct args *g = p;
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned ballot = __ballot_sync(FULL, i < g->n && keep(g->in[i]));
    if (threadIdx.x % warpSize == 0) g->counts[i / warpSize] = (uint32_t)__popc(ballot);
}

/* One warp: counts[] becomes the exclusive scan of the counts. */
static void offsets(void *p) {
    struct args *g = p;
    warp_exclusive_scan_in_place(g->counts, g->warps);
}

static void write_kept(void *p) {
    struct args *g = p;
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = i < g->n && keep(g->in[i]);
    unsigned ballot = __ballot_sync(FULL, k);
    if (k) g->out[g->counts[i / warpSize] + __popc(ballot & weft_lanemask_lt())] = g->in[i];
}

int main(void) {
    for (int i = 0; i < N; i++) in[i] = lcg() % 10000;
    uint32_t W = (uint32_t)warpSize, BLOCK = (64 + W - 1) / W * W; /* whole warps */
    uint32_t NB = (N + BLOCK - 1) / BLOCK;
    struct args g = {in, out, counts, N, NB * BLOCK / W};
    weft_launch(weft_dim3(NB, 1, 1), weft_dim3(BLOCK, 1, 1), count_warps, &g);
    weft_launch(weft_dim3(1, 1, 1), weft_dim3(W, 1, 1), offsets, &g);
    weft_launch(weft_dim3(NB, 1, 1), weft_dim3(BLOCK, 1, 1), write_kept, &g);
    uint32_t bad = 0, first = 0, k = 0;
    for (uint32_t i = 0; i < N; i++) {
        if (!keep(in[i])) continue;
        if (out[k] != in[i] && bad++ == 0) first = k;
        k++;
    }
    printf("kept %u checksum %08x\n", k, checksum_u32(out, k));
    return report("compact", bad, first);
}

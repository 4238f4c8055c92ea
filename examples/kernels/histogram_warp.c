/* histogram_warp: 64 bins with warp-aggregated atomics. The lanes of a warp that fall in the
 * same bin elect a leader (the lowest of them), count themselves with __ballot_sync and
 * __popc, and the leader adds the count with one atomicAdd — one atomic per distinct bin per
 * warp instead of one per element. */
#include "common.h"

#define N 4096
#define BINS 64
#define FULL 0xffffffffu
static uint8_t data[N];
static uint32_t hist[BINS];

struct args { const uint8_t *in; uint32_t n; uint32_t *out; };

static void histogram(void *p) {
    struct args *g = p;
    uint32_t lane = weft_lane_id();
    uint32_t stride = gridDim.x * blockDim.x;
    /* every lane goes round the loop the same number of times (lanes past the end carry no
     * bin), so the warp stays converged for its collectives */
    for (uint32_t base = blockIdx.x * blockDim.x; base < g->n; base += stride) {
        uint32_t i = base + threadIdx.x;
        uint32_t bin = i < g->n ? g->in[i] % BINS : BINS;
        unsigned todo = __ballot_sync(FULL, bin < BINS);
        while (todo) {
            uint32_t leader = (uint32_t)__ffs((int)todo) - 1;
            uint32_t b = __shfl_sync(FULL, bin, leader);
            unsigned peers = __ballot_sync(FULL, bin == b) & todo;
            if (lane == leader) atomicAdd(&g->out[b], (uint32_t)__popc(peers));
            todo &= ~peers;
        }
    }
}

int main(void) {
    uint32_t want[BINS] = {0};
    for (int i = 0; i < N; i++) {
        /* few distinct values near each other, as in an image: warps share bins */
        data[i] = (uint8_t)((i / 37) % 13 * 5 + lcg() % 3);
        want[data[i] % BINS]++;
    }
    uint32_t W = (uint32_t)warpSize, BLOCK = (128 + W - 1) / W * W; /* whole warps */
    struct args g = {data, N, hist};
    weft_launch(weft_dim3(4, 1, 1), weft_dim3(BLOCK, 1, 1), histogram, &g);
    uint32_t bad = 0, first = 0;
    for (uint32_t b = 0; b < BINS; b++)
        if (hist[b] != want[b] && bad++ == 0) first = b;
    printf("bins[0..4] %u %u %u %u checksum %08x\n", hist[0], hist[1], hist[2], hist[3],
           checksum_u32(hist, BINS));
    return report("histogram_warp", bad, first);
}

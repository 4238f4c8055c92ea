/* Barriers in the shapes kernels use them: a halving reduction (`if (t < s) …;
 * __syncthreads();` — the shape an optimiser is tempted to duplicate into both arms), a
 * double-buffered stencil with barriers in a loop, and an early-out thread that still reaches
 * every barrier. 16-thread blocks, several per core at once; the test runs it at every -O. */
#include <stdint.h>
#include <stdio.h>
#include <weft.h>

#define BLOCK 16
#define BLOCKS 5
static int32_t sums[BLOCKS], stencil[BLOCKS * BLOCK];

static void kernel(void *p) {
    (void)p;
    int32_t *part = weft_shared_alloc(BLOCK * sizeof(int32_t));
    int32_t *buf = weft_shared_alloc(2 * BLOCK * sizeof(int32_t));
    uint32_t t = threadIdx.x, b = blockIdx.x;
    part[t] = (int32_t)(b * 100 + t * t);
    __syncthreads();
    for (uint32_t s = BLOCK / 2; s > 0; s /= 2) {
        if (t < s) part[t] += part[t + s];
        __syncthreads();
    }
    if (t == 0) sums[b] = part[0];
    buf[t] = (int32_t)(t * 3 + b);
    __syncthreads();
    uint32_t src = 0;
    for (int it = 0; it < 4; it++) {
        int32_t l = buf[src * BLOCK + (t + BLOCK - 1) % BLOCK], r = buf[src * BLOCK + (t + 1) % BLOCK];
        int32_t v = buf[src * BLOCK + t];
        if ((t + (uint32_t)it) % 3 != 0) v = (l + 2 * v + r) / 4;
        buf[(1 - src) * BLOCK + t] = v;
        src = 1 - src;
        __syncthreads();
    }
    stencil[b * BLOCK + t] = buf[src * BLOCK + t];
}

int main(void) {
    weft_launch_shared(weft_dim3(BLOCKS, 1, 1), weft_dim3(BLOCK, 1, 1), 3 * BLOCK * sizeof(int32_t),
                       kernel, 0);
    for (int b = 0; b < BLOCKS; b++) printf("block %d sum %d\n", b, sums[b]);
    for (int i = 0; i < BLOCKS * BLOCK; i++) printf("%d%c", stencil[i], i % BLOCK == BLOCK - 1 ? '\n' : ' ');
    return 0;
}

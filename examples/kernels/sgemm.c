/* sgemm: C = A × B in single precision, naive (one thread per element) and tiled through
 * shared memory (TILE × TILE blocks meeting at weft_syncthreads). The inputs have 8
 * significant bits, so every partial sum is exact and both orders give identical results. */
#include "common.h"

#define N (32 * SCALE)
#define MAX_TILE 8
static uint32_t TILE; /* MAX_TILE, or less so that a tile's block fits in a core */
static float A[N * N], B[N * N], C1[N * N], C2[N * N];

struct args { const float *a, *b; float *c; uint32_t n, tile; };

static void sgemm_naive(void *p) {
    struct args *g = p;
    uint32_t r = blockIdx.y * g->tile + threadIdx.y, c = blockIdx.x * g->tile + threadIdx.x;
    float s = 0;
    for (uint32_t k = 0; k < g->n; k++) s += g->a[r * g->n + k] * g->b[k * g->n + c];
    g->c[r * g->n + c] = s;
}

static void sgemm_tiled(void *p) {
    struct args *g = p;
    uint32_t TILE = g->tile;
    float *ta = weft_shared_alloc(TILE * TILE * sizeof(float));
    float *tb = weft_shared_alloc(TILE * TILE * sizeof(float));
    uint32_t tx = threadIdx.x, ty = threadIdx.y;
    uint32_t r = blockIdx.y * TILE + ty, c = blockIdx.x * TILE + tx;
    float s = 0;
    for (uint32_t t = 0; t < g->n / TILE; t++) {
        ta[ty * TILE + tx] = g->a[r * g->n + t * TILE + tx];
        tb[ty * TILE + tx] = g->b[(t * TILE + ty) * g->n + c];
        __syncthreads();
        for (uint32_t k = 0; k < TILE; k++) s += ta[ty * TILE + k] * tb[k * TILE + tx];
        __syncthreads();
    }
    g->c[r * g->n + c] = s;
}

int main(void) {
    for (int i = 0; i < N * N; i++) {
        A[i] = (float)((int)(lcg() % 255) - 127) / 64.0f;
        B[i] = (float)((int)(lcg() % 255) - 127) / 64.0f;
    }
    uint32_t fit = block_for_barriers(MAX_TILE * MAX_TILE);
    TILE = 1;
    while (TILE * 2 * TILE * 2 <= fit) TILE *= 2;
    struct args g1 = {A, B, C1, N, TILE}, g2 = {A, B, C2, N, TILE};
    dim3 grid = weft_dim3(N / TILE, N / TILE, 1), blk = weft_dim3(TILE, TILE, 1);
    weft_launch(grid, blk, sgemm_naive, &g1);
    weft_launch_shared(grid, blk, 2 * TILE * TILE * sizeof(float), sgemm_tiled, &g2);
    uint32_t bad = 0, first = 0;
    double total = 0;
    for (uint32_t r = 0; r < N; r++)
        for (uint32_t c = 0; c < N; c++) {
            float s = 0;
            for (uint32_t k = 0; k < N; k++) s += A[r * N + k] * B[k * N + c];
            if ((C1[r * N + c] != s || C2[r * N + c] != s) && bad++ == 0) first = r * N + c;
            total += s;
        }
    printf("sum %.6f C[5][7] %g\n", total, C1[5 * N + 7]);
    return report("sgemm", bad, first);
}

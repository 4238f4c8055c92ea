/* vecadd: c[i] = a[i] + b[i] over a grid of 64-thread blocks larger than the machine. */
#include "common.h"

#define N (1000 * SCALE)
static int32_t a[N], b[N], c[N];

struct args { const int32_t *a, *b; int32_t *c; uint32_t n; };

static void vecadd(void *p) {
    struct args *g = p;
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < g->n) g->c[i] = g->a[i] + g->b[i];
}

int main(void) {
    for (int i = 0; i < N; i++) { a[i] = (int32_t)lcg() - (1 << 23); b[i] = (int32_t)lcg(); }
    struct args g = {a, b, c, N};
    weft_launch(weft_dim3((N + 63) / 64, 1, 1), weft_dim3(64, 1, 1), vecadd, &g);
    uint32_t bad = 0, first = 0;
    for (uint32_t i = 0; i < N; i++)
        if (c[i] != a[i] + b[i] && bad++ == 0) first = i;
    printf("checksum %08x\n", checksum_u32((const uint32_t *)c, N));
    return report("vecadd", bad, first);
}

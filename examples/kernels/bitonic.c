/* bitonic: sort 256 × SCALE keys with a bitonic network, one launch per compare-exchange stage (a
 * launch boundary is the grid-wide barrier between stages). */
#include "common.h"

#define N (256 * SCALE) /* SCALE: a power of two */
static uint32_t keys[N], sorted[N];

struct args { uint32_t *v; uint32_t j, k; };

static void stage(void *p) {
    struct args *g = p;
    uint32_t i = weft_global_thread(), l = i ^ g->j;
    if (l <= i) return;
    uint32_t a = g->v[i], b = g->v[l];
    int up = (i & g->k) == 0;
    if ((a > b) == up) {
        g->v[i] = b;
        g->v[l] = a;
    }
}

int main(void) {
    for (int i = 0; i < N; i++) keys[i] = sorted[i] = lcg() % 10000;
    struct args g = {sorted, 0, 0};
    for (uint32_t k = 2; k <= N; k *= 2)
        for (uint32_t j = k / 2; j > 0; j /= 2) {
            g.j = j;
            g.k = k;
            weft_launch(weft_dim3(N / 32, 1, 1), weft_dim3(32, 1, 1), stage, &g);
        }
    /* check: ascending, and a permutation of the keys (equal multisets by counting) */
    uint32_t bad = 0, first = 0;
    for (uint32_t i = 1; i < N; i++)
        if (sorted[i - 1] > sorted[i] && bad++ == 0) first = i;
    for (uint32_t i = 0; i < N; i++) {
        uint32_t ca = 0, cb = 0;
        for (uint32_t j = 0; j < N; j++) {
            ca += keys[j] == keys[i];
            cb += sorted[j] == keys[i];
        }
        if (ca != cb && bad++ == 0) first = i;
    }
    printf("min %u median %u max %u\n", sorted[0], sorted[N / 2], sorted[N - 1]);
    return report("bitonic", bad, first);
}

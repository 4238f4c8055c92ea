/* saxpy: y[i] = alpha * x[i] + y[i] in single precision. */
#include "common.h"

#define N (777 * SCALE)
static float x[N], y[N], y_init[N];

struct args { float alpha; const float *x; float *y; uint32_t n; };

static void saxpy(void *p) {
    struct args *g = p;
    uint32_t i = weft_global_thread();
    if (i < g->n) g->y[i] = g->alpha * g->x[i] + g->y[i];
}

int main(void) {
    for (int i = 0; i < N; i++) { x[i] = lcg_float(); y[i] = y_init[i] = lcg_float(); }
    struct args g = {0.75f, x, y, N};
    weft_launch(weft_dim3((N + 63) / 64, 1, 1), weft_dim3(64, 1, 1), saxpy, &g);
    uint32_t bad = 0, first = 0;
    double sum = 0;
    for (uint32_t i = 0; i < N; i++) {
        float want = 0.75f * x[i] + y_init[i];
        if (absf(y[i] - want) > 1e-6f && bad++ == 0) first = i;
        sum += want;
    }
    printf("sum %.4f\n", sum);
    return report("saxpy", bad, first);
}

/* Kernels for the host-runtime examples (examples/host/*): launched by name from the host. */
#include <stdint.h>
#include <weft.h>

struct vecadd_args { const uint32_t *a, *b; uint32_t *c; uint32_t n; };

WEFT_KERNEL void vecadd(void *p) {
    struct vecadd_args *g = p;
    uint32_t i = weft_global_thread();
    if (i < g->n) g->c[i] = g->a[i] + g->b[i];
}

struct scale_args { float *x; float s; uint32_t n; };

WEFT_KERNEL void scale(void *p) {
    struct scale_args *g = p;
    uint32_t i = weft_global_thread();
    if (i < g->n) g->x[i] *= g->s;
}

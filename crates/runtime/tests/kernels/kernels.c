/* Kernels the runtime's tests launch by name from the host: the examples' kernels (vecadd on
 * floats, scale, sgemm, block_sum) and some of their own. */
#include <stdint.h>
#include <stdio.h>
#include <weft.h>

#include "../../../../examples/host/kernels.c"

struct vecadd_u32_args { const uint32_t *a, *b; uint32_t *c; uint32_t n; };
WEFT_KERNEL void vecadd_u32(void *p) {
    struct vecadd_u32_args *g = p;
    uint32_t i = weft_global_thread();
    if (i < g->n) g->c[i] = g->a[i] + g->b[i];
}

struct saxpy_args { float alpha; const float *x; float *y; uint32_t n; };
WEFT_KERNEL void saxpy(void *p) {
    struct saxpy_args *g = p;
    uint32_t i = weft_global_thread();
    if (i < g->n) g->y[i] = g->alpha * g->x[i] + g->y[i];
}

WEFT_KERNEL void hello(void *p) {
    (void)p;
    printf("hello from thread %u\n", weft_global_thread());
}

/* Thread 5 stores through a null pointer. */
WEFT_KERNEL void faulty(void *p) {
    uint32_t *volatile bad = *(uint32_t **)p;
    if (weft_global_thread() == 5) bad = 0;
    *bad = 1;
}

WEFT_KERNEL void forever(void *p) {
    volatile uint32_t *x = *(uint32_t **)p;
    while (*x == 0) {
    }
}

/* Appends `v` to a log: log[0] counts the entries, log[1..] holds them in launch order. */
struct record_args { uint32_t *log; uint32_t v; };
WEFT_KERNEL void record(void *p) {
    struct record_args *g = p;
    if (weft_global_thread() == 0) g->log[1 + g->log[0]++] = g->v;
}

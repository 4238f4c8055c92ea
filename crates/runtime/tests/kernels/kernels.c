/* Kernels the runtime's tests launch by name from the host. */
#include <stdint.h>
#include <stdio.h>
#include <weft.h>

struct vecadd_args { const uint32_t *a, *b; uint32_t *c; uint32_t n; };
WEFT_KERNEL void vecadd(void *p) {
    struct vecadd_args *g = p;
    uint32_t i = weft_global_thread();
    if (i < g->n) g->c[i] = g->a[i] + g->b[i];
}

struct saxpy_args { float alpha; const float *x; float *y; uint32_t n; };
WEFT_KERNEL void saxpy(void *p) {
    struct saxpy_args *g = p;
    uint32_t i = weft_global_thread();
    if (i < g->n) g->y[i] = g->alpha * g->x[i] + g->y[i];
}

/* Sum of a buffer: per-block shared-memory reduction, one atomic per block. */
struct sum_args { const uint32_t *in; uint32_t n; uint32_t *out; };
WEFT_KERNEL void block_sum(void *p) {
    struct sum_args *g = p;
    uint32_t bs = blockDim.x, t = threadIdx.x, i = blockIdx.x * bs + t;
    uint32_t *part = weft_shared_alloc(bs * sizeof(uint32_t));
    part[t] = i < g->n ? g->in[i] : 0;
    __syncthreads();
    for (uint32_t s = bs / 2; s > 0; s /= 2) {
        if (t < s) part[t] += part[t + s];
        __syncthreads();
    }
    if (t == 0) weft_atomic_add(g->out, part[0]);
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

/* Kernels for the Python examples: vecadd and a shared-memory tiled sgemm. */
#include <stdint.h>
#include <weft.h>

struct vecadd_args { const float *a, *b; float *c; uint32_t n; };
WEFT_KERNEL void vecadd(void *p) {
    struct vecadd_args *g = p;
    uint32_t i = weft_global_thread();
    if (i < g->n) g->c[i] = g->a[i] + g->b[i];
}

/* C = A x B for n x n matrices, TILE x TILE blocks (blockDim), tiles staged in shared memory. */
struct sgemm_args { const float *a, *b; float *c; uint32_t n; };
WEFT_KERNEL void sgemm(void *p) {
    struct sgemm_args *g = p;
    uint32_t tile = blockDim.x, tx = threadIdx.x, ty = threadIdx.y;
    float *ta = weft_shared_alloc(tile * tile * sizeof(float));
    float *tb = weft_shared_alloc(tile * tile * sizeof(float));
    uint32_t r = blockIdx.y * tile + ty, c = blockIdx.x * tile + tx;
    float s = 0;
    for (uint32_t t = 0; t < g->n / tile; t++) {
        ta[ty * tile + tx] = g->a[r * g->n + t * tile + tx];
        tb[ty * tile + tx] = g->b[(t * tile + ty) * g->n + c];
        __syncthreads();
        for (uint32_t k = 0; k < tile; k++) s += ta[ty * tile + k] * tb[k * tile + tx];
        __syncthreads();
    }
    g->c[r * g->n + c] = s;
}

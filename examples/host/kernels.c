/* Kernels for the host-runtime examples in Rust (crates/runtime/examples/pipeline.rs),
 * Python (examples/python/) and C (examples/host/vecadd.c): launched by name from the host. */
#include <stdint.h>
#include <weft.h>

struct vecadd_args { const float *a, *b; float *c; uint32_t n; };
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

/* Sum of n words: each block halves its part in shared memory, one atomic add per block. */
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

/* Vortex's matrix library, on weft: mat_add, mat_mult and mat_cpy over 2-D grids, each thread
 * one element (integer matrices, so the checks are exact). */
#include "common.h"

#define R (24 * SCALE)
#define C (20 * SCALE)
#define K (16 * SCALE)
static int32_t A[R * K], B[K * C], P[R * C], S[R * K], T[R * K], Cp[R * K];

struct mat { const int32_t *a, *b; int32_t *out; uint32_t rows, cols, inner; };

static void mat_add(void *p) {
    struct mat *m = p;
    uint32_t r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < m->rows && c < m->cols) m->out[r * m->cols + c] = m->a[r * m->cols + c] + m->b[r * m->cols + c];
}

static void mat_mult(void *p) {
    struct mat *m = p;
    uint32_t r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= m->rows || c >= m->cols) return;
    int32_t s = 0;
    for (uint32_t k = 0; k < m->inner; k++) s += m->a[r * m->inner + k] * m->b[k * m->cols + c];
    m->out[r * m->cols + c] = s;
}

static void mat_cpy(void *p) {
    struct mat *m = p;
    uint32_t r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < m->rows && c < m->cols) m->out[r * m->cols + c] = m->a[r * m->cols + c];
}

int main(void) {
    for (int i = 0; i < R * K; i++) { A[i] = (int32_t)(lcg() % 201) - 100; T[i] = (int32_t)(lcg() % 1000); }
    for (int i = 0; i < K * C; i++) B[i] = (int32_t)(lcg() % 201) - 100;
    dim3 blk = weft_dim3(8, 4, 1);
    struct mat add = {A, T, S, R, K, 0};
    weft_launch(weft_dim3((K + 7) / 8, (R + 3) / 4, 1), blk, mat_add, &add);
    struct mat mul = {A, B, P, R, C, K};
    weft_launch(weft_dim3((C + 7) / 8, (R + 3) / 4, 1), blk, mat_mult, &mul);
    struct mat cpy = {S, 0, Cp, R, K, 0};
    weft_launch(weft_dim3((K + 7) / 8, (R + 3) / 4, 1), blk, mat_cpy, &cpy);
    uint32_t bad = 0, first = 0;
    for (uint32_t i = 0; i < R * K; i++)
        if ((S[i] != A[i] + T[i] || Cp[i] != S[i]) && bad++ == 0) first = i;
    for (uint32_t r = 0; r < R; r++)
        for (uint32_t c = 0; c < C; c++) {
            int32_t s = 0;
            for (uint32_t k = 0; k < K; k++) s += A[r * K + k] * B[k * C + c];
            if (P[r * C + c] != s && bad++ == 0) first = R * K + r * C + c;
        }
    printf("checksums %08x %08x %08x\n", checksum_u32((const uint32_t *)S, R * K),
           checksum_u32((const uint32_t *)P, R * C), checksum_u32((const uint32_t *)Cp, R * K));
    return report("matrix", bad, first);
}

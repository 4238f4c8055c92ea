/* Blocks larger than a core meet at barriers: a 256-thread block (8 software warps of 32
 * threads on a 4-warp core of 8 lanes) reduces in shared memory with a barrier per step, a
 * 2-D block of 16 x 20 threads (a partial last warp at most lane counts) transposes a tile
 * through shared memory and shifts it round in a loop of barriers, and a 1,024-thread block
 * builds a prefix sum (Hillis-Steele, two barriers a step). Every thread's view of shared
 * memory after a barrier depends on what the others wrote before it, so a thread that passed
 * a barrier early would print a different number. */
#include <stdint.h>
#include <stdio.h>
#include <weft.h>

#define R_THREADS 256
#define R_BLOCKS 3
static int32_t reduced[R_BLOCKS], firsts[R_BLOCKS * R_THREADS];

static void reduce(void *p) {
    (void)p;
    int32_t *v = weft_shared_alloc(R_THREADS * sizeof(int32_t));
    uint32_t t = threadIdx.x, b = blockIdx.x;
    v[t] = (int32_t)((t * 7 + b * 13) % 101) - 50;
    __syncthreads();
    /* each thread reads its right neighbour's value, written by another warp */
    firsts[b * R_THREADS + t] = v[(t + 33) % R_THREADS] * 3 + v[t];
    __syncthreads();
    for (uint32_t s = R_THREADS / 2; s > 0; s /= 2) {
        if (t < s) v[t] += v[t + s];
        __syncthreads();
    }
    if (t == 0) reduced[b] = v[0];
}

#define TX 16
#define TY 20
static int32_t tile_out[2 * TX * TY];

static void tile(void *p) {
    (void)p;
    int32_t *a = weft_shared_alloc(TX * TY * sizeof(int32_t));
    int32_t *c = weft_shared_alloc(TX * TY * sizeof(int32_t));
    uint32_t x = threadIdx.x, y = threadIdx.y, b = blockIdx.x;
    uint32_t i = y * TX + x;
    a[i] = (int32_t)(i * i % 97 + b);
    __syncthreads();
    c[x * TY + y] = a[i]; /* transpose */
    __syncthreads();
    for (int round = 0; round < 5; round++) {
        int32_t left = c[(i + TX * TY - 1) % (TX * TY)];
        __syncthreads();
        c[i] = left + (int32_t)round;
        __syncthreads();
    }
    tile_out[b * TX * TY + i] = c[i];
    if (i % 53 == 0) printf("tile block %u thread (%u,%u): %d\n", b, x, y, c[i]);
}

#define S_THREADS 1024
static int32_t scanned[S_THREADS];

static void scan(void *p) {
    (void)p;
    int32_t *buf = weft_shared_alloc(2 * S_THREADS * sizeof(int32_t));
    uint32_t t = threadIdx.x;
    int32_t *in = buf, *out = buf + S_THREADS;
    in[t] = (int32_t)(t % 9) - 3;
    __syncthreads();
    for (uint32_t d = 1; d < S_THREADS; d *= 2) {
        out[t] = t >= d ? in[t] + in[t - d] : in[t];
        __syncthreads();
        int32_t *tmp = in;
        in = out;
        out = tmp;
    }
    scanned[t] = in[t];
}

int main(void) {
    weft_launch_shared(weft_dim3(R_BLOCKS, 1, 1), weft_dim3(R_THREADS, 1, 1),
                       R_THREADS * sizeof(int32_t), reduce, 0);
    for (int b = 0; b < R_BLOCKS; b++) printf("reduce block %d: %d\n", b, reduced[b]);
    int64_t check = 0;
    for (int i = 0; i < R_BLOCKS * R_THREADS; i++) check = check * 31 + firsts[i];
    printf("neighbours %lld\n", (long long)check);
    weft_launch_shared(weft_dim3(2, 1, 1), weft_dim3(TX, TY, 1), 2 * TX * TY * sizeof(int32_t),
                       tile, 0);
    check = 0;
    for (int i = 0; i < 2 * TX * TY; i++) check = check * 31 + tile_out[i];
    printf("tile %lld\n", (long long)check);
    weft_launch_shared(weft_dim3(1, 1, 1), weft_dim3(S_THREADS, 1, 1),
                       2 * S_THREADS * sizeof(int32_t), scan, 0);
    for (int i = 0; i < S_THREADS; i += 127) printf("scan[%d] = %d\n", i, scanned[i]);
    printf("scan[%d] = %d\n", S_THREADS - 1, scanned[S_THREADS - 1]);
    return 0;
}

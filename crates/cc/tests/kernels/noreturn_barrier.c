/* A noreturn call (abort) on one arm of a branch inside a barrier loop: the branch must reconverge before the barrier, not at the function exit, or a warp arrives twice. */
#include <weft.h>
#include <stdio.h>
#include <stdlib.h>
static unsigned out[4];
static void k(void *p) {
    (void)p;
    unsigned *part = weft_shared_alloc(16 * 4);
    unsigned t = threadIdx.x;
    part[t] = t + blockIdx.x;
    __syncthreads();
    for (unsigned s = 8; s > 0; s /= 2) {
        if (t < s) {
            if (t + s >= 16) abort();   /* a check that never fails: a noreturn path */
            part[t] += part[t + s];
        }
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = part[0];
}
int main(void) {
    weft_launch_shared(weft_dim3(4, 1, 1), weft_dim3(16, 1, 1), 64, k, 0);
    printf("%u %u %u %u\n", out[0], out[1], out[2], out[3]);
    return 0;
}

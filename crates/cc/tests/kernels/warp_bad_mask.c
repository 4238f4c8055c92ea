/* A `_sync` mask that does not match the lanes that call: each CASE is a mistake CUDA leaves
 * undefined, and weft faults with SYNC_MASK (code 18) naming core, warp, lanes and pc.
 * crates/cc/tests/warp.rs builds it with -DCASE=1..5. */
#include <stdio.h>
#include <weft.h>

#define FULL 0xffffffffu

static volatile unsigned out[64];

static void kernel(void *arg) {
    (void)arg;
    unsigned t = weft_block_thread(), lane = t % warpSize;
    int v = (int)t * 3;
#if CASE == 1
    /* a shuffle in one side of a branch, naming the whole warp */
    if (lane < 4) v = __shfl_sync(FULL, v, 0);
#elif CASE == 2
    /* every lane passes lane 0's mask: lane 1 leaves itself out */
    v = __any_sync(0x1u, v);
#elif CASE == 3
    /* a reduction inside a per-lane condition */
    if (t & 1) v = (int)__reduce_add_sync(FULL, (unsigned)v);
#elif CASE == 4
    /* lanes that returned early are not active: __syncwarp() names them */
    if (lane == 3) return;
    __syncwarp();
#elif CASE == 5
    /* a ballot after the last lanes have left a loop, with the mask from before */
    unsigned m = __activemask();
    for (unsigned i = 0; i <= lane; i++) v += (int)__ballot_sync(m, i & 1);
#else
#error "CASE must be 1 to 5"
#endif
    out[t] = (unsigned)v;
}

int main(void) {
    weft_launch(weft_dim3(1, 1, 1), weft_dim3((unsigned)warpSize, 1, 1), kernel, 0);
    printf("no fault: %u\n", out[1]);
    return 0;
}

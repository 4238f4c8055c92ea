/* shuffle_table.c: CUDA's shuffles on one warp, v = 16 * lane, full mask: the table of
 * docs/warp.md §3 (run it at --lanes 8 or 32). Columns: __shfl_sync(m, v, 3),
 * __shfl_up_sync(m, v, 1), __shfl_down_sync(m, v, 1), __shfl_xor_sync(m, v, 1), then the same
 * four with width 4: __shfl_sync(m, v, 2, 4), __shfl_up_sync(m, v, 1, 4),
 * __shfl_down_sync(m, v, 1, 4), __shfl_xor_sync(m, v, 4, 4). */
#include <stdio.h>
#include <weft.h>

#define M 0xffffffffu

static void table(void *arg) {
    (void)arg;
    int l = (int)weft_lane_id(), v = 16 * l;
    printf("%d: %d %d %d %d | %d %d %d %d\n", l, __shfl_sync(M, v, 3), __shfl_up_sync(M, v, 1),
           __shfl_down_sync(M, v, 1), __shfl_xor_sync(M, v, 1), __shfl_sync(M, v, 2, 4),
           __shfl_up_sync(M, v, 1, 4), __shfl_down_sync(M, v, 1, 4), __shfl_xor_sync(M, v, 4, 4));
}

int main(void) {
    weft_launch(weft_dim3(1, 1, 1), weft_dim3((unsigned)warpSize, 1, 1), table, 0);
    return 0;
}

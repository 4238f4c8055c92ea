/* A barrier that only part of a warp reaches, in a block larger than a core: thread 5
 * returns early, so its warp cannot be put aside at the barrier. A clear error, not a hang
 * or a wrong answer. */
#include <stdio.h>
#include <weft.h>

static void kernel(void *p) {
    (void)p;
    if (threadIdx.x == 5) return;
    weft_syncthreads();
}

int main(void) {
    weft_launch(weft_dim3(1, 1, 1), weft_dim3(256, 1, 1), kernel, 0);
    printf("not reached\n");
    return 0;
}

/* weft_syncthreads() in a block with more threads than a core holds: a clear error. */
#include <weft.h>

static void kernel(void *p) {
    (void)p;
    weft_syncthreads();
}

int main(void) {
    weft_launch(weft_dim3(1, 1, 1), weft_dim3(4096, 1, 1), kernel, 0);
    return 0;
}

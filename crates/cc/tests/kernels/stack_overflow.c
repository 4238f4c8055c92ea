/* A lane recursing past its stack: the runtime must report it, not corrupt silently. */
#include <stdint.h>
#include <weft.h>

__attribute__((noinline)) static uint32_t deep(volatile uint32_t n) {
    volatile uint32_t pad[16];
    pad[n % 16] = n;
    return n == 0 ? pad[0] : deep(n - 1) + pad[n % 16];
}

static void kernel(void *p) {
    uint32_t *out = p;
    uint32_t t = weft_global_thread();
    out[t] = deep(t == 5 ? 2000 : 3);
}

static uint32_t out[8];

int main(void) {
    weft_launch(weft_dim3(1, 1, 1), weft_dim3(8, 1, 1), kernel, out);
    return 0;
}

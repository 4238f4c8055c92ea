/* Two kernel programs on one device through the C API (crates/runtime-c/tests/c_hostile.rs
 * builds and runs it with the runtime tests' kernels.c and second.c): the second loaded
 * before any buffer, kernels of both launched in turn on the same buffers, the results
 * checked here against a reference computed on the host; a kernel name looked up in its own
 * program, a program number no load gave refused. Prints "modules: PASS" or "modules: FAIL". */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "weft_runtime.h"

#define N 200u

static uint32_t collatz_step(uint32_t v) { return (v & 1) ? 3 * v + 13 : v / 2 + 11; }

int main(int argc, char **argv) {
    if (argc < 3) {
        printf("usage: modules kernels.c second.c\n");
        return 2;
    }
    const char *first[] = {argv[1]}, *second[] = {argv[2]};
    weft_device *d = NULL;
    char err[256] = "";
    if (weft_device_open_c(first, 1, 2, 2, 4, &d, err, sizeof err) != WEFT_OK) {
        printf("open: %s\nmodules: FAIL\n", err);
        return 1;
    }
    int failures = 0;
    uint32_t m = 0;
    if (weft_module_load_c(d, second, 1, &m) != WEFT_OK || m != 1) {
        printf("load: %s (module %u)\n", weft_last_error(d), m);
        failures++;
    }
    if (weft_module_load_c(d, second, 1, NULL) != WEFT_E_ARGUMENT) failures++;
    static uint32_t a[N], b[N], c[N], want[N];
    for (uint32_t i = 0; i < N; i++) {
        a[i] = i * 2654435761u;
        b[i] = i * 7 + 1;
        want[i] = collatz_step(a[i] + b[i]);
    }
    weft_buffer ba, bb, bc;
    if (weft_alloc(d, sizeof a, &ba) || weft_alloc(d, sizeof b, &bb) ||
        weft_alloc(d, sizeof c, &bc) || weft_write(d, ba, 0, a, sizeof a) ||
        weft_write(d, bb, 0, b, sizeof b)) {
        printf("buffers: %s\nmodules: FAIL\n", weft_last_error(d));
        return 1;
    }
    struct { uint32_t a, b, c, n; } add = {ba.addr, bb.addr, bc.addr, N};
    struct { uint32_t x, n; } step = {bc.addr, N};
    uint32_t grid[3] = {(N + 31) / 32, 1, 1}, block[3] = {32, 1, 1};
    if (weft_launch_kernel(d, "vecadd_u32", grid, block, 0, &add, sizeof add) ||
        weft_launch_module_kernel(d, m, "collatz", grid, block, 0, &step, sizeof step) ||
        weft_wait(d, 0) || weft_read(d, bc, 0, c, sizeof c)) {
        printf("run: %s\n", weft_last_error(d));
        failures++;
    } else if (memcmp(c, want, sizeof c) != 0) {
        printf("wrong results: c[0] = %u, want %u\n", c[0], want[0]);
        failures++;
    }
    /* Each name in its own program; a program no load gave. */
    if (weft_launch_module_kernel(d, m, "vecadd_u32", grid, block, 0, &add, sizeof add) !=
        WEFT_E_NO_SUCH_KERNEL)
        failures++;
    if (weft_launch_kernel(d, "collatz", grid, block, 0, &step, sizeof step) !=
        WEFT_E_NO_SUCH_KERNEL)
        failures++;
    if (weft_launch_module_kernel(d, 7, "collatz", grid, block, 0, &step, sizeof step) !=
            WEFT_E_LOAD ||
        strstr(weft_last_error(d), "no program #7") == NULL) {
        printf("module 7: %s\n", weft_last_error(d));
        failures++;
    }
    weft_device_close(d);
    printf("modules: %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}

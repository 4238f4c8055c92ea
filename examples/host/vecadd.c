/* A C host program driving weft through the C ABI (weft_runtime.h): vecadd over 10,000
 * threads, then a two-launch pipeline on one buffer; every result checked on the host.
 *
 *   cargo build --release -p weft-runtime-c
 *   gcc examples/host/vecadd.c -Icrates/runtime-c/include -Ltarget/release -lweft_runtime_c -o vecadd
 *   LD_LIBRARY_PATH=target/release ./vecadd examples/host/kernels.c
 */
#include <stdio.h>
#include <stdlib.h>
#include "weft_runtime.h"

#define CHECK(call)                                                                        \
    do {                                                                                   \
        int rc_ = (call);                                                                  \
        if (rc_ != WEFT_OK) {                                                              \
            fprintf(stderr, "%s: error %d: %s\n", #call, rc_, weft_last_error(d));         \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

int main(int argc, char **argv) {
    const char *src = argc > 1 ? argv[1] : "examples/host/kernels.c";
    char err[512];
    weft_device *d = NULL;
    if (weft_device_open_c(&src, 1, 2, 4, 8, &d, err, sizeof err) != WEFT_OK) {
        fprintf(stderr, "open: %s\n", err);
        return 1;
    }
    enum { N = 10000 };
    static uint32_t a[N], b[N], c[N];
    for (uint32_t i = 0; i < N; i++) {
        a[i] = i * 7u;
        b[i] = 1000000u - i;
    }
    weft_buffer ba, bb, bc;
    CHECK(weft_alloc(d, sizeof a, &ba));
    CHECK(weft_alloc(d, sizeof b, &bb));
    CHECK(weft_alloc(d, sizeof c, &bc));
    CHECK(weft_write(d, ba, 0, a, sizeof a));
    CHECK(weft_write(d, bb, 0, b, sizeof b));
    /* the kernel's struct vecadd_args as the device lays it out: device pointers are 32-bit */
    uint32_t args[4] = {ba.addr, bb.addr, bc.addr, N};
    uint32_t grid[3] = {(N + 63) / 64, 1, 1}, block[3] = {64, 1, 1};
    CHECK(weft_launch_kernel(d, "vecadd", grid, block, 0, args, sizeof args));
    CHECK(weft_wait(d, 0));
    CHECK(weft_read(d, bc, 0, c, sizeof c));
    int bad = 0;
    for (uint32_t i = 0; i < N; i++) bad += c[i] != a[i] + b[i];
    printf("vecadd: %s (%llu cycles)\n", bad ? "FAIL" : "PASS",
           (unsigned long long)weft_device_cycles(d));

    /* pipeline: x *= 2 then x *= 0.25 on the same buffer */
    static float x[N];
    for (uint32_t i = 0; i < N; i++) x[i] = (float)i;
    weft_buffer bx;
    CHECK(weft_alloc(d, sizeof x, &bx));
    CHECK(weft_write(d, bx, 0, x, sizeof x));
    float factors[2] = {2.0f, 0.25f};
    for (int k = 0; k < 2; k++) {
        struct { uint32_t x; float s; uint32_t n; } sa = {bx.addr, factors[k], N};
        CHECK(weft_launch_kernel(d, "scale", grid, block, 0, &sa, sizeof sa));
        CHECK(weft_wait(d, 0));
    }
    CHECK(weft_read(d, bx, 0, x, sizeof x));
    int bad2 = 0;
    for (uint32_t i = 0; i < N; i++) bad2 += x[i] != (float)i * 0.5f;
    printf("pipeline: %s\n", bad2 ? "FAIL" : "PASS");

    /* errors are codes with messages, and the device goes on working */
    int rc = weft_launch_kernel(d, "missing", grid, block, 0, NULL, 0);
    printf("missing kernel: error %d (%s)\n", rc, weft_last_error(d));
    rc = weft_read(d, bx, sizeof x, x, 4);
    printf("read past the end: error %d\n", rc);
    weft_device_close(d);
    return bad || bad2 || rc != WEFT_E_BAD_ADDRESS;
}

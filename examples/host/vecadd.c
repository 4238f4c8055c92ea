/* A C host program driving weft through the C ABI (weft_runtime.h): vecadd over 10,000
 * threads, a block reduction, a tiled sgemm, then a two-launch pipeline on one buffer; every
 * result checked on the host.
 *
 *   cargo build --release -p weft-runtime-c
 *   gcc examples/host/vecadd.c -Icrates/runtime-c/include -Ltarget/release -lweft_runtime_c -o vecadd
 *   LD_LIBRARY_PATH=target/release ./vecadd examples/host/kernels.c
 *   LD_LIBRARY_PATH=target/release ./vecadd examples/host/kernels.c --timing
 *   LD_LIBRARY_PATH=target/release ./vecadd examples/host/kernels.c --rtl
 *
 * With --timing the device runs under the cycle-level timing model (the same results; the
 * cycle count and the timing counters then come from the model). With --rtl it runs on the
 * RTL, weft's SystemVerilog core under Verilator (one core: `backend = "rtl"` in the
 * configuration; the same results, the RTL's clock cycles and counters).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    int timing = argc > 2 && strcmp(argv[2], "--timing") == 0;
    int rtl = argc > 2 && strcmp(argv[2], "--rtl") == 0;
    int rc = timing ? weft_device_open_c_config(&src, 1, "cores = 2\nwarps = 4\nlanes = 8\ntiming = true\n",
                                                &d, err, sizeof err)
             : rtl  ? weft_device_open_c_config(&src, 1, "cores = 1\nwarps = 4\nlanes = 8\nbackend = \"rtl\"\n",
                                                &d, err, sizeof err)
                    : weft_device_open_c(&src, 1, 2, 4, 8, &d, err, sizeof err);
    if (rc != WEFT_OK) {
        fprintf(stderr, "open: %s\n", err);
        return 1;
    }
    enum { N = 10000 };
    static float a[N], b[N], c[N];
    for (uint32_t i = 0; i < N; i++) {
        a[i] = (float)(i % 101) * 0.5f;
        b[i] = (float)(i % 7) - 3.0f;
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
    CHECK(weft_wait_for(d, 0, 60000)); /* at most a minute of host time */
    CHECK(weft_read(d, bc, 0, c, sizeof c));
    int bad = 0;
    for (uint32_t i = 0; i < N; i++) bad += c[i] != a[i] + b[i];
    printf("vecadd: %s (%llu cycles)\n", bad ? "FAIL" : "PASS",
           (unsigned long long)weft_device_cycles(d));

    /* reduction: the sum of N words, 32-thread blocks, 128 bytes of shared memory each */
    static uint32_t v[N];
    uint32_t want = 0, zero = 0, sum = 0;
    for (uint32_t i = 0; i < N; i++) want += v[i] = (i * 31u) % 1000u;
    weft_buffer bv, bs;
    CHECK(weft_alloc(d, sizeof v, &bv));
    CHECK(weft_alloc(d, 4, &bs));
    CHECK(weft_write(d, bv, 0, v, sizeof v));
    CHECK(weft_write(d, bs, 0, &zero, 4));
    uint32_t sargs[3] = {bv.addr, N, bs.addr};
    uint32_t rgrid[3] = {(N + 31) / 32, 1, 1}, rblock[3] = {32, 1, 1};
    CHECK(weft_launch_kernel(d, "block_sum", rgrid, rblock, 128, sargs, sizeof sargs));
    CHECK(weft_wait(d, 0));
    CHECK(weft_read(d, bs, 0, &sum, 4));
    printf("reduction: %s\n", sum == want ? "PASS" : "FAIL");
    bad += sum != want;

    /* sgemm: 16 x 16 with 4 x 4 tiles */
    enum { M = 16, T = 4 };
    static float ma[M * M], mb[M * M], mc[M * M];
    for (int i = 0; i < M * M; i++) {
        ma[i] = (float)((i * 7) % 11 - 5);
        mb[i] = (float)((i * 5) % 9 - 4);
    }
    weft_buffer pa, pb, pc;
    CHECK(weft_alloc(d, sizeof ma, &pa));
    CHECK(weft_alloc(d, sizeof mb, &pb));
    CHECK(weft_alloc(d, sizeof mc, &pc));
    CHECK(weft_write(d, pa, 0, ma, sizeof ma));
    CHECK(weft_write(d, pb, 0, mb, sizeof mb));
    uint32_t gargs[4] = {pa.addr, pb.addr, pc.addr, M};
    uint32_t ggrid[3] = {M / T, M / T, 1}, gblock[3] = {T, T, 1};
    CHECK(weft_launch_kernel(d, "sgemm", ggrid, gblock, 2 * T * T * 4, gargs, sizeof gargs));
    CHECK(weft_wait(d, 0));
    CHECK(weft_read(d, pc, 0, mc, sizeof mc));
    int bad3 = 0;
    for (int r = 0; r < M; r++)
        for (int col = 0; col < M; col++) {
            float s = 0;
            for (int k = 0; k < M; k++) s += ma[r * M + k] * mb[k * M + col];
            bad3 += mc[r * M + col] != s;
        }
    printf("sgemm: %s\n", bad3 ? "FAIL" : "PASS");
    bad += bad3;

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

    /* each launch's own counters, as JSON: here the last launch (index -1) */
    /* (0: no launch recorded) */
    size_t need = weft_launch_stats_json(d, -1, NULL, 0);
    if (need == 0) {
        printf("last launch: none\n");
    } else {
        char *one = malloc(need);
        weft_launch_stats_json(d, -1, one, need);
        printf("last launch: %s\n", strstr(one, "\"kernel\":\"scale\"") ? "scale" : one);
        free(one);
    }
    printf("launch 99: %zu\n", weft_launch_stats_json(d, 99, NULL, 0));

    /* errors are codes with messages, and the device goes on working */
    rc = weft_launch_kernel(d, "missing", grid, block, 0, NULL, 0);
    printf("missing kernel: error %d (%s)\n", rc, weft_last_error(d));
    rc = weft_read(d, bx, sizeof x, x, 4);
    printf("read past the end: error %d\n", rc);
    if (timing || rtl) {
        /* the statistics as JSON: the timing model's report is under "timing"; the RTL's
         * is the functional model's with "model": "rtl" and its issue slots */
        size_t need = weft_stats_json(d, NULL, 0);
        char *json = malloc(need);
        weft_stats_json(d, json, need);
        if (timing) printf("timing stats: %s\n", strstr(json, "\"timing\"") ? "present" : "missing");
        if (rtl) printf("rtl stats: %s\n", strstr(json, "\"issue_slots\"") ? "present" : "missing");
        free(json);
    }
    weft_device_close(d);
    return bad || bad2 || rc != WEFT_E_BAD_ADDRESS;
}

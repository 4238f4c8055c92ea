/* A second program for the tests of several programs on one device (tests/modules.rs): larger
   than kernels.c (a table in .data), with a counter in .data that must survive swaps, and a
   kernel whose lanes diverge. */
#include <stdint.h>
#include <weft.h>

/* 64 KiB of initialised data (not static, so the compiler keeps it): this program's image,
   and so its stacks, reach higher. */
uint32_t table[16384] = {7, 11, 13};
static uint32_t calls = 100;

/* x[i] = x[i] odd ? 3 * x[i] + table[2] : x[i] / 2 + table[1] — lanes of a warp diverge. */
struct collatz_args { uint32_t *x; uint32_t n; };
WEFT_KERNEL void collatz(void *p) {
    struct collatz_args *g = p;
    uint32_t i = weft_global_thread();
    if (i >= g->n) return;
    uint32_t v = g->x[i];
    if (v & 1) {
        v = 3 * v + table[2];
    } else {
        v = v / 2 + table[1];
    }
    g->x[i] = v;
}

/* out[0] = calls++ (thread 0): this program's own global, kept from launch to launch. */
WEFT_KERNEL void count(void *p) {
    uint32_t *out = *(uint32_t **)p;
    if (weft_global_thread() == 0) out[0] = calls++;
}

/* Helpers shared by weft's example kernels: deterministic inputs and result checks. Every
 * kernel's main() fills its inputs, launches, recomputes the answer with plain sequential C,
 * and prints "<name>: PASS" (or FAIL with the first mismatch) and a checksum. */
#ifndef KERNELS_COMMON_H
#define KERNELS_COMMON_H
#include <stdint.h>
#include <stdio.h>
#include <weft.h>

/* SCALE multiplies each kernel's problem size (`weft bench --vs-qemu --scale`, `weft cc
 * -DSCALE=4`); 1 is the size the tests use. */
#ifndef SCALE
#define SCALE 1
#endif

static uint32_t lcg_state = 12345;
static inline uint32_t lcg(void) {
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state >> 8;
}
/* A float in [-1, 1) with 16 significant bits (sums of a few stay exact). */
static inline float lcg_float(void) { return (float)((int32_t)(lcg() & 0xFFFF) - 32768) / 32768.0f; }

static inline uint32_t checksum_u32(const uint32_t *v, uint32_t n) {
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++) h = (h ^ v[i]) * 16777619u;
    return h;
}

/* Report: PASS when `bad` is 0, otherwise FAIL naming the first bad index. */
static inline int report(const char *name, uint32_t bad, uint32_t first) {
    if (bad == 0) printf("%s: PASS\n", name);
    else printf("%s: FAIL (%u mismatches, first at %u)\n", name, bad, first);
    return bad != 0;
}

/* The largest power of two <= max that fits in one core (warps x lanes): blocks that use
 * weft_syncthreads() must fit in a core. */
static inline uint32_t block_for_barriers(uint32_t max) {
    uint32_t hw = weft_num_warps() * weft_num_lanes(), b = 1;
    while (b * 2 <= max && b * 2 <= hw) b *= 2;
    return b;
}

static inline float absf(float x) { return x < 0 ? -x : x; }

/* Inclusive sum of v over the lanes of the warp up to this one: log2(warpSize) shuffles up
 * (a converged warp: every lane calls it). */
static inline uint32_t warp_inclusive_scan(uint32_t v) {
    uint32_t lane = weft_lane_id();
    for (int d = 1; d < warpSize; d *= 2) {
        uint32_t o = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= (uint32_t)d) v += o;
    }
    return v;
}

/* Called by the lanes of one warp (lane = threadIdx.x): a[0..n) becomes its exclusive prefix
 * sum, a warp-sized chunk at a time with the running total carried. */
static inline void warp_exclusive_scan_in_place(uint32_t *a, uint32_t n) {
    uint32_t lane = threadIdx.x, carry = 0;
    for (uint32_t base = 0; base < n; base += warpSize) {
        uint32_t j = base + lane, x = j < n ? a[j] : 0;
        uint32_t incl = warp_inclusive_scan(x);
        if (j < n) a[j] = carry + incl - x;
        carry += __shfl_sync(0xffffffffu, incl, warpSize - 1);
    }
}
#endif

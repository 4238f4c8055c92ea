/* Every function of weft's math.h over special and ordinary values (zeros, halves, the
 * rounding edges near 2^23, subnormals, the largest float, infinities, NaN), one input per
 * thread: each result printed as its bits (a NaN as "nan": its sign and payload differ between
 * RISC-V and x86). Built as C and as C++ (crates/weft/tests/math_h.rs). No (x, y) pair is two
 * zeros: fminf/fmaxf of -0 and +0 may return either. */
#include <stdio.h>
#include <stdint.h>
#include <math.h>
#include <weft.h>

#define N 40
static const uint32_t XS[N] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3f000000, 0xbf000000, 0x3fc00000,
    0xbfc00000, 0x40200000, 0xc0200000, 0x3effffff, 0xbeffffff, 0x4afffffd, 0xcafffffd,
    0x4b000000, 0xcb000000, 0x4b000001, 0x7149f2ca, 0xf149f2ca, 0x7f800000, 0xff800000,
    0x7fc00000, 0x00000001, 0x80000001, 0x00800000, 0x7f7fffff, 0x40000000, 0x40400000,
    0x41200000, 0x42f6e979, 0xc2f6e979, 0x40490fdb, 0x3f800001, 0x3f7fffff, 0x34000000,
    0x4e800000, 0xcf000000, 0x3ea8f5c3, 0xc07fffff, 0x007fffff};
static const uint32_t YS[N] = {
    0x3f800000, 0x40000000, 0x80000000, 0x3f800000, 0xbf000000, 0x3f000000, 0x7f800000,
    0xff800000, 0x7fc00000, 0x40200000, 0x3f000000, 0x3effffff, 0xcafffffd, 0x4afffffd,
    0x3f7fffff, 0x4b000001, 0xcb000000, 0xf149f2ca, 0x7149f2ca, 0x3f800000, 0x00000001,
    0x3f800000, 0x80000001, 0x00000001, 0x00800001, 0xff7fffff, 0xc0000000, 0x40400001,
    0xc1200000, 0x42f6e979, 0x42f6e979, 0xc0490fdb, 0x3f7ffffe, 0x3f800001, 0xb4000000,
    0x4e800001, 0x4f000000, 0xbea8f5c3, 0x407fffff, 0x807fffff};

static float f_of(uint32_t u) { union { uint32_t u; float f; } v; v.u = u; return v.f; }
static void show(float f) {
    union { float f; uint32_t u; } v; v.f = f;
    if (isnan(f)) printf(" nan"); else printf(" %08x", (unsigned)v.u);
}

struct args { int dummy; };
static void k(void *p) {
    (void)p;
    uint32_t i = threadIdx.x;
    float x = f_of(XS[i]), y = f_of(YS[i]), z = f_of(XS[(i + 7) % N]);
    float (*volatile lib)(float) = sqrtf; /* the library function, not the inline one */
    printf("%2u", (unsigned)i);
    show(sqrtf(x)); show(lib(x)); show(fabsf(x)); show(fminf(x, y)); show(fmaxf(x, y));
    show(fmaf(x, y, z)); show(copysignf(x, y)); show(floorf(x)); show(ceilf(x));
    show(truncf(x)); show(roundf(x));
    union { double d; uint64_t u; } dv; dv.d = fabs((double)x * -3.0);
    printf(" %08x%08x %d%d%d%d\n", (unsigned)(dv.u >> 32), (unsigned)dv.u, isnan(x) != 0,
           isinf(x) != 0, isfinite(x) != 0, signbit(x) != 0);
}

int main(void) {
    struct args a = {0};
    weft_launch(weft_dim3(1, 1, 1), weft_dim3(N, 1, 1), k, &a);
    return 0;
}

/* Vector data loads and stores (OpenCL C 1.2, 6.12.7): vloadN and vstoreN of every element
 * type in every address space, and the half-precision forms (vload_half, vloada_half,
 * vstore_half and vstorea_half, with their rounding modes), which convert between float and
 * the 16-bit IEEE format in memory. */
#include "clc.h"

#define VLOAD_AS(T, N, AS)                                                                     \
    OVL T##N vload##N(size_t i, const AS T *p) {                                               \
        T##N r;                                                                                \
        for (int k = 0; k < N; k++) r[k] = p[i * N + k];                                       \
        return r;                                                                              \
    }
#define VSTORE_AS(T, N, AS)                                                                    \
    OVL void vstore##N(T##N v, size_t i, AS T *p) {                                            \
        for (int k = 0; k < N; k++) p[i * N + k] = v[k];                                       \
    }
#define VLS_N(T, N)                                                                            \
    VLOAD_AS(T, N, __global)                                                                   \
    VLOAD_AS(T, N, __local)                                                                    \
    VLOAD_AS(T, N, __constant)                                                                 \
    VLOAD_AS(T, N, __private)                                                                  \
    VSTORE_AS(T, N, __global) VSTORE_AS(T, N, __local) VSTORE_AS(T, N, __private)
#define VLS(T, unused) VLS_N(T, 2) VLS_N(T, 3) VLS_N(T, 4) VLS_N(T, 8) VLS_N(T, 16)
FOR_GENTYPES(VLS, 0)

/* ---- half <-> float ------------------------------------------------------------------------ */

static float half_to_float(ushort h) {
    uint s = (uint)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1f) return as_float(s | 0x7f800000u | (m << 13)); /* inf, NaN */
    if (e != 0) return as_float(s | ((e + 112) << 23) | (m << 13));
    if (m == 0) return as_float(s);
    /* subnormal: m 2^-24 */
    float v = (float)m * 0x1p-24f;
    return s ? -v : v;
}

/* float -> half bits, rounded by mode: 0 nearest even, 1 toward zero, 2 up, 3 down */
static ushort float_to_half(float f, int mode) {
    uint x = as_uint(f), s = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u) return (ushort)(s | 0x7e00u | ((ax >> 13) & 0x3ffu)); /* NaN */
    int up_if_pos = mode == 2, up_if_neg = mode == 3;
    int away = s ? up_if_neg : up_if_pos; /* directed rounding away from zero */
    int toward = mode == 1 || (mode >= 2 && !away);
    if (ax >= 0x477ff000u) { /* |f| >= 65520 (or inf): rounds past the largest half */
        if (ax == 0x7f800000u) return (ushort)(s | 0x7c00u);
        if (mode == 0 || away) return (ushort)(s | 0x7c00u);
        return (ushort)(s | 0x7bffu);
    }
    int e = (int)(ax >> 23) - 127;
    uint mant, shift;
    uint h;
    if (e >= -14) {
        /* normal half: 10 mantissa bits */
        mant = (ax & 0x7fffffu) | 0x800000u;
        shift = 13;
        h = ((uint)(e + 15) << 10) | ((mant >> 13) & 0x3ffu);
    } else {
        /* subnormal half: the value in units of 2^-24 */
        if (e < -25) {
            if (ax == 0) return (ushort)s;
            return (ushort)(s | (uint)(away ? 1 : 0));
        }
        mant = (ax & 0x7fffffu) | 0x800000u;
        shift = (uint)(-1 - e); /* 13 + (-14 - e) */
        h = mant >> shift;
    }
    uint rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
    int inc;
    if (mode == 0)
        inc = rem > mid || (rem == mid && (h & 1));
    else if (toward)
        inc = 0;
    else
        inc = rem != 0;
    h += (uint)inc; /* a carry moves into the exponent as it should */
    return (ushort)(s | h);
}

#define HALF_LOAD_AS(AS)                                                                       \
    OVL float vload_half(size_t i, const AS half *p) {                                         \
        return half_to_float(((const AS ushort *)p)[i]);                                       \
    }                                                                                          \
    HALF_LOADN(2, 2, AS) HALF_LOADN(3, 3, AS) HALF_LOADN(4, 4, AS) HALF_LOADN(8, 8, AS)        \
    HALF_LOADN(16, 16, AS)                                                                     \
    HALF_LOADA(2, 2, AS) HALF_LOADA(3, 4, AS) HALF_LOADA(4, 4, AS) HALF_LOADA(8, 8, AS)        \
    HALF_LOADA(16, 16, AS)
#define HALF_LOADN(N, STRIDE, AS)                                                              \
    OVL float##N vload_half##N(size_t i, const AS half *p) {                                   \
        float##N r;                                                                            \
        for (int k = 0; k < N; k++) r[k] = half_to_float(((const AS ushort *)p)[i * STRIDE + k]); \
        return r;                                                                              \
    }
#define HALF_LOADA(N, STRIDE, AS)                                                              \
    OVL float##N vloada_half##N(size_t i, const AS half *p) {                                  \
        float##N r;                                                                            \
        for (int k = 0; k < N; k++) r[k] = half_to_float(((const AS ushort *)p)[i * STRIDE + k]); \
        return r;                                                                              \
    }
HALF_LOAD_AS(__global)
HALF_LOAD_AS(__local)
HALF_LOAD_AS(__constant)
HALF_LOAD_AS(__private)

#define HALF_STORE1(SUF, MODE, AS)                                                             \
    OVL void vstore_half##SUF(float v, size_t i, AS half *p) {                                 \
        ((AS ushort *)p)[i] = float_to_half(v, MODE);                                          \
    }
#define HALF_STOREN(NAME, N, STRIDE, SUF, MODE, AS)                                            \
    OVL void NAME##N##SUF(float##N v, size_t i, AS half *p) {                                  \
        for (int k = 0; k < N; k++) ((AS ushort *)p)[i * STRIDE + k] = float_to_half(v[k], MODE); \
    }
#define HALF_STORE_MODE(SUF, MODE, AS)                                                         \
    HALF_STORE1(SUF, MODE, AS)                                                                 \
    HALF_STOREN(vstore_half, 2, 2, SUF, MODE, AS)                                              \
    HALF_STOREN(vstore_half, 3, 3, SUF, MODE, AS)                                              \
    HALF_STOREN(vstore_half, 4, 4, SUF, MODE, AS)                                              \
    HALF_STOREN(vstore_half, 8, 8, SUF, MODE, AS)                                              \
    HALF_STOREN(vstore_half, 16, 16, SUF, MODE, AS)                                            \
    HALF_STOREN(vstorea_half, 2, 2, SUF, MODE, AS)                                             \
    HALF_STOREN(vstorea_half, 3, 4, SUF, MODE, AS)                                             \
    HALF_STOREN(vstorea_half, 4, 4, SUF, MODE, AS)                                             \
    HALF_STOREN(vstorea_half, 8, 8, SUF, MODE, AS)                                             \
    HALF_STOREN(vstorea_half, 16, 16, SUF, MODE, AS)
#define HALF_STORE_AS(AS)                                                                      \
    HALF_STORE_MODE(, 0, AS)                                                                   \
    HALF_STORE_MODE(_rte, 0, AS)                                                               \
    HALF_STORE_MODE(_rtz, 1, AS) HALF_STORE_MODE(_rtp, 2, AS) HALF_STORE_MODE(_rtn, 3, AS)
HALF_STORE_AS(__global)
HALF_STORE_AS(__local)
HALF_STORE_AS(__private)

/* Integer built-ins (OpenCL C 1.2, 6.12.3) for char, uchar, short, ushort, int, uint, long
 * and ulong, scalars and vectors: abs, abs_diff, add_sat, hadd, rhadd, clamp, clz, mad_hi,
 * mad_sat, max, min, mul_hi, rotate, sub_sat, upsample, popcount, mad24, mul24. */
#include "clc.h"

/* Each type with its unsigned twin, its width in bits, and its range. */
#define INT_TYPES(M)                                                                           \
    M(char, uchar, 8, CHAR_MIN, CHAR_MAX)                                                      \
    M(uchar, uchar, 8, 0, UCHAR_MAX)                                                           \
    M(short, ushort, 16, SHRT_MIN, SHRT_MAX)                                                   \
    M(ushort, ushort, 16, 0, USHRT_MAX)                                                        \
    M(int, uint, 32, INT_MIN, INT_MAX)                                                         \
    M(uint, uint, 32, 0, UINT_MAX)                                                             \
    M(long, ulong, 64, LONG_MIN, LONG_MAX)                                                     \
    M(ulong, ulong, 64, 0, ULONG_MAX)

/* 64 x 64 -> the high 64 bits of the 128-bit product, unsigned and signed. */
static ulong umulh64(ulong a, ulong b) {
    ulong al = a & 0xFFFFFFFFul, ah = a >> 32, bl = b & 0xFFFFFFFFul, bh = b >> 32;
    ulong ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    ulong mid = (ll >> 32) + (lh & 0xFFFFFFFFul) + (hl & 0xFFFFFFFFul);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
static long smulh64(long a, long b) {
    ulong h = umulh64((ulong)a, (ulong)b);
    if (a < 0) h -= (ulong)b;
    if (b < 0) h -= (ulong)a;
    return (long)h;
}

#define IS_SIGNED(T) ((T)-1 < (T)0)

/* a * b + c exactly, then saturated: in 64 bits for the narrower types ... */
#define MAD_SAT_NARROW(BITS)                                                                   \
    static long mad_sat_##BITS(long a, long b, long c, int sgn, long lo, long hi) {            \
        if (sgn) {                                                                             \
            long v = a * b + c;                                                                \
            return v < lo ? lo : v > hi ? hi : v;                                              \
        }                                                                                      \
        ulong v = (ulong)a * (ulong)b + (ulong)c;                                              \
        return v > (ulong)hi ? hi : (long)v;                                                   \
    }
MAD_SAT_NARROW(8)
MAD_SAT_NARROW(16)
/* ... and for 32 bits (the product of two 32-bit values and one more fit in 64 bits) */
static long mad_sat_32(long a, long b, long c, int sgn, long lo, long hi) {
    if (sgn) {
        long v = a * b + c;
        return v < lo ? lo : v > hi ? hi : v;
    }
    ulong v = (ulong)(uint)a * (ulong)(uint)b + (ulong)(uint)c;
    return v > (ulong)(uint)hi ? (long)(uint)hi : (long)v;
}
/* ... and in 128 bits for 64-bit types */
static long mad_sat_64(long a, long b, long c, int sgn, long lo, long hi) {
    ulong pl = (ulong)a * (ulong)b;
    ulong ph = sgn ? (ulong)smulh64(a, b) : umulh64((ulong)a, (ulong)b);
    ulong sl = pl + (ulong)c;
    ulong carry = sl < pl;
    ulong sh = ph + carry + (sgn && c < 0 ? ~0ul : 0ul);
    if (!sgn) return sh != 0 ? hi : (long)sl;
    /* in range when the high word is the sign extension of the low one */
    if ((long)sh == ((long)sl >> 63)) return (long)sl;
    return (long)sh < 0 ? lo : hi;
}

#define SCALAR(T, UT, BITS, MIN, MAX)                                                          \
    OVL UT abs(T x) { return IS_SIGNED(T) && x < 0 ? (UT)0 - (UT)x : (UT)x; }                  \
    OVL UT abs_diff(T x, T y) { return x > y ? (UT)x - (UT)y : (UT)y - (UT)x; }                \
    OVL T hadd(T x, T y) { return (x >> 1) + (y >> 1) + (x & y & 1); }                         \
    OVL T rhadd(T x, T y) { return (x >> 1) + (y >> 1) + ((x | y) & 1); }                      \
    OVL T max(T x, T y) { return x > y ? x : y; }                                              \
    OVL T min(T x, T y) { return x < y ? x : y; }                                              \
    OVL T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }                               \
    OVL T popcount(T x) {                                                                      \
        return BITS == 64 ? (T)__builtin_popcountl((ulong)x) : (T)__builtin_popcount((UT)x);   \
    }                                                                                          \
    OVL T clz(T x) {                                                                           \
        if (x == 0) return (T)BITS;                                                            \
        return BITS == 64 ? (T)__builtin_clzl((ulong)x)                                        \
                          : (T)(__builtin_clz((uint)(UT)x) - (32 - BITS));                     \
    }                                                                                          \
    OVL T rotate(T v, T i) {                                                                   \
        uint s = (uint)((UT)i % BITS);                                                         \
        UT u = (UT)v;                                                                          \
        return s == 0 ? v : (T)((UT)(u << s) | (UT)(u >> (BITS - s)));                         \
    }                                                                                          \
    OVL T add_sat(T x, T y) {                                                                  \
        T r;                                                                                   \
        if (!__builtin_add_overflow(x, y, &r)) return r;                                       \
        return IS_SIGNED(T) && y < 0 ? (T)MIN : (T)MAX;                                        \
    }                                                                                          \
    OVL T sub_sat(T x, T y) {                                                                  \
        T r;                                                                                   \
        if (!__builtin_sub_overflow(x, y, &r)) return r;                                       \
        return IS_SIGNED(T) && y > 0 ? (T)MIN : IS_SIGNED(T) ? (T)MAX : (T)0;                  \
    }                                                                                          \
    OVL T mul_hi(T x, T y) {                                                                   \
        if (BITS == 64)                                                                        \
            return IS_SIGNED(T) ? (T)smulh64((long)x, (long)y) : (T)umulh64((ulong)x, (ulong)y); \
        return IS_SIGNED(T) ? (T)(((long)x * (long)y) >> BITS)                                 \
                            : (T)(((ulong)x * (ulong)y) >> BITS);                              \
    }                                                                                          \
    OVL T mad_hi(T a, T b, T c) { return mul_hi(a, b) + c; }                                   \
    OVL T mad_sat(T a, T b, T c) { return mad_sat_##BITS(a, b, c, IS_SIGNED(T), (T)MIN, (T)MAX); } \
    UNARY_VECS(UT, T, abs)                                                                     \
    UNARY_VECS(T, T, popcount)                                                                 \
    UNARY_VECS(T, T, clz)                                                                      \
    BINARY_VECS(T, T, hadd)                                                                    \
    BINARY_VECS(T, T, rhadd)                                                                   \
    BINARY_VECS(T, T, max)                                                                     \
    BINARY_VECS(T, T, min)                                                                     \
    BINARY_VECS(T, T, rotate)                                                                  \
    BINARY_VECS(T, T, add_sat)                                                                 \
    BINARY_VECS(T, T, sub_sat)                                                                 \
    BINARY_VECS(T, T, mul_hi)                                                                  \
    TERNARY_VECS(T, clamp)                                                                     \
    TERNARY_VECS(T, mad_hi)                                                                    \
    TERNARY_VECS(T, mad_sat)                                                                   \
    ABS_DIFF_VECS(T, UT)                                                                       \
    SCALAR_ARG_VECS(T)

/* abs_diff returns the unsigned type. */
#define ABS_DIFF_VEC(N, T, UT)                                                                 \
    OVL UT##N abs_diff(T##N x, T##N y) {                                                       \
        UT##N r;                                                                               \
        for (int i = 0; i < N; i++) r[i] = abs_diff(x[i], y[i]);                               \
        return r;                                                                              \
    }
#define ABS_DIFF_VECS(T, UT)                                                                   \
    ABS_DIFF_VEC(2, T, UT)                                                                     \
    ABS_DIFF_VEC(3, T, UT)                                                                     \
    ABS_DIFF_VEC(4, T, UT) ABS_DIFF_VEC(8, T, UT) ABS_DIFF_VEC(16, T, UT)

/* max, min and clamp of a vector with scalar bounds. */
#define SCALAR_ARG_VEC(N, T)                                                                   \
    OVL T##N max(T##N x, T y) { return max(x, (T##N)(y)); }                                    \
    OVL T##N min(T##N x, T y) { return min(x, (T##N)(y)); }                                    \
    OVL T##N clamp(T##N x, T lo, T hi) { return clamp(x, (T##N)(lo), (T##N)(hi)); }
#define SCALAR_ARG_VECS(T)                                                                     \
    SCALAR_ARG_VEC(2, T)                                                                       \
    SCALAR_ARG_VEC(3, T) SCALAR_ARG_VEC(4, T) SCALAR_ARG_VEC(8, T) SCALAR_ARG_VEC(16, T)

INT_TYPES(SCALAR)

/* upsample(hi, lo): the wider type with hi above lo. */
#define UPSAMPLE(T, UT, W)                                                                     \
    OVL W upsample(T hi, UT lo) { return (W)(((W)hi << (8 * sizeof(T))) | (W)lo); }            \
    OVL W##2 upsample(T##2 hi, UT##2 lo) { return (W##2)(upsample(hi.s0, lo.s0), upsample(hi.s1, lo.s1)); } \
    OVL W##3 upsample(T##3 hi, UT##3 lo) { return (W##3)(upsample(hi.s01, lo.s01), upsample(hi.s2, lo.s2)); } \
    OVL W##4 upsample(T##4 hi, UT##4 lo) { return (W##4)(upsample(hi.lo, lo.lo), upsample(hi.hi, lo.hi)); } \
    OVL W##8 upsample(T##8 hi, UT##8 lo) { return (W##8)(upsample(hi.lo, lo.lo), upsample(hi.hi, lo.hi)); } \
    OVL W##16 upsample(T##16 hi, UT##16 lo) { return (W##16)(upsample(hi.lo, lo.lo), upsample(hi.hi, lo.hi)); }
UPSAMPLE(char, uchar, short)
UPSAMPLE(uchar, uchar, ushort)
UPSAMPLE(short, ushort, int)
UPSAMPLE(ushort, ushort, uint)
UPSAMPLE(int, uint, long)
UPSAMPLE(uint, uint, ulong)

/* The 24-bit multiplies: for operands in 24 bits, the 32-bit product. */
#define MUL24(T)                                                                               \
    OVL T mul24(T x, T y) { return x * y; }                                                    \
    OVL T mad24(T x, T y, T z) { return x * y + z; }                                           \
    BINARY_VECS(T, T, mul24)                                                                   \
    TERNARY_VECS(T, mad24)
MUL24(int)
MUL24(uint)

/* Common, geometric and relational built-ins (OpenCL C 1.2, 6.12.4–6.12.6), and the vector
 * shuffles (6.12.12). Relational functions answer 1 or 0 for scalars and -1 or 0 per element
 * for vectors, as OpenCL's comparison operators do. */
#include "clmath.h"

/* ---- common ------------------------------------------------------------------------------ */

OVL float clamp(float x, float lo, float hi) { return __builtin_fminf(__builtin_fmaxf(x, lo), hi); }
OVL float max(float x, float y) { return __builtin_fmaxf(x, y); }
OVL float min(float x, float y) { return __builtin_fminf(x, y); }
OVL float degrees(float r) { return r * 0x1.ca5dc2p+5f; }
OVL float radians(float d) { return d * 0x1.1df46ap-6f; }
OVL float mix(float x, float y, float a) { return __builtin_fmaf(y - x, a, x); }
OVL float step(float edge, float x) { return x < edge ? 0.0f : 1.0f; }
OVL float smoothstep(float e0, float e1, float x) {
    float t = clamp((x - e0) / (e1 - e0), 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
}
OVL float sign(float x) {
    if (isnan(x)) return 0.0f;
    if (x > 0.0f) return 1.0f;
    if (x < 0.0f) return -1.0f;
    return x;
}
F3_VECS(clamp)
F2_VECS(max)
F2_VECS(min)
F1_VECS(degrees)
F1_VECS(radians)
F3_VECS(mix)
F2_VECS(step)
F3_VECS(smoothstep)
F1_VECS(sign)

#define COMMON_SCALAR_ARGS(N)                                                                  \
    OVL float##N clamp(float##N x, float lo, float hi) {                                       \
        return clamp(x, (float##N)(lo), (float##N)(hi));                                       \
    }                                                                                          \
    OVL float##N max(float##N x, float y) { return max(x, (float##N)(y)); }                   \
    OVL float##N min(float##N x, float y) { return min(x, (float##N)(y)); }                   \
    OVL float##N mix(float##N x, float##N y, float a) { return mix(x, y, (float##N)(a)); }    \
    OVL float##N step(float e, float##N x) { return step((float##N)(e), x); }                 \
    OVL float##N smoothstep(float e0, float e1, float##N x) {                                  \
        return smoothstep((float##N)(e0), (float##N)(e1), x);                                  \
    }
COMMON_SCALAR_ARGS(2)
COMMON_SCALAR_ARGS(3)
COMMON_SCALAR_ARGS(4)
COMMON_SCALAR_ARGS(8)
COMMON_SCALAR_ARGS(16)

/* ---- geometric (float, float2, float3, float4) ----------------------------------------- */

OVL float dot(float x, float y) { return x * y; }
OVL float dot(float2 x, float2 y) { return __builtin_fmaf(x.s1, y.s1, x.s0 * y.s0); }
OVL float dot(float3 x, float3 y) {
    return __builtin_fmaf(x.s2, y.s2, __builtin_fmaf(x.s1, y.s1, x.s0 * y.s0));
}
OVL float dot(float4 x, float4 y) {
    return __builtin_fmaf(x.s3, y.s3,
                          __builtin_fmaf(x.s2, y.s2, __builtin_fmaf(x.s1, y.s1, x.s0 * y.s0)));
}
OVL float3 cross(float3 a, float3 b) {
    return (float3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
OVL float4 cross(float4 a, float4 b) {
    return (float4)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x, 0.0f);
}

/* length without overflow or underflow: scaled by a power of two near the largest element */
#define GEOMETRIC(T)                                                                           \
    OVL float length(T p) {                                                                    \
        float m = 0.0f;                                                                        \
        for (int i = 0; i < (int)vec_step(p); i++) m = __builtin_fmaxf(m, __builtin_fabsf(p[i])); \
        if (m == 0.0f || isinf(m) || isnan(m)) return isnan(dot(p, p)) ? NAN : m;              \
        int e = ilogb(m);                                                                      \
        T s = ldexp(p, -e);                                                                    \
        return ldexp(__builtin_sqrtf(dot(s, s)), e);                                           \
    }                                                                                          \
    OVL float distance(T a, T b) { return length(a - b); }                                     \
    OVL T normalize(T p) {                                                                     \
        float l = length(p);                                                                   \
        if (l == 0.0f) return p;                                                               \
        if (isinf(l)) {                                                                        \
            T q = p;                                                                           \
            for (int i = 0; i < (int)vec_step(p); i++)                                         \
                q[i] = isinf(p[i]) ? __builtin_copysignf(1.0f, p[i]) : 0.0f;                   \
            return normalize(q);                                                               \
        }                                                                                      \
        return p / l;                                                                          \
    }                                                                                          \
    OVL float fast_length(T p) { return half_sqrt(dot(p, p)); }                                \
    OVL float fast_distance(T a, T b) { return fast_length(a - b); }                           \
    OVL T fast_normalize(T p) {                                                                \
        float d = dot(p, p);                                                                   \
        return d == 0.0f ? p : p * half_rsqrt(d);                                              \
    }

OVL float length(float p) { return __builtin_fabsf(p); }
OVL float distance(float a, float b) { return __builtin_fabsf(a - b); }
OVL float normalize(float p) { return p == 0.0f || isnan(p) ? p : __builtin_copysignf(1.0f, p); }
OVL float fast_length(float p) { return __builtin_fabsf(p); }
OVL float fast_distance(float a, float b) { return __builtin_fabsf(a - b); }
OVL float fast_normalize(float p) { return normalize(p); }
GEOMETRIC(float2)
GEOMETRIC(float3)
GEOMETRIC(float4)

/* ---- relational -------------------------------------------------------------------------- */

#define REL2(f, e)                                                                             \
    OVL int f(float x, float y) { return (e) ? 1 : 0; }                                        \
    OVL int2 f(float2 x, float2 y) { return e; }                                               \
    OVL int3 f(float3 x, float3 y) { return e; }                                               \
    OVL int4 f(float4 x, float4 y) { return e; }                                               \
    OVL int8 f(float8 x, float8 y) { return e; }                                               \
    OVL int16 f(float16 x, float16 y) { return e; }
#define REL1(f, e)                                                                             \
    OVL int f(float x) { return (e) ? 1 : 0; }                                                 \
    OVL int2 f(float2 x) { return e; }                                                         \
    OVL int3 f(float3 x) { return e; }                                                         \
    OVL int4 f(float4 x) { return e; }                                                         \
    OVL int8 f(float8 x) { return e; }                                                         \
    OVL int16 f(float16 x) { return e; }

REL2(isequal, x == y)
REL2(isnotequal, x != y)
REL2(isgreater, x > y)
REL2(isgreaterequal, x >= y)
REL2(isless, x < y)
REL2(islessequal, x <= y)
REL2(islessgreater, (x < y) | (x > y))
REL2(isordered, (x == x) & (y == y))
REL2(isunordered, (x != x) | (y != y))
REL1(isnan, x != x)
REL1(isinf, fabs(x) == INFINITY)
REL1(isfinite, fabs(x) < INFINITY)
REL1(isnormal, (fabs(x) >= FLT_MIN) & (fabs(x) < INFINITY))
OVL int signbit(float x) { return as_int(x) < 0; }
OVL int2 signbit(float2 x) { return as_int2(x) < 0; }
OVL int3 signbit(float3 x) { return as_int3(x) < 0; }
OVL int4 signbit(float4 x) { return as_int4(x) < 0; }
OVL int8 signbit(float8 x) { return as_int8(x) < 0; }
OVL int16 signbit(float16 x) { return as_int16(x) < 0; }

/* any and all: the most significant bit of any or every element */
#define ANY_ALL(T)                                                                             \
    OVL int any(T x) { return x < 0; }                                                         \
    OVL int all(T x) { return x < 0; }                                                         \
    OVL int any(T##2 x) { return (x.s0 | x.s1) < 0; }                                          \
    OVL int all(T##2 x) { return (x.s0 & x.s1) < 0; }                                          \
    OVL int any(T##3 x) { return (x.s0 | x.s1 | x.s2) < 0; }                                   \
    OVL int all(T##3 x) { return (x.s0 & x.s1 & x.s2) < 0; }                                   \
    OVL int any(T##4 x) { return any(x.lo | x.hi); }                                           \
    OVL int all(T##4 x) { return all(x.lo & x.hi); }                                           \
    OVL int any(T##8 x) { return any(x.lo | x.hi); }                                           \
    OVL int all(T##8 x) { return all(x.lo & x.hi); }                                           \
    OVL int any(T##16 x) { return any(x.lo | x.hi); }                                          \
    OVL int all(T##16 x) { return all(x.lo & x.hi); }
ANY_ALL(char)
ANY_ALL(short)
ANY_ALL(int)
ANY_ALL(long)

#define CAT3_(a, b, c) a##b##c
#define CAT3(a, b, c) CAT3_(a, b, c)

/* select (scalars: c != 0; vectors: the most significant bit of each element of c) and
 * bitselect, for element type E whose integer types of its size are S (signed), U. */
#define SELECT_V(E, S, U, N)                                                                   \
    OVL E##N select(E##N a, E##N b, S##N c) { return c < (S##N)(0) ? b : a; }                  \
    OVL E##N select(E##N a, E##N b, U##N c) { return CAT3(as_, S, N)(c) < (S##N)(0) ? b : a; } \
    OVL E##N bitselect(E##N a, E##N b, E##N c) {                                               \
        U##N ua = CAT3(as_, U, N)(a), ub = CAT3(as_, U, N)(b), uc = CAT3(as_, U, N)(c);        \
        return CAT3(as_, E, N)((ua & ~uc) | (ub & uc));                                        \
    }
#define SELECT(E, S, U)                                                                        \
    OVL E select(E a, E b, S c) { return c ? b : a; }                                          \
    OVL E select(E a, E b, U c) { return c ? b : a; }                                          \
    OVL E bitselect(E a, E b, E c) {                                                           \
        U ua = CAT3(as_, U, )(a), ub = CAT3(as_, U, )(b), uc = CAT3(as_, U, )(c);              \
        return CAT3(as_, E, )((U)((ua & ~uc) | (ub & uc)));                                    \
    }                                                                                          \
    SELECT_V(E, S, U, 2)                                                                       \
    SELECT_V(E, S, U, 3)                                                                       \
    SELECT_V(E, S, U, 4) SELECT_V(E, S, U, 8) SELECT_V(E, S, U, 16)
SELECT(char, char, uchar)
SELECT(uchar, char, uchar)
SELECT(short, short, ushort)
SELECT(ushort, short, ushort)
SELECT(int, int, uint)
SELECT(uint, int, uint)
SELECT(long, long, ulong)
SELECT(ulong, long, ulong)
SELECT(float, int, uint)

/* ---- shuffle, shuffle2 ------------------------------------------------------------------- */

#define SHUF(E, U, N, M)                                                                       \
    OVL E##M shuffle(E##N x, U##M mask) {                                                      \
        E##M r;                                                                                \
        for (int i = 0; i < M; i++) r[i] = x[mask[i] & (N - 1)];                               \
        return r;                                                                              \
    }                                                                                          \
    OVL E##M shuffle2(E##N x, E##N y, U##M mask) {                                             \
        E##M r;                                                                                \
        for (int i = 0; i < M; i++) {                                                          \
            uint k = (uint)(mask[i] & (2 * N - 1));                                            \
            r[i] = k < N ? x[k] : y[k - N];                                                    \
        }                                                                                      \
        return r;                                                                              \
    }
#define SHUF_M(E, U, N) SHUF(E, U, N, 2) SHUF(E, U, N, 4) SHUF(E, U, N, 8) SHUF(E, U, N, 16)
#define SHUF_ALL(E, U) SHUF_M(E, U, 2) SHUF_M(E, U, 4) SHUF_M(E, U, 8) SHUF_M(E, U, 16)
SHUF_ALL(char, uchar)
SHUF_ALL(uchar, uchar)
SHUF_ALL(short, ushort)
SHUF_ALL(ushort, ushort)
SHUF_ALL(int, uint)
SHUF_ALL(uint, uint)
SHUF_ALL(long, ulong)
SHUF_ALL(ulong, ulong)
SHUF_ALL(float, uint)

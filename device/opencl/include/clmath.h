/* Internal to the OpenCL device library's math (math.cl, trig.cl, special.cl): double-float
 * arithmetic (a value as the unevaluated sum hi + lo of two floats, about 48 bits; products
 * made exact with fma), the shared exp2/log2 cores, and the macros that give every float
 * function its vector forms. Not for kernels. */
#ifndef WEFT_CLMATH_H
#define WEFT_CLMATH_H
#include "clc.h"

typedef struct {
    float hi, lo;
} df;

static inline df df_make(float hi, float lo) {
    df r = {hi, lo};
    return r;
}
/* a + b exactly, when |a| >= |b| */
static inline df fast_two_sum(float a, float b) {
    float s = a + b;
    return df_make(s, b - (s - a));
}
/* a + b exactly */
static inline df two_sum(float a, float b) {
    float s = a + b, bb = s - a;
    return df_make(s, (a - (s - bb)) + (b - bb));
}
/* a * b exactly */
static inline df two_prod(float a, float b) {
    float p = a * b;
    return df_make(p, __builtin_fmaf(a, b, -p));
}
static inline df df_add(df a, df b) {
    df s = two_sum(a.hi, b.hi);
    return fast_two_sum(s.hi, s.lo + a.lo + b.lo);
}
static inline df df_mul(df a, df b) {
    df p = two_prod(a.hi, b.hi);
    return fast_two_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}
static inline df df_mul_f(df a, float b) {
    df p = two_prod(a.hi, b);
    return fast_two_sum(p.hi, __builtin_fmaf(a.lo, b, p.lo));
}
static inline df df_div(df a, df b) {
    float q1 = a.hi / b.hi;
    df r = df_add(a, df_mul_f(b, -q1));
    float q2 = r.hi / b.hi;
    return fast_two_sum(q1, q2);
}

/* The cores (math.cl): log2|x| of a finite positive x as a double-float, and 2^(t.hi + t.lo)
 * for |t| below 160 (overflow and underflow handled, subnormals too). */
df __weft_log2_df(float x);
float __weft_exp2_df(df t);

/* Vector forms of a float function f (one, two or three float arguments, or a float and an
 * int argument) from the scalar one. */
#define F1_VECS(f) UNARY_VECS(float, float, f)
#define F2_VECS(f) BINARY_VECS(float, float, f)
#define F3_VECS(f) TERNARY_VECS(float, f)
#define FI_VECS(f) BINARY_VECS(float, int, f)
/* A float result from a float vector, elements one by one (ilogb and the like give int). */
#define F_TO_I_VECS(f) UNARY_VECS(int, float, f)

/* f(x, p) writing a second result through p: scalar and vector forms in the three address
 * spaces, from `static float f##_impl(float x, PT *out)` taking a private pointer. */
#define PTR_FORM(f, T, PT, AS)                                                                 \
    OVL T f(T x, AS PT *p) {                                                                   \
        PT o;                                                                                  \
        T r = f##_impl(x, &o);                                                                 \
        *p = o;                                                                                \
        return r;                                                                              \
    }
#define PTR_VEC_FORM(f, N, PT, AS)                                                             \
    OVL float##N f(float##N x, AS PT##N *p) {                                                  \
        float##N r;                                                                            \
        PT##N o;                                                                               \
        for (int i = 0; i < N; i++) {                                                          \
            PT e;                                                                              \
            r[i] = f##_impl(x[i], &e);                                                         \
            o[i] = e;                                                                          \
        }                                                                                      \
        *p = o;                                                                                \
        return r;                                                                              \
    }
#define PTR_ALL_AS(f, PT, AS)                                                                  \
    PTR_FORM(f, float, PT, AS)                                                                 \
    PTR_VEC_FORM(f, 2, PT, AS)                                                                 \
    PTR_VEC_FORM(f, 3, PT, AS)                                                                 \
    PTR_VEC_FORM(f, 4, PT, AS) PTR_VEC_FORM(f, 8, PT, AS) PTR_VEC_FORM(f, 16, PT, AS)
#define PTR_FUNCS(f, PT)                                                                       \
    PTR_ALL_AS(f, PT, __global)                                                                \
    PTR_ALL_AS(f, PT, __local)                                                                 \
    PTR_ALL_AS(f, PT, __private)

/* The half_ and native_ forms: the full-precision function (more accurate than either asks). */
#define ALIAS1(a, f)                                                                           \
    OVL float a(float x) { return f(x); }                                                      \
    F1_VECS(a)
#define ALIAS2(a, f)                                                                           \
    OVL float a(float x, float y) { return f(x, y); }                                          \
    F2_VECS(a)
#endif

/* Math built-ins of float, part two: trigonometric, inverse trigonometric and hyperbolic
 * functions. Arguments of sin, cos and tan are reduced modulo pi/2 exactly for every float
 * (Payne and Hanek's method: the argument times 2/pi's bits in integer arithmetic), so large
 * arguments are as accurate as small ones. */
#include "clmath.h"

#define PIO2_HI 0x1.921fb6p+0f
#define PIO2_LO -0x1.777a5cp-25f
#define PI_HI 0x1.921fb6p+1f
#define PI_LO -0x1.777a5cp-24f
#define INV_PI_HI 0x1.45f306p-2f
#define INV_PI_LO 0x1.b93910p-27f

/* 2/pi, 320 bits. */
__constant uint TWO_OVER_PI[10] = {0xA2F9836Eu, 0x4E441529u, 0xFC2757D1u, 0xF534DDC0u,
                                   0xDB629599u, 0x3C439041u, 0xFE5163ABu, 0xDEBBC561u,
                                   0xB7246E3Au, 0x424DD2E0u};

/* 32 bits of 2/pi starting at bit i (bit 1 is the first after the point). */
static uint tpi_bits(int i) {
    int k = (i - 1) >> 5, o = (i - 1) & 31;
    uint a = TWO_OVER_PI[k];
    return o == 0 ? a : (a << o) | (TWO_OVER_PI[k + 1] >> (32 - o));
}

/* x = q (pi/2) + r for finite x: the quadrant q mod 4 and r as a double-float, |r| <= pi/4. */
static int rem_pio2(float x, df *r) {
    float ax = __builtin_fabsf(x);
    if (ax <= 0x1.921fb6p-1f) {
        *r = df_make(x, 0.0f);
        return 0;
    }
    uint ix = as_uint(ax);
    int e = (int)(ix >> 23) - 150; /* ax = m 2^e */
    uint m = (ix & 0x7fffffu) | 0x800000u;
    int i0 = e - 1 > 1 ? e - 1 : 1; /* bits of 2/pi before i0 only add multiples of 4 */
    uint w0 = tpi_bits(i0), w1 = tpi_bits(i0 + 32), w2 = tpi_bits(i0 + 64);
    /* m * (w0:w1:w2): 120 bits in four 32-bit limbs, least significant first */
    ulong p2 = (ulong)m * w2, p1 = (ulong)m * w1, p0 = (ulong)m * w0;
    uint l0 = (uint)p2;
    ulong c = (p2 >> 32) + (uint)p1;
    uint l1 = (uint)c;
    c = (c >> 32) + (p1 >> 32) + (uint)p0;
    uint l2 = (uint)c;
    uint l3 = (uint)((c >> 32) + (p0 >> 32));
    /* the binary point of x * 2/pi is at bit `pt` of the product */
    int pt = i0 + 95 - e;
    ulong hi = ((ulong)l3 << 32) | l2, lo = ((ulong)l1 << 32) | l0;
    /* q: bits pt, pt+1; f: the 64 bits below pt */
    uint q;
    ulong f;
    int s = pt - 64; /* 30 .. 55 */
    q = (uint)(hi >> s) & 3;
    f = (hi << (64 - s)) | (lo >> s);
    long fs = (long)f;
    if (fs < 0) q += 1; /* round to the nearest quadrant: the fraction becomes negative */
    /* r = fs 2^-64 (pi/2) */
    long top = fs & ~0xFFFFFFFFFFl; /* 24 bits: exact as a float */
    float a = (float)top;
    float b = (float)(fs - top);
    df t = df_mul(df_make(a * 0x1p-64f, b * 0x1p-64f), df_make(PIO2_HI, PIO2_LO));
    if (x < 0.0f) {
        t = df_make(-t.hi, -t.lo);
        q = -q;
    }
    *r = t;
    return (int)(q & 3);
}

/* sin and cos of |r| <= pi/4 + a little, r = hi + lo. */
static float sin_poly(df r) {
    float x = r.hi, x2 = x * x;
    float p = 0x1.71de3ap-19f; /* 1/9! */
    p = __builtin_fmaf(p, x2, -0x1.a01a02p-13f);
    p = __builtin_fmaf(p, x2, 0x1.111112p-7f);
    p = __builtin_fmaf(p, x2, -0x1.555556p-3f);
    /* x + x^3 p + lo (1 - x^2/2) */
    return x + __builtin_fmaf(x * x2, p, r.lo * (1.0f - 0.5f * x2));
}
static float cos_poly(df r) {
    float x = r.hi, x2 = x * x;
    float p = -0x1.27e4fcp-22f; /* -1/10! */
    p = __builtin_fmaf(p, x2, 0x1.a01a02p-16f);
    p = __builtin_fmaf(p, x2, -0x1.6c16c2p-10f);
    p = __builtin_fmaf(p, x2, 0x1.555556p-5f);
    /* 1 - x^2/2 + x^4 p - lo x, the first two as a double-float */
    float h = 0.5f * x2;
    float w = 1.0f - h;
    float tail = ((1.0f - w) - h) + __builtin_fmaf(x2 * x2, p, -x * r.lo);
    return w + tail;
}

OVL float sin(float x) {
    if (isnan(x) || isinf(x)) return NAN;
    if (x == 0.0f) return x;
    df r;
    int q = rem_pio2(x, &r);
    float v = q & 1 ? cos_poly(r) : sin_poly(r);
    return q & 2 ? -v : v;
}
OVL float cos(float x) {
    if (isnan(x) || isinf(x)) return NAN;
    df r;
    int q = rem_pio2(x, &r);
    float v = q & 1 ? sin_poly(r) : cos_poly(r);
    return (q + 1) & 2 ? -v : v;
}
OVL float tan(float x) {
    if (isnan(x) || isinf(x)) return NAN;
    if (x == 0.0f) return x;
    df r;
    int q = rem_pio2(x, &r);
    float s = sin_poly(r), c = cos_poly(r);
    return q & 1 ? -c / s : s / c;
}
static float sincos_impl(float x, float *c) {
    if (isnan(x) || isinf(x)) {
        *c = NAN;
        return NAN;
    }
    if (x == 0.0f) {
        *c = 1.0f;
        return x;
    }
    df r;
    int q = rem_pio2(x, &r);
    float s = sin_poly(r), k = cos_poly(r);
    float sv = q & 1 ? k : s, cv = q & 1 ? s : k;
    *c = (q + 1) & 2 ? -cv : cv;
    return q & 2 ? -sv : sv;
}
PTR_FUNCS(sincos, float)

/* sin(pi x) etc.: x reduced exactly to |r| <= 1/4 and a quadrant, then pi r as a
 * double-float. */
static int red_pi(float x, df *r) {
    if (__builtin_fabsf(x) >= 0x1p23f) {
        /* an integer: quadrant 0 if even, 2 if odd (from 2^24 on every float is even) */
        *r = df_make(0.0f, 0.0f);
        return __builtin_fabsf(x) < 0x1p24f && ((int)x & 1) ? 2 : 0;
    }
    float t = x * 2.0f; /* quadrants of pi/2: t in units of pi/2 */
    float n = rint(t);
    float f = (t - n) * 0.5f; /* |f| <= 1/4, exact */
    int q = (int)n & 3;
    *r = df_mul_f(df_make(PI_HI, PI_LO), f);
    return q;
}
OVL float sinpi(float x) {
    if (isnan(x) || isinf(x)) return NAN;
    df r;
    int q = red_pi(x, &r);
    float v = q & 1 ? cos_poly(r) : sin_poly(r);
    v = q & 2 ? -v : v;
    return v == 0.0f ? __builtin_copysignf(0.0f, x) : v;
}
OVL float cospi(float x) {
    if (isnan(x) || isinf(x)) return NAN;
    df r;
    int q = red_pi(x, &r);
    float v = q & 1 ? sin_poly(r) : cos_poly(r);
    v = (q + 1) & 2 ? -v : v;
    return v == 0.0f ? 0.0f : v;
}
OVL float tanpi(float x) {
    if (isnan(x) || isinf(x)) return NAN;
    df r;
    int q = red_pi(x, &r);
    if (r.hi == 0.0f) {
        /* integers: +-0; n + 1/2: +inf for even n, -inf for odd n */
        if (q & 1) return q == 1 ? INFINITY : -INFINITY;
        return __builtin_copysignf(0.0f, x) * (q & 2 ? -1.0f : 1.0f);
    }
    float s = sin_poly(r), c = cos_poly(r);
    return q & 1 ? -c / s : s / c;
}

/* ---- inverse trigonometric ------------------------------------------------------------- */

/* atan of |t| <= 7/16: t - t^3 (1/3 - t^2/5 + t^4/7 - ... - t^18/21) */
static float atan_poly(float t) {
    float t2 = t * t;
    float p = -0x1.861862p-5f; /* -1/21 */
    p = __builtin_fmaf(p, t2, 0x1.af286cp-5f);   /* 1/19 */
    p = __builtin_fmaf(p, t2, -0x1.e1e1e2p-5f);  /* -1/17 */
    p = __builtin_fmaf(p, t2, 0x1.111112p-4f);   /* 1/15 */
    p = __builtin_fmaf(p, t2, -0x1.3b13b2p-4f);  /* -1/13 */
    p = __builtin_fmaf(p, t2, 0x1.745d18p-4f);   /* 1/11 */
    p = __builtin_fmaf(p, t2, -0x1.c71c72p-4f);  /* -1/9 */
    p = __builtin_fmaf(p, t2, 0x1.24924ap-3f);   /* 1/7 */
    p = __builtin_fmaf(p, t2, -0x1.99999ap-3f);  /* -1/5 */
    p = __builtin_fmaf(p, t2, 0x1.555556p-2f);   /* 1/3 */
    return __builtin_fmaf(-t * t2, p, t);
}

/* atan |x| as a double-float: atan(c) + atan((|x| - c) / (1 + |x| c)) for breakpoints c. */
static df atan_abs(float ax) {
    df base;
    float t;
    if (ax < 0.4375f) {
        base = df_make(0.0f, 0.0f);
        t = ax;
    } else if (ax < 0.6875f) {
        base = df_make(0x1.dac670p-2f, 0x1.586ed4p-28f); /* atan(1/2) */
        t = (2.0f * ax - 1.0f) / (2.0f + ax);
    } else if (ax < 1.1875f) {
        base = df_make(0x1.921fb6p-1f, -0x1.777a5cp-26f); /* atan(1) */
        t = (ax - 1.0f) / (ax + 1.0f);
    } else if (ax < 2.4375f) {
        base = df_make(0x1.f730bep-1f, -0x1.afc12cp-26f); /* atan(3/2) */
        t = (ax - 1.5f) / __builtin_fmaf(1.5f, ax, 1.0f);
    } else {
        base = df_make(PIO2_HI, PIO2_LO); /* atan(inf) */
        t = -1.0f / ax;
    }
    return df_add(base, df_make(atan_poly(t), 0.0f));
}

static df df_neg(df a) { return df_make(-a.hi, -a.lo); }

/* atan2(y, x) as a double-float, x and y not NaN. */
static df atan2_df(float y, float x) {
    int neg = as_uint(y) >> 31;
    float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y);
    df a;
    if (ax == 0.0f && ay == 0.0f) {
        a = as_uint(x) >> 31 ? df_make(PI_HI, PI_LO) : df_make(0.0f, 0.0f);
    } else if (isinf(ax) && isinf(ay)) {
        a = x > 0.0f ? df_make(0x1.921fb6p-1f, -0x1.777a5cp-26f) : df_make(0x1.2d97c8p+1f, 0.0f);
    } else if (ay <= ax) {
        df f = atan_abs(ay / ax); /* [0, pi/4] */
        a = x < 0.0f ? df_add(df_make(PI_HI, PI_LO), df_neg(f)) : f;
    } else {
        df f = atan_abs(ax / ay); /* [0, pi/4) */
        df h = df_make(PIO2_HI, PIO2_LO);
        a = x < 0.0f ? df_add(h, f) : df_add(h, df_neg(f));
    }
    return neg ? df_neg(a) : a;
}

OVL float atan(float x) {
    if (isnan(x) || x == 0.0f) return x;
    df a = atan_abs(__builtin_fabsf(x));
    return x < 0.0f ? -a.hi : a.hi;
}
OVL float atan2(float y, float x) {
    if (isnan(x) || isnan(y)) return x + y;
    return atan2_df(y, x).hi;
}
/* sqrt(1 - x^2) with 1 - x^2 = (1 - x)(1 + x) */
static float cosine_of(float ax) { return __builtin_sqrtf((1.0f - ax) * (1.0f + ax)); }
OVL float asin(float x) {
    if (isnan(x) || __builtin_fabsf(x) > 1.0f) return NAN;
    return atan2_df(x, cosine_of(__builtin_fabsf(x))).hi;
}
OVL float acos(float x) {
    if (isnan(x) || __builtin_fabsf(x) > 1.0f) return NAN;
    return atan2_df(cosine_of(__builtin_fabsf(x)), x).hi;
}
static float over_pi(df a) {
    if (a.hi == 0.0f) return a.hi; /* keeps the sign of a zero */
    return df_mul(a, df_make(INV_PI_HI, INV_PI_LO)).hi;
}
OVL float atanpi(float x) {
    if (isnan(x) || x == 0.0f) return x;
    df a = atan_abs(__builtin_fabsf(x));
    return over_pi(x < 0.0f ? df_neg(a) : a);
}
OVL float atan2pi(float y, float x) {
    if (isnan(x) || isnan(y)) return x + y;
    return over_pi(atan2_df(y, x));
}
OVL float asinpi(float x) {
    if (isnan(x) || __builtin_fabsf(x) > 1.0f) return NAN;
    return over_pi(atan2_df(x, cosine_of(__builtin_fabsf(x))));
}
OVL float acospi(float x) {
    if (isnan(x) || __builtin_fabsf(x) > 1.0f) return NAN;
    return over_pi(atan2_df(cosine_of(__builtin_fabsf(x)), x));
}

/* ---- hyperbolic ------------------------------------------------------------------------ */

#define LOG2E_HI 0x1.715476p+0f
#define LOG2E_LO 0x1.4ae0cp-26f
#define LN2_F 0x1.62e430p-1f

/* 2^(t - 1) and 2^(-t - 1) for t = |x| log2 e */
static float half_exp(float ax, int sign) {
    df t = two_prod(ax, LOG2E_HI);
    t = fast_two_sum(t.hi, __builtin_fmaf(ax, LOG2E_LO, t.lo));
    if (sign < 0) t = df_neg(t);
    t = df_add(t, df_make(-1.0f, 0.0f));
    return __weft_exp2_df(t);
}

OVL float sinh(float x) {
    float ax = __builtin_fabsf(x);
    if (isnan(x) || ax < 0x1p-12f) return x;
    if (ax > 89.5f) return __builtin_copysignf(INFINITY, x);
    float r;
    if (ax < 1.0f) {
        float t = expm1(ax);
        r = 0.5f * (t + t / (t + 1.0f));
    } else {
        r = half_exp(ax, 1) - half_exp(ax, -1);
    }
    return __builtin_copysignf(r, x);
}
OVL float cosh(float x) {
    float ax = __builtin_fabsf(x);
    if (isnan(x)) return x;
    if (ax > 89.5f) return INFINITY;
    return half_exp(ax, 1) + half_exp(ax, -1);
}
OVL float tanh(float x) {
    float ax = __builtin_fabsf(x);
    if (isnan(x) || ax < 0x1p-12f) return x;
    float r;
    if (ax >= 9.1f) {
        r = 1.0f;
    } else if (ax < 0.55f) {
        float t = expm1(2.0f * ax);
        r = t / (t + 2.0f);
    } else {
        float t = expm1(2.0f * ax);
        r = 1.0f - 2.0f / (t + 2.0f);
    }
    return __builtin_copysignf(r, x);
}
OVL float asinh(float x) {
    float ax = __builtin_fabsf(x);
    if (isnan(x) || isinf(x) || ax < 0x1p-12f) return x;
    float r;
    if (ax > 0x1p28f) {
        r = log(ax) + LN2_F;
    } else {
        float x2 = ax * ax;
        r = log1p(ax + x2 / (1.0f + __builtin_sqrtf(1.0f + x2)));
    }
    return __builtin_copysignf(r, x);
}
OVL float acosh(float x) {
    if (isnan(x) || x < 1.0f) return NAN;
    if (isinf(x)) return x;
    if (x > 0x1p28f) return log(x) + LN2_F;
    if (x > 2.0f) return log(2.0f * x - 1.0f / (x + __builtin_sqrtf(x * x - 1.0f)));
    float t = x - 1.0f;
    return log1p(t + __builtin_sqrtf(__builtin_fmaf(t, t, 2.0f * t)));
}
OVL float atanh(float x) {
    float ax = __builtin_fabsf(x);
    if (isnan(x) || ax > 1.0f) return NAN;
    if (ax == 1.0f) return __builtin_copysignf(INFINITY, x);
    if (ax < 0x1p-12f) return x;
    float r;
    if (ax < 0.5f)
        r = 0.5f * log1p(2.0f * ax + 2.0f * ax * ax / (1.0f - ax));
    else
        r = 0.5f * log1p(2.0f * ax / (1.0f - ax));
    return __builtin_copysignf(r, x);
}

/* ---- vector forms ---------------------------------------------------------------------- */

F1_VECS(sin)
F1_VECS(cos)
F1_VECS(tan)
F1_VECS(sinpi)
F1_VECS(cospi)
F1_VECS(tanpi)
F1_VECS(atan)
F2_VECS(atan2)
F1_VECS(asin)
F1_VECS(acos)
F1_VECS(atanpi)
F2_VECS(atan2pi)
F1_VECS(asinpi)
F1_VECS(acospi)
F1_VECS(sinh)
F1_VECS(cosh)
F1_VECS(tanh)
F1_VECS(asinh)
F1_VECS(acosh)
F1_VECS(atanh)
ALIAS1(half_sin, sin)
ALIAS1(half_cos, cos)
ALIAS1(half_tan, tan)
ALIAS1(native_sin, sin)
ALIAS1(native_cos, cos)
ALIAS1(native_tan, tan)

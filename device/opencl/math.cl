/* Math built-ins of float (OpenCL C 1.2, 6.12.2), part one: the operations the hardware has
 * (sqrt, fma, min, max, fabs, copysign), rounding, exact remainders and exponent handling,
 * and the exponential, logarithm and power families. Every function meets OpenCL's accuracy
 * for float (crates/opencl/tests checks them against the host's double-precision libm):
 * exp and log go through a double-float log2 and exp2 (clmath.h), so pow, powr, pown, rootn
 * and cbrt come out within 2 ulp. Vector forms follow each scalar function; the half_ and
 * native_ forms are the full-precision functions. */
#include "clmath.h"

#define LN2_HI 0x1.62e43p-1f
#define LN2_LO -0x1.05c61p-29f
#define LOG2E_HI 0x1.715476p+0f
#define LOG2E_LO 0x1.4ae0cp-26f
#define LOG2_10_HI 0x1.a934fp+1f
#define LOG2_10_LO 0x1.2f346ep-24f
#define LOG10_2_HI 0x1.344136p-2f
#define LOG10_2_LO -0x1.ec10cp-27f

static float rint_f(float x) {
    float a = __builtin_fabsf(x);
    if (a < 0x1p23f) a = (a + 0x1p23f) - 0x1p23f;
    return __builtin_copysignf(a, x);
}

/* x * 2^n, rounded once (n any int). */
static float scale2(float x, int n) {
    uint ix = as_uint(x) & 0x7fffffffu;
    if (ix == 0 || ix >= 0x7f800000u) return x;
    if (n > 300) n = 300;
    if (n < -300) n = -300;
    int ex = ix < 0x00800000u ? -127 - (int)__builtin_clz(ix) + 9 : (int)(ix >> 23) - 127;
    int target = ex + n;
    if (target > 127) return x * 0x1p127f * 0x1p127f; /* overflows: +-inf */
    if (target >= -126) {
        /* exact, in at most two normal steps */
        while (n > 127) {
            x *= 0x1p127f;
            n -= 127;
        }
        while (n < -126) {
            x *= 0x1p-126f;
            n += 126;
        }
        return x * as_float((uint)(n + 127) << 23);
    }
    if (target < -151) return x * 0.0f; /* below half the smallest subnormal */
    /* a subnormal result: bring x to [1, 2) exactly, then one rounding multiply */
    float m = x;
    int k = -ex;
    while (k > 127) {
        m *= 0x1p127f;
        k -= 127;
    }
    while (k < -126) {
        m *= 0x1p-126f;
        k += 126;
    }
    m *= as_float((uint)(k + 127) << 23);
    if (target >= -149) return m * as_float(1u << (target + 149)); /* 2^target, subnormal */
    /* m 2^(target + 149) is exact (a normal float below 1); the last multiply rounds once */
    return (m * (target == -150 ? 0.5f : 0.25f)) * 0x1p-149f;
}

/* ---- the operations the hardware has, and other exact ones --------------------------- */

OVL float fabs(float x) { return __builtin_fabsf(x); }
OVL float copysign(float x, float y) { return __builtin_copysignf(x, y); }
OVL float sqrt(float x) { return __builtin_sqrtf(x); }
OVL float fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
OVL float mad(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
OVL float fmax(float x, float y) { return __builtin_fmaxf(x, y); }
OVL float fmin(float x, float y) { return __builtin_fminf(x, y); }
OVL float fdim(float x, float y) {
    if (isnan(x) || isnan(y)) return x + y;
    return x > y ? x - y : 0.0f;
}
OVL float maxmag(float x, float y) {
    float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y);
    return ax > ay ? x : ay > ax ? y : __builtin_fmaxf(x, y);
}
OVL float minmag(float x, float y) {
    float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y);
    return ax < ay ? x : ay < ax ? y : __builtin_fminf(x, y);
}
OVL float rsqrt(float x) { return 1.0f / __builtin_sqrtf(x); }
OVL float rint(float x) { return rint_f(x); }
OVL float trunc(float x) {
    float a = __builtin_fabsf(x);
    if (a < 0x1p23f) a = (float)(int)a;
    return __builtin_copysignf(a, x);
}
OVL float round(float x) {
    float a = __builtin_fabsf(x);
    if (a < 0x1p23f) {
        float t = (float)(int)a;
        a = a - t >= 0.5f ? t + 1.0f : t;
    }
    return __builtin_copysignf(a, x);
}
OVL float floor(float x) {
    float t = trunc(x);
    return t > x ? t - 1.0f : t;
}
OVL float ceil(float x) {
    float t = trunc(x);
    return t < x ? t + 1.0f : t;
}
OVL float nan(uint n) { return as_float(0x7fc00000u | (n & 0x003fffffu)); }
OVL float ldexp(float x, int n) { return scale2(x, n); }

OVL int ilogb(float x) {
    uint ix = as_uint(x) & 0x7fffffffu;
    if (ix == 0) return FP_ILOGB0;
    if (ix >= 0x7f800000u) return ix == 0x7f800000u ? INT_MAX : FP_ILOGBNAN;
    if (ix < 0x00800000u) return -127 - (int)__builtin_clz(ix) + 9;
    return (int)(ix >> 23) - 127;
}
OVL float logb(float x) {
    uint ix = as_uint(x) & 0x7fffffffu;
    if (ix == 0) return -INFINITY;
    if (ix >= 0x7f800000u) return x * x;
    return (float)ilogb(x);
}
OVL float nextafter(float x, float y) {
    if (isnan(x) || isnan(y)) return x + y;
    if (x == y) return y;
    uint ix = as_uint(x);
    if ((ix & 0x7fffffffu) == 0) return as_float((as_uint(y) & 0x80000000u) | 1u);
    if ((x < y) == (x > 0.0f))
        ix += 1;
    else
        ix -= 1;
    return as_float(ix);
}

static float frexp_impl(float x, int *e) {
    uint ix = as_uint(x), ax = ix & 0x7fffffffu;
    if (ax == 0 || ax >= 0x7f800000u) {
        *e = 0;
        return x;
    }
    int k = 0;
    if (ax < 0x00800000u) {
        x *= 0x1p25f;
        ix = as_uint(x);
        k = -25;
    }
    *e = k + (int)((ix >> 23) & 0xff) - 126;
    return as_float((ix & 0x807fffffu) | 0x3f000000u);
}
static float modf_impl(float x, float *i) {
    float t = trunc(x);
    *i = t;
    if (isinf(x)) return __builtin_copysignf(0.0f, x);
    return __builtin_copysignf(x - t, x);
}
static float fract_impl(float x, float *i) {
    float f = floor(x);
    *i = f;
    if (isnan(x)) return x;
    if (isinf(x)) return __builtin_copysignf(0.0f, x);
    return __builtin_fminf(x - f, 0x1.fffffep-1f);
}
PTR_FUNCS(frexp, int)
PTR_FUNCS(modf, float)
PTR_FUNCS(fract, float)

/* |ax| mod |ay| exactly (both finite, ay not 0), and the low bits of the truncated
 * quotient. */
static float rem_core(float ax, float ay, uint *quo) {
    if (ax < ay) {
        *quo = 0;
        return ax;
    }
    uint ix = as_uint(ax), iy = as_uint(ay);
    int ex = (int)(ix >> 23), ey = (int)(iy >> 23);
    uint mx = ix & 0x7fffffu, my = iy & 0x7fffffu;
    if (ex == 0) { /* subnormal: normalize */
        int s = (int)__builtin_clz(mx) - 8;
        mx <<= s;
        ex = 1 - s;
    } else {
        mx |= 0x800000u;
    }
    if (ey == 0) {
        int s = (int)__builtin_clz(my) - 8;
        my <<= s;
        ey = 1 - s;
    } else {
        my |= 0x800000u;
    }
    uint q = 0;
    for (int n = ex - ey; n > 0; n--) {
        if (mx >= my) {
            mx -= my;
            q |= 1;
        }
        mx <<= 1;
        q <<= 1;
    }
    if (mx >= my) {
        mx -= my;
        q |= 1;
    }
    *quo = q;
    /* the remainder is mx units of my's last place: 2^(ey - 150) */
    return scale2((float)mx, ey - 150);
}

OVL float fmod(float x, float y) {
    if (isnan(x) || isnan(y) || isinf(x) || y == 0.0f) return NAN;
    if (isinf(y)) return x;
    uint q;
    float r = rem_core(__builtin_fabsf(x), __builtin_fabsf(y), &q);
    return __builtin_copysignf(r, x);
}

static float remquo_impl2(float x, float y, int *quo) {
    *quo = 0;
    if (isnan(x) || isnan(y) || isinf(x) || y == 0.0f) return NAN;
    if (isinf(y)) return x;
    float ay = __builtin_fabsf(y);
    uint q;
    float r = rem_core(__builtin_fabsf(x), ay, &q);
    /* round the quotient to nearest, ties to even */
    float twice = r * 2.0f;
    if (twice > ay || (twice == ay && (q & 1))) {
        r -= ay;
        q++;
    }
    int n = (int)(q & 0x7f);
    if (n == 0 && q != 0) n = 128; /* keeps the sign of a quotient that is a multiple of 128 */
    *quo = (as_uint(x) ^ as_uint(y)) & 0x80000000u ? -n : n;
    return as_float(as_uint(r) ^ (as_uint(x) & 0x80000000u));
}
OVL float remainder(float x, float y) {
    int q;
    return remquo_impl2(x, y, &q);
}
#define REMQUO(N, AS)                                                                          \
    OVL float##N remquo(float##N x, float##N y, AS int##N *p) {                                \
        float##N r;                                                                            \
        int##N o;                                                                              \
        for (int i = 0; i < N; i++) {                                                          \
            int e;                                                                             \
            r[i] = remquo_impl2(x[i], y[i], &e);                                               \
            o[i] = e;                                                                          \
        }                                                                                      \
        *p = o;                                                                                \
        return r;                                                                              \
    }
#define REMQUO_AS(AS)                                                                          \
    OVL float remquo(float x, float y, AS int *p) {                                            \
        int e;                                                                                 \
        float r = remquo_impl2(x, y, &e);                                                      \
        *p = e;                                                                                \
        return r;                                                                              \
    }                                                                                          \
    REMQUO(2, AS) REMQUO(3, AS) REMQUO(4, AS) REMQUO(8, AS) REMQUO(16, AS)
REMQUO_AS(__global)
REMQUO_AS(__local)
REMQUO_AS(__private)

/* ---- exponentials and logarithms ------------------------------------------------------ */

/* P(r) with 2^r = 1 + r P(r) for |r| <= 1/2: sum (r ln2)^k / k!, to r^8 (the next term is
 * below 2^-33) */
static float exp2_poly(float r) {
    float p = 0x1.62c022p-20f;
    p = __builtin_fmaf(p, r, 0x1.ffcbfcp-17f);
    p = __builtin_fmaf(p, r, 0x1.430912p-13f);
    p = __builtin_fmaf(p, r, 0x1.5d87fep-10f);
    p = __builtin_fmaf(p, r, 0x1.3b2ab6p-7f);
    p = __builtin_fmaf(p, r, 0x1.c6b08ep-5f);
    p = __builtin_fmaf(p, r, 0x1.ebfbe0p-3f);
    return __builtin_fmaf(p, r, 0x1.62e430p-1f);
}

/* 2^t for t = hi + lo, |hi| < 160. */
float __weft_exp2_df(df t) {
    if (t.hi >= 128.0f) return INFINITY;
    if (t.hi < -152.0f) return 0.0f;
    float n = rint_f(t.hi);
    float r = (t.hi - n) + t.lo; /* |r| <= 0.5 */
    float p = exp2_poly(r);
    float e = __builtin_fmaf(p, r, 1.0f);
    return scale2(e, (int)n);
}

/* log2 x for finite x > 0, as a double-float. */
df __weft_log2_df(float x) {
    uint ix = as_uint(x);
    int k = 0;
    if (ix < 0x00800000u) {
        x *= 0x1p25f;
        ix = as_uint(x);
        k = -25;
    }
    k += (int)(ix >> 23) - 127;
    float m = as_float((ix & 0x7fffffu) | 0x3f800000u);
    if (m > 1.41421354f) {
        m *= 0.5f;
        k += 1;
    }
    float f = m - 1.0f;
    /* log(1 + f) = 2 atanh(s), s = f / (2 + f): 2s + 2s^3 (1/3 + s^2/5 + ...) */
    df s = df_div(df_make(f, 0.0f), two_sum(2.0f, f));
    float s2 = s.hi * s.hi;
    float t = 0x1.3b13b2p-4f; /* 1/13 */
    t = __builtin_fmaf(t, s2, 0x1.745d18p-4f); /* 1/11 */
    t = __builtin_fmaf(t, s2, 0x1.c71c72p-4f); /* 1/9 */
    t = __builtin_fmaf(t, s2, 0x1.24924ap-3f); /* 1/7 */
    t = __builtin_fmaf(t, s2, 0x1.99999ap-3f); /* 1/5 */
    t = __builtin_fmaf(t, s2, 0x1.555556p-2f); /* 1/3 */
    df ln = df_add(df_make(2.0f * s.hi, 2.0f * s.lo), df_make(2.0f * s.hi * s2 * t, 0.0f));
    df l2 = df_mul(ln, df_make(LOG2E_HI, LOG2E_LO));
    return df_add(df_make((float)k, 0.0f), l2);
}

static float exp_scaled(float x, float hi, float lo) {
    if (isnan(x)) return x;
    float a = x * hi;
    if (a > 160.0f) return INFINITY;
    if (a < -160.0f) return 0.0f;
    df t = two_prod(x, hi);
    t = fast_two_sum(t.hi, __builtin_fmaf(x, lo, t.lo));
    return __weft_exp2_df(t);
}
OVL float exp(float x) { return exp_scaled(x, LOG2E_HI, LOG2E_LO); }
OVL float exp2(float x) { return exp_scaled(x, 1.0f, 0.0f); }
OVL float exp10(float x) { return exp_scaled(x, LOG2_10_HI, LOG2_10_LO); }

OVL float expm1(float x) {
    if (isnan(x) || x == 0.0f) return x;
    if (x > 88.0f) return exp(x); /* e^x - 1 rounds to e^x */
    if (x < -17.4f) return -1.0f;
    float ax = __builtin_fabsf(x);
    if (ax < 0.35f) {
        /* x + x^2/2! + ... + x^9/9! */
        float p = 0x1.71de3ap-19f;
        p = __builtin_fmaf(p, x, 0x1.a01a02p-16f);
        p = __builtin_fmaf(p, x, 0x1.a01a02p-13f);
        p = __builtin_fmaf(p, x, 0x1.6c16c2p-10f);
        p = __builtin_fmaf(p, x, 0x1.111112p-7f);
        p = __builtin_fmaf(p, x, 0x1.555556p-5f);
        p = __builtin_fmaf(p, x, 0x1.555556p-3f);
        p = __builtin_fmaf(p, x, 0.5f);
        return __builtin_fmaf(p * x, x, x);
    }
    /* e^x - 1 = (2^n - 1) + 2^n (2^r - 1), with 2^r - 1 accurate */
    df t = two_prod(x, LOG2E_HI);
    t = fast_two_sum(t.hi, __builtin_fmaf(x, LOG2E_LO, t.lo));
    float n = rint_f(t.hi);
    float r = (t.hi - n) + t.lo;
    float p = exp2_poly(r);
    float q = p * r; /* 2^r - 1 */
    float two_n = scale2(1.0f, (int)n);
    return __builtin_fmaf(two_n, q, two_n - 1.0f);
}

static float log_scaled(float x, float hi, float lo) {
    if (isnan(x) || x < 0.0f) return NAN;
    if (x == 0.0f) return -INFINITY;
    if (isinf(x)) return x;
    return df_mul(__weft_log2_df(x), df_make(hi, lo)).hi;
}
OVL float log(float x) { return log_scaled(x, LN2_HI, LN2_LO); }
OVL float log2(float x) { return log_scaled(x, 1.0f, 0.0f); }
OVL float log10(float x) { return log_scaled(x, LOG10_2_HI, LOG10_2_LO); }

OVL float log1p(float x) {
    if (isnan(x) || x < -1.0f) return NAN;
    if (x == -1.0f) return -INFINITY;
    if (isinf(x)) return x;
    if (__builtin_fabsf(x) < 0x1p-24f) return x;
    /* log(u.hi + u.lo) = log(u.hi) + u.lo / u.hi, u = 1 + x exactly */
    df u = two_sum(1.0f, x);
    df l = df_mul(__weft_log2_df(u.hi), df_make(LN2_HI, LN2_LO));
    return l.hi + (l.lo + u.lo / u.hi);
}

/* ---- powers ---------------------------------------------------------------------------- */

static int is_int(float y) { return rint_f(y) == y; }
static int is_odd(float y) {
    return is_int(y) && __builtin_fabsf(y) < 0x1p24f && ((int)y & 1);
}

/* |x|^y for finite x != 0, y as a double-float; `neg` gives the result a minus sign. */
static float pow_core(float ax, df y, int neg) {
    df l = __weft_log2_df(ax);
    float approx = l.hi * y.hi; /* decide overflow and underflow before the exact product */
    df t = isinf(approx) || __builtin_fabsf(approx) > 200.0f ? df_make(approx, 0.0f) : df_mul(l, y);
    float r;
    if (t.hi > 130.0f)
        r = INFINITY;
    else if (t.hi < -160.0f)
        r = 0.0f;
    else
        r = __weft_exp2_df(t);
    return neg ? -r : r;
}

OVL float pow(float x, float y) {
    if (y == 0.0f || x == 1.0f) return 1.0f;
    if (isnan(x) || isnan(y)) return NAN;
    float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y);
    if (isinf(y)) {
        if (ax == 1.0f) return 1.0f;
        return (ax < 1.0f) == (y < 0.0f) ? INFINITY : 0.0f;
    }
    int odd = is_odd(y);
    if (x == 0.0f) {
        float r = y < 0.0f ? INFINITY : 0.0f;
        return odd ? __builtin_copysignf(r, x) : r;
    }
    if (isinf(x)) {
        float r = y < 0.0f ? 0.0f : INFINITY;
        return odd && x < 0.0f ? -r : r;
    }
    if (x < 0.0f && !is_int(y)) return NAN;
    (void)ay;
    return pow_core(ax, df_make(y, 0.0f), x < 0.0f && odd);
}

OVL float powr(float x, float y) {
    if (isnan(x) || isnan(y) || x < 0.0f) return NAN;
    if (x == 0.0f) {
        if (y == 0.0f) return NAN;
        return y < 0.0f ? INFINITY : 0.0f;
    }
    if (isinf(x)) {
        if (y == 0.0f) return NAN;
        return y < 0.0f ? 0.0f : INFINITY;
    }
    if (x == 1.0f) return isinf(y) ? NAN : 1.0f;
    if (y == 0.0f) return 1.0f;
    if (isinf(y)) return (x < 1.0f) == (y < 0.0f) ? INFINITY : 0.0f;
    return pow_core(x, df_make(y, 0.0f), 0);
}

OVL float pown(float x, int n) {
    if (n == 0) return 1.0f;
    if (isnan(x)) return x;
    int odd = n & 1;
    if (x == 0.0f) {
        float r = n < 0 ? INFINITY : 0.0f;
        return odd ? __builtin_copysignf(r, x) : r;
    }
    if (isinf(x)) {
        float r = n < 0 ? 0.0f : INFINITY;
        return odd && x < 0.0f ? -r : r;
    }
    float hi = (float)n;
    df y = df_make(hi, (float)(n - (int)hi));
    if (hi == 0x1p31f) y = df_make(hi, (float)((long)n - (long)0x80000000u)); /* n near INT_MAX */
    return pow_core(__builtin_fabsf(x), y, x < 0.0f && odd);
}

OVL float rootn(float x, int n) {
    if (n == 0 || isnan(x)) return NAN;
    int odd = n & 1;
    if (x < 0.0f && !odd) return NAN;
    if (x == 0.0f) {
        float r = n < 0 ? INFINITY : 0.0f;
        return odd ? __builtin_copysignf(r, x) : r;
    }
    if (isinf(x)) {
        float r = n < 0 ? 0.0f : INFINITY;
        return x < 0.0f ? -r : r;
    }
    float hn = (float)n;
    df dn = df_make(hn, (float)(n - (int)hn));
    if (hn == 0x1p31f) dn = df_make(hn, (float)((long)n - (long)0x80000000u));
    df t = df_div(__weft_log2_df(__builtin_fabsf(x)), dn);
    float r = __weft_exp2_df(t);
    return x < 0.0f ? -r : r;
}

OVL float cbrt(float x) {
    if (isnan(x) || isinf(x) || x == 0.0f) return x;
    df t = df_div(__weft_log2_df(__builtin_fabsf(x)), df_make(3.0f, 0.0f));
    float r = __weft_exp2_df(t);
    return __builtin_copysignf(r, x);
}

OVL float hypot(float x, float y) {
    if (isinf(x) || isinf(y)) return INFINITY;
    if (isnan(x) || isnan(y)) return NAN;
    float a = __builtin_fmaxf(__builtin_fabsf(x), __builtin_fabsf(y));
    float b = __builtin_fminf(__builtin_fabsf(x), __builtin_fabsf(y));
    if (b == 0.0f) return a;
    /* scale the larger to [1, 2), sum the squares as a double-float, square root refined */
    int e = ilogb(a);
    float sa = scale2(a, -e), sb = scale2(b, -e);
    df s = df_add(two_prod(sa, sa), two_prod(sb, sb));
    float r = __builtin_sqrtf(s.hi);
    df rr = two_prod(r, r);
    r += ((s.hi - rr.hi) - rr.lo + s.lo) / (2.0f * r);
    return scale2(r, e);
}

/* ---- vector forms ---------------------------------------------------------------------- */

F1_VECS(fabs)
F2_VECS(copysign)
F1_VECS(sqrt)
F3_VECS(fma)
F3_VECS(mad)
F2_VECS(fdim)
F2_VECS(maxmag)
F2_VECS(minmag)
F1_VECS(rsqrt)
F1_VECS(rint)
F1_VECS(trunc)
F1_VECS(round)
F1_VECS(floor)
F1_VECS(ceil)
UNARY_VECS(float, uint, nan)
FI_VECS(ldexp)
F_TO_I_VECS(ilogb)
F1_VECS(logb)
F2_VECS(nextafter)
F2_VECS(fmod)
F2_VECS(remainder)
F1_VECS(exp)
F1_VECS(exp2)
F1_VECS(exp10)
F1_VECS(expm1)
F1_VECS(log)
F1_VECS(log2)
F1_VECS(log10)
F1_VECS(log1p)
F2_VECS(pow)
F2_VECS(powr)
FI_VECS(pown)
FI_VECS(rootn)
F1_VECS(cbrt)
F2_VECS(hypot)

/* fmax and fmin also take a scalar second argument; ldexp a scalar exponent. */
#define FSCALAR(N)                                                                             \
    OVL float##N fmax(float##N x, float##N y) { return (float##N)(fmax(x.lo, y.lo), fmax(x.hi, y.hi)); } \
    OVL float##N fmin(float##N x, float##N y) { return (float##N)(fmin(x.lo, y.lo), fmin(x.hi, y.hi)); } \
    OVL float##N fmax(float##N x, float y) { return fmax(x, (float##N)(y)); }                 \
    OVL float##N fmin(float##N x, float y) { return fmin(x, (float##N)(y)); }                 \
    OVL float##N ldexp(float##N x, int n) { return ldexp(x, (int##N)(n)); }
OVL float2 fmax(float2 x, float2 y) { return (float2)(fmax(x.s0, y.s0), fmax(x.s1, y.s1)); }
OVL float2 fmin(float2 x, float2 y) { return (float2)(fmin(x.s0, y.s0), fmin(x.s1, y.s1)); }
OVL float2 fmax(float2 x, float y) { return fmax(x, (float2)(y)); }
OVL float2 fmin(float2 x, float y) { return fmin(x, (float2)(y)); }
OVL float2 ldexp(float2 x, int n) { return ldexp(x, (int2)(n)); }
OVL float3 fmax(float3 x, float3 y) { return (float3)(fmax(x.s01, y.s01), fmax(x.s2, y.s2)); }
OVL float3 fmin(float3 x, float3 y) { return (float3)(fmin(x.s01, y.s01), fmin(x.s2, y.s2)); }
OVL float3 fmax(float3 x, float y) { return fmax(x, (float3)(y)); }
OVL float3 fmin(float3 x, float y) { return fmin(x, (float3)(y)); }
OVL float3 ldexp(float3 x, int n) { return ldexp(x, (int3)(n)); }
FSCALAR(4)
FSCALAR(8)
FSCALAR(16)

/* half_ and native_ forms */
ALIAS1(half_exp, exp)
ALIAS1(half_exp2, exp2)
ALIAS1(half_exp10, exp10)
ALIAS1(half_log, log)
ALIAS1(half_log2, log2)
ALIAS1(half_log10, log10)
ALIAS1(half_sqrt, sqrt)
ALIAS1(half_rsqrt, rsqrt)
ALIAS2(half_powr, powr)
ALIAS1(native_exp, exp)
ALIAS1(native_exp2, exp2)
ALIAS1(native_exp10, exp10)
ALIAS1(native_log, log)
ALIAS1(native_log2, log2)
ALIAS1(native_log10, log10)
ALIAS1(native_sqrt, sqrt)
ALIAS1(native_rsqrt, rsqrt)
ALIAS2(native_powr, powr)
OVL float half_recip(float x) { return 1.0f / x; }
F1_VECS(half_recip)
OVL float native_recip(float x) { return 1.0f / x; }
F1_VECS(native_recip)
OVL float half_divide(float x, float y) { return x / y; }
F2_VECS(half_divide)
OVL float native_divide(float x, float y) { return x / y; }
F2_VECS(native_divide)

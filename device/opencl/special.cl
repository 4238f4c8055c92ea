/* Math built-ins of float, part three: the error function and the gamma function.
 * erf by its Taylor series below 1; erfc above 1 by Laplace's continued fraction, evaluated
 * from the tail, with e^(-x^2) from a double-float x^2; tgamma by Stirling's series from 8 up,
 * with x^(x - 1/2) e^(-x) as one exp2 of a double-float exponent, shifted down by the
 * recurrence and reflected below 1/2; lgamma the same in logarithms. */
#include "clmath.h"

#define LOG2E_HI 0x1.715476p+0f
#define LOG2E_LO 0x1.4ae0cp-26f
#define TWO_OVER_SQRT_PI 0x1.20dd76p+0f
#define INV_SQRT_PI 0x1.20dd76p-1f
#define SQRT_2PI 0x1.40d932p+1f
#define HALF_LN_2PI 0x1.d67f1cp-1f
#define PI_F 0x1.921fb6p+1f

/* erf x for |x| < 1: 2/sqrt(pi) sum (-1)^n x^(2n+1) / (n! (2n+1)) */
static float erf_series(float x) {
    float x2 = x * x, term = x, sum = x;
    for (int n = 1; n <= 12; n++) {
        term *= -x2 / (float)n;
        sum = __builtin_fmaf(term, 1.0f / (float)(2 * n + 1), sum);
    }
    return TWO_OVER_SQRT_PI * sum;
}

/* erfc x for x >= 1 */
static float erfc_cf(float x) {
    if (x > 10.1f) return 0.0f;
    int n = (int)(80.0f / (x * x)) + 10;
    float f = x;
    for (int k = n; k >= 1; k--) f = x + ((float)k * 0.5f) / f;
    df x2 = two_prod(x, x);
    df t = df_mul(df_make(-x2.hi, -x2.lo), df_make(LOG2E_HI, LOG2E_LO));
    return __weft_exp2_df(t) * INV_SQRT_PI / f;
}

OVL float erf(float x) {
    if (isnan(x) || x == 0.0f) return x;
    float ax = __builtin_fabsf(x);
    if (ax < 1.0f) return erf_series(x);
    return __builtin_copysignf(1.0f - erfc_cf(ax), x);
}

OVL float erfc(float x) {
    if (isnan(x)) return x;
    float ax = __builtin_fabsf(x);
    float r = ax < 1.0f ? 1.0f - erf_series(ax) : erfc_cf(ax);
    return x < 0.0f ? 2.0f - r : r;
}

/* Stirling's series of ln Gamma(x) - ((x - 1/2) ln x - x + ln sqrt(2 pi)), x >= 8 */
static float stirling_tail(float x) {
    float r = 1.0f / x, r2 = r * r;
    /* 1/(12 x) - 1/(360 x^3) + 1/(1260 x^5) - 1/(1680 x^7) */
    float q = 0x1.381382p-11f;               /* 1/1680 */
    q = __builtin_fmaf(-q, r2, 0x1.a01a02p-11f); /* 1/1260 */
    q = __builtin_fmaf(-q, r2, 0x1.6c16c2p-9f);  /* 1/360 */
    q = __builtin_fmaf(-q, r2, 0x1.555556p-4f);  /* 1/12 */
    return q * r;
}

/* Gamma(x) for x >= 8 as m 2^t: the double-float exponent t and the factor m */
static df gamma_big_exp(float x, float *m) {
    /* x^(x - 1/2) e^(-x) = 2^((x - 1/2) log2 x - x log2 e) */
    df l = df_mul_f(__weft_log2_df(x), x - 0.5f);
    df e = df_mul(df_make(x, 0.0f), df_make(LOG2E_HI, LOG2E_LO));
    float s = stirling_tail(x);
    *m = SQRT_2PI * (1.0f + s * (1.0f + s * (0.5f + s * 0.16666667f))); /* e^s, s < 0.011 */
    return df_add(l, df_make(-e.hi, -e.lo));
}

/* Gamma(x) for x >= 8 (overflow from 35.04 on) */
static float gamma_big(float x) {
    if (x > 35.1f) return INFINITY;
    float m;
    df t = gamma_big_exp(x, &m);
    /* scaled by 2^-8 so that the product does not overflow early */
    float g = __weft_exp2_df(df_add(t, df_make(-8.0f, 0.0f)));
    return g * m * 256.0f;
}

/* Gamma(y) for y = hi + lo >= 1/2: the recurrence from 8 down, with y + k and the product
 * kept exact as double-floats (rounding them would move the argument: 16 ulp). */
static float gamma_pos_df(df y) {
    df p = df_make(1.0f, 0.0f);
    while (y.hi < 8.0f) {
        p = df_mul(p, y);
        y = df_add(y, df_make(1.0f, 0.0f));
    }
    float g = gamma_big(y.hi);
    if (isinf(g)) return g;
    /* Gamma(hi + lo) = Gamma(hi) (1 + psi(hi) lo), psi(y) ~ ln y - 1/(2y) from 8 up */
    g *= __builtin_fmaf(log(y.hi) - 0.5f / y.hi, y.lo, 1.0f);
    return df_div(df_make(g, 0.0f), p).hi;
}
static float gamma_pos(float x) { return gamma_pos_df(df_make(x, 0.0f)); }

OVL float tgamma(float x) {
    if (isnan(x)) return x;
    if (x == 0.0f) return __builtin_copysignf(INFINITY, x);
    if (isinf(x)) return x > 0.0f ? x : NAN;
    if (x < 0.0f && rint(x) == x) return NAN;
    if (x >= 0.5f) return gamma_pos(x);
    /* reflection: Gamma(x) = pi / (sin(pi x) Gamma(1 - x)) */
    float s = sinpi(x);
    df y = two_sum(1.0f, -x);
    if (y.hi < 8.0f) return PI_F / (s * gamma_pos_df(y));
    /* Gamma(1 - x) = m 2^t is far from float's range: the result is 2^(log2 |k| - t) with
     * k = pi / (sin(pi x) m), one exp2 so that it rounds once (it may be subnormal) */
    float m;
    df t = gamma_big_exp(y.hi, &m);
    t = df_add(t, df_make((log(y.hi) - 0.5f / y.hi) * y.lo * LOG2E_HI, 0.0f));
    float k = PI_F / (s * m);
    df e = df_add(__weft_log2_df(__builtin_fabsf(k)), df_make(-t.hi, -t.lo));
    float r = __weft_exp2_df(e);
    return k < 0.0f ? -r : r;
}

/* ln |Gamma(x)| and its sign */
static float lgamma_impl(float x, int *sign) {
    *sign = 1;
    if (isnan(x)) return x;
    if (isinf(x)) return INFINITY;
    if (x <= 0.0f && rint(x) == x) {
        *sign = x == 0.0f && (as_uint(x) >> 31) ? -1 : 1;
        return INFINITY;
    }
    if (__builtin_fabsf(x) < 0x1p-24f) { /* Gamma(x) ~ 1/x */
        *sign = x < 0.0f ? -1 : 1;
        return -log(__builtin_fabsf(x));
    }
    if (x >= 8.0f) {
        /* (x - 1/2) ln x - x + ln sqrt(2 pi) + tail */
        df l = df_mul(__weft_log2_df(x), df_make(0x1.62e43p-1f, -0x1.05c61p-29f));
        if (isinf(l.hi * (x - 0.5f))) return INFINITY;
        df a = df_mul_f(l, x - 0.5f);
        a = df_add(a, df_make(-x, 0.0f));
        return a.hi + (a.lo + HALF_LN_2PI + stirling_tail(x));
    }
    if (x >= 0.5f) return log(gamma_pos(x));
    /* reflection */
    float s = sinpi(x);
    *sign = s < 0.0f ? -1 : 1;
    int dummy;
    return log(PI_F / __builtin_fabsf(s)) - lgamma_impl(1.0f - x, &dummy);
}

OVL float lgamma(float x) {
    int s;
    return lgamma_impl(x, &s);
}
static float lgamma_r_impl(float x, int *s) { return lgamma_impl(x, s); }
PTR_FUNCS(lgamma_r, int)

F1_VECS(erf)
F1_VECS(erfc)
F1_VECS(tgamma)
F1_VECS(lgamma)

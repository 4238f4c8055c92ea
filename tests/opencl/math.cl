/* Kernels of weft's OpenCL math test (math.c): each float built-in applied to every input,
 * chosen by number, and the vector forms of a few beside their scalar forms. */

__kernel void unary(__global const float *x, __global float *y, __global int *iy, int f) {
    size_t i = get_global_id(0);
    float v = x[i], r = 0.0f;
    int k = 0;
    switch (f) {
    case 0: r = sin(v); break;
    case 1: r = cos(v); break;
    case 2: r = tan(v); break;
    case 3: r = asin(v); break;
    case 4: r = acos(v); break;
    case 5: r = atan(v); break;
    case 6: r = sinh(v); break;
    case 7: r = cosh(v); break;
    case 8: r = tanh(v); break;
    case 9: r = asinh(v); break;
    case 10: r = acosh(v); break;
    case 11: r = atanh(v); break;
    case 12: r = exp(v); break;
    case 13: r = exp2(v); break;
    case 14: r = exp10(v); break;
    case 15: r = expm1(v); break;
    case 16: r = log(v); break;
    case 17: r = log2(v); break;
    case 18: r = log10(v); break;
    case 19: r = log1p(v); break;
    case 20: r = cbrt(v); break;
    case 21: r = sqrt(v); break;
    case 22: r = rsqrt(v); break;
    case 23: r = erf(v); break;
    case 24: r = erfc(v); break;
    case 25: r = tgamma(v); break;
    case 26: r = sinpi(v); break;
    case 27: r = cospi(v); break;
    case 28: r = tanpi(v); break;
    case 29: r = asinpi(v); break;
    case 30: r = acospi(v); break;
    case 31: r = atanpi(v); break;
    case 32: r = floor(v); break;
    case 33: r = ceil(v); break;
    case 34: r = trunc(v); break;
    case 35: r = round(v); break;
    case 36: r = rint(v); break;
    case 37: r = logb(v); break;
    case 38: { float ip; r = fract(v, &ip); k = (int)ip; break; }
    case 39: { float ip; r = modf(v, &ip); k = (int)ip; break; }
    case 40: r = frexp(v, &k); break;
    case 41: k = ilogb(v); r = 0.0f; break;
    case 42: { float c; r = sincos(v, &c); k = as_int(c); break; }
    case 43: r = lgamma_r(v, &k); break;
    }
    y[i] = r;
    iy[i] = k;
}

__kernel void binary(__global const float *x, __global const float *x2, __global float *y,
                     __global int *iy, int f) {
    size_t i = get_global_id(0);
    float a = x[i], b = x2[i], r = 0.0f;
    int k = 0;
    switch (f) {
    case 0: r = atan2(a, b); break;
    case 1: r = pow(a, b); break;
    case 2: r = powr(a, b); break;
    case 3: r = hypot(a, b); break;
    case 4: r = fmod(a, b); break;
    case 5: r = remainder(a, b); break;
    case 6: r = fdim(a, b); break;
    case 7: r = fmax(a, b); break;
    case 8: r = fmin(a, b); break;
    case 9: r = maxmag(a, b); break;
    case 10: r = minmag(a, b); break;
    case 11: r = nextafter(a, b); break;
    case 12: r = copysign(a, b); break;
    case 13: r = atan2pi(a, b); break;
    case 14: r = pown(a, (int)b); break;
    case 15: r = rootn(a, (int)b); break;
    case 16: r = ldexp(a, (int)b); break;
    case 17: r = remquo(a, b, &k); break;
    }
    y[i] = r;
    iy[i] = k;
}

/* The vector forms give what the scalar forms give, element by element. */
__kernel void vectors(__global const float *x, __global int *bad) {
    size_t i = get_global_id(0);
    float16 v = vload16(i, x);
    float16 s = sin(v), e = exp(v * 0.125f), p = pow(fabs(v), (float16)(0.5f));
    float8 l = log1p(fabs(v.lo));
    float4 a = atan2(v.lo.lo, v.hi.lo);
    float3 c = cbrt(v.s012);
    float2 t = tgamma(v.s34);
    int n = 0;
    for (int k = 0; k < 16; k++) {
        n += as_int(s[k]) != as_int(sin(v[k]));
        n += as_int(e[k]) != as_int(exp(v[k] * 0.125f));
        n += as_int(p[k]) != as_int(pow(fabs(v[k]), 0.5f));
    }
    for (int k = 0; k < 8; k++) n += as_int(l[k]) != as_int(log1p(fabs(v[k])));
    for (int k = 0; k < 4; k++) n += as_int(a[k]) != as_int(atan2(v[k], v[8 + k]));
    for (int k = 0; k < 3; k++) n += as_int(c[k]) != as_int(cbrt(v[k]));
    for (int k = 0; k < 2; k++) n += as_int(t[k]) != as_int(tgamma(v[3 + k]));
    bad[i] = n;
}

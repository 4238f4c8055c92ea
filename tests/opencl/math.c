/* weft's OpenCL math test: every float math built-in of math.cl's kernels on special values
 * and thousands of inputs over its domain, against the host's double-precision libm. Each
 * result's error in float ulps must be within OpenCL 1.2's limit for the function (section
 * 7.4, table 7.1); special values (NaN, infinities, signed zeros) must be what C99 and OpenCL
 * say; vector forms must equal the scalar ones.
 *
 *   math MATH.cl        prints one line per function (its worst error) and PASSED or FAILED */
#define CL_TARGET_OPENCL_VERSION 120
#define _GNU_SOURCE
#include <CL/cl.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 4096 };
static int failures;
static cl_context ctx;
static cl_command_queue q;
static cl_program prog;

static uint32_t rng = 0x12345678u;
static uint32_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}
static float uniform(float lo, float hi) { return lo + (hi - lo) * (float)(next() >> 8) * 0x1p-24f; }

/* the inputs: special values, then values spread over every range that matters */
static void inputs(float *x, uint32_t seed) {
    static const float special[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f,
                                    0.5f, -0.5f, 2.0f, -2.0f, FLT_MAX, -FLT_MAX, FLT_MIN,
                                    -FLT_MIN, 0x1p-149f, -0x1p-149f, 0x1p-130f, 3.0f, -3.0f,
                                    10.0f, 100.0f, 1e10f, -1e10f, 0x1p24f, 0x1.921fb6p+0f,
                                    0x1.921fb6p+1f, 88.7f, -103.0f, 1.5f, 2.5f, -2.5f};
    enum { S = sizeof special / sizeof special[0] };
    rng = seed;
    for (int i = 0; i < N; i++) {
        float v;
        int kind = i < S ? -1 : (int)(next() % 8);
        switch (kind) {
        case -1: v = special[i]; break;
        case 0: v = uniform(-1.0f, 1.0f); break;
        case 1: v = uniform(-10.0f, 10.0f); break;
        case 2: v = ldexpf(uniform(1.0f, 2.0f), (int)(next() % 60) - 30); break;
        case 3: v = ldexpf(uniform(1.0f, 2.0f), (int)(next() % 276) - 149); break;
        case 4: v = (float)((int)(next() % 2000) - 1000) * 0x1.921fb6p+0f; break; /* k pi/2 */
        case 5: v = (float)((int)(next() % 200) - 100) * 0.5f; break;            /* halves */
        case 6: v = uniform(0.0f, 40.0f); break;
        default: v = uniform(-120.0f, 120.0f); break;
        }
        if (kind >= 0 && (next() & 1)) v = -v;
        x[i] = v;
    }
}

/* float ulps between got and the double reference (infinity counts as 2^128) */
static double ulps(float got, double ref) {
    if (isnan(ref) || isnan(got)) return isnan(ref) && isnan(got) ? 0.0 : 1e30;
    if (fabs(ref) >= 0x1.ffffffp127) ref = copysign(INFINITY, ref); /* rounds to infinity */
    if (isinf(ref)) return got == (float)ref ? 0.0 : 1e30;
    double g = isinf(got) ? copysign(0x1p128, got) : got;
    double a = fabs(ref);
    int e = a < FLT_MIN ? -126 : ilogb(a);
    return fabs(g - ref) / ldexp(1.0, e - 23);
}

static double pi_ref(double x, int f) { /* sinpi, cospi, tanpi: x reduced exactly first */
    double r = fmod(x, 2.0);
    if (r == floor(r)) { /* integers */
        if (f == 0) return copysign(0.0, x);
        if (f == 1) return fmod(fabs(x), 2.0) == 0 ? 1.0 : -1.0;
        return fmod(fabs(x), 2.0) == 0 ? copysign(0.0, x) : copysign(0.0, -x);
    }
    if (r * 2 == floor(r * 2)) { /* halves: x = n + 1/2 */
        int odd = fmod(fabs(floor(x)), 2.0) == 1.0;
        if (f == 0) return odd ? -1.0 : 1.0;
        if (f == 1) return 0.0;
        return odd ? -INFINITY : INFINITY;
    }
    double a = M_PI * r;
    return f == 0 ? sin(a) : f == 1 ? cos(a) : tan(a);
}

typedef struct {
    const char *name;
    double limit; /* ulps; 0 = correctly rounded or exact */
} fn_t;

static const fn_t unary_fns[] = {
    {"sin", 4},    {"cos", 4},     {"tan", 5},    {"asin", 4},   {"acos", 4},   {"atan", 5},
    {"sinh", 4},   {"cosh", 4},    {"tanh", 5},   {"asinh", 4},  {"acosh", 4},  {"atanh", 5},
    {"exp", 3},    {"exp2", 3},    {"exp10", 3},  {"expm1", 3},  {"log", 3},    {"log2", 3},
    {"log10", 3},  {"log1p", 2},   {"cbrt", 2},   {"sqrt", 0},   {"rsqrt", 2},  {"erf", 16},
    {"erfc", 16},  {"tgamma", 16}, {"sinpi", 4},  {"cospi", 4},  {"tanpi", 6},  {"asinpi", 5},
    {"acospi", 5}, {"atanpi", 5},  {"floor", 0},  {"ceil", 0},   {"trunc", 0},  {"round", 0},
    {"rint", 0},   {"logb", 0},    {"fract", 0},  {"modf", 0},   {"frexp", 0},  {"ilogb", 0},
    {"sincos", 4}, {"lgamma_r", 0},
};

static double unary_ref(int f, float xf, int *iref) {
    double x = xf;
    *iref = 0;
    switch (f) {
    case 0: return sin(x);
    case 1: return cos(x);
    case 2: return tan(x);
    case 3: return asin(x);
    case 4: return acos(x);
    case 5: return atan(x);
    case 6: return sinh(x);
    case 7: return cosh(x);
    case 8: return tanh(x);
    case 9: return asinh(x);
    case 10: return acosh(x);
    case 11: return atanh(x);
    case 12: return exp(x);
    case 13: return exp2(x);
    case 14: return exp10(x);
    case 15: return expm1(x);
    case 16: return log(x);
    case 17: return log2(x);
    case 18: return log10(x);
    case 19: return log1p(x);
    case 20: return cbrt(x);
    case 21: return sqrt(x);
    case 22: return 1.0 / sqrt(x);
    case 23: return erf(x);
    case 24: return erfc(x);
    case 25: return tgamma(x);
    case 26: return pi_ref(x, 0);
    case 27: return pi_ref(x, 1);
    case 28: return pi_ref(x, 2);
    case 29: return asin(x) / M_PI;
    case 30: return acos(x) / M_PI;
    case 31: return atan(x) / M_PI;
    case 32: return floor(x);
    case 33: return ceil(x);
    case 34: return trunc(x);
    case 35: return round(x);
    case 36: return rint(x);
    case 37: return logb(x);
    case 38: {
        if (isnan(x)) return x;
        double fl = floor(x);
        *iref = isinf(fl) || fabs(fl) > 2e9 ? 0 : (int)fl;
        return isinf(x) ? copysign(0.0, x) : fmin(x - fl, 0x1.fffffep-1);
    }
    case 39: {
        double ip;
        double r = modf(x, &ip);
        *iref = isinf(ip) || isnan(ip) || fabs(ip) > 2e9 ? 0 : (int)ip;
        return r;
    }
    case 40: return frexp(x, iref);
    case 41: {
        *iref = isnan(xf) ? 2147483647 : ilogbf(xf); /* OpenCL's FP_ILOGBNAN is INT_MAX */
        return 0.0;
    }
    case 42: {
        float c = cosf(xf);
        (void)c;
        *iref = 0;
        return sin(x);
    }
    case 43: return lgamma_r(x, iref);
    }
    return NAN;
}

static const fn_t binary_fns[] = {
    {"atan2", 6},     {"pow", 16},   {"powr", 16},    {"hypot", 4},     {"fmod", 0},
    {"remainder", 0}, {"fdim", 0},   {"fmax", 0},     {"fmin", 0},      {"maxmag", 0},
    {"minmag", 0},    {"nextafter", 0}, {"copysign", 0}, {"atan2pi", 6}, {"pown", 16},
    {"rootn", 16},    {"ldexp", 0},  {"remquo", 0},
};

static double powr_ref(double x, double y) {
    if (isnan(x) || isnan(y) || x < 0) return NAN;
    if (x == 0) return y == 0 ? NAN : y < 0 ? INFINITY : 0.0;
    if (isinf(x)) return y == 0 ? NAN : y < 0 ? 0.0 : INFINITY;
    if (x == 1) return isinf(y) ? NAN : 1.0;
    return pow(x, y);
}

static double rootn_ref(double x, int n) {
    if (n == 0 || isnan(x)) return NAN;
    if (x < 0 && !(n & 1)) return NAN;
    if (x == 0) {
        double r = n < 0 ? INFINITY : 0.0;
        return (n & 1) ? copysign(r, x) : r;
    }
    double r = pow(fabs(x), 1.0 / n);
    return x < 0 ? -r : r;
}

static double binary_ref(int f, float af, float bf, int *iref) {
    double a = af, b = bf;
    *iref = 0;
    switch (f) {
    case 0: return atan2(a, b);
    case 1: return pow(a, b);
    case 2: return powr_ref(a, b);
    case 3: return hypot(a, b);
    case 4: return fmod(a, b);
    case 5: return remainder(a, b);
    case 6: return fdimf(af, bf);
    case 7: return fmaxf(af, bf);
    case 8: return fminf(af, bf);
    case 9: return fabsf(af) > fabsf(bf) ? af : fabsf(bf) > fabsf(af) ? bf : fmaxf(af, bf);
    case 10: return fabsf(af) < fabsf(bf) ? af : fabsf(bf) < fabsf(af) ? bf : fminf(af, bf);
    case 11: return nextafterf(af, bf);
    case 12: return copysignf(af, bf);
    case 13: return atan2(a, b) / M_PI;
    case 14: return (int)bf == 0 ? 1.0 : pow(a, (int)bf);
    case 15: return rootn_ref(a, (int)bf);
    case 16: return ldexp(a, (int)bf);
    case 17: return remquof(af, bf, iref);
    }
    return NAN;
}

/* a float result against its reference: within `limit` ulps, or exact (limit 0: the
 * correctly rounded value, signed zeros and NaN as they should be) */
static int accept(float got, double ref, double limit, double *worst) {
    if (limit == 0) {
        float want = (float)ref;
        if (isnan(want)) return isnan(got);
        return memcmp(&got, &want, 4) == 0;
    }
    if ((ref == 0 || isinf(ref)) && !isnan(got) && got == (float)ref && !!signbit(got) != !!signbit(ref))
        return 0; /* the sign of an exact zero or infinity */
    double u = ulps(got, ref);
    if (u < 1e29 && u > *worst) *worst = u;
    return u <= limit;
}

static cl_kernel kernel(const char *name) {
    cl_int e;
    cl_kernel k = clCreateKernel(prog, name, &e);
    if (e) {
        printf("FAIL clCreateKernel(%s): %d\n", name, e);
        exit(1);
    }
    return k;
}

static void run_unary(cl_mem bx, cl_mem by, cl_mem bi, const float *x) {
    cl_kernel k = kernel("unary");
    float *y = malloc(N * sizeof *y);
    int *iy = malloc(N * sizeof *iy);
    for (int f = 0; f < (int)(sizeof unary_fns / sizeof unary_fns[0]); f++) {
        clSetKernelArg(k, 0, sizeof bx, &bx);
        clSetKernelArg(k, 1, sizeof by, &by);
        clSetKernelArg(k, 2, sizeof bi, &bi);
        clSetKernelArg(k, 3, sizeof f, &f);
        size_t g = N;
        clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL);
        clEnqueueReadBuffer(q, by, CL_TRUE, 0, N * sizeof *y, y, 0, NULL, NULL);
        clEnqueueReadBuffer(q, bi, CL_TRUE, 0, N * sizeof *iy, iy, 0, NULL, NULL);
        const fn_t *fn = &unary_fns[f];
        double worst = 0;
        int bad = 0;
        for (int i = 0; i < N; i++) {
            int iref;
            double ref = unary_ref(f, x[i], &iref);
            int ok;
            if (f == 43) { /* lgamma: OpenCL gives no bound; a close value and the sign */
                if (fabs(ref) >= 0x1.ffffffp127) ref = copysign(INFINITY, ref);
                ok = (isnan(ref) && isnan(y[i])) || (isinf(ref) && y[i] == (float)ref) ||
                     fabs(y[i] - ref) <= 1e-5 * fmax(1.0, fabs(ref));
                if (!isnan(ref) && !isinf(ref) && iy[i] != iref) ok = 0;
            } else if (f == 41) {
                ok = iy[i] == iref;
            } else {
                ok = accept(y[i], ref, fn->limit, &worst);
                if ((f == 38 || f == 39 || f == 40) && iy[i] != iref && !isnan(x[i]) && !isinf(x[i]) &&
                    (f == 40 || fabsf(x[i]) < 0x1p31f))
                    ok = 0; /* the integer part, where an int holds it */
                if (f == 42) { /* sincos: the cosine too */
                    float c;
                    int ci = iy[i];
                    memcpy(&c, &ci, 4);
                    double w2 = 0;
                    ok = ok && accept(c, cos((double)x[i]), 4, &w2);
                    if (w2 > worst) worst = w2;
                }
            }
            if (!ok) {
                if (bad < 4)
                    printf("FAIL %s(%a) = %a (%d), want %a (%d)\n", fn->name, x[i], y[i], iy[i], ref, iref);
                bad++;
            }
        }
        printf("%-10s worst %.2f ulp (limit %g)%s\n", fn->name, worst, fn->limit, bad ? " FAILED" : "");
        failures += bad;
    }
    free(y);
    free(iy);
    clReleaseKernel(k);
}

static void run_binary(cl_mem bx, cl_mem bx2, cl_mem by, cl_mem bi, const float *x, float *x2) {
    cl_kernel k = kernel("binary");
    float *y = malloc(N * sizeof *y), *ints = malloc(N * sizeof *ints);
    int *iy = malloc(N * sizeof *iy);
    for (int i = 0; i < N; i++) ints[i] = (float)((int)(next() % 81) - 40);
    for (int f = 0; f < (int)(sizeof binary_fns / sizeof binary_fns[0]); f++) {
        const float *second = f >= 14 && f <= 16 ? ints : x2;
        clEnqueueWriteBuffer(q, bx2, CL_TRUE, 0, N * sizeof(float), second, 0, NULL, NULL);
        clSetKernelArg(k, 0, sizeof bx, &bx);
        clSetKernelArg(k, 1, sizeof bx2, &bx2);
        clSetKernelArg(k, 2, sizeof by, &by);
        clSetKernelArg(k, 3, sizeof bi, &bi);
        clSetKernelArg(k, 4, sizeof f, &f);
        size_t g = N;
        clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL);
        clEnqueueReadBuffer(q, by, CL_TRUE, 0, N * sizeof *y, y, 0, NULL, NULL);
        clEnqueueReadBuffer(q, bi, CL_TRUE, 0, N * sizeof *iy, iy, 0, NULL, NULL);
        const fn_t *fn = &binary_fns[f];
        double worst = 0;
        int bad = 0;
        for (int i = 0; i < N; i++) {
            int iref;
            double ref = binary_ref(f, x[i], second[i], &iref);
            int ok = accept(y[i], ref, fn->limit, &worst);
            /* remquo: the quotient's low 3 bits (all the host's libm gives) and its sign */
            if (f == 17 && !isnan(ref) &&
                ((iy[i] & 7) != (iref & 7) || (iref != 0 && (iy[i] < 0) != (iref < 0))))
                ok = 0;
            if (!ok) {
                if (bad < 4)
                    printf("FAIL %s(%a, %a) = %a (%d), want %a (%d)\n", fn->name, x[i], second[i], y[i], iy[i], ref, iref);
                bad++;
            }
        }
        printf("%-10s worst %.2f ulp (limit %g)%s\n", fn->name, worst, fn->limit, bad ? " FAILED" : "");
        failures += bad;
    }
    free(y);
    free(ints);
    free(iy);
    clReleaseKernel(k);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        printf("usage: math MATH.cl\n");
        return 2;
    }
    FILE *fp = fopen(argv[1], "rb");
    if (!fp) {
        printf("FAIL cannot open %s\n", argv[1]);
        return 1;
    }
    static char src[1 << 16];
    size_t n = fread(src, 1, sizeof src - 1, fp);
    src[n] = 0;
    fclose(fp);
    cl_platform_id p;
    cl_device_id d;
    cl_int e;
    clGetPlatformIDs(1, &p, NULL);
    clGetDeviceIDs(p, CL_DEVICE_TYPE_DEFAULT, 1, &d, NULL);
    ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
    q = clCreateCommandQueue(ctx, d, 0, &e);
    const char *s = src;
    prog = clCreateProgramWithSource(ctx, 1, &s, NULL, &e);
    if (clBuildProgram(prog, 1, &d, NULL, NULL, NULL) != CL_SUCCESS) {
        char log[8192];
        clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        printf("FAIL build:\n%s\n", log);
        return 1;
    }
    static float x[N], x2[N];
    inputs(x, 0x12345678u);
    inputs(x2, 0x9e3779b9u);
    cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof x, x, &e);
    cl_mem bx2 = clCreateBuffer(ctx, CL_MEM_READ_ONLY, sizeof x2, NULL, &e);
    cl_mem by = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof x, NULL, &e);
    cl_mem bi = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof x, NULL, &e);
    run_unary(bx, by, bi, x);
    run_binary(bx, bx2, by, bi, x, x2);
    /* vector forms */
    cl_kernel k = kernel("vectors");
    clSetKernelArg(k, 0, sizeof bx, &bx);
    clSetKernelArg(k, 1, sizeof bi, &bi);
    size_t g = N / 16;
    clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL);
    static int bad[N];
    clEnqueueReadBuffer(q, bi, CL_TRUE, 0, g * sizeof(int), bad, 0, NULL, NULL);
    int vb = 0;
    for (size_t i = 0; i < g; i++) vb += bad[i];
    printf("vectors    %d differences from the scalar forms\n", vb);
    failures += vb;
    clReleaseKernel(k);
    clReleaseMemObject(bx);
    clReleaseMemObject(bx2);
    clReleaseMemObject(by);
    clReleaseMemObject(bi);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    printf(failures ? "FAILED: %d\n" : "PASSED\n", failures);
    return failures != 0;
}

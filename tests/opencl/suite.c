/* weft's OpenCL test program: a host program written against Khronos' headers and linked with
 * weft's libOpenCL.so. It runs the kernels of suite.cl and checks every result against a
 * reference computed here on the host, then checks OpenCL's error codes for bad use.
 *
 *   suite KERNELS.cl [-O0] [--icd]
 *
 * -O0: the kernels built with -cl-opt-disable. --icd: the program reaches the library through
 * an ICD loader, which does not check handles (it reads the dispatch table through them): the
 * checks of invalid handles are left out.
 *
 * Prints one line per section, "FAIL ..." lines for what is wrong, the lines the printf
 * kernel must print (between "printf expected" and "printf run"), and PASSED or FAILED. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                        \
            printf(__VA_ARGS__);                                                               \
            printf("\n");                                                                      \
            failures++;                                                                        \
        }                                                                                      \
    } while (0)
#define OK(e)                                                                                  \
    do {                                                                                       \
        cl_int e_ = (e);                                                                       \
        CHECK(e_ == CL_SUCCESS, "%s returned %d", #e, e_);                                     \
    } while (0)
#define EXPECT(code, e)                                                                        \
    do {                                                                                       \
        cl_int e_ = (e);                                                                       \
        CHECK(e_ == (code), "%s returned %d, not %s (%d)", #e, e_, #code, code);               \
    } while (0)

static cl_context ctx;
static cl_command_queue q;
static cl_device_id dev;
static cl_program prog;
static int through_icd;

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("FAIL cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    if (fread(s, 1, (size_t)n, f) != (size_t)n) exit(1);
    s[n] = 0;
    fclose(f);
    return s;
}

static cl_mem buffer(cl_mem_flags flags, size_t bytes, void *host) {
    cl_int e;
    cl_mem m = clCreateBuffer(ctx, flags, bytes, host, &e);
    OK(e);
    return m;
}

static cl_kernel kernel(const char *name) {
    cl_int e;
    cl_kernel k = clCreateKernel(prog, name, &e);
    OK(e);
    return k;
}

static void run(cl_kernel k, cl_uint dims, const size_t *off, const size_t *global,
                const size_t *local) {
    OK(clEnqueueNDRangeKernel(q, k, dims, off, global, local, 0, NULL, NULL));
    OK(clFinish(q));
}

static int close_to(double got, double want, double rel) {
    return fabs(got - want) <= rel * fmax(1.0, fabs(want));
}

/* ---- platform and device ---------------------------------------------------------------- */

static void platform(void) {
    cl_platform_id p;
    cl_uint n = 0;
    OK(clGetPlatformIDs(1, &p, &n));
    CHECK(n == 1, "%u platforms", n);
    char s[256];
    OK(clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof s, s, NULL));
    CHECK(strcmp(s, "weft") == 0, "platform %s", s);
    OK(clGetPlatformInfo(p, CL_PLATFORM_VERSION, sizeof s, s, NULL));
    CHECK(strncmp(s, "OpenCL 1.2", 10) == 0, "version %s", s);
    OK(clGetDeviceIDs(p, CL_DEVICE_TYPE_DEFAULT, 1, &dev, NULL));
    OK(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof s, s, NULL));
    CHECK(strncmp(s, "weft ", 5) == 0, "device %s", s);
    size_t wg;
    OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    CHECK(wg == 1024, "max work-group %zu", wg);
    cl_ulong lm;
    OK(clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL));
    CHECK(lm >= 16384, "local memory %llu", (unsigned long long)lm);
    cl_int e;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    OK(e);
    q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e);
    OK(e);
    printf("platform: %s\n", s);
}

static void build(const char *path, int o0) {
    char *src = read_file(path);
    cl_int e;
    prog = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &e);
    OK(e);
    const char *opts = o0 ? "-DSCALE=2 -cl-opt-disable" : "-DSCALE=2";
    e = clBuildProgram(prog, 1, &dev, opts, NULL, NULL);
    if (e != CL_SUCCESS) {
        char log[8192];
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        printf("FAIL build: %d\n%s\n", e, log);
        exit(1);
    }
    cl_build_status st;
    OK(clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL));
    CHECK(st == CL_BUILD_SUCCESS, "build status %d", st);
    size_t nk;
    OK(clGetProgramInfo(prog, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL));
    CHECK(nk == 8, "%zu kernels", nk);
    /* the binary makes an equal program */
    size_t bs;
    OK(clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof bs, &bs, NULL));
    unsigned char *bin = malloc(bs);
    OK(clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
    cl_int bst;
    cl_program p2 = clCreateProgramWithBinary(ctx, 1, &dev, &bs, (const unsigned char **)&bin,
                                              &bst, &e);
    OK(e);
    CHECK(bst == CL_SUCCESS, "binary status %d", bst);
    OK(clBuildProgram(p2, 0, NULL, NULL, NULL, NULL));
    char names[256];
    OK(clGetProgramInfo(p2, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL));
    CHECK(strstr(names, "saxpy") && strstr(names, "tile"), "kernel names %s", names);
    OK(clReleaseProgram(p2));
    free(bin);
    free(src);
    printf("build: %s\n", o0 ? "-O0" : "-O2");
}

/* ---- kernels ----------------------------------------------------------------------------- */

typedef struct {
    float a;
    int b;
    char c;
} params_t;

static void saxpy(void) {
    enum { N = 1000 };
    float x[N], y[N], r[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i * 0.25f;
        y[i] = (float)(N - i);
    }
    cl_mem bx = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof x, x);
    cl_mem by = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof y, y);
    cl_kernel k = kernel("saxpy");
    float a = 3.0f;
    params_t p = {1.5f, 3, 2};
    OK(clSetKernelArg(k, 0, sizeof bx, &bx));
    OK(clSetKernelArg(k, 1, sizeof by, &by));
    OK(clSetKernelArg(k, 2, sizeof a, &a));
    OK(clSetKernelArg(k, 3, sizeof p, &p));
    size_t g = N;
    run(k, 1, NULL, &g, NULL); /* the work-group size is weft's choice */
    OK(clEnqueueReadBuffer(q, by, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double want = 3.0 * x[i] + y[i] + 1.5 * 3 + 2 * 2;
        if (!close_to(r[i], want, 1e-6)) bad++;
    }
    CHECK(bad == 0, "saxpy: %d wrong", bad);
    clReleaseKernel(k);
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    printf("saxpy: %d items\n", N);
}

static void reduce(size_t local) {
    enum { N = 1024 };
    int in[N], out[N];
    for (int i = 0; i < N; i++) in[i] = (i * 7919) % 1000 - 500;
    cl_mem bin = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_mem bout = buffer(CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_kernel k = kernel("reduce");
    OK(clSetKernelArg(k, 0, sizeof bin, &bin));
    OK(clSetKernelArg(k, 1, sizeof bout, &bout));
    OK(clSetKernelArg(k, 2, local * sizeof(int), NULL));
    size_t g = N;
    run(k, 1, NULL, &g, &local);
    size_t groups = N / local;
    OK(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, groups * sizeof(int), out, 0, NULL, NULL));
    for (size_t b = 0; b < groups; b++) {
        int want = 0;
        for (size_t i = 0; i < local; i++) want += in[b * local + i];
        CHECK(out[b] == want, "reduce/%zu: group %zu = %d, want %d", local, b, out[b], want);
    }
    cl_ulong lm;
    OK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL));
    CHECK(lm >= local * sizeof(int), "local memory %llu", (unsigned long long)lm);
    clReleaseKernel(k);
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    printf("reduce: work-groups of %zu\n", local);
}

static void tile(void) {
    enum { W = 64, T = 16 };
    static float in[W * W], out[W * W];
    for (int i = 0; i < W * W; i++) in[i] = (float)(i % 97) / 4.0f;
    cl_mem bin = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_mem bout = buffer(CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_kernel k = kernel("tile");
    int w = W;
    OK(clSetKernelArg(k, 0, sizeof bin, &bin));
    OK(clSetKernelArg(k, 1, sizeof bout, &bout));
    OK(clSetKernelArg(k, 2, sizeof w, &w));
    size_t g[2] = {W, W}, l[2] = {T, T};
    run(k, 2, NULL, g, l);
    OK(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int oy = 0; oy < W; oy++)
        for (int ox = 0; ox < W; ox++) {
            int g0 = oy / T, ly = oy % T, g1 = ox / T, lx = ox % T;
            float want = in[(g1 * T + lx) * W + g0 * T + ly] +
                         in[(g1 * T + (lx + 1) % T) * W + g0 * T + ly] * 0.5f + T * T;
            if (out[oy * W + ox] != want) {
                if (bad < 5) printf("FAIL tile (%d,%d) = %g, want %g\n", ox, oy, out[oy * W + ox], want);
                bad++;
            }
        }
    CHECK(bad == 0, "tile: %d wrong", bad);
    clReleaseKernel(k);
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    printf("tile: 16 x 16 work-groups with __local arrays\n");
}

static float host_rte(float x) { return nearbyintf(x); }

static void vectors(void) {
    enum { N = 8 };
    float in[4 * N], outf[32 * N];
    int outi[8 * N];
    for (int i = 0; i < 4 * N; i++) in[i] = (float)((i * 13) % 29 - 9) / 8.0f;
    cl_mem bin = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_mem bf = buffer(CL_MEM_WRITE_ONLY, sizeof outf, NULL);
    cl_mem bi = buffer(CL_MEM_WRITE_ONLY, sizeof outi, NULL);
    cl_kernel k = kernel("vectors");
    OK(clSetKernelArg(k, 0, sizeof bin, &bin));
    OK(clSetKernelArg(k, 1, sizeof bf, &bf));
    OK(clSetKernelArg(k, 2, sizeof bi, &bi));
    size_t g = N, l = 4;
    run(k, 1, NULL, &g, &l);
    OK(clEnqueueReadBuffer(q, bf, CL_TRUE, 0, sizeof outf, outf, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, bi, CL_TRUE, 0, sizeof outi, outi, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        const float *a = &in[4 * i];
        float b[4] = {a[3] * 2 - 1, a[2] * 2 - 1, a[1] * 2 - 1, a[0] * 2 - 1}, c[4];
        double len = sqrt((double)a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3]);
        const float *o = &outf[32 * i];
        for (int j = 0; j < 4; j++) {
            c[j] = a[j] * b[j] + 0.5f; /* exact: eighths */
            float mx = fmaxf(a[j], b[j]) + fminf(a[j], 0.25f);
            float cl = fminf(fmaxf(c[j], -1.0f), 2.0f);
            float sh = a[3 - j];
            float root = sqrtf(fabsf(a[j])) + (b[j] < 0.5f ? 0.0f : 1.0f);
            bad += o[j] != c[j];
            bad += len == 0 ? o[4 + j] != a[j] : !close_to(o[4 + j], a[j] / len, 1e-6);
            bad += o[8 + j] != mx;
            bad += o[12 + j] != cl;
            bad += o[16 + j] != sh;
            bad += !close_to(o[28 + j], root, 1e-6);
            int conv = (int)host_rte(c[j] * 100.0f);
            bad += outi[8 * i + j] != conv;
            int sel = a[j] > b[j] ? -(j + 1) : j + 1;
            int ad = abs(outi[8 * i] - 7);
            int pc = __builtin_popcount((unsigned)conv);
            if (outi[8 * i + 4 + j] != sel + ad + 32 + pc) {
                printf("FAIL vectors: item %d int lane %d = %d, want %d\n", i, j, outi[8 * i + 4 + j], sel + ad + 32 + pc);
                bad++;
            }
        }
        double d = (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2];
        bad += !close_to(o[20], d, 1e-6);
        bad += !close_to(o[21], len, 1e-6);
        bad += o[22] != b[3] * 3.0f; /* big.sf = (wide*3).s7 = b.w * 3 */
        bad += o[23] != b[1];        /* wide.s5 = b.y */
        float x[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
        for (int j = 0; j < 3; j++) bad += o[24 + j] != x[j];
    }
    CHECK(bad == 0, "vectors: %d wrong", bad);
    clReleaseKernel(k);
    clReleaseMemObject(bin);
    clReleaseMemObject(bf);
    clReleaseMemObject(bi);
    printf("vectors: float4/8/16, geometric, conversions, select, shuffle\n");
}

static void atomics(void) {
    enum { N = 512, L = 128 };
    cl_uint in[N], hist[16] = {0}, groups[N / L];
    cl_int stats[6] = {INT32_MAX, INT32_MIN, 0, 0, 0, 0};
    for (int i = 0; i < N; i++) in[i] = (cl_uint)((i * 37 + 11) % 1000);
    cl_mem bin = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_mem bh = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof hist, hist);
    cl_mem bs = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof stats, stats);
    cl_mem bg = buffer(CL_MEM_WRITE_ONLY, sizeof groups, NULL);
    cl_kernel k = kernel("atomics");
    OK(clSetKernelArg(k, 0, sizeof bin, &bin));
    OK(clSetKernelArg(k, 1, sizeof bh, &bh));
    OK(clSetKernelArg(k, 2, sizeof bs, &bs));
    OK(clSetKernelArg(k, 3, sizeof bg, &bg));
    size_t g = N, l = L;
    run(k, 1, NULL, &g, &l);
    OK(clEnqueueReadBuffer(q, bh, CL_TRUE, 0, sizeof hist, hist, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, bs, CL_TRUE, 0, sizeof stats, stats, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, bg, CL_TRUE, 0, sizeof groups, groups, 0, NULL, NULL));
    cl_uint want_h[16] = {0};
    int mn = INT32_MAX, mx = INT32_MIN, x = 0;
    for (int i = 0; i < N; i++) {
        want_h[in[i] % 16]++;
        mn = (int)in[i] < mn ? (int)in[i] : mn;
        mx = (int)in[i] > mx ? (int)in[i] : mx;
        x ^= (int)in[i];
    }
    for (int i = 0; i < 16; i++) CHECK(hist[i] == want_h[i], "hist[%d] = %u, want %u", i, hist[i], want_h[i]);
    CHECK(stats[0] == mn && stats[1] == mx && stats[2] == x, "min %d max %d xor %d", stats[0], stats[1], stats[2]);
    CHECK(stats[3] == 1 && stats[4] == 1, "cmpxchg %d, first %d", stats[3], stats[4]);
    CHECK(stats[5] == 2 * N, "atom_add %d", stats[5]);
    for (int i = 0; i < N / L; i++) CHECK(groups[i] == L, "group %d counted %u", i, groups[i]);
    clReleaseKernel(k);
    clReleaseMemObject(bin);
    clReleaseMemObject(bh);
    clReleaseMemObject(bs);
    clReleaseMemObject(bg);
    printf("atomics: global and local, int and uint\n");
}

static void printer(void) {
    enum { N = 4 };
    int base = 100;
    printf("printf expected\n");
    for (int g = 0; g < N; g++)
        printf("item %d: %5.2f %s %f,%f,%f,%f %lld %x\n", g + base, (double)((float)g / 4.0f),
               g % 2 ? "odd" : "even", (double)(float)g, (double)((float)g + 0.5f),
               (double)(float)(-g), 1.25, (long long)g * 10000000000LL, 255 + g);
    printf("printf run\n");
    fflush(stdout);
    cl_kernel k = kernel("printer");
    OK(clSetKernelArg(k, 0, sizeof base, &base));
    size_t g = N, l = 2;
    run(k, 1, NULL, &g, &l);
    printf("printf end\n");
    clReleaseKernel(k);
}

static void ids(void) {
    enum { X = 8, Y = 4, Z = 2 };
    cl_uint out[X * Y * Z * 4];
    cl_mem b = buffer(CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_kernel k = kernel("ids");
    OK(clSetKernelArg(k, 0, sizeof b, &b));
    size_t off[3] = {3, 5, 7}, g[3] = {X, Y, Z}, l[3] = {4, 2, 1};
    run(k, 3, off, g, l);
    OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int z = 0; z < Z; z++)
        for (int y = 0; y < Y; y++)
            for (int x = 0; x < X; x++) {
                const cl_uint *o = &out[((z * Y + y) * X + x) * 4];
                bad += o[0] != (cl_uint)((x + 3) + 1000 * (y + 5) + 1000000 * (z + 7));
                bad += o[1] != (cl_uint)(x % 4 + 100 * (y % 2) + 10000 * 0);
                bad += o[2] != (cl_uint)(x / 4 + 100 * (y / 2) + 10000 * z);
                bad += o[3] != 3 + 10 * 2 + 1000 * 2;
            }
    CHECK(bad == 0, "ids: %d wrong", bad);
    clReleaseKernel(k);
    clReleaseMemObject(b);
    printf("ids: a 3-D NDRange with offsets\n");
}

static int sat32(long long v) { return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int)v; }
static int sat8(int v) { return v > 127 ? 127 : v < -128 ? -128 : v; }

static void integers(void) {
    enum { N = 16 };
    cl_int in[2 * N], out[8 * N];
    int seeds[] = {0, 1, -1, INT32_MAX, INT32_MIN, 123456789, -98765, 100, -100, 127, -128, 65535, 3, -7, 1 << 20, 999};
    for (int i = 0; i < 2 * N; i++) in[i] = seeds[i % 16] ^ (i > 15 ? 0x55 : 0);
    cl_mem bi = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_mem bo = buffer(CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_kernel k = kernel("integers");
    OK(clSetKernelArg(k, 0, sizeof bi, &bi));
    OK(clSetKernelArg(k, 1, sizeof bo, &bo));
    size_t g = N;
    run(k, 1, NULL, &g, NULL);
    OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < N; i++) {
        int a = in[2 * i], b = in[2 * i + 1];
        signed char ca = (signed char)a, cb = (signed char)b;
        int want[8];
        want[0] = sat32((long long)a + b);
        want[1] = sat8(ca - cb);
        want[2] = (int)(((long long)a * b) >> 32);
        want[3] = a == 0 ? 32 : __builtin_clz((unsigned)a);
        want[4] = (int)(((long long)a + b) >> 1);
        want[5] = sat8(ca * cb + 3);
        want[6] = (int)(((unsigned)(unsigned short)(short)a << 16) | (unsigned short)b);
        __int128 p = (__int128)((long long)a << 20) * (__int128)((long long)b << 20);
        want[7] = (int)((long long)(p >> 64) >> 8);
        for (int j = 0; j < 8; j++)
            CHECK(out[8 * i + j] == want[j], "integers: (%d, %d) op %d = %d, want %d", a, b, j, out[8 * i + j], want[j]);
    }
    clReleaseKernel(k);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    printf("integers: saturation, high products, clz, upsample\n");
}

/* ---- memory commands --------------------------------------------------------------------- */

static void memory(void) {
    enum { N = 256 };
    cl_uint host[N], back[N];
    for (int i = 0; i < N; i++) host[i] = (cl_uint)(i * 3 + 1);
    /* USE_HOST_PTR: a kernel's writes show in the program's memory */
    cl_mem u = buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof host, host);
    cl_uint pattern = 0xABCD1234u;
    OK(clEnqueueFillBuffer(q, u, &pattern, sizeof pattern, 16 * 4, 32 * 4, 0, NULL, NULL));
    OK(clFinish(q));
    for (int i = 0; i < N; i++) {
        cl_uint want = i >= 16 && i < 48 ? pattern : (cl_uint)(i * 3 + 1);
        CHECK(host[i] == want, "use-host-ptr fill: [%d] = %x", i, host[i]);
    }
    /* copy, and a sub-buffer */
    cl_mem c = buffer(CL_MEM_READ_WRITE, sizeof host, NULL);
    OK(clEnqueueCopyBuffer(q, u, c, 0, 0, sizeof host, 0, NULL, NULL));
    cl_buffer_region r = {64 * 4, 64 * 4};
    cl_int e;
    cl_mem sub = clCreateSubBuffer(c, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
    OK(e);
    cl_uint seven[64];
    for (int i = 0; i < 64; i++) seven[i] = 7;
    OK(clEnqueueWriteBuffer(q, sub, CL_TRUE, 0, sizeof seven, seven, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, c, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    for (int i = 0; i < N; i++) {
        cl_uint want = i >= 64 && i < 128 ? 7 : host[i];
        CHECK(back[i] == want, "copy/sub-buffer: [%d] = %u, want %u", i, back[i], want);
    }
    /* a rectangle: rows 2..5 of a 16 x 16 matrix, columns 4..11, into a 8-wide host block */
    cl_uint rect[4 * 8];
    size_t bo[3] = {4 * 4, 2, 0}, ho[3] = {0, 0, 0}, reg[3] = {8 * 4, 4, 1};
    OK(clEnqueueReadBufferRect(q, c, CL_TRUE, bo, ho, reg, 16 * 4, 0, 8 * 4, 0, rect, 0, NULL, NULL));
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 8; x++)
            CHECK(rect[y * 8 + x] == back[(y + 2) * 16 + x + 4], "rect (%d,%d)", x, y);
    /* map for writing, then read */
    cl_mem a = buffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, sizeof host, NULL);
    cl_uint *m = clEnqueueMapBuffer(q, a, CL_TRUE, CL_MAP_WRITE, 0, sizeof host, 0, NULL, NULL, &e);
    OK(e);
    for (int i = 0; i < N; i++) m[i] = (cl_uint)(N - i);
    OK(clEnqueueUnmapMemObject(q, a, m, 0, NULL, NULL));
    m = clEnqueueMapBuffer(q, a, CL_TRUE, CL_MAP_READ, 8, 16, 0, NULL, NULL, &e);
    OK(e);
    CHECK(m[0] == N - 2 && m[3] == N - 5, "map: %u %u", m[0], m[3]);
    cl_uint maps;
    OK(clGetMemObjectInfo(a, CL_MEM_MAP_COUNT, sizeof maps, &maps, NULL));
    CHECK(maps == 1, "map count %u", maps);
    OK(clEnqueueUnmapMemObject(q, a, m, 0, NULL, NULL));
    OK(clFinish(q));
    clReleaseMemObject(sub);
    clReleaseMemObject(a);
    clReleaseMemObject(c);
    clReleaseMemObject(u);
    printf("memory: fill, copy, sub-buffer, rectangle, map, USE/COPY/ALLOC_HOST_PTR\n");
}

/* ---- events ------------------------------------------------------------------------------ */

static int called;
static void CL_CALLBACK on_done(cl_event e, cl_int status, void *data) {
    (void)e;
    if (status == CL_COMPLETE) called += *(int *)data;
}

static void events(void) {
    cl_int e;
    cl_event user = clCreateUserEvent(ctx, &e);
    OK(e);
    cl_uint v = 5, got = 0;
    cl_mem b = buffer(CL_MEM_READ_WRITE, sizeof v, NULL);
    cl_event w;
    OK(clEnqueueWriteBuffer(q, b, CL_FALSE, 0, sizeof v, &v, 1, &user, &w));
    int inc = 3;
    OK(clSetEventCallback(w, CL_COMPLETE, on_done, &inc));
    cl_int st;
    OK(clGetEventInfo(w, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    CHECK(st > CL_COMPLETE, "the write ran before its user event: %d", st);
    OK(clSetUserEventStatus(user, CL_COMPLETE));
    OK(clWaitForEvents(1, &w));
    OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL));
    CHECK(got == 5 && called == 3, "user event: got %u, callback %d", got, called);
    EXPECT(CL_INVALID_OPERATION, clSetUserEventStatus(user, CL_COMPLETE));
    /* profiling of a kernel */
    cl_kernel k = kernel("reduce");
    cl_mem in = buffer(CL_MEM_READ_WRITE, 256 * sizeof(int), NULL);
    int zero = 0;
    OK(clEnqueueFillBuffer(q, in, &zero, sizeof zero, 0, 256 * sizeof(int), 0, NULL, NULL));
    OK(clSetKernelArg(k, 0, sizeof in, &in));
    OK(clSetKernelArg(k, 1, sizeof in, &in));
    OK(clSetKernelArg(k, 2, 64 * sizeof(int), NULL));
    size_t g = 256, l = 64;
    cl_event ke;
    OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &ke));
    OK(clWaitForEvents(1, &ke));
    cl_ulong t[4];
    OK(clGetEventProfilingInfo(ke, CL_PROFILING_COMMAND_QUEUED, sizeof t[0], &t[0], NULL));
    OK(clGetEventProfilingInfo(ke, CL_PROFILING_COMMAND_SUBMIT, sizeof t[1], &t[1], NULL));
    OK(clGetEventProfilingInfo(ke, CL_PROFILING_COMMAND_START, sizeof t[2], &t[2], NULL));
    OK(clGetEventProfilingInfo(ke, CL_PROFILING_COMMAND_END, sizeof t[3], &t[3], NULL));
    CHECK(t[0] <= t[1] && t[1] <= t[2] && t[2] < t[3], "profiling %llu %llu %llu %llu",
          (unsigned long long)t[0], (unsigned long long)t[1], (unsigned long long)t[2],
          (unsigned long long)t[3]);
    cl_command_type ty;
    OK(clGetEventInfo(ke, CL_EVENT_COMMAND_TYPE, sizeof ty, &ty, NULL));
    CHECK(ty == CL_COMMAND_NDRANGE_KERNEL, "command type %x", ty);
    cl_event mark;
    OK(clEnqueueMarkerWithWaitList(q, 1, &ke, &mark));
    OK(clWaitForEvents(1, &mark));
    clReleaseEvent(mark);
    clReleaseEvent(ke);
    clReleaseEvent(w);
    clReleaseEvent(user);
    clReleaseKernel(k);
    clReleaseMemObject(in);
    clReleaseMemObject(b);
    printf("events: user events, callbacks, profiling, markers (kernel: %llu ns)\n",
           (unsigned long long)(t[3] - t[2]));
}

/* ---- bad use ----------------------------------------------------------------------------- */

static void errors(void) {
    cl_int e;
    cl_kernel k = clCreateKernel(prog, "no_such_kernel", &e);
    CHECK(k == NULL, "a kernel for an unknown name");
    EXPECT(CL_INVALID_KERNEL_NAME, e);
    k = kernel("saxpy");
    cl_mem b = buffer(CL_MEM_READ_WRITE, 64, NULL);
    double d = 1.0;
    EXPECT(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 2, sizeof d, &d)); /* a float */
    EXPECT(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 0, 4, &b));        /* a buffer */
    EXPECT(CL_INVALID_ARG_INDEX, clSetKernelArg(k, 9, sizeof b, &b));
    EXPECT(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 2, sizeof(float), NULL));
    void *junk = (void *)&d;
    if (!through_icd) EXPECT(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 0, sizeof junk, &junk));
    size_t g = 64, l = 48;
    EXPECT(CL_INVALID_KERNEL_ARGS, clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    OK(clSetKernelArg(k, 0, sizeof b, &b));
    OK(clSetKernelArg(k, 1, sizeof b, &b));
    float a = 1;
    OK(clSetKernelArg(k, 2, sizeof a, &a));
    char pbytes[12] = {0};
    OK(clSetKernelArg(k, 3, sizeof pbytes, pbytes));
    EXPECT(CL_INVALID_WORK_GROUP_SIZE, clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    l = 2048;
    g = 2048;
    EXPECT(CL_INVALID_WORK_ITEM_SIZE, clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    EXPECT(CL_INVALID_WORK_DIMENSION, clEnqueueNDRangeKernel(q, k, 4, NULL, &g, NULL, 0, NULL, NULL));
    cl_kernel r = kernel("reduce");
    EXPECT(CL_INVALID_ARG_VALUE, clSetKernelArg(r, 2, 16, &b)); /* __local takes no value */
    EXPECT(CL_INVALID_ARG_SIZE, clSetKernelArg(r, 2, 0, NULL));
    char buf[128];
    EXPECT(CL_INVALID_VALUE, clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof buf, buf, 0, NULL, NULL));
    if (!through_icd) {
        EXPECT(CL_INVALID_MEM_OBJECT, clEnqueueReadBuffer(q, (cl_mem)junk, CL_TRUE, 0, 4, buf, 0, NULL, NULL));
        EXPECT(CL_INVALID_COMMAND_QUEUE, clFinish((cl_command_queue)junk));
    }
    EXPECT(CL_INVALID_VALUE, clGetDeviceInfo(dev, 0x7777, sizeof buf, buf, NULL));
    cl_mem nb = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 0, NULL, &e);
    CHECK(nb == NULL, "a buffer of 0 bytes");
    EXPECT(CL_INVALID_BUFFER_SIZE, e);
    nb = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 16, NULL, &e);
    EXPECT(CL_INVALID_HOST_PTR, e);
    cl_event none = NULL;
    if (!through_icd) EXPECT(CL_INVALID_EVENT_WAIT_LIST, clEnqueueMarkerWithWaitList(q, 1, &none, NULL));
    /* a build error, with its log */
    const char *bad = "__kernel void broken(__global int *p) { p[0] = undeclared_name; }";
    cl_program p = clCreateProgramWithSource(ctx, 1, &bad, NULL, &e);
    OK(e);
    EXPECT(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(p, 1, &dev, NULL, NULL, NULL));
    cl_build_status st;
    OK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL));
    CHECK(st == CL_BUILD_ERROR, "build status %d", st);
    char log[4096] = "";
    OK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    CHECK(strstr(log, "undeclared_name") != NULL && strstr(log, "error") != NULL, "build log: %s", log);
    k = clCreateKernel(p, "broken", &e);
    EXPECT(CL_INVALID_PROGRAM_EXECUTABLE, e);
    EXPECT(CL_INVALID_BUILD_OPTIONS, clBuildProgram(p, 1, &dev, "-fno-such-thing", NULL, NULL));
    unsigned char junkbin[16] = "not a program";
    size_t jl = sizeof junkbin;
    const unsigned char *jb = junkbin;
    cl_int bst;
    cl_program pb = clCreateProgramWithBinary(ctx, 1, &dev, &jl, &jb, &bst, &e);
    CHECK(pb == NULL, "a program from a bad binary");
    EXPECT(CL_INVALID_BINARY, e);
    clReleaseProgram(p);
    clReleaseKernel(r);
    clReleaseMemObject(b);
    printf("errors: the codes of bad use\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        printf("usage: suite KERNELS.cl [-O0] [--icd]\n");
        return 2;
    }
    int o0 = 0;
    for (int i = 2; i < argc; i++) {
        o0 |= strcmp(argv[i], "-O0") == 0;
        through_icd |= strcmp(argv[i], "--icd") == 0;
    }
    platform();
    build(argv[1], o0);
    saxpy();
    reduce(256);
    reduce(64);
    tile();
    vectors();
    atomics();
    printer();
    ids();
    integers();
    memory();
    events();
    errors();
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    printf(failures ? "FAILED: %d\n" : "PASSED\n", failures);
    return failures != 0;
}

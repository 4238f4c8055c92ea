/* An OpenCL host program for weft (docs/opencl.md): build it against Khronos' headers and
 * weft's libOpenCL.so, run it from this directory.
 *
 *   cc saxpy.c -o saxpy -L../../target/release -lOpenCL -Wl,-rpath,$PWD/../../target/release
 *   ./saxpy                      # WEFT_CORES, WEFT_WARPS, WEFT_THREADS, WEFT_TIMING shape it */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#define N 1024
#define GROUP 256

#define CHECK(e)                                                                               \
    do {                                                                                       \
        cl_int err_ = (e);                                                                     \
        if (err_ != CL_SUCCESS) {                                                              \
            printf("%s:%d: %s returned %d\n", __FILE__, __LINE__, #e, err_);                   \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

int main(void) {
    cl_platform_id platform;
    cl_device_id dev;
    cl_int err;
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &dev, NULL));
    char name[128];
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL));
    printf("device: %s\n", name);
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    CHECK(err);

    /* the program, from saxpy.cl */
    FILE *f = fopen("saxpy.cl", "rb");
    if (!f) {
        printf("run me where saxpy.cl is\n");
        return 1;
    }
    static char src[4096];
    src[fread(src, 1, sizeof src - 1, f)] = 0;
    fclose(f);
    const char *s = src;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
    CHECK(err);
    if (clBuildProgram(prog, 1, &dev, "-cl-std=CL1.2", NULL, NULL) != CL_SUCCESS) {
        char log[4096];
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        printf("build failed:\n%s\n", log);
        return 1;
    }

    static float x[N], y[N], sums[N / GROUP];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof x, x, &err);
    CHECK(err);
    cl_mem by = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof y, y, &err);
    CHECK(err);
    cl_mem bs = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof sums, NULL, &err);
    CHECK(err);

    cl_kernel saxpy = clCreateKernel(prog, "saxpy", &err);
    CHECK(err);
    float a = 2.0f;
    CHECK(clSetKernelArg(saxpy, 0, sizeof bx, &bx));
    CHECK(clSetKernelArg(saxpy, 1, sizeof by, &by));
    CHECK(clSetKernelArg(saxpy, 2, sizeof a, &a));
    size_t global = N, local = GROUP;
    CHECK(clEnqueueNDRangeKernel(q, saxpy, 1, NULL, &global, NULL, 0, NULL, NULL));

    cl_kernel sum = clCreateKernel(prog, "group_sums", &err);
    CHECK(err);
    CHECK(clSetKernelArg(sum, 0, sizeof by, &by));
    CHECK(clSetKernelArg(sum, 1, sizeof bs, &bs));
    CHECK(clSetKernelArg(sum, 2, GROUP * sizeof(float), NULL)); /* __local float tmp[GROUP] */
    cl_event ev;
    CHECK(clEnqueueNDRangeKernel(q, sum, 1, NULL, &global, &local, 0, NULL, &ev));
    CHECK(clEnqueueReadBuffer(q, bs, CL_TRUE, 0, sizeof sums, sums, 0, NULL, NULL));

    cl_ulong start, end;
    CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
    CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
    int bad = 0;
    for (int g = 0; g < N / GROUP; g++) {
        double want = 0;
        for (int i = g * GROUP; i < (g + 1) * GROUP; i++) want += 2.0 * i + 1.0;
        printf("group %d: %.1f (host: %.1f)\n", g, sums[g], want);
        bad += sums[g] != (float)want;
    }
    printf("group_sums ran %llu cycles\n", (unsigned long long)(end - start));
    printf(bad ? "FAILED\n" : "PASSED\n");
    clReleaseEvent(ev);
    clReleaseKernel(saxpy);
    clReleaseKernel(sum);
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    clReleaseMemObject(bs);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return bad != 0;
}

/* Kernels of weft's OpenCL test program (suite.c, which checks every result against a host
 * reference). They use what real OpenCL programs use: buffers, scalars and structs by value,
 * __local arguments and __local variables with barriers in work-groups larger than a weft
 * core, vector types and their built-ins, atomics, printf, 2-D and 3-D NDRanges with
 * offsets. */

#ifndef SCALE
#define SCALE 1
#endif

typedef struct {
    float a;
    int b;
    char c;
} params_t;

__kernel void saxpy(__global const float *x, __global float *y, float a, params_t p) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i] + p.a * (float)p.b + (float)p.c * SCALE;
}

/* A work-group sum in __local memory given as an argument: a barrier per halving step. */
__kernel void reduce(__global const int *in, __global int *out, __local int *tmp) {
    size_t l = get_local_id(0), n = get_local_size(0);
    tmp[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = n / 2; s > 0; s /= 2) {
        if (l < s) tmp[l] += tmp[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) out[get_group_id(0)] = tmp[0];
}

/* A 16 x 16 tile through a __local array declared in the kernel (transpose), then each
 * work-item adds its neighbours' values after a second barrier. */
#define T 16
__kernel void tile(__global const float *in, __global float *out, int width) {
    __local float t[T][T + 1];
    __local int count;
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t gx = get_global_id(0), gy = get_global_id(1);
    if (lx == 0 && ly == 0) count = 0;
    t[ly][lx] = in[gy * width + gx];
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&count);
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t ox = get_group_id(1) * T + lx, oy = get_group_id(0) * T + ly;
    float v = t[lx][ly] + t[(lx + 1) % T][ly] * 0.5f;
    out[oy * width + ox] = v + (float)count;
}

/* Vector types and their built-ins. */
__kernel void vectors(__global const float *in, __global float *outf, __global int *outi) {
    size_t i = get_global_id(0);
    float4 a = vload4(i, in);
    float4 b = (float4)(a.w, a.z, a.y, a.x) * 2.0f - 1.0f;
    float4 c = mad(a, b, (float4)(0.5f));
    float d = dot(a.xyz, b.xyz);
    float3 x = cross(a.xyz, b.xyz);
    float len = length(a);
    float4 n = normalize(a);
    float4 mx = fmax(a, b), mn = fmin(a, (float)0.25f);
    float4 cl = clamp(c, -1.0f, 2.0f);
    int4 conv = convert_int4_sat_rte(c * 100.0f);
    int4 sel = select((int4)(1, 2, 3, 4), (int4)(-1, -2, -3, -4), isgreater(a, b));
    uint4 mask = (uint4)(3, 2, 1, 0);
    float4 sh = shuffle(a, mask);
    float8 wide = (float8)(a, b);
    float16 big = (float16)(wide, wide * 3.0f);
    vstore4(c, i * 8 + 0, outf);
    vstore4(n, i * 8 + 1, outf);
    vstore4(mx + mn, i * 8 + 2, outf);
    vstore4(cl, i * 8 + 3, outf);
    vstore4(sh, i * 8 + 4, outf);
    vstore4((float4)(d, len, big.sf, wide.s5), i * 8 + 5, outf);
    vstore4((float4)(x, 0.0f), i * 8 + 6, outf);
    vstore4(sqrt(fabs(a)) + step(0.5f, b), i * 8 + 7, outf);
    vstore4(conv, i * 2, outi);
    vstore4(sel + (int)abs_diff(conv, (int4)(7)).x + rotate((int4)(1), (int4)(5)) + popcount(conv), i * 2 + 1, outi);
}

/* Atomics: a histogram in global memory, per-group counts in local memory, min and max. */
__kernel void atomics(__global const uint *in, __global uint *hist, __global int *stats,
                      __global uint *groups) {
    __local uint local_count;
    size_t l = get_local_id(0);
    if (l == 0) local_count = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint v = in[get_global_id(0)];
    atomic_add(&hist[v % 16], 1u);
    atomic_min(&stats[0], (int)v);
    atomic_max(&stats[1], (int)v);
    atomic_xor(&stats[2], (int)v);
    int old = atomic_cmpxchg(&stats[3], 0, 1); /* only the first one in sees 0 */
    if (old == 0) atomic_inc(&stats[4]);
    atom_add(&stats[5], 2);
    atomic_inc(&local_count);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) groups[get_group_id(0)] = local_count;
}

/* printf from work-items: integers, floats, strings, vectors, 64-bit longs. */
__kernel void printer(int base) {
    int g = (int)get_global_id(0);
    float4 v = (float4)(g, g + 0.5f, -g, 1.25f);
    long big = (long)g * 10000000000L;
    printf("item %d: %5.2f %s %v4f %ld %x\n", g + base, (float)g / 4.0f, g % 2 ? "odd" : "even", v, big, 255 + g);
}

/* A 3-D NDRange with offsets: each work-item writes its ids. */
__kernel void ids(__global uint *out) {
    size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    size_t w = get_global_size(0), h = get_global_size(1);
    size_t ox = get_global_offset(0), oy = get_global_offset(1), oz = get_global_offset(2);
    size_t i = ((z - oz) * h + (y - oy)) * w + (x - ox);
    out[i * 4 + 0] = (uint)(x + 1000 * y + 1000000 * z);
    out[i * 4 + 1] = (uint)(get_local_id(0) + 100 * get_local_id(1) + 10000 * get_local_id(2));
    out[i * 4 + 2] = (uint)(get_group_id(0) + 100 * get_group_id(1) + 10000 * get_group_id(2));
    out[i * 4 + 3] = (uint)(get_work_dim() + 10 * get_num_groups(0) + 1000 * get_local_size(1));
}

/* Integer built-ins on a few types. */
__kernel void integers(__global const int *in, __global int *out) {
    size_t i = get_global_id(0);
    int a = in[2 * i], b = in[2 * i + 1];
    char ca = (char)a, cb = (char)b;
    uint ua = (uint)a;
    out[8 * i + 0] = add_sat(a, b);
    out[8 * i + 1] = sub_sat(ca, cb);
    out[8 * i + 2] = mul_hi(a, b);
    out[8 * i + 3] = (int)clz(ua);
    out[8 * i + 4] = hadd(a, b);
    out[8 * i + 5] = mad_sat(ca, cb, (char)3);
    out[8 * i + 6] = (int)upsample((short)a, (ushort)b);
    out[8 * i + 7] = (int)(mul_hi((long)a << 20, (long)b << 20) >> 8);
}

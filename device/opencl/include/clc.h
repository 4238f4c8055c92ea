/* Internal header of weft's OpenCL device library (the .cl sources of device/opencl): what the
 * library's OpenCL C needs from weft's C runtime, and the macros that give each built-in its
 * vector forms. Not for kernels. */
#ifndef WEFT_CLC_H
#define WEFT_CLC_H

#define OVL __attribute__((overloadable))
#define CNFN __attribute__((overloadable, const))

/* weft's thread record (device/include/weft.h) and the runtime calls the library makes. */
typedef struct {
    uint x, y, z;
} weft_dim3;
typedef struct {
    weft_dim3 thread_idx, block_idx, block_dim, grid_dim;
    uint shared_base, shared_top, shared_end, slot, slot_warps, in_kernel, stack_lo;
} weft_thread;
weft_thread *weft_self(void);
__attribute__((convergent)) void weft_syncthreads(void);
uint __weft_cl_work_dim(void);
uint __weft_cl_offset(uint d);

#define FENCE() __asm__ volatile("fence" ::: "memory")

/* Types: the integer types, and the element types with vectors (sizes 2, 3, 4, 8, 16). */
#define FOR_INTS(M, ...)                                                                       \
    M(char, __VA_ARGS__)                                                                       \
    M(uchar, __VA_ARGS__)                                                                      \
    M(short, __VA_ARGS__)                                                                      \
    M(ushort, __VA_ARGS__)                                                                     \
    M(int, __VA_ARGS__)                                                                        \
    M(uint, __VA_ARGS__)                                                                       \
    M(long, __VA_ARGS__)                                                                       \
    M(ulong, __VA_ARGS__)
#define FOR_GENTYPES(M, ...) FOR_INTS(M, __VA_ARGS__) M(float, __VA_ARGS__)
#define FOR_VECS(M, T, ...)                                                                    \
    M(T##2, T, __VA_ARGS__)                                                                    \
    M(T##3, T, __VA_ARGS__)                                                                    \
    M(T##4, T, __VA_ARGS__)                                                                    \
    M(T##8, T, __VA_ARGS__)                                                                    \
    M(T##16, T, __VA_ARGS__)
#define FOR_SIZES(M, T, ...) M(T, T, __VA_ARGS__) FOR_VECS(M, T, __VA_ARGS__)

/* Vector forms of a unary function f of T giving RT, from its narrower forms. */
#define UNARY_VECS(RT, T, f)                                                                   \
    OVL RT##2 f(T##2 x) { return (RT##2)(f(x.s0), f(x.s1)); }                                  \
    OVL RT##3 f(T##3 x) { return (RT##3)(f(x.s01), f(x.s2)); }                                 \
    OVL RT##4 f(T##4 x) { return (RT##4)(f(x.lo), f(x.hi)); }                                  \
    OVL RT##8 f(T##8 x) { return (RT##8)(f(x.lo), f(x.hi)); }                                  \
    OVL RT##16 f(T##16 x) { return (RT##16)(f(x.lo), f(x.hi)); }

/* The same for f(T, U) giving T (U may be T, or a vector of another element type). */
#define BINARY_VECS(T, U, f)                                                                   \
    OVL T##2 f(T##2 x, U##2 y) { return (T##2)(f(x.s0, y.s0), f(x.s1, y.s1)); }                \
    OVL T##3 f(T##3 x, U##3 y) { return (T##3)(f(x.s01, y.s01), f(x.s2, y.s2)); }              \
    OVL T##4 f(T##4 x, U##4 y) { return (T##4)(f(x.lo, y.lo), f(x.hi, y.hi)); }                \
    OVL T##8 f(T##8 x, U##8 y) { return (T##8)(f(x.lo, y.lo), f(x.hi, y.hi)); }                \
    OVL T##16 f(T##16 x, U##16 y) { return (T##16)(f(x.lo, y.lo), f(x.hi, y.hi)); }

/* f(T, T, T) giving T. */
#define TERNARY_VECS(T, f)                                                                     \
    OVL T##2 f(T##2 x, T##2 y, T##2 z) {                                                       \
        return (T##2)(f(x.s0, y.s0, z.s0), f(x.s1, y.s1, z.s1));                               \
    }                                                                                          \
    OVL T##3 f(T##3 x, T##3 y, T##3 z) {                                                       \
        return (T##3)(f(x.s01, y.s01, z.s01), f(x.s2, y.s2, z.s2));                            \
    }                                                                                          \
    OVL T##4 f(T##4 x, T##4 y, T##4 z) { return (T##4)(f(x.lo, y.lo, z.lo), f(x.hi, y.hi, z.hi)); } \
    OVL T##8 f(T##8 x, T##8 y, T##8 z) { return (T##8)(f(x.lo, y.lo, z.lo), f(x.hi, y.hi, z.hi)); } \
    OVL T##16 f(T##16 x, T##16 y, T##16 z) {                                                   \
        return (T##16)(f(x.lo, y.lo, z.lo), f(x.hi, y.hi, z.hi));                              \
    }
#endif

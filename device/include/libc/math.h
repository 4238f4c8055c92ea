/* math.h for weft kernels: the single-precision functions the F extension computes in one
 * instruction, and a few exact ones built from them.
 *
 * Every function here is an ordinary external function of the device runtime
 * (device/lib/math.c), so a call, a function pointer or a redeclaration always finds one.
 * Those with an instruction also have an inline definition (GNU `extern inline`: used for
 * inlining only, never emitted), so a call compiles to the instruction itself at every -O, in
 * C and C++. weft cc compiles without errno (-fno-math-errno: kernels have none), and should
 * a compiler still want the library for one (an errno build), the call goes to the runtime's
 * function, never back into this header. */
#ifndef WEFT_MATH_H
#define WEFT_MATH_H
#ifdef __cplusplus
extern "C" {
#endif
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
#define HUGE_VALF (__builtin_huge_valf())
#define isnan(x) __builtin_isnan(x)
#define isinf(x) __builtin_isinf(x)
#define isfinite(x) __builtin_isfinite(x)
#define signbit(x) __builtin_signbit(x)

/* One instruction each (fsqrt.s, fsgnjx.s, fmin.s, fmax.s, fmadd.s, fsgnj.s). */
float sqrtf(float x);
float fabsf(float x);
float fminf(float a, float b);
float fmaxf(float a, float b);
float fmaf(float a, float b, float c);
float copysignf(float a, float b);
/* Exact roundings to an integer value, in the runtime. */
float floorf(float x);
float ceilf(float x);
float truncf(float x);
float roundf(float x);
double fabs(double x);

/* The runtime's math.c defines the functions themselves and leaves these out. */
#ifndef WEFT_MATH_LIBRARY
#define WEFT_MATH_INLINE extern __inline__ __attribute__((__gnu_inline__, __always_inline__))
WEFT_MATH_INLINE float sqrtf(float x) { return __builtin_sqrtf(x); }
WEFT_MATH_INLINE float fabsf(float x) { return __builtin_fabsf(x); }
WEFT_MATH_INLINE float fminf(float a, float b) { return __builtin_fminf(a, b); }
WEFT_MATH_INLINE float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
WEFT_MATH_INLINE float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
WEFT_MATH_INLINE float copysignf(float a, float b) { return __builtin_copysignf(a, b); }
#undef WEFT_MATH_INLINE
#endif
#ifdef __cplusplus
}
#endif
#endif

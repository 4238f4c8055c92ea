/* math.h for weft kernels: the single-precision functions the F extension computes in one
 * instruction, and a few exact ones built from them. */
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
static inline float sqrtf(float x) { return __builtin_sqrtf(x); }
static inline float fabsf(float x) { return __builtin_fabsf(x); }
static inline float fminf(float a, float b) { return __builtin_fminf(a, b); }
static inline float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
static inline float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
static inline float copysignf(float a, float b) { return __builtin_copysignf(a, b); }
float floorf(float x);
float ceilf(float x);
float truncf(float x);
float roundf(float x);
double fabs(double x);
#ifdef __cplusplus
}
#endif
#endif

/* The functions of weft's math.h (device/include/libc/math.h) as ordinary functions: what a
 * call finds when it is not inlined (a function pointer, a redeclaration, a build with errno),
 * and the exact roundings the F extension has no instruction for. Compiled, as every device
 * unit is, without errno: each __builtin below is its one instruction, never a call back here. */
#define WEFT_MATH_LIBRARY
#include <math.h>
#include <stdint.h>

float sqrtf(float x) { return __builtin_sqrtf(x); }
float fabsf(float x) { return __builtin_fabsf(x); }
float fminf(float a, float b) { return __builtin_fminf(a, b); }
float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
float copysignf(float a, float b) { return __builtin_copysignf(a, b); }

/* Rounding to an integer in float: exact for |x| < 2^23, x itself beyond. */
static float to_int(float x, int mode) {
    union {
        float f;
        uint32_t u;
    } v = {x};
    uint32_t e = (v.u >> 23) & 0xFF;
    if (e >= 150) return x; /* already an integer, inf or nan */
    float t = (float)(int32_t)x; /* toward zero */
    if (mode == 1 && t > x) t -= 1.0f;
    if (mode == 2 && t < x) t += 1.0f;
    if (mode == 3) {
        float r = x - t;
        if (r >= 0.5f) t += 1.0f;
        if (r <= -0.5f) t -= 1.0f;
    }
    return __builtin_copysignf(t, x);
}
float truncf(float x) { return to_int(x, 0); }
float floorf(float x) { return to_int(x, 1); }
float ceilf(float x) { return to_int(x, 2); }
float roundf(float x) { return to_int(x, 3); }

double fabs(double x) {
    union {
        double d;
        uint64_t u;
    } v = {x};
    v.u &= 0x7fffffffffffffffull;
    return v.d;
}

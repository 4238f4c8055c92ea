/* The few C library routines compiled kernels call without asking: memcpy, memmove and
   memset (struct copies, array initialisers), fabsf and fabs (csmith's safe-math wrappers). */
#include <stddef.h>

void *memcpy(void *d, const void *s, size_t n) {
    unsigned char *dp = d;
    const unsigned char *sp = s;
    while (n--) *dp++ = *sp++;
    return d;
}

void *memmove(void *d, const void *s, size_t n) {
    unsigned char *dp = d;
    const unsigned char *sp = s;
    if (dp < sp) {
        while (n--) *dp++ = *sp++;
    } else {
        while (n--) dp[n] = sp[n];
    }
    return d;
}

void *memset(void *d, int c, size_t n) {
    unsigned char *dp = d;
    while (n--) *dp++ = (unsigned char)c;
    return d;
}

/* fabsf and fabs: csmith's safe-math wrappers call them; gcc -O0 does not inline them. */
float fabsf(float x) {
    union { float f; unsigned int u; } v = {x};
    v.u &= 0x7fffffffu;
    return v.f;
}

double fabs(double x) {
    union { double d; unsigned long long u; } v = {x};
    v.u &= 0x7fffffffffffffffull;
    return v.d;
}

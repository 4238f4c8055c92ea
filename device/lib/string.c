/* The C library routines compilers call without asking (memcpy, memmove, memset, memcmp) and
 * a few string helpers for weft kernels (the math functions are in math.c). */
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *d, const void *s, size_t n) {
    unsigned char *dp = d;
    const unsigned char *sp = s;
    if ((((uintptr_t)dp | (uintptr_t)sp) & 3) == 0) {
        for (; n >= 4; n -= 4, dp += 4, sp += 4) *(uint32_t *)dp = *(const uint32_t *)sp;
    }
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

int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

size_t strlen(const char *s) {
    size_t n = 0;
    while (s[n]) n++;
    return n;
}

int strcmp(const char *a, const char *b) {
    while (*a && *a == *b) a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n) {
    for (; n > 0; n--, a++, b++) {
        if (*a != *b || !*a) return (unsigned char)*a - (unsigned char)*b;
    }
    return 0;
}

char *strcpy(char *d, const char *s) {
    char *r = d;
    while ((*d++ = *s++)) {
    }
    return r;
}

/* 64-bit division, which rv32 lowers to library calls. The runtime provides its own rather than
 * libgcc's so that, built through weft cc, they have one return and converges (libgcc's are
 * precompiled with several returns, which converge-only reconvergence cannot close). Division
 * by zero gives what the RISC-V instructions give: all ones, and the dividend as remainder. */
static uint64_t udivmod64(uint64_t n, uint64_t d, uint64_t *rem) {
    uint64_t q = 0;
    if ((n >> 32) == 0 && (d >> 32) == 0 && d != 0) {
        q = (uint32_t)n / (uint32_t)d;
        *rem = (uint32_t)n % (uint32_t)d;
    } else if (d == 0) {
        q = ~(uint64_t)0;
        *rem = n;
    } else {
        int s = __builtin_clzll(d) - (n == 0 ? 64 : __builtin_clzll(n));
        if (s >= 0) {
            d <<= s;
            for (int i = 0; i <= s; i++) {
                q <<= 1;
                if (n >= d) {
                    n -= d;
                    q |= 1;
                }
                d >>= 1;
            }
        }
        *rem = n;
    }
    return q;
}

uint64_t __udivdi3(uint64_t n, uint64_t d) {
    uint64_t r;
    return udivmod64(n, d, &r);
}

uint64_t __umoddi3(uint64_t n, uint64_t d) {
    uint64_t r;
    udivmod64(n, d, &r);
    return r;
}

int64_t __divdi3(int64_t n, int64_t d) {
    uint64_t r;
    uint64_t q = udivmod64(n < 0 ? 0 - (uint64_t)n : (uint64_t)n,
                           d < 0 ? 0 - (uint64_t)d : (uint64_t)d, &r);
    if (d == 0) return -1;
    return (n < 0) != (d < 0) ? (int64_t)(0 - q) : (int64_t)q;
}

int64_t __moddi3(int64_t n, int64_t d) {
    uint64_t r;
    udivmod64(n < 0 ? 0 - (uint64_t)n : (uint64_t)n, d < 0 ? 0 - (uint64_t)d : (uint64_t)d, &r);
    return n < 0 ? (int64_t)(0 - r) : (int64_t)r;
}

/* String routines on per-lane text: length, reverse, a tiny atoi with sign, palindromes. */
#include <stdint.h>

static uint32_t __attribute__((noinline)) slen(const char *s) { uint32_t n = 0; while (s[n]) n++; return n; }

static int32_t __attribute__((noinline)) my_atoi(const char *s) {
    int32_t sign = 1, v = 0;
    while (*s == ' ') s++;
    if (*s == '-') { sign = -1; s++; } else if (*s == '+') s++;
    while (*s >= '0' && *s <= '9') { v = v * 10 + (*s - '0'); s++; }
    return sign * v;
}

static uint32_t __attribute__((noinline)) palindrome(const char *s, uint32_t n) {
    for (uint32_t i = 0; i < n / 2; i++) if (s[i] != s[n - 1 - i]) return 0;
    return 1;
}

uint32_t kernel(uint32_t tid) {
    char buf[16];
    uint32_t n = 0, v = tid * 37 + 5;
    if (tid % 3 == 0) buf[n++] = ' ';
    if (tid & 1) buf[n++] = '-';
    do { buf[n++] = (char)('0' + v % 10); v /= 10; } while (v && n < 14);
    buf[n] = 0;
    return slen(buf) * 1000000u + (uint32_t)my_atoi(buf) * 3u + palindrome(buf, slen(buf));
}

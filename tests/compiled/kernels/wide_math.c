/* 64-bit arithmetic (libgcc's division and multiplication) under divergent control. */
#include <stdint.h>

static uint64_t __attribute__((noinline)) mix(uint32_t t) {
    uint64_t x = (uint64_t)t * 0x9E3779B97F4A7C15ull + 1;
    if (t & 1) x /= (t + 3);
    else x %= 1000003ull + t;
    for (uint32_t i = 0; i < t % 5; i++) x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x;
}

static int64_t __attribute__((noinline)) sdiv(int32_t t) {
    int64_t v = (int64_t)(t - 16) * 1234567891ll;
    return t % 3 ? v / (t - 40) : v % 97;
}

uint32_t kernel(uint32_t tid) {
    uint64_t a = mix(tid);
    int64_t b = sdiv((int32_t)tid);
    return (uint32_t)a ^ (uint32_t)(a >> 32) ^ (uint32_t)b ^ (uint32_t)((uint64_t)b >> 29);
}

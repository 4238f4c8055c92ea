/* Functions with several early returns, called one after another. */
#include <stdint.h>

static uint32_t __attribute__((noinline)) classify(uint32_t x) {
    if (x == 0) return 7;
    if (x & 1) return x * 3;
    if (x % 6 == 4) return 1000 + x;
    for (uint32_t i = 0; i < x; i++) {
        if ((x ^ i) == 5) return i + 100;
    }
    return x + 1;
}

static uint32_t __attribute__((noinline)) count_calls(uint32_t *n) { return ++*n; }

uint32_t kernel(uint32_t tid) {
    uint32_t calls = 0;
    uint32_t a = classify(tid);
    uint32_t b = count_calls(&calls);
    uint32_t c = classify(tid + 3);
    uint32_t d = count_calls(&calls);
    return a * 7 + b * 100 + c * 11 + d * 1000;
}

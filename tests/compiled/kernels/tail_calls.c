/* Tail calls (return g(x) at -O2) into functions that diverge again, and mutual recursion. */
#include <stdint.h>

static uint32_t __attribute__((noinline)) leaf(uint32_t y) {
    if (y & 2) return y * 5;
    if (y > 20) return y - 20;
    return 300 + y;
}

static uint32_t __attribute__((noinline)) mid(uint32_t x) {
    if (x == 0) return 100;
    if (x % 3 == 1) return leaf(x - 1);
    return leaf(x + 7);
}

static uint32_t odd(uint32_t n);
static uint32_t __attribute__((noinline)) even(uint32_t n) { return n == 0 ? 1 : odd(n - 1); }
static uint32_t __attribute__((noinline)) odd(uint32_t n) { return n == 0 ? 0 : even(n - 1); }

uint32_t kernel(uint32_t tid) {
    return mid(tid) + 10 * mid(tid * 5 + 1) + 1000 * even(tid % 13);
}

/* Recursion whose depth differs per lane. */
#include <stdint.h>

static uint32_t __attribute__((noinline)) fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static uint32_t __attribute__((noinline)) ack(uint32_t m, uint32_t n) {
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

static uint32_t __attribute__((noinline)) gcd(uint32_t a, uint32_t b) { return b == 0 ? a : gcd(b, a % b); }

static uint32_t __attribute__((noinline)) sum_digits(uint32_t x) { return x < 10 ? x : x % 10 + sum_digits(x / 10); }

uint32_t kernel(uint32_t tid) {
    return fib(tid % 14) + ack(2, tid % 5) * 3 + gcd(tid * 91 + 7, 1071) * 5 + sum_digits(tid * 7919u);
}

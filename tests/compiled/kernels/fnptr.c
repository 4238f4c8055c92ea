/* Per-lane function pointers: a table of functions, callbacks, an indirect tail call. */
#include <stdint.h>

typedef uint32_t (*op_fn)(uint32_t, uint32_t);
static uint32_t add(uint32_t a, uint32_t b) { return a + b; }
static uint32_t sub(uint32_t a, uint32_t b) { return a - b; }
static uint32_t __attribute__((noinline)) mulmax(uint32_t a, uint32_t b) { return a > b ? a * b : b; }
static uint32_t __attribute__((noinline)) twice(uint32_t a, uint32_t b) { return 2 * a + (b & 1); }

static uint32_t __attribute__((noinline)) apply(op_fn f, uint32_t a, uint32_t b) { return f(a, b); }

static uint32_t __attribute__((noinline)) fold(const op_fn *fs, uint32_t n, uint32_t seed) {
    uint32_t acc = seed;
    for (uint32_t i = 0; i < n; i++) acc = fs[(acc + i) % 4](acc, i);
    return acc;
}

uint32_t kernel(uint32_t tid) {
    static const op_fn ops[4] = {add, sub, mulmax, twice};
    return apply(ops[tid % 4], tid * 7, 20) + fold(ops, tid % 9, tid) * 3;
}

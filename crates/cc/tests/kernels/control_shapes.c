/* Control-flow shapes compilers emit, every one taken per lane: recursion with per-lane depth,
 * per-lane and uniform function pointers, a switch on a per-lane value (a jump table), early
 * returns, loops of every layout, a tail call, and printf from each thread. The test compares
 * the device's output with the same source built for the host. */
#include <stdint.h>
#include <stdio.h>
#include <weft.h>

typedef uint32_t (*op_fn)(uint32_t);
static uint32_t op_a(uint32_t x) { return x * 3 + 1; }
static uint32_t op_b(uint32_t x) { return x ^ (x >> 3); }
static uint32_t op_c(uint32_t x) { return x % 7 == 0 ? x / 7 : x + 11; }
static uint32_t op_d(uint32_t x) {
    uint32_t s = 0;
    while (x) { s += x & 1; x >>= 1; }
    return s;
}
static op_fn const ops[4] = {op_a, op_b, op_c, op_d};

static uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static uint32_t ackermann_small(uint32_t m, uint32_t n) {
    if (m == 0) return n + 1;
    if (n == 0) return ackermann_small(m - 1, 1);
    return ackermann_small(m - 1, ackermann_small(m, n - 1));
}

static uint32_t classify(uint32_t t) {
    switch (t % 11) {
    case 0: return 100;
    case 1: return t * 2;
    case 2: return fib(t % 9);
    case 3: return t - 1;
    case 4: return t << 2;
    case 5: return 7;
    case 6: return t * t;
    case 7: return ~t & 0xFF;
    case 8: return t / 3;
    case 9: return t + 1000;
    default: return 0;
    }
}

static uint32_t find_first(const uint32_t *v, uint32_t n, uint32_t key) {
    for (uint32_t i = 0; i < n; i++)
        if (v[i] == key) return i; /* early exit from a loop */
    return 0xFFFFFFFFu;
}

static uint32_t do_while_sum(uint32_t t) {
    uint32_t s = 0, i = t % 5;
    do {
        s += i * 3;
        i++;
    } while (i < 6); /* bottom-tested */
    return s;
}

static uint32_t nested_break(uint32_t t) {
    uint32_t s = 0;
    for (uint32_t i = 0; i < 6; i++) {
        for (uint32_t j = 0; j < 6; j++) {
            if ((i * 6 + j) % (t % 13 + 2) == 0) continue;
            if (i + j > t % 9) break;
            s += i ^ j;
        }
        if (s > 40 + t % 20) break;
    }
    return s;
}

__attribute__((noinline)) static uint32_t tail(uint32_t x, uint32_t y) { return x * 31 + y; }
__attribute__((noinline)) static uint32_t calls_tail(uint32_t t) {
    if (t & 1) return tail(t, 1);
    return tail(t + 7, 2);
}

struct args { const uint32_t *table; uint32_t n; op_fn uniform; };

static void kernel(void *p) {
    const struct args *a = p;
    uint32_t t = weft_global_thread();
    if (t >= a->n) return;
    uint32_t r = ops[t % 4](t);              /* per-lane function pointer */
    r += a->uniform(t);                      /* uniform function pointer */
    r += classify(t);
    r += fib(t % 12);                        /* recursion, per-lane depth */
    r += ackermann_small(t % 3, t % 4);
    r += find_first(a->table, 64, t % 80);
    r += do_while_sum(t) + nested_break(t) + calls_tail(t);
    if (t % 3 == 0) {
        printf("t%u r=%u\n", t, r);
        return;
    }
    printf("t%u r=%u fib=%u cls=%u\n", t, r, fib(t % 10), classify(t));
}

static uint32_t table[64];

int main(void) {
    for (uint32_t i = 0; i < 64; i++) table[i] = (i * 37) % 80;
    struct args a = {table, 101, op_b};
    weft_launch(weft_dim3(3, 1, 1), weft_dim3(40, 1, 1), kernel, &a);
    printf("done\n");
    return 0;
}

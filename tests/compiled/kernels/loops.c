/* Loops of every layout: for, while, do-while, break, continue, nested breaks, goto exits. */
#include <stdint.h>

static uint32_t __attribute__((noinline)) nested(uint32_t t) {
    uint32_t s = 0;
    for (uint32_t i = 0; i < 6; i++) {
        for (uint32_t j = 0; j < 6; j++) {
            if (j == t % 5) break;
            if (((i + j + t) & 3) == 0) continue;
            s += i * j + 1;
            if (s > 40 + t) goto out;
        }
        if (i == t % 4 + 2) break;
    }
    s += 1000;
out:
    do {
        s = s * 3 + 1;
    } while ((s & 7) != (t & 7) && s < 100000);
    return s;
}

static uint32_t __attribute__((noinline)) collatz(uint32_t c) {
    uint32_t steps = 0;
    while (c != 1) {
        c = (c & 1) ? 3 * c + 1 : c / 2;
        steps++;
    }
    return steps;
}

static uint32_t __attribute__((noinline)) while_break(uint32_t t) {
    uint32_t x = t * 17 + 3, n = 0;
    while (1) {
        x = x * 1103515245u + 12345u;
        n++;
        if ((x >> 16) % 7 == t % 7) break;
        if (n > 50) return 9999;
    }
    return n;
}

uint32_t kernel(uint32_t tid) { return nested(tid) + collatz(tid + 1) * 100 + while_break(tid) * 10000; }

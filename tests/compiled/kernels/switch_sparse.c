/* Sparse switches (compare chains or binary search) and a switch inside a loop. */
#include <stdint.h>

static uint32_t __attribute__((noinline)) sparse(uint32_t x) {
    switch (x) {
    case 1: return 10;
    case 7: return 70;
    case 100: return 1000;
    case 1000: return 5;
    case 4096: return 4;
    default: return x & 0xff;
    }
}

uint32_t kernel(uint32_t tid) {
    static const uint32_t keys[8] = {1, 7, 100, 1000, 4096, 3, 9, 12};
    uint32_t s = 0;
    for (uint32_t i = 0; i <= tid % 8; i++) {
        switch ((tid + i) % 4) {
        case 0: s += sparse(keys[(tid + i) % 8]); break;
        case 1: s ^= i << 3; break;
        case 2: continue;
        default: s += 1;
        }
        s *= 3;
    }
    return s;
}

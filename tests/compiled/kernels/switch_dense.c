/* A per-lane switch dense enough for a jump table, with fall-through cases. */
#include <stdint.h>

static uint32_t __attribute__((noinline)) sw(uint32_t x) {
    uint32_t r = 0;
    switch (x % 11) {
    case 0: r = 11; break;
    case 1: r = 22; break;
    case 2: x += 3; /* fall through */
    case 3: r = x * 2; break;
    case 4: r = 44; break;
    case 5: return 55;
    case 6: r = x - 1; break;
    case 7: r = 77; /* fall through */
    case 8: r += 8; break;
    case 9: r = x ^ 0x99; break;
    default: r = 1010;
    }
    return r + 1;
}

uint32_t kernel(uint32_t tid) { return sw(tid) + sw(tid * 7 + 2) * 10000; }

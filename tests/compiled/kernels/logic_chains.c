/* Short-circuit && / || chains and ternaries. */
#include <stdint.h>

static uint32_t __attribute__((noinline)) f(uint32_t t) {
    uint32_t r = 0;
    if (t != 0 && t != 3 && (t & 1) == 0) r += 100;
    if (t < 2 || t > 29 || t % 7 == 3) r += 10;
    if ((t & 4) && ((t & 8) || (t & 16)) && !(t & 2)) r += 1;
    r += (t % 3 == 0) ? ((t % 5 == 0) ? 7000 : 3000) : ((t % 5 == 0) ? 5000 : 0);
    return r;
}

uint32_t kernel(uint32_t tid) { return f(tid) + f(tid ^ 21) * 2; }

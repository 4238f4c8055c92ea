/* A sieve of Eratosthenes up to a per-lane bound, and a prime-counting loop with breaks. */
#include <stdint.h>

uint32_t kernel(uint32_t tid) {
    unsigned char comp[200];
    uint32_t n = 50 + tid * 4, count = 0, last = 0;
    for (uint32_t i = 0; i < n; i++) comp[i] = 0;
    for (uint32_t i = 2; i * i < n; i++)
        if (!comp[i])
            for (uint32_t j = i * i; j < n; j += i) comp[j] = 1;
    for (uint32_t i = 2; i < n; i++) {
        if (comp[i]) continue;
        count++;
        last = i;
        if (count == 10 + tid % 7) break;
    }
    return count * 1000 + last;
}

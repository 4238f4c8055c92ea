/* The per-thread work of the divergence stress kernel (diverge.c), as plain C: per-lane Collatz
 * trip counts, eight nested branches each with work after its inner branch, a loop whose lanes
 * leave one by one, early returns and a per-lane switch. Shared with the real-compiler
 * campaign's corpus (tests/compiled/kernels/library_diverge.c), which checks it against the
 * host at every -O level with clang and gcc. */
#ifndef DIVERGE_WORK_H
#define DIVERGE_WORK_H
#include <stdint.h>

static uint32_t collatz(uint32_t x) {
    uint32_t n = 0;
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        n++;
    }
    return n;
}

/* Eight nested data-dependent branches, each level with work after its inner branch (a call
 * the compiler cannot hoist), so every level has its own reconvergence point. At level k the
 * lanes whose key (a permutation of the 32 lane positions) is at least k go deeper and one
 * lane stays behind, so a 32-lane warp splits at all eight levels and the divergence stack
 * grows one entry per level. */
__attribute__((noinline)) static uint32_t mix(uint32_t v, uint32_t k) {
    return v * 2654435761u + k;
}

static uint32_t nested(uint32_t t) {
    uint32_t key = (t * 13) & 31, v = t;
    if (key >= 1) {
        v = mix(v, 1);
        if (key >= 2) {
            v = mix(v, 2);
            if (key >= 3) {
                v = mix(v, 3);
                if (key >= 4) {
                    v = mix(v, 4);
                    if (key >= 5) {
                        v = mix(v, 5);
                        if (key >= 6) {
                            v = mix(v, 6);
                            if (key >= 7) {
                                v = mix(v, 7);
                                if (key >= 8) {
                                    v = mix(v, 8);
                                    v = mix(v, 18);
                                }
                                v = mix(v, 17);
                            }
                            v = mix(v, 16);
                        }
                        v = mix(v, 15);
                    }
                    v = mix(v, 14);
                }
                v = mix(v, 13);
            }
            v = mix(v, 12);
        }
        v = mix(v, 11);
    }
    return v;
}

/* Lanes leave the loop one by one (the trip count is the thread id modulo 37). */
static uint32_t gradual(uint32_t t) {
    uint32_t s = 0;
    for (uint32_t i = 0; i < t % 37; i++) s = s * 31 + i;
    return s;
}

static uint32_t early(uint32_t t) {
    if (t % 5 == 0) return 1000;
    uint32_t s = 0;
    for (uint32_t i = 0; i < t % 7; i++) {
        if (i == 4) return s + 2000;
        s += i * t;
    }
    return s;
}

static uint32_t choose(uint32_t t) {
    switch (t % 9) {
    case 0: return t * 3;
    case 1: return t ^ 0xabcd;
    case 2: return t + 77;
    case 3: return collatz(t + 3);
    case 4: return t << 3;
    case 5: return ~t;
    case 6: return t / 3;
    case 7: return t * t;
    default: return 42;
    }
}

static uint32_t work(uint32_t t) {
    return collatz(t + 1) * 1000003u + nested(t) * 7919u + gradual(t) +
           early(t) * 31u + choose(t);
}

#endif

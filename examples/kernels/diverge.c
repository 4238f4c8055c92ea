/* diverge: a divergence stress kernel. Every thread computes a value through per-lane Collatz
 * trip counts, branches nested 8 deep, a loop whose lanes leave one by one, an early return
 * and a per-lane switch (a jump table); main() recomputes each with the same functions called
 * sequentially and compares. Run it with --stats to see the SIMD efficiency fall and the
 * divergence stack grow with the nesting. */
#include "common.h"

#define N (512 * SCALE)
static uint32_t out[N];

#include "diverge_work.h"

static void stress(void *p) {
    uint32_t *o = p;
    uint32_t t = weft_global_thread();
    if (t >= N) return;
    o[t] = work(t);
    if (t % 64 == 17) printf("thread %u: collatz %u nested %u\n", t, collatz(t + 1), nested(t));
}

int main(void) {
    weft_launch(weft_dim3(N / 32, 1, 1), weft_dim3(32, 1, 1), stress, out);
    uint32_t bad = 0, first = 0;
    for (uint32_t t = 0; t < N; t++)
        if (out[t] != work(t) && bad++ == 0) first = t;
    printf("checksum %08x\n", checksum_u32(out, N));
    return report("diverge", bad, first);
}

/* Divergent recursion 40 levels deep on 32 lanes: lane i recurses 40 - i levels, so at every
 * level from 9 down one lane returns while the others go one call deeper, and each of those
 * levels keeps a divergence-stack entry open (the returned lane waits, parked, for the rest)
 * until the deepest lane comes back: about 31 entries, past the 16 on chip. */
#include <stdint.h>
#include <stdio.h>
#include <weft.h>

#define LANES 32
#define DEPTH 40

static uint32_t walk(uint32_t x, uint32_t d) {
    if (d == 0) return x;
    uint32_t y = walk(x * 3u + d, d - 1);
    if (y & 4) y ^= y >> 7; /* a divergent branch on the way back up, too */
    return y * 2654435761u + d;
}

struct args { uint32_t *out; };
static void k(void *p) {
    struct args *g = p;
    uint32_t i = threadIdx.x;
    g->out[i] = walk(i * 7919u + 17u, DEPTH - i);
}

static uint32_t out[LANES];
int main(void) {
    struct args a = {out};
    weft_launch(weft_dim3(1, 1, 1), weft_dim3(LANES, 1, 1), k, &a);
    for (int i = 0; i < LANES; i++) printf("%u %08x\n", i, (unsigned)out[i]);
    return 0;
}

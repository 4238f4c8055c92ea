/* CUDA's warp-level functions on converged and diverged warps, one line of results per thread.
 * crates/cc/tests/warp.rs computes the same lines from CUDA's definitions (PTX's shfl.sync,
 * the vote and redux rules) for the machine's warpSize and compares. */
#include <stdio.h>
#include <weft.h>

#define FULL 0xffffffffu

static volatile int icount, imin = 1000, imax = -1000;
static volatile unsigned ucount, uand = 0xffffffffu, uor, uxor, winc, wdec = 5, cas_word;
static volatile unsigned cas_wins, sum_old;
static volatile float fsum;
static unsigned own[256];

/* v * 0.25 for v = -5 .. 17, as constants: the kernel does no double arithmetic (libgcc's
 * soft-double routines have branches that `--reconv converge` builds cannot close). */
#define Q(k) ((k) * 0.25)
static const double quarter[23] = {Q(-5), Q(-4), Q(-3), Q(-2), Q(-1), Q(0),  Q(1),  Q(2),
                                   Q(3),  Q(4),  Q(5),  Q(6),  Q(7),  Q(8),  Q(9),  Q(10),
                                   Q(11), Q(12), Q(13), Q(14), Q(15), Q(16), Q(17)};

static unsigned bits_of_float(float f) {
    union { float f; unsigned u; } x;
    x.f = f;
    return x.u;
}
static unsigned long long bits_of_double(double d) {
    union { double d; unsigned long long u; } x;
    x.d = d;
    return x.u;
}

static void warp_calls(void *arg) {
    (void)arg;
    unsigned t = weft_block_thread(), lane = t % warpSize;
    int v = (int)(t * 7 + 3) % 23 - 5;
    unsigned u = t * 2654435761u >> 7;
    int pred = (t * 5 + 1) % 3 == 0;
    unsigned am = __activemask();
    int s0 = __shfl_sync(FULL, v, 3);
    int s1 = __shfl_sync(FULL, v, lane + 1);
    int s2 = __shfl_sync(FULL, v, 2, 4);
    int up1 = __shfl_up_sync(FULL, v, 1);
    int up3 = __shfl_up_sync(FULL, v, 3, 4);
    int dn2 = __shfl_down_sync(FULL, v, 2);
    int dn1 = __shfl_down_sync(FULL, v, 1, 4);
    int x1 = __shfl_xor_sync(FULL, v, 1);
    int x5 = __shfl_xor_sync(FULL, v, 5);
    int x4 = __shfl_xor_sync(FULL, v, 4, 4);
    unsigned xu = __shfl_xor_sync(FULL, u, 2);
    float f = __shfl_xor_sync(FULL, (float)v * 0.5f, 2);
    long long ll = __shfl_down_sync(FULL, (long long)v << 33 | t, 1);
    double d = __shfl_sync(FULL, quarter[v + 5], 0);
    unsigned bal = __ballot_sync(FULL, pred);
    int all_t = __all_sync(FULL, v > -100), all_p = __all_sync(FULL, pred);
    int any_p = __any_sync(FULL, pred), any_0 = __any_sync(FULL, 0);
    int uni_p = __uni_sync(FULL, pred), uni_1 = __uni_sync(FULL, 1);
    unsigned radd = __reduce_add_sync(FULL, u);
    int rmin = __reduce_min_sync(FULL, v), rmax = __reduce_max_sync(FULL, v);
    unsigned rminu = __reduce_min_sync(FULL, u), rmaxu = __reduce_max_sync(FULL, u);
    unsigned rand_ = __reduce_and_sync(FULL, u | 0x80000001u), ror = __reduce_or_sync(FULL, u);
    unsigned rxor = __reduce_xor_sync(FULL, u);
    __syncwarp();
    /* tiles of four lanes, each lane naming its own tile */
    unsigned tile = (0xfu << (lane & ~3u)) & (warpSize >= 32 ? FULL : (1u << warpSize) - 1);
    unsigned tbal = __ballot_sync(tile, pred);
    unsigned tadd = __reduce_add_sync(tile, u);
    int tmin = __reduce_min_sync(tile, v);
    __syncwarp(tile);
    /* a diverged warp: each side names its own lanes */
    unsigned dm, dr, db = 0;
    int ds = 0;
    if (lane < (unsigned)warpSize / 2) {
        dm = __activemask();
        dr = __reduce_add_sync(dm, u);
        db = __ballot_sync(dm, pred);
        ds = __shfl_sync(dm, v, 0);
    } else {
        dm = __activemask();
        dr = __reduce_max_sync(dm, u);
    }
    printf("t%u am %x shfl %d %d %d up %d %d down %d %d xor %d %d %d %x %x %llx %llx\n", t, am,
           s0, s1, s2, up1, up3, dn2, dn1, x1, x5, x4, xu, bits_of_float(f),
           (unsigned long long)ll, bits_of_double(d));
    printf("t%u vote %x %d %d %d %d %d %d reduce %x %d %d %x %x %x %x %x\n", t, bal, all_t,
           all_p, any_p, any_0, uni_p, uni_1, radd, rmin, rmax, rminu, rmaxu, rand_, ror, rxor);
    printf("t%u tile %x %x %x %d diverged %x %x %x %d\n", t, tile, tbal, tadd, tmin, dm, dr, db,
           ds);
    /* atomics: results that do not depend on the order of the lanes */
    atomicAdd(&icount, 2);
    atomicAdd(&sum_old, atomicAdd(&ucount, 1u));
    atomicSub(&icount, 1);
    atomicMin(&imin, v);
    atomicMax(&imax, v);
    atomicAnd(&uand, ~(1u << (t % 32)));
    atomicOr(&uor, 1u << (t % 32));
    atomicXor(&uxor, u);
    atomicAdd(&fsum, 0.5f);
    atomicInc(&winc, 4u);
    atomicDec(&wdec, 7u);
    if (atomicCAS(&cas_word, 0u, t + 1) == 0) atomicAdd(&cas_wins, 1u);
    own[t] = t;
    unsigned o1 = atomicCAS(&own[t], t, t * 3), o2 = atomicExch(&own[t], t + 1000);
    if (o1 != t || o2 != t * 3) printf("t%u cas/exch wrong: %u %u\n", t, o1, o2);
}

/* A block whose last warp is partial: its missing lanes are not active. */
static void partial(void *arg) {
    (void)arg;
    unsigned t = weft_block_thread();
    unsigned m = __activemask();
    unsigned r = __reduce_add_sync(m, t + 1);
    unsigned b = __ballot_sync(m, t & 1);
    int s = __shfl_down_sync(m, (int)t, 1);
    printf("p%u %x %u %x %d\n", t, m, r, b, s);
}

int main(void) {
    unsigned w = (unsigned)warpSize;
    printf("warpSize %u\n", w);
    weft_launch(weft_dim3(1, 1, 1), weft_dim3(2 * w, 1, 1), warp_calls, 0);
    unsigned n = 2 * w;
    printf("atomics %d %u %u %d %d %x %x %x %g %u %u %u %u\n", icount, ucount, sum_old, imin,
           imax, uand, uor, uxor, (double)fsum, winc, wdec, cas_wins, own[n - 1]);
    weft_launch(weft_dim3(1, 1, 1), weft_dim3(w + (w + 1) / 2, 1, 1), partial, 0);
    return 0;
}

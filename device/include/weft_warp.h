/* weft_warp.h — CUDA's warp-level names on weft (weft.h includes it; see docs/warp.md).
 *
 * warpSize, __activemask, __syncwarp, the shuffles (__shfl_sync, __shfl_up_sync,
 * __shfl_down_sync, __shfl_xor_sync), the votes (__ballot_sync, __all_sync, __any_sync,
 * __uni_sync), the reductions (__reduce_add/min/max/and/or/xor_sync), the atomics (atomicAdd,
 * atomicSub, atomicExch, atomicCAS, atomicMin, atomicMax, atomicAnd, atomicOr, atomicXor,
 * atomicInc, atomicDec), __popc/__ffs/__clz/__brev, and __global__/__device__/__host__.
 *
 * Semantics are CUDA's for a warp of warpSize = the machine's lanes (8 by default, 1 to 32),
 * run in lockstep as pre-Volta GPUs do: every `_sync` mask must name exactly the calling
 * lanes (each lane itself, and only active lanes; bits of lanes that do not exist are
 * ignored, so 0xffffffff means "the whole warp" at any width). The device checks this in
 * hardware: the mask goes to a `vote` instruction (rs2), which faults with SYNC_MASK (code 18)
 * naming core, warp, lanes and pc when it does not hold. The host build (weft cc --host) gives
 * the same results and the same fault, meeting the lanes of a warp at each call.
 *
 * __shared__ is not defined: a static __shared__ array would sit at one address for every
 * block a core runs at once. Use weft_shared_alloc() (or dynamic shared memory) instead.
 */
#ifndef WEFT_WARP_H
#define WEFT_WARP_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Inlined when optimising (the shuffle kind is a constant, the switch folds away); at -O0
 * plain calls, so that a kernel with many calls keeps a small stack frame. */
#if defined(__OPTIMIZE__)
#define WEFT_WARP_FN static inline __attribute__((always_inline, unused)) WEFT_CONVERGENT
#else
#define WEFT_WARP_FN static inline __attribute__((unused)) WEFT_CONVERGENT
#endif

/* ---- CUDA's function qualifiers ------------------------------------------------------------ */

/* A kernel the host launches by name (weft's kernels take one `void *args`). */
#define __global__ WEFT_KERNEL
/* Every function of a weft program is device code; these only mark it. */
#define __device__
#define __host__
#define __forceinline__ __attribute__((always_inline)) inline
#define __noinline__ __attribute__((noinline))

/* ---- the warp's shape -------------------------------------------------------------------- */

/* CUDA's warpSize: lanes per warp (the num_threads CSR on the device). */
#define warpSize ((int)weft_warp_size())

/* The mask that names every lane of a warp at any warpSize. */
#define WEFT_FULL_MASK 0xffffffffu

/* Collective kinds (the host build's rendezvous takes them). */
enum {
    WEFT_COLL_SHFL_IDX,
    WEFT_COLL_SHFL_UP,
    WEFT_COLL_SHFL_DOWN,
    WEFT_COLL_SHFL_XOR,
    WEFT_COLL_ALL,
    WEFT_COLL_ANY,
    WEFT_COLL_UNI,
    WEFT_COLL_BALLOT,
    WEFT_COLL_SYNC,
    WEFT_COLL_ADD,
    WEFT_COLL_MIN,
    WEFT_COLL_MAX,
    WEFT_COLL_MINU,
    WEFT_COLL_MAXU,
    WEFT_COLL_AND,
    WEFT_COLL_OR,
    WEFT_COLL_XOR
};

/* A call site, so the host build can tell two different collectives apart. */
#define WEFT_STR_(x) #x
#define WEFT_STR(x) WEFT_STR_(x)
#define WEFT_SITE (__FILE__ ":" WEFT_STR(__LINE__))

#if defined(WEFT_HOST)

/* The host build: device/host/host.c meets the calling lanes of the warp and computes the
 * result with CUDA's rules (or reports SYNC_MASK and exits with status 146). */
uint32_t weft_warp_size(void);
uint32_t weft_host_activemask(const char *site);
uint64_t weft_host_collective(const char *site, uint32_t kind, uint32_t mask, uint64_t v,
                              uint32_t b, uint32_t width);

#define WEFT_ACTIVEMASK(site, line) weft_host_activemask(site)
WEFT_WARP_FN uint64_t weft_coll64(const char *site, uint32_t kind, uint32_t mask, uint64_t v,
                                  uint32_t b, uint32_t width) {
    return weft_host_collective(site, kind, mask, v, b, width);
}
WEFT_WARP_FN uint32_t weft_coll32(const char *site, uint32_t kind, uint32_t mask, uint32_t v,
                                  uint32_t b, uint32_t width) {
    return (uint32_t)weft_host_collective(site, kind, mask, v, b, width);
}
WEFT_WARP_FN void weft_syncwarp_at(const char *site, uint32_t mask) {
    weft_host_collective(site, WEFT_COLL_SYNC, mask, 0, 0, 0);
}

#else /* the device */

/* The lanes per warp, read once (a pure CSR read the compiler may share). */
WEFT_WARP_FN uint32_t weft_warp_size(void) {
    uint32_t v;
    __asm__("csrr %0, 0xfc0" : "=r"(v));
    return v;
}

/* The active lanes (the thread_mask CSR). The line number rides along in an assembler comment
 * so that two calls on different lines are different instructions to the compiler: it may not
 * merge the calls in both arms of a branch into one before the branch. */
#define WEFT_ACTIVEMASK(site, line)                                                            \
    __extension__({                                                                           \
        uint32_t v_;                                                                          \
        __asm__ volatile("csrr %0, 0xcc4 # line %1" : "=r"(v_) : "i"(line));                  \
        v_;                                                                                   \
    })

/* vote.{all,any,uni,ballot} rd, rs1, rs2 (custom-0, funct7 1, funct3 0-3): rs2 = the member
 * mask, checked by the hardware. */
#define WEFT_VOTE(f3, pred, mask)                                                              \
    __extension__({                                                                           \
        uint32_t r_;                                                                          \
        __asm__ volatile(".insn r 0x0B, " #f3 ", 1, %0, %1, %2"                               \
                         : "=r"(r_)                                                           \
                         : "r"((uint32_t)(pred)), "r"((uint32_t)(mask)));                     \
        r_;                                                                                   \
    })

/* A vote over the active lanes (rs2 = x0: no mask to check): the same answer in every lane. */
#define WEFT_VOTE_ACTIVE(f3, pred)                                                             \
    __extension__({                                                                           \
        uint32_t r_;                                                                          \
        __asm__ volatile(".insn r 0x0B, " #f3 ", 1, %0, %1, x0" : "=r"(r_)                    \
                         : "r"((uint32_t)(pred)));                                            \
        r_;                                                                                   \
    })

/* Check `mask` against the active lanes (a vote whose result is dropped). */
WEFT_WARP_FN void weft_check_mask(uint32_t mask) {
    __asm__ volatile(".insn r 0x0B, 0, 1, x0, x0, %0" ::"r"(mask) : "memory");
}

/* shfl.{up,down,bfly,idx} rd, rs1, rs2 (funct3 4-7), rs2 = (segmask << 12) | (c << 6) | b,
 * which for a CUDA width w is PTX's packing: segmask = 32 - w, c = 0 (up) or 31, b 5 bits. A
 * width that is not a power of two (warpSize itself may be 3 on weft) means the whole warp. */
WEFT_WARP_FN uint32_t weft_shfl_raw(uint32_t kind, uint32_t v, uint32_t b, uint32_t width) {
    uint32_t seg = (width & (width - 1)) ? 0 : (32u - width) & 31u, r;
    uint32_t ctl = (seg << 12) | ((kind == WEFT_COLL_SHFL_UP ? 0u : 31u) << 6) | (b & 31u);
    switch (kind) {
    case WEFT_COLL_SHFL_UP:
        __asm__ volatile(".insn r 0x0B, 4, 1, %0, %1, %2" : "=r"(r) : "r"(v), "r"(ctl));
        break;
    case WEFT_COLL_SHFL_DOWN:
        __asm__ volatile(".insn r 0x0B, 5, 1, %0, %1, %2" : "=r"(r) : "r"(v), "r"(ctl));
        break;
    case WEFT_COLL_SHFL_XOR:
        __asm__ volatile(".insn r 0x0B, 6, 1, %0, %1, %2" : "=r"(r) : "r"(v), "r"(ctl));
        break;
    default:
        __asm__ volatile(".insn r 0x0B, 7, 1, %0, %1, %2" : "=r"(r) : "r"(v), "r"(ctl));
        break;
    }
    return r;
}

/* A reduction over each lane's mask. When every lane names the whole warp and warpSize is a
 * power of two, a butterfly of log2(warpSize) shuffles; otherwise one shuffle per lane of the
 * warp, each lane keeping the lanes of its own mask. */
WEFT_WARP_FN uint32_t weft_reduce_raw(uint32_t kind, uint32_t mask, uint32_t v) {
    uint32_t n = weft_warp_size();
    uint32_t full = n >= 32 ? 0xffffffffu : (1u << n) - 1;
    uint32_t mine = mask & full;
    weft_check_mask(mask);
#define WEFT_OP(a, b)                                                                          \
    (kind == WEFT_COLL_ADD    ? (a) + (b)                                                     \
     : kind == WEFT_COLL_MIN  ? ((int32_t)(a) < (int32_t)(b) ? (a) : (b))                     \
     : kind == WEFT_COLL_MAX  ? ((int32_t)(a) > (int32_t)(b) ? (a) : (b))                     \
     : kind == WEFT_COLL_MINU ? ((a) < (b) ? (a) : (b))                                        \
     : kind == WEFT_COLL_MAXU ? ((a) > (b) ? (a) : (b))                                        \
     : kind == WEFT_COLL_AND  ? (a) & (b)                                                      \
     : kind == WEFT_COLL_OR   ? (a) | (b)                                                      \
                              : (a) ^ (b))
    if ((n & (n - 1)) == 0 && WEFT_VOTE_ACTIVE(0, mine == full)) {
        for (uint32_t k = 1; k < n; k <<= 1) {
            uint32_t o = weft_shfl_raw(WEFT_COLL_SHFL_XOR, v, k, 32);
            v = WEFT_OP(v, o);
        }
        return v;
    }
    uint32_t acc = 0, have = 0;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t o = weft_shfl_raw(WEFT_COLL_SHFL_IDX, v, j, 32);
        if (mine >> j & 1) {
            acc = have ? WEFT_OP(acc, o) : o;
            have = 1;
        }
    }
#undef WEFT_OP
    return acc;
}

WEFT_WARP_FN uint32_t weft_coll32(const char *site, uint32_t kind, uint32_t mask, uint32_t v,
                                  uint32_t b, uint32_t width) {
    (void)site;
    switch (kind) {
    case WEFT_COLL_SHFL_IDX:
    case WEFT_COLL_SHFL_UP:
    case WEFT_COLL_SHFL_DOWN:
    case WEFT_COLL_SHFL_XOR:
        weft_check_mask(mask);
        return weft_shfl_raw(kind, v, b, width);
    case WEFT_COLL_ALL:
        return WEFT_VOTE(0, v != 0, mask);
    case WEFT_COLL_ANY:
        return WEFT_VOTE(1, v != 0, mask);
    case WEFT_COLL_UNI:
        return WEFT_VOTE(2, v != 0, mask);
    case WEFT_COLL_BALLOT:
        return WEFT_VOTE(3, v != 0, mask);
    default:
        return weft_reduce_raw(kind, mask, v);
    }
}

/* 64-bit values: the mask checked once, then the two halves shuffled. */
WEFT_WARP_FN uint64_t weft_coll64(const char *site, uint32_t kind, uint32_t mask, uint64_t v,
                                  uint32_t b, uint32_t width) {
    (void)site;
    weft_check_mask(mask);
    uint32_t lo = weft_shfl_raw(kind, (uint32_t)v, b, width);
    uint32_t hi = weft_shfl_raw(kind, (uint32_t)(v >> 32), b, width);
    return ((uint64_t)hi << 32) | lo;
}

WEFT_WARP_FN void weft_syncwarp_at(const char *site, uint32_t mask) {
    (void)site;
    weft_check_mask(mask);
}

#endif /* WEFT_HOST */

/* ---- typed shuffles ------------------------------------------------------------------------ */

WEFT_WARP_FN int weft_shfl_i(const char *s, uint32_t k, uint32_t m, int v, uint32_t b,
                             uint32_t w) {
    return (int)weft_coll32(s, k, m, (uint32_t)v, b, w);
}
WEFT_WARP_FN unsigned weft_shfl_u(const char *s, uint32_t k, uint32_t m, unsigned v, uint32_t b,
                                  uint32_t w) {
    return weft_coll32(s, k, m, v, b, w);
}
WEFT_WARP_FN long weft_shfl_l(const char *s, uint32_t k, uint32_t m, long v, uint32_t b,
                              uint32_t w) {
    return (long)weft_coll32(s, k, m, (uint32_t)v, b, w);
}
WEFT_WARP_FN unsigned long weft_shfl_ul(const char *s, uint32_t k, uint32_t m, unsigned long v,
                                        uint32_t b, uint32_t w) {
    return weft_coll32(s, k, m, (uint32_t)v, b, w);
}
WEFT_WARP_FN float weft_shfl_f(const char *s, uint32_t k, uint32_t m, float v, uint32_t b,
                               uint32_t w) {
    union { float f; uint32_t u; } x = {v};
    x.u = weft_coll32(s, k, m, x.u, b, w);
    return x.f;
}
WEFT_WARP_FN long long weft_shfl_ll(const char *s, uint32_t k, uint32_t m, long long v,
                                    uint32_t b, uint32_t w) {
    return (long long)weft_coll64(s, k, m, (uint64_t)v, b, w);
}
WEFT_WARP_FN unsigned long long weft_shfl_ull(const char *s, uint32_t k, uint32_t m,
                                              unsigned long long v, uint32_t b, uint32_t w) {
    return weft_coll64(s, k, m, v, b, w);
}
WEFT_WARP_FN double weft_shfl_d(const char *s, uint32_t k, uint32_t m, double v, uint32_t b,
                                uint32_t w) {
    union { double d; uint64_t u; } x = {v};
    x.u = weft_coll64(s, k, m, x.u, b, w);
    return x.d;
}

/* ---- votes, the mask, reductions (unsigned and int, as CUDA) ------------------------------- */

WEFT_WARP_FN unsigned weft_vote_at(const char *s, uint32_t kind, unsigned mask, int pred) {
    return weft_coll32(s, kind, mask, pred != 0, 0, 0);
}
WEFT_WARP_FN unsigned weft_reduce_u(const char *s, uint32_t kind, unsigned mask, unsigned v) {
    return weft_coll32(s, kind, mask, v, 0, 0);
}
WEFT_WARP_FN int weft_reduce_i(const char *s, uint32_t kind, unsigned mask, int v) {
    return (int)weft_coll32(s, kind, mask, (uint32_t)v, 0, 0);
}

#define __activemask() WEFT_ACTIVEMASK(WEFT_SITE, __LINE__)
#define __ballot_sync(mask, pred) weft_vote_at(WEFT_SITE, WEFT_COLL_BALLOT, (mask), (pred))
#define __all_sync(mask, pred) ((int)weft_vote_at(WEFT_SITE, WEFT_COLL_ALL, (mask), (pred)))
#define __any_sync(mask, pred) ((int)weft_vote_at(WEFT_SITE, WEFT_COLL_ANY, (mask), (pred)))
#define __uni_sync(mask, pred) ((int)weft_vote_at(WEFT_SITE, WEFT_COLL_UNI, (mask), (pred)))
/* __syncwarp() or __syncwarp(mask). */
#define WEFT_ARG2(a, b, ...) b
#define __syncwarp(...)                                                                        \
    weft_syncwarp_at(WEFT_SITE, WEFT_ARG2(0, ##__VA_ARGS__, WEFT_FULL_MASK, 0))

#ifdef __cplusplus
} /* extern "C" */

/* C++: overloads, with CUDA's default width. */
#define WEFT_SHFL_OVERLOADS(T, fn)                                                             \
    WEFT_WARP_FN T weft_shfl(const char *s, uint32_t k, unsigned m, T v, uint32_t b,           \
                             uint32_t w) {                                                     \
        return fn(s, k, m, v, b, w);                                                           \
    }
WEFT_SHFL_OVERLOADS(int, weft_shfl_i)
WEFT_SHFL_OVERLOADS(unsigned, weft_shfl_u)
WEFT_SHFL_OVERLOADS(long, weft_shfl_l)
WEFT_SHFL_OVERLOADS(unsigned long, weft_shfl_ul)
WEFT_SHFL_OVERLOADS(float, weft_shfl_f)
WEFT_SHFL_OVERLOADS(long long, weft_shfl_ll)
WEFT_SHFL_OVERLOADS(unsigned long long, weft_shfl_ull)
WEFT_SHFL_OVERLOADS(double, weft_shfl_d)
#undef WEFT_SHFL_OVERLOADS
WEFT_WARP_FN unsigned weft_reduce(const char *s, uint32_t k, unsigned m, unsigned v) {
    return weft_reduce_u(s, k, m, v);
}
WEFT_WARP_FN int weft_reduce(const char *s, uint32_t k, unsigned m, int v) {
    return weft_reduce_i(s, k, m, v);
}
#define WEFT_SHFL(kind, mask, var, b, w) weft_shfl(WEFT_SITE, kind, (mask), (var), (b), (w))
#define WEFT_REDUCE_SIGNED(ukind, ikind, mask, v)                                              \
    weft_reduce(WEFT_SITE, weft_is_signed(v) ? (ikind) : (ukind), (mask), (v))
WEFT_WARP_FN bool weft_is_signed(int) { return true; }
WEFT_WARP_FN bool weft_is_signed(unsigned) { return false; }

#else /* C: _Generic */

#define WEFT_SHFL(kind, mask, var, b, w)                                                       \
    _Generic((var),                                                                           \
        float: weft_shfl_f,                                                                   \
        double: weft_shfl_d,                                                                  \
        long long: weft_shfl_ll,                                                              \
        unsigned long long: weft_shfl_ull,                                                    \
        long: weft_shfl_l,                                                                    \
        unsigned long: weft_shfl_ul,                                                          \
        unsigned: weft_shfl_u,                                                                \
        default: weft_shfl_i)(WEFT_SITE, (kind), (mask), (var), (b), (w))
#define WEFT_REDUCE_SIGNED(ukind, ikind, mask, v)                                              \
    _Generic((v),                                                                             \
        unsigned: weft_reduce_u(WEFT_SITE, (ukind), (mask), (unsigned)(v)),                   \
        default: weft_reduce_i(WEFT_SITE, (ikind), (mask), (int)(v)))

#endif /* __cplusplus */

/* __shfl_sync(mask, var, srcLane[, width]) and the others: width defaults to warpSize. */
#define WEFT_ARG1(a, ...) a
#define WEFT_ARG2_OF(a, b, ...) b
#define __shfl_sync(mask, var, ...)                                                            \
    WEFT_SHFL(WEFT_COLL_SHFL_IDX, mask, var, WEFT_ARG1(__VA_ARGS__, 0),                        \
              WEFT_ARG2_OF(__VA_ARGS__, weft_warp_size(), 0))
#define __shfl_up_sync(mask, var, ...)                                                         \
    WEFT_SHFL(WEFT_COLL_SHFL_UP, mask, var, WEFT_ARG1(__VA_ARGS__, 0),                         \
              WEFT_ARG2_OF(__VA_ARGS__, weft_warp_size(), 0))
#define __shfl_down_sync(mask, var, ...)                                                       \
    WEFT_SHFL(WEFT_COLL_SHFL_DOWN, mask, var, WEFT_ARG1(__VA_ARGS__, 0),                       \
              WEFT_ARG2_OF(__VA_ARGS__, weft_warp_size(), 0))
#define __shfl_xor_sync(mask, var, ...)                                                        \
    WEFT_SHFL(WEFT_COLL_SHFL_XOR, mask, var, WEFT_ARG1(__VA_ARGS__, 0),                        \
              WEFT_ARG2_OF(__VA_ARGS__, weft_warp_size(), 0))

/* __reduce_add_sync and the others: CUDA's unsigned and int forms (min and max compare as
 * the value's type; add, and, or, xor are the same bits either way). */
#define __reduce_add_sync(mask, v) WEFT_REDUCE_SIGNED(WEFT_COLL_ADD, WEFT_COLL_ADD, mask, v)
#define __reduce_min_sync(mask, v) WEFT_REDUCE_SIGNED(WEFT_COLL_MINU, WEFT_COLL_MIN, mask, v)
#define __reduce_max_sync(mask, v) WEFT_REDUCE_SIGNED(WEFT_COLL_MAXU, WEFT_COLL_MAX, mask, v)
#define __reduce_and_sync(mask, v) weft_reduce_u(WEFT_SITE, WEFT_COLL_AND, (mask), (v))
#define __reduce_or_sync(mask, v) weft_reduce_u(WEFT_SITE, WEFT_COLL_OR, (mask), (v))
#define __reduce_xor_sync(mask, v) weft_reduce_u(WEFT_SITE, WEFT_COLL_XOR, (mask), (v))


/* ---- atomics: CUDA's names (every lane's operation is performed, in lane order) ----------- */

/* A read-modify-write of one 32-bit word through compare-and-swap: `f` computes the new value
 * from the old; returns the old. */
#define WEFT_CAS_LOOP(q, old, expr)                                                            \
    uint32_t old = *(q);                                                                       \
    while (!__atomic_compare_exchange_n((q), &old, (expr), 0, __ATOMIC_SEQ_CST,               \
                                        __ATOMIC_SEQ_CST)) {                                   \
    }                                                                                          \
    return old

WEFT_WARP_FN uint32_t weft_float_bits(float f) {
    union { float f; uint32_t u; } x;
    x.f = f;
    return x.u;
}
WEFT_WARP_FN float weft_bits_float(uint32_t u) {
    union { float f; uint32_t u; } x;
    x.u = u;
    return x.f;
}
WEFT_WARP_FN float weft_atomic_add_f(volatile float *p, float v) {
    volatile uint32_t *q = (volatile uint32_t *)p;
    uint32_t old = *q;
    while (!__atomic_compare_exchange_n(q, &old, weft_float_bits(weft_bits_float(old) + v), 0,
                                        __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    }
    return weft_bits_float(old);
}
WEFT_WARP_FN uint32_t weft_atomic_inc(volatile uint32_t *p, uint32_t v) {
    WEFT_CAS_LOOP(p, old, old >= v ? 0 : old + 1);
}
WEFT_WARP_FN uint32_t weft_atomic_dec(volatile uint32_t *p, uint32_t v) {
    WEFT_CAS_LOOP(p, old, (old == 0 || old > v) ? v : old - 1);
}
WEFT_WARP_FN int weft_atomic_add_i(volatile int *p, int v) {
    return (int)weft_atomic_add((volatile uint32_t *)p, (uint32_t)v);
}
WEFT_WARP_FN int weft_atomic_sub_i(volatile int *p, int v) {
    return (int)weft_atomic_sub((volatile uint32_t *)p, (uint32_t)v);
}
WEFT_WARP_FN int weft_atomic_exch_i(volatile int *p, int v) {
    return (int)weft_atomic_exch((volatile uint32_t *)p, (uint32_t)v);
}
WEFT_WARP_FN float weft_atomic_exch_f(volatile float *p, float v) {
    return weft_bits_float(weft_atomic_exch((volatile uint32_t *)p, weft_float_bits(v)));
}
WEFT_WARP_FN int weft_atomic_cas_i(volatile int *p, int expected, int v) {
    return (int)weft_atomic_cas((volatile uint32_t *)p, (uint32_t)expected, (uint32_t)v);
}
WEFT_WARP_FN int weft_atomic_and_i(volatile int *p, int v) {
    return (int)weft_atomic_and((volatile uint32_t *)p, (uint32_t)v);
}
WEFT_WARP_FN int weft_atomic_or_i(volatile int *p, int v) {
    return (int)weft_atomic_or((volatile uint32_t *)p, (uint32_t)v);
}
WEFT_WARP_FN int weft_atomic_xor_i(volatile int *p, int v) {
    return (int)weft_atomic_xor((volatile uint32_t *)p, (uint32_t)v);
}

#ifdef __cplusplus
/* C++: the atomics as overloads. */
WEFT_WARP_FN int atomicAdd(int *p, int v) { return weft_atomic_add_i(p, v); }
WEFT_WARP_FN unsigned atomicAdd(unsigned *p, unsigned v) { return weft_atomic_add(p, v); }
WEFT_WARP_FN float atomicAdd(float *p, float v) { return weft_atomic_add_f(p, v); }
WEFT_WARP_FN int atomicSub(int *p, int v) { return weft_atomic_sub_i(p, v); }
WEFT_WARP_FN unsigned atomicSub(unsigned *p, unsigned v) { return weft_atomic_sub(p, v); }
WEFT_WARP_FN int atomicExch(int *p, int v) { return weft_atomic_exch_i(p, v); }
WEFT_WARP_FN unsigned atomicExch(unsigned *p, unsigned v) { return weft_atomic_exch(p, v); }
WEFT_WARP_FN float atomicExch(float *p, float v) { return weft_atomic_exch_f(p, v); }
WEFT_WARP_FN int atomicCAS(int *p, int e, int v) { return weft_atomic_cas_i(p, e, v); }
WEFT_WARP_FN unsigned atomicCAS(unsigned *p, unsigned e, unsigned v) {
    return weft_atomic_cas(p, e, v);
}
WEFT_WARP_FN int atomicMin(int *p, int v) { return weft_atomic_min(p, v); }
WEFT_WARP_FN unsigned atomicMin(unsigned *p, unsigned v) { return weft_atomic_minu(p, v); }
WEFT_WARP_FN int atomicMax(int *p, int v) { return weft_atomic_max(p, v); }
WEFT_WARP_FN unsigned atomicMax(unsigned *p, unsigned v) { return weft_atomic_maxu(p, v); }
WEFT_WARP_FN int atomicAnd(int *p, int v) { return weft_atomic_and_i(p, v); }
WEFT_WARP_FN unsigned atomicAnd(unsigned *p, unsigned v) { return weft_atomic_and(p, v); }
WEFT_WARP_FN int atomicOr(int *p, int v) { return weft_atomic_or_i(p, v); }
WEFT_WARP_FN unsigned atomicOr(unsigned *p, unsigned v) { return weft_atomic_or(p, v); }
WEFT_WARP_FN int atomicXor(int *p, int v) { return weft_atomic_xor_i(p, v); }
WEFT_WARP_FN unsigned atomicXor(unsigned *p, unsigned v) { return weft_atomic_xor(p, v); }
WEFT_WARP_FN unsigned atomicInc(unsigned *p, unsigned v) { return weft_atomic_inc(p, v); }
WEFT_WARP_FN unsigned atomicDec(unsigned *p, unsigned v) { return weft_atomic_dec(p, v); }
#else
/* C: the atomics chosen by the pointer's type (int, unsigned, float; volatile or not). */
#define WEFT_ON_INT_UNSIGNED(p, fi, fu)                                                        \
    _Generic((p), int *: fi, volatile int *: fi, unsigned *: fu, volatile unsigned *: fu)
#define WEFT_ON_INT_UNSIGNED_FLOAT(p, fi, fu, ff)                                              \
    _Generic((p), int *: fi, volatile int *: fi, unsigned *: fu, volatile unsigned *: fu,     \
             float *: ff, volatile float *: ff)
#define atomicAdd(p, v)                                                                        \
    WEFT_ON_INT_UNSIGNED_FLOAT(p, weft_atomic_add_i, weft_atomic_add, weft_atomic_add_f)(p, v)
#define atomicSub(p, v) WEFT_ON_INT_UNSIGNED(p, weft_atomic_sub_i, weft_atomic_sub)(p, v)
#define atomicExch(p, v)                                                                       \
    WEFT_ON_INT_UNSIGNED_FLOAT(p, weft_atomic_exch_i, weft_atomic_exch, weft_atomic_exch_f)(p, v)
#define atomicCAS(p, e, v) WEFT_ON_INT_UNSIGNED(p, weft_atomic_cas_i, weft_atomic_cas)(p, e, v)
#define atomicMin(p, v) WEFT_ON_INT_UNSIGNED(p, weft_atomic_min, weft_atomic_minu)(p, v)
#define atomicMax(p, v) WEFT_ON_INT_UNSIGNED(p, weft_atomic_max, weft_atomic_maxu)(p, v)
#define atomicAnd(p, v) WEFT_ON_INT_UNSIGNED(p, weft_atomic_and_i, weft_atomic_and)(p, v)
#define atomicOr(p, v) WEFT_ON_INT_UNSIGNED(p, weft_atomic_or_i, weft_atomic_or)(p, v)
#define atomicXor(p, v) WEFT_ON_INT_UNSIGNED(p, weft_atomic_xor_i, weft_atomic_xor)(p, v)
#define atomicInc(p, v) weft_atomic_inc((p), (v))
#define atomicDec(p, v) weft_atomic_dec((p), (v))
#endif

/* ---- bit intrinsics ------------------------------------------------------------------------- */

WEFT_WARP_FN int __popc(unsigned x) { return __builtin_popcount(x); }
WEFT_WARP_FN int __ffs(int x) { return __builtin_ffs(x); }
WEFT_WARP_FN int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
WEFT_WARP_FN unsigned __brev(unsigned x) {
    x = (x >> 1 & 0x55555555u) | (x & 0x55555555u) << 1;
    x = (x >> 2 & 0x33333333u) | (x & 0x33333333u) << 2;
    x = (x >> 4 & 0x0f0f0f0fu) | (x & 0x0f0f0f0fu) << 4;
    x = (x >> 8 & 0x00ff00ffu) | (x & 0x00ff00ffu) << 8;
    return x >> 16 | x << 16;
}
/* The lanes below the calling one (CUDA's %lanemask_lt). */
WEFT_WARP_FN unsigned weft_lanemask_lt(void) { return (1u << weft_lane_id()) - 1; }

#endif /* WEFT_WARP_H */

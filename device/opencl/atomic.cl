/* Atomic functions (OpenCL C 1.2, 6.12.11) on 32-bit integers in global and local memory, the
 * float exchange, and the cl_khr_*_int32_*_atomics extensions' atom_* names: RISC-V's AMOs
 * (amoadd, amoswap, amoand, amoor, amoxor, amomin/max[u]) and LR/SC for compare-and-swap,
 * which weft performs for every lane in turn. */
#include "clc.h"

#define SC __ATOMIC_SEQ_CST

#define ATOMICS(P, T, AS)                                                                      \
    OVL T P##_add(volatile AS T *p, T v) { return __atomic_fetch_add(p, v, SC); }              \
    OVL T P##_sub(volatile AS T *p, T v) { return __atomic_fetch_sub(p, v, SC); }              \
    OVL T P##_xchg(volatile AS T *p, T v) { return __atomic_exchange_n(p, v, SC); }            \
    OVL T P##_inc(volatile AS T *p) { return __atomic_fetch_add(p, (T)1, SC); }                \
    OVL T P##_dec(volatile AS T *p) { return __atomic_fetch_sub(p, (T)1, SC); }                \
    OVL T P##_cmpxchg(volatile AS T *p, T cmp, T v) {                                          \
        __atomic_compare_exchange_n(p, &cmp, v, 0, SC, SC);                                    \
        return cmp;                                                                            \
    }                                                                                          \
    OVL T P##_min(volatile AS T *p, T v) { return __atomic_fetch_min(p, v, SC); }              \
    OVL T P##_max(volatile AS T *p, T v) { return __atomic_fetch_max(p, v, SC); }              \
    OVL T P##_and(volatile AS T *p, T v) { return __atomic_fetch_and(p, v, SC); }              \
    OVL T P##_or(volatile AS T *p, T v) { return __atomic_fetch_or(p, v, SC); }                \
    OVL T P##_xor(volatile AS T *p, T v) { return __atomic_fetch_xor(p, v, SC); }

ATOMICS(atomic, int, __global)
ATOMICS(atomic, uint, __global)
ATOMICS(atomic, int, __local)
ATOMICS(atomic, uint, __local)
ATOMICS(atom, int, __global)
ATOMICS(atom, uint, __global)
ATOMICS(atom, int, __local)
ATOMICS(atom, uint, __local)

OVL float atomic_xchg(volatile __global float *p, float v) {
    return as_float(__atomic_exchange_n((volatile __global uint *)p, as_uint(v), SC));
}
OVL float atomic_xchg(volatile __local float *p, float v) {
    return as_float(__atomic_exchange_n((volatile __local uint *)p, as_uint(v), SC));
}

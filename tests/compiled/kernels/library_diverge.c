/* The kernel library's divergence stress kernel (examples/kernels/diverge.c) in the corpus:
 * Collatz trip counts, eight nested branches, a gradual loop exit, early returns and a
 * per-lane switch, every lane against the host. */
#include "../../../examples/kernels/diverge_work.h"

uint32_t kernel(uint32_t tid) { return work(tid); }

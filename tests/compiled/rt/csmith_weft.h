/* Stand-in for csmith.h when a csmith program becomes a weft kernel: the safe-math wrappers
   from csmith's own headers (-I/usr/include/csmith), nothing that needs a C library, and
   WEFT_TID(), the lane's id (the thread_id CSR on weft, a variable on the host). */
#ifndef CSMITH_WEFT_H
#define CSMITH_WEFT_H
#include <stdint.h>
#include <limits.h>
#include <float.h>
#define __STDC_LIMIT_MACROS
/* What csmith's random_inc.h sets up before its safe-math wrappers, without its platform
   header (which needs stdio). */
#define COUNT(n)
#define TC
#define SAFE
#define UNDEFINED(__val) (__val)
#define LOG_INDEX
#define LOG_EXEC
#define STATIC static
#define FUNC_NAME(x) (safe_##x)
#include "safe_math.h"

#ifdef __riscv
static inline uint32_t WEFT_TID(void) {
    uint32_t t;
    __asm__ volatile("csrr %0, 0xcc0" : "=r"(t));
    return t;
}
#else
extern uint32_t weft_host_tid;
#define WEFT_TID() (weft_host_tid)
#endif
#endif

/* stdlib.h for weft kernels: exit, abort, abs, and a bump allocator over the heap. */
#ifndef WEFT_STDLIB_H
#define WEFT_STDLIB_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
void exit(int code) __attribute__((noreturn));
void abort(void) __attribute__((noreturn));
static inline int abs(int x) { return x < 0 ? -x : x; }
static inline long labs(long x) { return x < 0 ? -x : x; }
static inline long long llabs(long long x) { return x < 0 ? -x : x; }
/* The heap lies after the lanes' stacks; free() releases nothing (a bump allocator). */
void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void free(void *p);
#ifdef __cplusplus
}
#endif
#endif

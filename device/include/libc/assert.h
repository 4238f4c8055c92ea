/* assert.h for weft kernels: a failed assertion prints where and ends the run with status 134. */
#ifndef WEFT_ASSERT_H
#define WEFT_ASSERT_H
#ifdef __cplusplus
extern "C" {
#endif
void __weft_assert_fail(const char *expr, const char *file, int line) __attribute__((noreturn));
#ifdef __cplusplus
}
#endif
#endif
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : __weft_assert_fail(#e, __FILE__, __LINE__))
#endif

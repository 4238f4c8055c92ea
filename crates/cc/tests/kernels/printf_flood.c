/* More kernel printf output than the buffer holds: what fits comes out in thread order, then one line says how much was dropped. */
#include <weft.h>
#include <stdio.h>
static void k(void *p) { (void)p; for (int i = 0; i < 40; i++) printf("thread %u line %d of a long line of kernel output\n", weft_global_thread(), i); }
int main(void) { weft_launch(weft_dim3(4, 1, 1), weft_dim3(32, 1, 1), k, 0); printf("after\n"); return 0; }

/* Two kernel launches from one main(): `sq` over 2 blocks of 32 threads (threads below 40
 * store i * i), then `half` over one block of 64 (odd threads add 1). Prints the sum of the
 * 64 results. crates/weft/tests/launch_stats.rs checks each launch's counters against the
 * instruction trace. */
#include <weft.h>
#include <stdio.h>

static int out[64];

static void sq(void *a) {
    int *o = a;
    unsigned i = weft_global_thread();
    if (i < 40) o[i] = (int)(i * i);
}

static void half(void *a) {
    int *o = a;
    unsigned i = weft_global_thread();
    if (i & 1) o[i] += 1;
}

int main(void) {
    weft_launch(weft_dim3(2, 1, 1), weft_dim3(32, 1, 1), sq, out);
    weft_launch(weft_dim3(1, 1, 1), weft_dim3(64, 1, 1), half, out);
    int s = 0;
    for (int i = 0; i < 64; i++) s += out[i];
    printf("%d\n", s);
    return 0;
}

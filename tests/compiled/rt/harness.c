/* Device harness for the real-compiler campaign: every lane runs kernel(tid) and stores its
   result; the lane that finishes last (an atomic counter) prints every result, one decimal
   per line in lane order, and ends the run through the exit word. */
#include <stdint.h>

uint32_t kernel(uint32_t tid);

static volatile uint32_t results[32];
static volatile uint32_t finished;

static void put(char c) { *(volatile uint32_t *)0xFFFFFF00u = (uint32_t)c; }

static void put_u32(uint32_t v) {
    char buf[10];
    int n = 0;
    do {
        buf[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    while (n > 0) put(buf[--n]);
    put('\n');
}

void weft_harness(uint32_t tid, uint32_t lanes) {
    results[tid] = kernel(tid);
    if (__atomic_fetch_add(&finished, 1, __ATOMIC_SEQ_CST) == lanes - 1) {
        for (uint32_t i = 0; i < lanes; i++) put_u32(results[i]);
        *(volatile uint32_t *)0xFFFFFF04u = 0;
    }
}

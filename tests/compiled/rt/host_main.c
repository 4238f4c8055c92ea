/* Host reference for the real-compiler campaign: kernel(tid) for tid = 0 .. N-1, one
   decimal per line (N from argv[1]). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

uint32_t kernel(uint32_t tid);

int main(int argc, char **argv) {
    uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], 0, 10) : 32;
    for (uint32_t t = 0; t < n; t++) printf("%u\n", kernel(t));
    return 0;
}

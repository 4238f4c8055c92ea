/* Bubble sort and insertion sort of per-lane data (data-dependent swaps). */
#include <stdint.h>

uint32_t kernel(uint32_t tid) {
    uint32_t a[12], b[12];
    for (int i = 0; i < 12; i++) {
        a[i] = (tid * 31 + (uint32_t)i * 17) % 13;
        b[i] = (tid * 7 + (uint32_t)i * 5) % 11;
    }
    for (int i = 0; i < 12; i++)
        for (int j = 0; j + 1 < 12 - i; j++)
            if (a[j] > a[j + 1]) { uint32_t x = a[j]; a[j] = a[j + 1]; a[j + 1] = x; }
    for (int i = 1; i < 12; i++) {
        uint32_t v = b[i];
        int j = i - 1;
        while (j >= 0 && b[j] > v) { b[j + 1] = b[j]; j--; }
        b[j + 1] = v;
    }
    uint32_t h = 0;
    for (int i = 0; i < 12; i++) h = h * 33 + a[i] * 7 + b[i];
    return h;
}

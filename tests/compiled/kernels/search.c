/* Search loops that leave by a found-break, a not-found fall-out or an early return. */
#include <stdint.h>

static uint32_t __attribute__((noinline)) find(const uint32_t *a, uint32_t n, uint32_t key) {
    uint32_t i;
    for (i = 0; i < n; i++) {
        if (a[i] == key) break;
        if (a[i] > 1000) return 999;
    }
    return i;
}

static int32_t __attribute__((noinline)) bsearch_i(const uint32_t *a, int32_t n, uint32_t key) {
    int32_t lo = 0, hi = n - 1;
    while (lo <= hi) {
        int32_t mid = (lo + hi) / 2;
        if (a[mid] == key) return mid;
        if (a[mid] < key) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1 - lo;
}

uint32_t kernel(uint32_t tid) {
    uint32_t arr[16];
    for (uint32_t i = 0; i < 16; i++) arr[i] = (i * 37 + tid) % 23;
    if (tid % 5 == 4) arr[tid % 16] = 2000;
    uint32_t sorted[20];
    for (uint32_t i = 0; i < 20; i++) sorted[i] = i * 3 + (tid & 1);
    return find(arr, 16, tid % 23) * 1000 + (uint32_t)(bsearch_i(sorted, 20, tid * 2) + 100);
}

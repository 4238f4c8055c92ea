/* Recursive walks of a per-lane tree, with early returns at different depths. */
#include <stdint.h>

struct node { int l, r; uint32_t v; };

static uint32_t __attribute__((noinline)) walk(const struct node *t, int i, uint32_t depth) {
    if (i < 0) return 0;
    if (t[i].v % 7 == depth % 7) return t[i].v;
    return walk(t, t[i].l, depth + 1) + walk(t, t[i].r, depth + 1) * 3;
}

static uint32_t __attribute__((noinline)) height(const struct node *t, int i) {
    if (i < 0) return 0;
    uint32_t a = height(t, t[i].l), b = height(t, t[i].r);
    return 1 + (a > b ? a : b);
}

uint32_t kernel(uint32_t tid) {
    struct node tree[15];
    for (int i = 0; i < 15; i++) {
        tree[i].l = 2 * i + 1 < 15 && (tid >> (i % 5) & 1) ? 2 * i + 1 : -1;
        tree[i].r = 2 * i + 2 < 15 ? 2 * i + 2 : -1;
        tree[i].v = ((uint32_t)i * 11 + tid * 5) % 29;
    }
    return walk(tree, 0, tid) * 100 + height(tree, 0);
}

/* bfs: breadth-first levels on a 200-node graph (a ring plus pseudo-random chords, stored as
 * CSR), one launch per frontier: each thread whose node is on the frontier visits its edges. */
#include "common.h"

#define NODES (200 * SCALE)
#define DEG 3
static uint32_t row[NODES + 1], col[NODES * DEG];
static int32_t level[NODES];
static volatile uint32_t changed;

struct args { const uint32_t *row, *col; int32_t *level; int32_t depth; volatile uint32_t *changed; };

static void visit(void *p) {
    struct args *g = p;
    uint32_t v = weft_global_thread();
    if (v >= NODES || g->level[v] != g->depth) return;
    for (uint32_t e = g->row[v]; e < g->row[v + 1]; e++) {
        uint32_t u = g->col[e];
        if (g->level[u] < 0) {
            g->level[u] = g->depth + 1; /* every writer writes the same value */
            *g->changed = 1;
        }
    }
}

int main(void) {
    for (uint32_t v = 0; v < NODES; v++) {
        row[v] = v * DEG;
        col[v * DEG] = (v + 1) % NODES;
        col[v * DEG + 1] = lcg() % NODES;
        col[v * DEG + 2] = (v * 7 + 3) % NODES;
        level[v] = -1;
    }
    row[NODES] = NODES * DEG;
    level[0] = 0;
    struct args g = {row, col, level, 0, &changed};
    do {
        changed = 0;
        weft_launch(weft_dim3((NODES + 31) / 32, 1, 1), weft_dim3(32, 1, 1), visit, &g);
        g.depth++;
    } while (changed);
    /* reference: a queue-based BFS */
    static int32_t want[NODES];
    static uint32_t queue[NODES];
    uint32_t head = 0, tail = 0;
    for (uint32_t v = 0; v < NODES; v++) want[v] = -1;
    want[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        uint32_t v = queue[head++];
        for (uint32_t e = row[v]; e < row[v + 1]; e++)
            if (want[col[e]] < 0) {
                want[col[e]] = want[v] + 1;
                queue[tail++] = col[e];
            }
    }
    uint32_t bad = 0, first = 0;
    int32_t maxl = 0;
    for (uint32_t v = 0; v < NODES; v++) {
        if (level[v] != want[v] && bad++ == 0) first = v;
        if (level[v] > maxl) maxl = level[v];
    }
    printf("levels %d reached %u\n", maxl + 1, tail);
    return report("bfs", bad, first);
}

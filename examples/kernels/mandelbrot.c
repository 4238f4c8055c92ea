/* mandelbrot: escape counts of a 48x24 grid in single precision (per-lane trip counts up to
 * 200), printed as ASCII art; the check recomputes every count sequentially. */
#include "common.h"

/* The same float operations on every machine: no fused multiply-add. */
#pragma STDC FP_CONTRACT OFF

#define W (48 * SCALE)
#define H (24 * SCALE)
#define MAXIT 200
static uint32_t count[W * H];

static uint32_t escape(float cr, float ci) {
    float zr = 0, zi = 0;
    uint32_t n = 0;
    while (n < MAXIT && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        n++;
    }
    return n;
}

static void mandel(void *p) {
    uint32_t *out = p;
    uint32_t x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < W) out[y * W + x] = escape(-2.2f + 3.0f * (float)x / W, -1.2f + 2.4f * (float)y / H);
}

int main(void) {
    weft_launch(weft_dim3((W + 15) / 16, H, 1), weft_dim3(16, 1, 1), mandel, count);
    uint32_t bad = 0, first = 0;
    for (uint32_t y = 0; y < H; y++) {
        char line[W + 1];
        for (uint32_t x = 0; x < W; x++) {
            uint32_t c = count[y * W + x];
            line[x] = " .:-=+*#%@"[c >= MAXIT ? 9 : c * 9 / MAXIT];
            if (c != escape(-2.2f + 3.0f * (float)x / W, -1.2f + 2.4f * (float)y / H) && bad++ == 0)
                first = y * W + x;
        }
        line[W] = 0;
        printf("%s\n", line);
    }
    return report("mandelbrot", bad, first);
}

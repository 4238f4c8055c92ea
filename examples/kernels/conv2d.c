/* conv2d: a 5x5 integer filter over a 40x30 image with clamped borders, one thread per pixel. */
#include "common.h"

#define W (40 * SCALE)
#define H (30 * SCALE)
#define KR 2
static int32_t img[W * H], out[W * H], filt[(2 * KR + 1) * (2 * KR + 1)];

struct args { const int32_t *in, *f; int32_t *out; };

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static int32_t pixel(const int32_t *in, const int32_t *f, int x, int y) {
    int32_t s = 0;
    for (int dy = -KR; dy <= KR; dy++)
        for (int dx = -KR; dx <= KR; dx++)
            s += f[(dy + KR) * (2 * KR + 1) + dx + KR] *
                 in[clampi(y + dy, 0, H - 1) * W + clampi(x + dx, 0, W - 1)];
    return s;
}

static void conv(void *p) {
    struct args *g = p;
    int x = (int)(blockIdx.x * blockDim.x + threadIdx.x), y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
    if (x < W && y < H) g->out[y * W + x] = pixel(g->in, g->f, x, y);
}

int main(void) {
    for (int i = 0; i < W * H; i++) img[i] = (int32_t)(lcg() % 256);
    for (int i = 0; i < (2 * KR + 1) * (2 * KR + 1); i++) filt[i] = (int32_t)(lcg() % 9) - 4;
    struct args g = {img, filt, out};
    weft_launch(weft_dim3((W + 7) / 8, (H + 7) / 8, 1), weft_dim3(8, 8, 1), conv, &g);
    uint32_t bad = 0, first = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            /* reference written independently: explicit border replication */
            int32_t s = 0;
            for (int fy = 0; fy < 2 * KR + 1; fy++)
                for (int fx = 0; fx < 2 * KR + 1; fx++) {
                    int sx = x + fx - KR, sy = y + fy - KR;
                    if (sx < 0) sx = 0;
                    if (sx >= W) sx = W - 1;
                    if (sy < 0) sy = 0;
                    if (sy >= H) sy = H - 1;
                    s += filt[fy * (2 * KR + 1) + fx] * img[sy * W + sx];
                }
            if (out[y * W + x] != s && bad++ == 0) first = (uint32_t)(y * W + x);
        }
    printf("checksum %08x\n", checksum_u32((const uint32_t *)out, W * H));
    return report("conv2d", bad, first);
}

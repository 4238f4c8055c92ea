/* weft demo: a Mandelbrot zoom over a rippling lake, on the default machine (1 core x 4 warps
 * x 8 lanes) and the default 640x480@60 display. `weft demo` runs the prebuilt ELF of this
 * file (crates/weft/demo/demo.elf; rebuild it with the command in docs/display.md).
 *
 * - Warps 1-3 (24 lanes) render each frame of the zoom in tiles of 64x4 pixels into shared
 *   memory, and the core's DMA engine copies every finished tile to the framebuffer with four
 *   slots (one per row: scatter-gather), while the warps go on with the next tile in the
 *   other half of a double buffer. Frames alternate between two framebuffers.
 * - Warp 0 drives the display: at each vblank it shows the newest finished frame, and during
 *   the frame it races the beam, reading `scanline` and rewriting DISP_BASE before each row
 *   of the lake is fetched, so that those rows show the picture above mirrored and rippling.
 *   The lake is never drawn in memory: it exists only in the scan-out (a raster effect).
 * Device registers and the display are described in docs/display.md.
 */
#include <weft.h>

/* The same float results with every compiler: no fused multiply-add. */
#pragma STDC FP_CONTRACT OFF

/* (The RTL's HDMI test, crates/rtl-lockstep/tests/hdmi.rs, builds a small demo on a small
 * display by defining these; a build without them is the demo.) */
#ifndef W
#define W 320        /* framebuffer, shown doubled on the 640x480 display */
#define H 240
#define SKY 180      /* rows 0..179 are rendered; rows 180..239 are the lake */
#define TW 64        /* tile: 64 x 4 pixels, one DMA slot per row */
#define TH 4
#define FRAMES 24    /* frames of the zoom */
#define HOLD 20      /* display frames the last one stays on screen */
#define VISIBLE 480  /* display lines */
#endif
#ifndef CX
#define CX -0.1011f /* where the zoom goes */
#define CY 0.9563f
#endif

#define DISP ((volatile uint32_t *)0xffffff40) /* base, width, height, format */
#define DMA ((volatile uint32_t *)0xffffff80)  /* 4 x (cmd, addr), status */
#define DMA_STATUS 8
#define RGBA8888 1

static uint32_t fb[2][W * H] __attribute__((aligned(64)));
static volatile int32_t ready = -1; /* newest finished frame */
static volatile int32_t shown = -1; /* frame on screen */

/* A cyclic palette (RGBA8888 in memory: R, G, B, A). */
static const uint32_t palette[32] = {
    0xffa7e7ff, 0xff8ed6fd, 0xff75c2f5, 0xff5dacea, 0xff4693da, 0xff317ac6, 0xff1f62b0,
    0xff104a98, 0xff063580, 0xff012267, 0xff00134f, 0xff050839, 0xff0e0225, 0xff1b0015,
    0xff2d040a, 0xff410c02, 0xff581800, 0xff712902, 0xff8a3d0a, 0xffa25315, 0xffb96c25,
    0xffce8539, 0xffe09d4f, 0xffefb567, 0xfff9ca7f, 0xfffedd98, 0xffffecb0, 0xfffaf7c6,
    0xfff1fdda, 0xffe4ffea, 0xffd2fbf5, 0xffbef3fd};

/* 100 sin(2 pi i / 64). */
static const int8_t sine[64] = {
    0,   10,  20,  29,  38,  47,  56,  63,  71,  77,  83,  88,  92,  96,  98,  100,
    100, 100, 98,  96,  92,  88,  83,  77,  71,  63,  56,  47,  38,  29,  20,  10,
    0,   -10, -20, -29, -38, -47, -56, -63, -71, -77, -83, -88, -92, -96, -98, -100,
    -100, -100, -98, -96, -92, -88, -83, -77, -71, -63, -56, -47, -38, -29, -20, -10};

static inline uint32_t csr_scanline(void) {
    uint32_t v;
    __asm__ volatile("csrr %0, 0x80c" : "=r"(v));
    return v;
}

static inline uint32_t local_mem_base(void) {
    uint32_t v;
    __asm__ volatile("csrr %0, 0xfc3" : "=r"(v));
    return v;
}

static uint32_t escape(float cr, float ci, uint32_t maxit) {
    float zr = 0, zi = 0;
    uint32_t n = 0;
    while (n < maxit) {
        float zr2 = zr * zr, zi2 = zi * zi;
        if (zr2 + zi2 > 4.0f) break;
        zi = 2.0f * zr * zi + ci;
        zr = zr2 - zi2 + cr;
        n++;
    }
    return n;
}

/* Warps 1-3: render the frames, tile by tile, through shared memory and the DMA engine. */
static void render(void *arg) {
    (void)arg;
    uint32_t lanes = weft_num_lanes();
    uint32_t tid = (weft_warp_id() - 1) * lanes + weft_lane_id();
    uint32_t threads = 3 * lanes;
    uint32_t *shared = (uint32_t *)local_mem_base();
    float scale = 2.5f;
    for (int32_t f = 0; f < FRAMES; f++) {
        uint32_t *dst = fb[f & 1];
        uint32_t maxit = 40 + 4 * (uint32_t)f;
        float step = scale / W;
        float x0 = CX - step * (W / 2), y0 = CY - step * (SKY / 2);
        for (uint32_t t = 0; t < (W / TW) * (SKY / TH); t++) {
            uint32_t tx = t % (W / TW) * TW, ty = t / (W / TW) * TH;
            uint32_t *buf = shared + (t & 1) * TW * TH;
            for (uint32_t p = tid; p < TW * TH; p += threads) {
                uint32_t x = tx + p % TW, y = ty + p / TW;
                uint32_t n = escape(x0 + step * (float)x, y0 + step * (float)y, maxit);
                buf[p] = n >= maxit ? 0xff000000 : palette[n % 32];
            }
            weft_barrier(0, 3); /* the tile is complete */
            if (tid == 0) {
                while (DMA[DMA_STATUS]) { /* the previous tile's copy is done */
                }
                uint32_t local = ((uint32_t)buf - (uint32_t)shared) / 4;
                for (uint32_t r = 0; r < TH; r++) {
                    DMA[2 * r] = (TW << 16) | (local + r * TW); /* shared -> DRAM */
                    DMA[2 * r + 1] = (uint32_t)&dst[(ty + r) * W + tx];
                }
                DMA[DMA_STATUS] = TH;
            }
            weft_barrier(1, 3); /* nobody reuses the other buffer before its copy is done */
        }
        if (tid == 0) {
            while (DMA[DMA_STATUS]) {
            }
            ready = f;
        }
        while (shown != f) { /* the display has left the other framebuffer */
        }
        scale *= 0.8f;
    }
}

int main(void) {
    weft_spawn_warps(0xe, render, 0);
    DISP[1] = W;
    DISP[2] = H;
    uint32_t tick = 0, held = 0, *front = fb[0];
    for (;;) {
        while (csr_scanline() < VISIBLE) { /* wait for vblank */
        }
        if (ready > shown) {
            front = fb[ready & 1];
            shown = ready;
            DISP[3] = RGBA8888;
        }
        DISP[0] = (uint32_t)front;
        if (shown == FRAMES - 1 && ++held > HOLD) break;
        while (csr_scanline() >= VISIBLE) { /* wait for line 0 */
        }
        if (shown < 0) continue;
        /* Race the beam: row r is fetched at the start of line 2r; set its address during
         * line 2r - 1, after row r - 1 was fetched. Row r shows row 2*SKY-1-r (mirror) of the
         * front buffer, shifted sideways by a ripple that grows with depth. */
        for (uint32_t r = SKY; r < H; r++) {
            while (csr_scanline() < 2 * r - 1) {
            }
            int32_t depth = (int32_t)(r - SKY);
            int32_t src = 2 * SKY - 1 - (int32_t)r;
            int32_t dx = sine[(r * 5 + tick * 3) & 63] * (2 + depth / 8) / 100;
            DISP[0] = (uint32_t)(front + (src - (int32_t)r) * W + dx);
        }
        tick++;
    }
    weft_wait_warps();
    weft_printf("weft demo: %d frames rendered, %u display frames\n", FRAMES, tick);
    return 0;
}

/* Single-precision arithmetic under divergent control (bit patterns compared). */
#include <stdint.h>

static float __attribute__((noinline)) fp(uint32_t t) {
    float x = (float)t * 0.5f + 1.0f, s = 0.0f;
    for (int i = 0; i < (int)(t % 6); i++) {
        if (x > 3.0f) s += x / 3.0f;
        else s -= x * 2.0f;
        x = x * 1.25f - 0.5f;
    }
    return s;
}

static float __attribute__((noinline)) newton_sqrt(float v) {
    if (v <= 0.0f) return 0.0f;
    float g = v > 1.0f ? v / 2.0f : 1.0f;
    for (int i = 0; i < 20; i++) {
        float n = 0.5f * (g + v / g);
        if (n == g) break;
        g = n;
    }
    return g;
}

uint32_t kernel(uint32_t tid) {
    float a = fp(tid), b = newton_sqrt((float)(tid * tid + 3));
    int32_t c = (int32_t)(b * 100.0f);
    uint32_t ua, ub;
    __builtin_memcpy(&ua, &a, 4);
    __builtin_memcpy(&ub, &b, 4);
    return ua ^ (ub >> 3) ^ (uint32_t)c;
}

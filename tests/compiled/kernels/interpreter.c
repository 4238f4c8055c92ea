/* A small bytecode interpreter: a switch in a loop, with jumps, a stack and early exits. */
#include <stdint.h>

static uint32_t __attribute__((noinline)) vm(uint32_t seed) {
    unsigned char prog[24];
    uint32_t st[8];
    int sp = 0;
    uint32_t acc = seed;
    for (int i = 0; i < 24; i++) prog[i] = (unsigned char)((seed * 13 + (uint32_t)i * 7) % 8);
    prog[23] = 7;
    for (uint32_t pc = 0, steps = 0; steps < 200; steps++) {
        switch (prog[pc % 24]) {
        case 0: acc += 3; pc++; break;
        case 1: acc ^= acc >> 2; pc++; break;
        case 2: if (sp < 8) st[sp++] = acc; pc++; break;
        case 3: if (sp > 0) acc += st[--sp]; pc++; break;
        case 4: if (acc & 1) { pc += 2; continue; } pc++; break;
        case 5: acc *= 5; pc++; break;
        case 6: pc = acc % 5; break;
        default: return acc + steps;
        }
    }
    return acc;
}

uint32_t kernel(uint32_t tid) { return vm(tid) ^ vm(tid + 40); }

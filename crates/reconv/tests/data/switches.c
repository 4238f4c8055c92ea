/* Dense switches for weft-reconv's jump-table tests (compiled by clang 14 and
 * riscv64-unknown-elf-gcc 12; see crates/reconv/tests/jump_tables.rs). Every case calls a
 * different function, so no compiler turns a switch into a lookup table of values. */

volatile int sink;

__attribute__((noinline)) int g0(int x) { sink = x; return x + 1; }
__attribute__((noinline)) int g1(int x) { sink = x * 3; return x - 7; }
__attribute__((noinline)) int g2(int x) { sink = x ^ 5; return x * 5; }
__attribute__((noinline)) int g3(int x) { sink = x + 9; return x >> 1; }
__attribute__((noinline)) int g4(int x) { sink = x - 2; return x | 16; }
__attribute__((noinline)) int g5(int x) { sink = x & 6; return x ^ 99; }

/* Cases 0..7 with a default: the classic shape. */
int dense(int x, int y) {
    int r = 0;
    if (y > 3)          /* a branch before the switch: reconverges after it */
        r = g5(y);
    switch (x) {
    case 0: r += g0(y); break;
    case 1: r += g1(y); break;
    case 2: r += g2(y); break;
    case 3: r += g3(y); break;
    case 4: r += g4(y); break;
    case 5: r += g0(y + 1); break;
    case 6: r += g1(y + 2); break;
    case 7: r += g2(y + 3); break;
    default: r = -1; break;
    }
    return r + 1;
}

/* Cases 3..10 (a biased index), fall-through between cases, no default. */
int biased(unsigned x) {
    int r = 1;
    switch (x) {
    case 3: r = g3(r);
    case 4: r = g4(r); break;
    case 5: r = g5(r); break;
    case 6: r = g0(r);
    case 7: r = g1(r); break;
    case 8: r = g2(r); break;
    case 9: r = g3(r + 4); break;
    case 10: r = g4(r + 5); break;
    }
    return r;
}

/* Two switches in one function (adjacent tables), inside a loop. */
int two(int n, int k) {
    int acc = 0;
    for (int i = 0; i < n; i++) {
        switch ((i + k) & 7) {
        case 0: acc += g0(i); break;
        case 1: acc += g1(i); break;
        case 2: acc += g2(i); break;
        case 3: acc += g3(i); break;
        case 4: acc += g4(i); break;
        case 5: acc += g5(i); break;
        case 6: acc += g0(i * 2); break;
        default: acc -= 1; break;
        }
        switch (acc % 6) {
        case 0: acc += g5(1); break;
        case 1: acc += g4(2); break;
        case 2: acc += g3(3); break;
        case 3: acc += g2(4); break;
        case 4: acc += g1(5); break;
        case 5: acc += g0(6); break;
        }
    }
    return acc;
}

/* Each case returns: the switch's post-dominator is the function exit. */
int returns(int x) {
    switch (x) {
    case 0: return g0(x) + 1;
    case 1: return g1(x) * 2;
    case 2: return g2(x) - 3;
    case 3: return g3(x) ^ 4;
    case 4: return g4(x) + 5;
    case 5: return g5(x) * 6;
    default: return 0;
    }
}

/* Not a jump table: a call and (at -O1 and above) a tail call through a register. */
int indirect(int (*f)(int), int x) { return f(x); }

void _start(void) {
    int t = dense(sink, sink) + biased(sink) + two(sink, sink) + returns(sink)
            + indirect(g3, sink);
    sink = t;
    for (;;) {
    }
}

// tb_tmds.cpp -- Verilator testbench of one TMDS encoder channel (weft_tmds.sv): random
// inputs (mostly data periods with random bytes, runs of one byte, blanking with each of the
// control codes), one symbol per enable (the enable itself random), written to stdout as
// lines `de d c0 c1 symbol` for crates/rtl-lockstep's reference encoder to check.
// Usage: tb_tmds SYMBOLS SEED
#include "Vweft_tmds.h"
#include "verilated.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: tb_tmds SYMBOLS SEED\n");
        return 2;
    }
    const uint64_t n = strtoull(argv[1], nullptr, 10);
    uint64_t rng = strtoull(argv[2], nullptr, 10) * 0x9e3779b97f4a7c15ull + 1;
    auto rnd = [&]() {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        return rng;
    };
    Verilated::commandArgs(argc, argv);
    Vweft_tmds *top = new Vweft_tmds;
    top->rst = 1;
    for (int i = 0; i < 2; i++) {
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
    }
    top->rst = 0;
    uint32_t run_byte = 0, run_left = 0;
    for (uint64_t k = 0; k < n;) {
        bool en = rnd() % 4 != 0;
        uint32_t r = rnd() % 16;
        bool de = r != 0;
        uint32_t d = (uint32_t)rnd() & 0xff;
        if (run_left) {
            d = run_byte;
            run_left--;
        } else if (r == 1) {
            run_byte = d;
            run_left = rnd() % 40;
        }
        top->en = en;
        top->de = de;
        top->d = d;
        top->c0 = rnd() & 1;
        top->c1 = rnd() & 1;
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
        if (en) {
            printf("%d %u %d %d %u\n", de, d, (int)top->c0, (int)top->c1, (unsigned)top->q);
            k++;
        }
    }
    top->final();
    delete top;
    return 0;
}

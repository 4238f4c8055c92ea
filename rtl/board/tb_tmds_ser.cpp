// tb_tmds_ser.cpp -- Verilator testbench of the TMDS serializer (weft_tmds_ser.sv) with its
// two clocks: the writer's at half-period HALF ns, writing PIX_NUM symbol triples every
// PIX_DEN of its clocks (as the board's pixel enable does), and the 125 MHz shift clock (4 ns
// half-period). It records the two bits per shift clock of each channel (d0 first, as ODDRX1F
// sends them), finds the symbol boundaries from the clock channel (five ones, five zeros),
// cuts the three data channels into symbols there, and checks that the triples written come
// out in order, none lost, none repeated, after the blanking the serializer sends until it
// starts. Usage: tb_tmds_ser HALF PIX_NUM PIX_DEN SYMBOLS SEED; prints one summary line;
// exit status 1 on a difference.
#include "Vweft_tmds_ser.h"
#include "verilated.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: tb_tmds_ser HALF PIX_NUM PIX_DEN SYMBOLS SEED\n");
        return 2;
    }
    const uint64_t half = strtoull(argv[1], nullptr, 10), num = strtoull(argv[2], nullptr, 10),
                   den = strtoull(argv[3], nullptr, 10), n = strtoull(argv[4], nullptr, 10);
    uint64_t rng = strtoull(argv[5], nullptr, 10) * 0x9e3779b97f4a7c15ull + 1;
    auto rnd = [&]() {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        return rng;
    };
    Verilated::commandArgs(argc, argv);
    Vweft_tmds_ser *top = new Vweft_tmds_ser;
    std::vector<uint32_t> sent;
    std::vector<uint8_t> bits[4];
    top->rst = 1;
    top->rst_sh = 1;
    top->clk = 0;
    top->clk_sh = 0;
    top->sym_valid = 0;
    top->eval();
    uint64_t acc = 0, edges = 0, t_end = 0;
    unsigned lost = 0;
    for (uint64_t t = 1;; t++) {
        bool clk_edge = t % half == 0, sh_edge = t % 4 == 0;
        if (!clk_edge && !sh_edge) continue;
        if (clk_edge) top->clk = !top->clk;
        if (sh_edge) top->clk_sh = !top->clk_sh;
        bool clk_rise = clk_edge && top->clk, sh_rise = sh_edge && top->clk_sh;
        top->eval();
        if (sh_rise) {
            for (int c = 0; c < 4; c++) {
                bits[c].push_back(top->d0 >> c & 1);
                bits[c].push_back(top->d1 >> c & 1);
            }
        }
        if (clk_rise) {
            // inputs for the next rising edge
            edges++;
            if (edges == 8) {
                top->rst = 0;
                top->rst_sh = 0;
            }
            top->sym_valid = 0;
            if (edges > 8 && sent.size() < n) {
                acc += num;
                if (acc >= den) {
                    acc -= den;
                    uint32_t s = (uint32_t)rnd() & 0x3fffffff;
                    top->sym = s;
                    top->sym_valid = 1;
                    sent.push_back(s);
                }
            }
            if (sent.size() == n && !t_end) {
                t_end = t + 400;
                lost = top->lost; // (after the last write the FIFO runs dry, as it should)
            }
        }
        if (t_end && t >= t_end) break;
    }
    top->final();
    delete top;
    // the clock channel's pattern gives the symbol boundaries
    size_t start = 0;
    while (start + 10 <= bits[3].size()) {
        bool ok = true;
        for (int i = 0; i < 10; i++) ok &= bits[3][start + i] == (i < 5);
        if (ok) break;
        start++;
    }
    std::vector<uint32_t> got;
    for (size_t i = start; i + 10 <= bits[3].size(); i += 10) {
        uint32_t w = 0;
        for (int c = 0; c < 3; c++)
            for (int b = 0; b < 10; b++) w |= (uint32_t)bits[c][i + b] << (10 * c + b);
        for (int b = 0; b < 10; b++)
            if (bits[3][i + b] != (b < 5)) {
                fprintf(stderr, "tb_tmds_ser: the clock channel lost its pattern at bit %zu\n", i);
                return 1;
            }
        got.push_back(w);
    }
    // the blanking before the first symbol, then every symbol in order
    const uint32_t blank = 0x354u | 0x354u << 10 | 0x354u << 20;
    size_t k = 0;
    while (k < got.size() && got[k] == blank) k++;
    size_t same = 0;
    while (same < sent.size() && k + same < got.size() && got[k + same] == sent[same]) same++;
    printf("sent %zu received_in_order %zu lost %u\n", sent.size(), same, lost);
    if (same != sent.size() || lost) {
        if (k + same < got.size() && same < sent.size())
            fprintf(stderr, "tb_tmds_ser: symbol %zu: sent %#010x, received %#010x\n", same,
                    sent[same], got[k + same]);
        return 1;
    }
    return 0;
}

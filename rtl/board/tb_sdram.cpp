// tb_sdram.cpp -- Verilator testbench of the SDRAM controller (weft_sdram.sv) on the
// behavioural SDRAM model (sdram_model.h) under random traffic, against a reference memory.
// Requests: reads and writes of 1..32 words at random columns of a few random rows in every
// bank (so that they hit what earlier ones wrote), writes with random byte enables, random
// pauses (some long enough for refreshes to fall in them). Every word read is compared with
// the reference memory; the model checks every command against the datasheet's timing.
// Usage: tb_sdram SEED REQUESTS   (prints one summary line; exit status 1 on a wrong word,
// 4 on a timing violation, 3 when the controller stops answering)
#include "Vweft_sdram.h"
#include "sdram_model.h"
#include "verilated.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>
#include <vector>

static uint64_t rng_state;
static uint64_t rnd() {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: tb_sdram SEED REQUESTS\n");
        return 2;
    }
    rng_state = strtoull(argv[1], nullptr, 0) * 0x9e3779b97f4a7c15ull + 1;
    const uint64_t requests = strtoull(argv[2], nullptr, 10);
    Verilated::commandArgs(argc, argv);
    Vweft_sdram *top = new Vweft_sdram;
    SdramModel sd(20.0);
    std::unordered_map<uint32_t, uint32_t> ref; // word address -> word (absent: 0)
    // a few rows (word address of the row's first word) to aim at
    std::vector<uint32_t> rows;
    for (int i = 0; i < 24; i++) rows.push_back((uint32_t)(rnd() % (1u << 15)) << 8);

    auto tick = [&]() {
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
        SdramPins p{(bool)top->sd_cke, (bool)top->sd_cs_n, (bool)top->sd_ras_n,
                    (bool)top->sd_cas_n, (bool)top->sd_we_n, top->sd_ba, top->sd_a,
                    top->sd_dqm, top->sd_dq_o, (bool)top->sd_dq_oe};
        sd.edge(p);
        top->sd_dq_i = sd.dq();
    };
    top->rst = 1;
    top->req = 0;
    for (int i = 0; i < 4; i++) tick();
    top->rst = 0;
    // initialisation (200 us)
    uint64_t cyc = 0;
    for (; !top->idle && sd.error.empty(); cyc++) {
        if (cyc > 20000) {
            fprintf(stderr, "tb_sdram: not initialised after 20000 clocks\n");
            return 3;
        }
        tick();
    }
    uint64_t words_r = 0, words_w = 0, bad = 0;
    for (uint64_t r = 0; r < requests && sd.error.empty(); r++) {
        // a pause: mostly short, sometimes long enough to hold a refresh or two
        uint64_t pause = rnd() % 16 == 0 ? 200 + rnd() % 800 : rnd() % 6;
        for (uint64_t i = 0; i < pause; i++, cyc++) tick();
        uint32_t row = rows[rnd() % rows.size()];
        uint32_t col = rnd() % 256;
        uint32_t n = 1 + rnd() % 32;
        if (col + n > 256) n = 256 - col;
        bool we = rnd() % 2;
        uint32_t a = row + col;
        std::vector<uint32_t> data(n);
        std::vector<uint32_t> be(n);
        for (uint32_t i = 0; i < n; i++) {
            data[i] = (uint32_t)rnd();
            uint32_t k = rnd() % 8;
            be[i] = k < 5 ? 0xf : (uint32_t)(rnd() % 16);
        }
        top->req = 1;
        top->we = we;
        top->addr = a;
        top->n = n;
        top->wdata = data[0];
        top->be = be[0];
        uint32_t taken = 0, got = 0;
        bool acked = false;
        uint64_t start = cyc;
        while ((!acked || (we ? taken < n : got < n)) && sd.error.empty()) {
            if (cyc - start > 5000) {
                fprintf(stderr, "tb_sdram: request %llu (%s of %u words at %#x) not done after "
                        "5000 clocks\n", (unsigned long long)r, we ? "write" : "read", n, a);
                return 3;
            }
            top->clk = 0;
            top->eval();
            bool ack = top->ack, wtake = top->wtake;
            if (we && wtake && taken < n) {
                uint32_t old = ref.count(a + taken) ? ref[a + taken] : 0, nw = old;
                for (int b = 0; b < 4; b++)
                    if (be[taken] >> b & 1) nw = (nw & ~(0xffu << 8 * b)) | (data[taken] & (0xffu << 8 * b));
                ref[a + taken] = nw;
                taken++;
                words_w++;
            }
            tick();
            cyc++;
            if (ack) {
                acked = true;
                top->req = 0;
            }
            if (we && taken < n) {
                top->wdata = data[taken];
                top->be = be[taken];
            }
            if (top->rvalid) {
                if (we || got >= n) {
                    fprintf(stderr, "tb_sdram: a read word nobody asked for\n");
                    return 1;
                }
                uint32_t want = ref.count(a + got) ? ref[a + got] : 0;
                if (top->rdata != want) {
                    if (bad++ < 10)
                        fprintf(stderr, "tb_sdram: request %llu: word %#x read %#010x, wrote %#010x\n",
                                (unsigned long long)r, a + got, (unsigned)top->rdata, want);
                }
                got++;
                words_r++;
            }
        }
    }
    // idle for a while: refreshes go on
    for (int i = 0; i < 3000 && sd.error.empty(); i++, cyc++) tick();
    top->final();
    delete top;
    if (!sd.error.empty()) {
        fprintf(stderr, "tb_sdram: SDRAM timing violation: %s\n", sd.error.c_str());
        return 4;
    }
    printf("requests %llu words_read %llu words_written %llu bad %llu refreshes %llu "
           "max_refresh_gap_ns %.0f clocks %llu\n",
           (unsigned long long)requests, (unsigned long long)words_r,
           (unsigned long long)words_w, (unsigned long long)bad,
           (unsigned long long)sd.refreshes, sd.max_refresh_gap_ns, (unsigned long long)cyc);
    return bad ? 1 : 0;
}

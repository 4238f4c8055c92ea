// tb_board.cpp -- Verilator testbench for weft_board, the ULX3S design without its pins: a
// virtual serial port, and the SDRAM (the behavioural model sdram_model.h, which checks every
// command the board sends it). Once the SDRAM is initialised it sends the bytes of FRAMES (what
// `weft board` would send to the board: the loader's 'W', 'T' and 'G' commands) into the
// board's receive line, one 8N1 frame after the other, decodes the board's transmit line, and
// writes every byte received to stdout. It stops when the board has sent its end-of-run
// message (ESC X/F/U/H/T with its arguments; ESC ESC is a console byte), or after MAX_CYCLES
// clock cycles (exit status 3); an SDRAM timing violation stops it with status 4.
// With --video FILE it writes every HDMI symbol triple the board sends (a little-endian
// 32-bit word each: the red, green and blue symbols in bits 29:20, 19:10, 9:0, and in bit 30
// whether the frame being shown was latched on); with --dma FILE one line per word the DMA
// engine moves: `<issue slot> <slot> <index> <value>` (the issue slots counted from 0, the
// model's cycle in model time).
// Usage: tb_board FRAMES MAX_CYCLES CLKS_PER_BIT [--video FILE] [--dma FILE]
#include "Vweft_board.h"
#include "sdram_model.h"
#include "verilated.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: tb_board FRAMES MAX_CYCLES CLKS_PER_BIT\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        fprintf(stderr, "tb_board: cannot open %s\n", argv[1]);
        return 2;
    }
    std::vector<uint8_t> in;
    for (int c; (c = fgetc(f)) != EOF;) in.push_back((uint8_t)c);
    fclose(f);
    const uint64_t max_cycles = strtoull(argv[2], nullptr, 10);
    const uint32_t cpb = strtoul(argv[3], nullptr, 10);
    FILE *video = nullptr, *dma = nullptr;
    for (int i = 4; i + 1 < argc; i += 2) {
        FILE **f = !strcmp(argv[i], "--video") ? &video : !strcmp(argv[i], "--dma") ? &dma : nullptr;
        if (!f || !(*f = fopen(argv[i + 1], "wb"))) {
            fprintf(stderr, "tb_board: bad argument %s %s\n", argv[i], argv[i + 1]);
            return 2;
        }
    }

    Verilated::commandArgs(argc, argv);
    Vweft_board *top = new Vweft_board;
    SdramModel sd(20.0);
    uint64_t slots = 0;
    // one clock cycle: the SDRAM sees the board's pins after the edge and answers for the next
    auto clock = [&]() {
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
        SdramPins p{(bool)top->sd_cke, (bool)top->sd_cs_n, (bool)top->sd_ras_n,
                    (bool)top->sd_cas_n, (bool)top->sd_we_n, top->sd_ba, top->sd_a,
                    top->sd_dqm, top->sd_dq_o, (bool)top->sd_dq_oe};
        sd.edge(p);
        top->sd_dq_i = sd.dq();
        if (top->dbg_slot) slots++;
        if (video && top->vid_valid) {
            uint32_t w = top->vid_sym | (uint32_t)top->dbg_frame_on << 30;
            fwrite(&w, 4, 1, video);
        }
        if (dma && top->dbg_dma_mv)
            fprintf(dma, "%llu %u %u %u\n", (unsigned long long)(slots - 1),
                    (unsigned)top->dbg_dma_slot, (unsigned)top->dbg_dma_idx,
                    (unsigned)top->dbg_dma_val);
    };
    top->uart_rx = 1;
    top->rst = 1;
    for (int i = 0; i < 4; i++) clock();
    top->rst = 0;
    // the SDRAM's power-up sequence
    uint64_t cyc = 0;
    for (; !top->dbg_ready && cyc < max_cycles && sd.error.empty(); cyc++) clock();

    // transmitter to the board: bit `tx_bit` (0 start, 1-8 data, 9 stop, 10-11 idle) of byte
    // `tx_i`, held for cpb cycles
    size_t tx_i = 0;
    uint32_t tx_bit = 0, tx_cnt = 0;
    // receiver from the board: counts cycles from the start bit's falling edge
    bool rx_busy = false;
    uint32_t rx_cnt = 0, rx_bit = 0, rx_byte = 0;
    // end-of-run message: after an ESC, the kind, then its argument bytes
    int esc = 0, need = -1;
    for (; cyc < max_cycles && need != 0 && sd.error.empty(); cyc++) {
        if (tx_i < in.size()) {
            uint32_t b = in[tx_i];
            top->uart_rx = tx_bit == 0 ? 0 : tx_bit <= 8 ? (b >> (tx_bit - 1)) & 1 : 1;
            if (++tx_cnt == cpb) {
                tx_cnt = 0;
                if (++tx_bit == 12) { tx_bit = 0; tx_i++; }
            }
        } else {
            top->uart_rx = 1;
        }
        clock();
        uint32_t line = top->uart_tx;
        if (!rx_busy) {
            if (!line) { rx_busy = true; rx_cnt = 0; rx_bit = 0; rx_byte = 0; }
        } else if (++rx_cnt == cpb / 2 + cpb * (rx_bit + 1)) {
            if (rx_bit < 8) {
                rx_byte |= line << rx_bit;
                rx_bit++;
            } else {
                rx_busy = false;
                putchar((int)rx_byte);
                if (need > 0) {
                    need--;
                } else if (esc) {
                    esc = 0;
                    switch (rx_byte) {
                    case 'X': need = 4; break;
                    case 'F': need = 5; break;
                    case 'U': need = 4; break;
                    case 'H': need = 0; break;
                    case 'T': need = 4; break;         // refused: the table did not fit
                    default: break;                    // ESC ESC: a console byte
                    }
                } else if (rx_byte == 0x1b) {
                    esc = 1;
                }
            }
        }
    }
    fflush(stdout);
    top->final();
    delete top;
    if (video) fclose(video);
    if (dma) fclose(dma);
    if (!sd.error.empty()) {
        fprintf(stderr, "tb_board: SDRAM timing violation: %s\n", sd.error.c_str());
        return 4;
    }
    if (need != 0) {
        fprintf(stderr, "tb_board: no end of run after %llu cycles\n", (unsigned long long)cyc);
        return 3;
    }
    fprintf(stderr, "tb_board: %llu cycles\n", (unsigned long long)cyc);
    return 0;
}

// tb_rvc.cpp -- Verilator testbench for the decompressor alone (weft_rvc.sv): every halfword
// whose low bits are not 0b11, one line each, "H W ILL" (hex). crates/rtl-lockstep/tests/rvc.rs
// compares the lines with weft-isa's expansion.
#include "Vweft_rvc.h"
#include "verilated.h"
#include <cstdio>

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    Vweft_rvc *top = new Vweft_rvc;
    for (unsigned h = 0; h < 0x10000; h++) {
        if ((h & 3) == 3) continue;
        top->h = h;
        top->eval();
        printf("%04x %08x %u\n", h, top->w, top->ill);
    }
    top->final();
    delete top;
    return 0;
}

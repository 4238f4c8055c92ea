// tb_fpu.cpp -- Verilator testbench for the FPU alone (weft_fpu.sv): reads operations from
// stdin, one per line, "OP RM A B C" (hex; OP the FPU's operation code, RM a rounding mode
// 0..4), feeds them one per cycle whenever the unit is ready, and prints one line per result,
// in order, "Y FLAGS" (hex). crates/rtl-lockstep/tests/fpu.rs compares them with weft-sem.
#include "Vweft_fpu.h"
#include "verilated.h"
#include <cstdint>
#include <cstdio>
#include <vector>

struct Op {
    uint32_t op, rm, a, b, c;
};

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    std::vector<Op> ops;
    Op o;
    while (scanf("%x %x %x %x %x", &o.op, &o.rm, &o.a, &o.b, &o.c) == 5) ops.push_back(o);
    Vweft_fpu *top = new Vweft_fpu;
    top->rst = 1;
    top->in_v = 0;
    for (int i = 0; i < 4; i++) {
        top->clk = 0; top->eval();
        top->clk = 1; top->eval();
    }
    top->rst = 0;
    size_t next = 0, got = 0;
    uint64_t cyc = 0;
    const int tags = 1 << 3;
    while (got < ops.size()) {
        top->clk = 0;
        top->eval();
        if (top->out_v) {
            if (top->out_tag != got % tags) {
                fprintf(stderr, "tb_fpu: result %zu came with tag %u\n", got, top->out_tag);
                return 1;
            }
            printf("%08x %02x\n", top->out_y, top->out_fl);
            got++;
        }
        top->in_v = 0;
        if (next < ops.size() && top->ready) {
            const Op &p = ops[next];
            top->in_v = 1;
            top->in_op = p.op;
            top->in_rm = p.rm;
            top->in_a = p.a;
            top->in_b = p.b;
            top->in_c = p.c;
            top->in_tag = next % tags;
            next++;
        }
        top->eval();
        top->clk = 1;
        top->eval();
        if (++cyc > 100 * (uint64_t)ops.size() + 1000) {
            fprintf(stderr, "tb_fpu: %zu of %zu results after %llu cycles\n", got, ops.size(),
                    (unsigned long long)cyc);
            return 1;
        }
    }
    fprintf(stderr, "tb_fpu: %zu operations, %llu cycles\n", ops.size(),
            (unsigned long long)cyc);
    top->final();
    delete top;
    return 0;
}

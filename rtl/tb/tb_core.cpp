// tb_core.cpp -- Verilator testbench for weft_core: a DRAM model (byte-addressed, any
// alignment, one-cycle latency), the console and exit devices and HTIF tohost (as crates/mem
// does), and one text line per retired warp-instruction in the format crates/rtl-lockstep
// compares with the functional model (the shared memory is inside the core: its stores are
// seen on mem_* with mem_local set):
//   w<warp> pc=<pc> mask=<mask>[ (x|f)<rd>=<v>,<v>...][ st<lane>@<addr>/<size>=<value>...]
//       [ a<lane>@<addr>=<value>...][ ff=<fflags of every lane>] ( next=<pc>/<mask> | fault=<code> )
// (a: the words AMOs and successful sc.w wrote, shown when rd is not x0: the model's record
// gives the written value through rd; f: rd is a float register; ff: the warp's float
// flags, shown when some lane's changed, read from the CSR bank)
// then one final line: "exit <code>", "halt", "deadlock", "fault", "unsupported" or "timeout".
// Usage: tb_core IMAGE ENTRY TOHOST FROMHOST MAX_CYCLES DRAM_SIZE TABLE [VCD]  (numbers in
// hex, 0 = none). TABLE: the reconvergence table for the core's table memory, little-endian
// words: mode (1 table, 0 converge), base (code address of word 0), length, the words; it is
// written through the core's load port during reset, and a table longer than the core's
// (rc_words) is refused (exit status 3). VCD: dump every signal to that file (a testbench
// built with --trace; time unit 1 ns, one clock cycle = 10).
#include "Vweft_core.h"
#include "Vweft_core___024root.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_vcd_c.h"
#endif
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

static const uint32_t DRAM_BASE = 0x80000000u;
static const uint32_t CONSOLE = 0xffffff00u, EXIT = 0xffffff04u, IO_PAGE = 0xffffff00u;

struct Mem {
    std::vector<uint8_t> dram;
    uint32_t tohost = 0, fromhost = 0;
    bool exited = false;
    uint32_t exit_code = 0;
    std::string console;

    // Region and offset of [a, a+n), or nullptr (unmapped, or runs off the end).
    uint8_t *at(uint32_t a, uint32_t n) {
        if (a >= DRAM_BASE && (uint64_t)a - DRAM_BASE + n <= dram.size()) return &dram[a - DRAM_BASE];
        return nullptr;
    }
    uint32_t rd32(uint32_t a) {
        uint8_t *p = at(a, 4);
        return p ? (p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24) : 0;
    }
    void wr32(uint32_t a, uint32_t v) {
        uint8_t *p = at(a, 4);
        if (p) for (int i = 0; i < 4; i++) p[i] = v >> (8 * i);
    }
    bool load(uint32_t a, uint32_t n, uint32_t &v) {
        if (a >= IO_PAGE) { v = 0; return (uint64_t)a + n <= 0x100000000ull; }
        uint8_t *p = at(a, n);
        if (!p) return false;
        v = 0;
        for (uint32_t i = 0; i < n; i++) v |= (uint32_t)p[i] << (8 * i);
        return true;
    }
    bool store(uint32_t a, uint32_t n, uint32_t v) {
        if (a == CONSOLE) { console.push_back((char)v); return true; }
        if (a == EXIT && n == 4) { if (!exited) { exited = true; exit_code = v; } return true; }
        if (a >= IO_PAGE) return false;
        uint8_t *p = at(a, n);
        if (!p) return false;
        for (uint32_t i = 0; i < n; i++) p[i] = v >> (8 * i);
        if (a >= DRAM_BASE && tohost) htif(a, n, v);
        return true;
    }
    void htif(uint32_t a, uint32_t n, uint32_t v) {
        if (fromhost) {
            uint32_t hi = tohost + 4;
            if (!((uint64_t)a < (uint64_t)hi + 4 && (uint64_t)hi < (uint64_t)a + n)) return;
            uint64_t w = rd32(tohost) | (uint64_t)rd32(hi) << 32;
            if (!w) return;
            uint64_t dev = w >> 56, cmd = (w >> 48) & 0xff, pay = w & 0xffffffffffffull;
            if (dev == 0 && cmd == 0) {
                if ((pay & 1) && !exited) { exited = true; exit_code = (uint32_t)(pay >> 1); }
                return;
            }
            wr32(tohost, 0);
            wr32(hi, 0);
            uint64_t resp = (dev == 1 && cmd == 1) ? (0x100 | (pay & 0xff)) : 0;
            uint64_t ans = (w >> 48 << 48) | resp;
            wr32(fromhost, (uint32_t)ans);
            wr32(fromhost + 4, (uint32_t)(ans >> 32));
            if (dev == 1 && cmd == 1) console.push_back((char)pay);
        } else if (a <= tohost && tohost < a + n && v != 0) {
            uint32_t w = rd32(tohost);
            if ((w & 1) && !exited) { exited = true; exit_code = w >> 1; }
        }
    }
};

// A memory write of the current warp-instruction, as the retire line lists it: an AMO's (or
// sc.w's) write as " aLANE@ADDR=VALUE", a store as " stLANE@ADDR/BYTES=VALUE".
static void note_write(std::string &to, bool amo, uint32_t lane, uint32_t a, uint32_t n,
                       uint32_t v) {
    char buf[64];
    if (amo)
        snprintf(buf, sizeof buf, " a%u@%08x=%08x", lane, a, v);
    else
        snprintf(buf, sizeof buf, " st%u@%08x/%u=%08x", lane, a, n, v);
    to += buf;
}

int main(int argc, char **argv) {
    if (argc < 8) {
        fprintf(stderr, "usage: tb_core IMAGE ENTRY TOHOST FROMHOST MAX_CYCLES DRAM_SIZE TABLE [VCD]\n");
        return 2;
    }
    Mem m;
    uint32_t entry = strtoul(argv[2], nullptr, 16);
    m.tohost = strtoul(argv[3], nullptr, 16);
    m.fromhost = strtoul(argv[4], nullptr, 16);
    uint64_t max_cycles = strtoull(argv[5], nullptr, 16);
    m.dram.assign(strtoul(argv[6], nullptr, 16), 0);
    FILE *f = fopen(argv[1], "rb");
    if (!f) { fprintf(stderr, "tb_core: cannot open %s\n", argv[1]); return 2; }
    size_t got = fread(m.dram.data(), 1, m.dram.size(), f);
    fclose(f);
    (void)got;
    std::vector<uint32_t> table;
    f = fopen(argv[7], "rb");
    if (!f) { fprintf(stderr, "tb_core: cannot open %s\n", argv[7]); return 2; }
    uint32_t word;
    while (fread(&word, 4, 1, f) == 1) table.push_back(word);
    fclose(f);
    if (table.size() < 3 || table.size() != 3 + (size_t)table[2]) {
        fprintf(stderr, "tb_core: %s is not a reconvergence-table file\n", argv[7]);
        return 2;
    }

    Verilated::commandArgs(argc, argv);
#if VM_TRACE
    VerilatedVcdC *vcd = nullptr;
    if (argc > 8) Verilated::traceEverOn(true);
#else
    if (argc > 8) { fprintf(stderr, "tb_core: built without --trace: no VCD\n"); return 2; }
#endif
    Vweft_core *top = new Vweft_core;
#if VM_TRACE
    if (argc > 8) {
        vcd = new VerilatedVcdC;
        top->trace(vcd, 99);
        vcd->open(argv[8]);
    }
    uint64_t t = 0;
#define DUMP() do { if (vcd) vcd->dump(t); t += 5; } while (0)
#else
#define DUMP() do { } while (0)
#endif
    top->entry_pc = entry;
    top->rst = 1;
    top->mem_ack = 0;
    top->rc_mode = table[0];
    top->rc_base = table[1];
    top->rc_len = table[2];
    top->rc_we = 0;
    top->clk = 0; top->eval();
    if (table[2] > top->rc_words) {
        fprintf(stderr, "tb_core: the reconvergence table has %u words; the core's holds %u "
                "(RT_WORDS)\n", table[2], top->rc_words);
        delete top;
        return 3;
    }
    // the table through the load port, one word per clock, during reset
    for (uint32_t i = 0; i < table[2] || i < 2; i++) {
        top->rc_we = i < table[2];
        top->rc_wa = i;
        top->rc_wd = i < table[2] ? table[3 + i] : 0;
        top->clk = 0; top->eval(); DUMP();
        top->clk = 1; top->eval(); DUMP();
    }
    top->rc_we = 0;
    top->rst = 0;

    bool pending = false, perr = false;
    uint32_t prdata = 0;
    std::string stores, atomics;
    const int lanes = sizeof(top->rt_vals) / 4;
    const int warps = sizeof(top->rootp->weft_core__DOT__csrs__DOT__fcsr_q) / lanes;
    std::vector<std::string> ffs(warps);   // each warp's fflags as last printed
    uint64_t cyc = 0;
    const char *end = "timeout";
    for (; cyc < max_cycles; cyc++) {
        top->clk = 0;
        top->eval();
        DUMP();
        // outputs of this cycle: a retired instruction
        if (top->rt_valid) {
            printf("w%u pc=%08x mask=%08x", top->rt_warp, top->rt_pc, top->rt_mask);
            if (top->rt_unsupported) {
                static const char *why[4] = {
                    "", ": more than WAITS waiting groups in one divergence-stack entry",
                    ": a split more than CDEPTH calls deep",
                    ": a reconvergence point the table marks unreachable (kind 3)"};
                printf(" unsupported%s\nunsupported\n", why[top->rt_unsup_why & 3]);
                end = nullptr;
                break;
            }
            if (top->rt_fault == 0) {
                if (top->rt_wen) {
                    printf(" %c%u=", top->rootp->weft_core__DOT__rd_f ? 'f' : 'x', top->rt_rd);
                    bool first = true;
                    for (int l = 0; l < lanes; l++)
                        if (top->rt_mask >> l & 1) {
                            const uint32_t *v = (const uint32_t *)&top->rt_vals;
                            printf("%s%x", first ? "" : ",", v[l]);
                            first = false;
                        }
                }
                std::string ff;
                for (int l = 0; l < lanes; l++) {
                    char b[8];
                    snprintf(b, sizeof b, "%s%x", l ? "," : "",
                             top->rootp->weft_core__DOT__csrs__DOT__fcsr_q[top->rt_warp][l] & 0x1f);
                    ff += b;
                }
                bool ff_new = ff != ffs[top->rt_warp] &&
                              !(ffs[top->rt_warp].empty() && ff.find_first_not_of("0,") == std::string::npos);
                if (ff_new) ffs[top->rt_warp] = ff;
                printf("%s%s%s%s next=%08x/%08x\n", stores.c_str(), top->rt_rd ? atomics.c_str() : "",
                       ff_new ? " ff=" : "", ff_new ? ff.c_str() : "", top->rt_next_pc,
                       top->rt_next_mask);
            } else {
                printf(" fault=%u\nfault\n", top->rt_fault);
                end = nullptr;
                break;
            }
            stores.clear();
            atomics.clear();
            if (m.exited) { printf("exit %u\n", m.exit_code); end = nullptr; break; }
        }
        if (top->halted) { printf(top->deadlock ? "deadlock\n" : "halt\n"); end = nullptr; break; }
        // a store the core's shared memory performs in this cycle
        if (top->mem_local && top->mem_we) {
            uint32_t n = 1u << top->mem_size, a = top->mem_addr;
            uint32_t v = n == 4 ? top->mem_wdata : top->mem_wdata & ((1u << (8 * n)) - 1);
            note_write(top->mem_amo ? atomics : stores, top->mem_amo, top->mem_lane, a, n, v);
        }
        // memory: a request seen now is answered in the next cycle
        bool ack_now = pending;
        top->mem_ack = pending;
        top->mem_err = perr;
        top->mem_rdata = prdata;
        pending = false;
        if (top->mem_req && !ack_now) {
            uint32_t n = 1u << top->mem_size, a = top->mem_addr;
            if (top->mem_we) {
                uint32_t v = n == 4 ? top->mem_wdata : top->mem_wdata & ((1u << (8 * n)) - 1);
                perr = !m.store(a, n, v);
                if (!perr)
                    note_write(top->mem_amo ? atomics : stores, top->mem_amo, top->mem_lane, a, n,
                               v);
                prdata = 0;
            } else {
                perr = !m.load(a, n, prdata);
                if (top->mem_fetch && a >= IO_PAGE) perr = true;   // no code in the I/O page
            }
            pending = true;
        }
        top->eval();
        top->clk = 1;
        top->eval();
        DUMP();
    }
    if (end) printf("%s\n", end);
    fprintf(stderr, "tb_core: %llu cycles\n", (unsigned long long)cyc);
    if (!m.console.empty()) fprintf(stderr, "console: %s\n", m.console.c_str());
    top->final();
#if VM_TRACE
    if (vcd) { vcd->close(); delete vcd; }
#endif
    delete top;
    return 0;
}
